"""RFC 9457 problem responses: every 4xx/5xx this service sends is one of these.

``code`` is stable for programs; ``detail`` is for people and never holds hidden
information (engine messages are written to be safe to show the acting seat). ``title``
and ``detail`` speak the request's language (:mod:`.language`: ``Accept-Language``, with
``Content-Language`` and ``Vary`` saying so); ``code`` never changes. A refusal
of the service (:class:`~hanabi.server.table.refusals.Refused`) answers with the status
its code has in :mod:`.refusals`; Werkzeug's own errors (404 for an unknown path, 405,
413) and failures of storage are answered here too (but a browser that opens a path that is
no page gets a page saying so: :func:`.web_pages.not_found`).
"""

from __future__ import annotations

import logging
from typing import Any

import orjson
from flask import Flask, Response, has_request_context
from werkzeug.exceptions import HTTPException, MethodNotAllowed

from ..ops import metrics
from ..ops.gunicorn_errors import PROBLEM_TYPE
from ..storage import redis_errors
from ..table.refusals import Refused
from ..table.wording import N_, Words
from . import language, web_pages
from .field_messages import say_errors
from .refusals import status_of

log = logging.getLogger("hanabi.server")

#: Werkzeug's HTTP errors, by status, as (code, title).
HTTP_CODES = {
    400: ("bad_request", N_("Bad Request")),
    401: ("auth_required", N_("Unauthorized")),
    403: ("forbidden", N_("Forbidden")),
    404: ("not_found", N_("Not Found")),
    405: ("method_not_allowed", N_("Method Not Allowed")),
    406: ("not_acceptable", N_("Not Acceptable")),
    409: ("conflict", N_("Conflict")),
    413: ("body_too_large", N_("Content Too Large")),
    415: ("unsupported_media_type", N_("Unsupported Media Type")),
    429: ("too_many_requests", N_("Too Many Requests")),
    500: ("internal_error", N_("Internal Server Error")),
    503: ("unavailable", N_("Service Unavailable")),
}


def problem_body(
    status: int,
    code: str,
    detail: str | Words,
    errors: dict[str, Any] | None = None,
    tag: str = language.ENGLISH,
) -> dict[str, Any]:
    """The JSON of a problem response (also the docs' example of one), in language ``tag``."""
    body: dict[str, Any] = {
        "type": PROBLEM_TYPE + code,
        "title": language.say(HTTP_CODES.get(status, ("", N_("Error")))[1], tag),
        "status": status,
        "detail": language.say(detail, tag),
        "code": code,
    }
    if errors:
        spoken = language.translations(tag)
        body["errors"] = say_errors(errors, spoken.gettext, spoken.ngettext)
    return body


def problem(
    status: int,
    code: str,
    detail: str | Words,
    *,
    errors: dict[str, Any] | None = None,
    headers: dict[str, str] | None = None,
) -> Response:
    """A problem response in the request's language (English outside a request)."""
    tag = language.current() if has_request_context() else language.ENGLISH
    body = problem_body(status, code, detail, errors, tag)
    raw = orjson.dumps(body, option=orjson.OPT_NON_STR_KEYS)  # field errors key list items by index
    response = Response(raw, status=status, mimetype="application/problem+json")
    if status == 401:
        response.headers["WWW-Authenticate"] = 'Bearer realm="hanabi"'
    for name, value in (headers or {}).items():
        response.headers[name] = value
    return language.label(response, tag)


def refusal(refused: Refused) -> Response:
    """The problem response of a refusal: the status :mod:`.refusals` gives its code, its
    facts as the body's ``errors`` and a ``Retry-After``."""
    retry_after = refused.facts.get("retry_after")
    headers = {} if retry_after is None else {"Retry-After": str(retry_after)}
    return problem(
        status_of(refused),
        refused.code,
        refused.words,
        errors=refused.facts.get("errors"),
        headers=headers,
    )


def to_response(exc: BaseException) -> Response:
    """The problem response for any exception raised while handling a request."""
    if isinstance(exc, Refused):
        return refusal(exc)
    if isinstance(exc, HTTPException):
        status = exc.code or 500
        if status == 404 and has_request_context() and web_pages.wants_page():
            return web_pages.not_found()  # a browser opened a path that is no page
        code, _ = HTTP_CODES.get(status, ("http_error", ""))
        headers = {}
        if isinstance(exc, MethodNotAllowed) and exc.valid_methods:
            headers["Allow"] = ", ".join(sorted(exc.valid_methods))
        detail = {
            404: N_("There is no such resource."),
            405: N_("This resource does not support that method."),
            413: N_("The request body is too large."),
        }.get(status, exc.description or "")
        return problem(status, code, detail, headers=headers)
    if isinstance(exc, redis_errors.ERRORS):
        metrics.redis_error("request")
    if redis_errors.unavailable(exc):
        log.warning("storage unavailable: %s", type(exc).__name__)
        return problem(
            503, "storage_unavailable", N_("Game storage is unavailable; try again shortly."),
            headers={"Retry-After": "1"},
        )  # fmt: skip
    # Log the exception type and place only: a message could in principle hold game state.
    log.error("unhandled %s", type(exc).__name__, exc_info=exc)
    return problem(500, "internal_error", N_("The server failed to handle this request."))


def install(app: Flask) -> None:
    """Route every error of ``app`` through :func:`to_response`."""
    app.register_error_handler(Exception, to_response)
    app.register_error_handler(HTTPException, to_response)
