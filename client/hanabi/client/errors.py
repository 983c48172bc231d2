"""What a failed call raises, and how an answer or a network failure becomes that.

Every failure of the client library is an :class:`ApiError`: the server's problem
document (RFC 9457) when it answered, :class:`Unreachable` when it could not be reached,
:class:`StreamUnavailable` when no event stream gets through.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import requests
from urllib3.exceptions import NewConnectionError

from .i18n import N_, _


class ApiError(Exception):
    """A request the server refused, or one that never got an answer.

    ``code`` is the server's stable problem code (``not_your_turn``, ``stale_turn``, ...)
    or, for failures that are not the server's answer, one of the client's own:
    ``unreachable`` (see :class:`Unreachable`) and ``bad_response``. ``status`` is the
    HTTP status (None when there was no answer), ``detail`` the human sentence, and
    ``problem`` the whole problem document (schema errors list failing fields there).
    """

    def __init__(
        self,
        code: str,
        status: int | None,
        detail: str,
        *,
        title: str | None = None,
        problem: Mapping[str, Any] | None = None,
    ) -> None:
        super().__init__(detail)
        self.code = code
        self.status = status
        self.detail = detail
        self.title = title
        self.problem: dict[str, Any] = dict(problem or {})

    def __str__(self) -> str:
        return self.detail

    def __repr__(self) -> str:
        return f"ApiError(code={self.code!r}, status={self.status!r}, detail={self.detail!r})"


class Unreachable(ApiError):
    """The server could not be reached (after retrying where that was safe).

    ``maybe_sent`` is False when no attempt ever got a connection, so the server cannot
    have acted on the request; True when an attempt may have reached it (its answer lost).
    """

    def __init__(self, detail: str, *, maybe_sent: bool = True, reason: str = "") -> None:
        super().__init__("unreachable", None, detail)
        self.maybe_sent = maybe_sent
        self.reason = reason or detail


class StreamUnavailable(ApiError):
    """The server (or a proxy in between) does not deliver an event stream: poll instead."""

    def __init__(self, detail: str) -> None:
        super().__init__("stream_unavailable", 0, detail)


def _is_problem(response: requests.Response) -> bool:
    """Whether a 404/405/406 is this API's own answer about the game (a missing game),
    rather than a server or proxy that knows no stream route."""
    if not response.headers.get("Content-Type", "").startswith("application/problem+json"):
        return False
    try:
        return response.json().get("code") == "game_not_found"
    except ValueError:
        return False


#: The refusals about credentials, said as a person understands them: the server's own
#: sentences speak to programs (headers, tokens), and a person never handles a token.
PLAIN = {
    "auth_required": N_("This needs you to be known here: log in, or use the seat you joined."),
    "invalid_auth": N_("Your saved login or seat is no longer valid: log in or join again."),
    "account_required": N_("This needs an account: log in first."),
    "not_a_player": N_("You hold no seat at this game."),
    "not_a_session": N_("Only a login can do that, not a bot's API key."),
    "seat_held": N_(
        "That name holds a seat at this game, which has started: come back to it from where "
        "it joined, or log in as its account, not by joining again."
    ),
}


def _problem(response: requests.Response) -> ApiError:
    """The ApiError for a 4xx/5xx answer, from its problem+json body when there is one."""
    try:
        body = response.json()
    except ValueError:
        body = None
    if isinstance(body, dict) and ("code" in body or "detail" in body or "title" in body):
        title = body.get("title")
        detail = body.get("detail") or title or response.reason or f"HTTP {response.status_code}"
        code = body.get("code") or f"http_{response.status_code}"
        if code in PLAIN:
            detail = _(PLAIN[code])
        status = body.get("status") if isinstance(body.get("status"), int) else None
        return ApiError(
            str(code), status or response.status_code, str(detail), title=title, problem=body
        )
    reason = response.reason or "error"
    return ApiError(
        "bad_response",
        response.status_code,
        _("The server answered {status} {reason}.", status=response.status_code, reason=reason),
    )


def _never_sent(exc: requests.RequestException) -> bool:
    """True when the request failed before any byte reached the server."""
    if isinstance(exc, requests.ConnectTimeout):
        return True
    if isinstance(exc, requests.ConnectionError):
        seen: set[int] = set()
        stack: list[BaseException | None] = [exc]
        while stack:
            item = stack.pop()
            if item is None or id(item) in seen:
                continue
            seen.add(id(item))
            if isinstance(item, NewConnectionError | ConnectionRefusedError):
                return True
            stack.extend([item.__cause__, item.__context__, getattr(item, "reason", None)])
            stack.extend(a for a in item.args if isinstance(a, BaseException))
    return False


def _reason(exc: requests.RequestException) -> str:
    if isinstance(exc, requests.Timeout):
        return _("no answer in time")
    text = str(exc)
    if "refused" in text.lower():
        return _("connection refused")
    if "Name or service not known" in text or "nodename nor servname" in text:
        return _("unknown host")
    if "RemoteDisconnected" in text or "aborted" in text.lower():
        return _("the connection was closed")
    return exc.__class__.__name__
