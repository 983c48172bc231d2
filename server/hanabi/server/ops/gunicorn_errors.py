"""gunicorn's own error answers (a request line or header over its limits, a malformed
request) as problem+json, like every other error of this API.

gunicorn answers these before the application sees the request, with an HTML page written
by ``gunicorn.util.write_error``; :func:`install` replaces that function in the worker
process (every worker class calls it through the module). Outside gunicorn it does nothing.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import Any

import orjson

#: The URI every problem type of this service starts with (the app's answers use it too).
PROBLEM_TYPE = "https://hanabi.invalid/problems/"

#: status -> (code, a sentence a person can act on). Fixed sentences: gunicorn's own
#: message may quote the request back.
MESSAGES = {
    400: ("bad_request", "The request is not valid HTTP."),
    403: ("forbidden", "The server refuses requests like this one."),
    414: ("uri_too_long", "The request line (method, path and query string) is too long."),
    417: ("expectation_failed", "The server cannot meet the request's Expect header."),
    431: ("header_too_large", "A request header, or all of them, is too large."),
    500: ("internal_error", "The server failed to read this request."),
    501: ("not_implemented", "The server does not support this request."),
}


#: How the app says the 429 of too many connections (:mod:`.worker`) in a reader's
#: language: (Accept-Language or None, the cap, the seconds to wait) -> (title, detail,
#: language tag). ops knows no catalogue: the composition (app.py) sets it to the API's
#: :func:`hanabi.server.api.language.too_many_connections`.
SAY: Callable[[str | None, int, int], tuple[str, str, str]] | None = None


def problem_bytes(status: int, reason: str) -> bytes:
    code, detail = MESSAGES.get(status, ("bad_request", "The server could not read the request."))
    return problem_message(status, reason, code, detail)


def problem_message(
    status: int,
    reason: str,
    code: str,
    detail: str,
    headers: dict[str, str] | None = None,
    title: str | None = None,
) -> bytes:
    """A whole HTTP/1.1 problem+json answer that closes the connection, as bytes (its
    ``title`` is ``reason`` unless given: the reason phrase stays English)."""
    body = orjson.dumps(
        {
            "type": PROBLEM_TYPE + code,
            "title": title or reason,
            "status": status,
            "detail": detail,
            "code": code,
        }
    )
    extra = "".join(f"{name}: {value}\r\n" for name, value in (headers or {}).items())
    head = (
        f"HTTP/1.1 {status} {reason}\r\nConnection: close\r\n{extra}"
        f"Content-Type: application/problem+json\r\nX-Content-Type-Options: nosniff\r\n"
        f"Content-Length: {len(body)}\r\n\r\n"
    )
    return head.encode("latin-1") + body


def install() -> None:
    util = sys.modules.get("gunicorn.util")
    if util is None or getattr(util.write_error, "hanabi", False):
        return

    def write_error(sock: Any, status_int: int, reason: str, mesg: str) -> None:
        util.write_nonblock(sock, problem_bytes(status_int, reason))

    write_error.hanabi = True  # type: ignore[attr-defined]
    util.write_error = write_error
