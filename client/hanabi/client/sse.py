"""Server-sent events as the client library reads them: the message type, a parser for a
stream's lines (the HTML standard's rules, for the fields this API sends), the socket
timeout a stream needs once its first message has arrived, and a game's stream read and
resumed over its connections."""

from __future__ import annotations

import contextlib
import json
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import requests

from .errors import StreamUnavailable, Unreachable, _is_problem, _problem, _reason
from .i18n import _
from .transport import Transport

STREAM_QUIET = 40  # seconds of silence after which a stream is taken as dead (keep-alive: 15)
STREAM_FIRST = 5  # seconds for a new stream's first message (the server sends it at once)


@dataclass
class StreamEvent:
    """One message of a game's event stream: ``type`` is an event's type (``play``,
    ``chat``, ...), ``view`` (``data`` is the whole view) or ``end`` (``data["reason"]``);
    ``seq`` is the stream's last event id so far (an event's own seq; for a view, the last
    event it includes), as a browser's ``lastEventId``: pass it back as ``after``."""

    type: str
    data: dict[str, Any]
    seq: int | None = None


class StreamBroken(Exception):
    """A stream connection ended in the middle of a message."""


def parse_sse(lines: Iterator[bytes]) -> Iterator[StreamEvent]:
    """Server-sent event messages from a stream's lines (the HTML standard's rules, for the
    fields this API sends: ``event``, ``data``, ``id``; comments and ``retry`` skipped)."""
    kind, data, seq = "message", [], None
    for raw in lines:
        line = raw.decode("utf-8", "replace")
        if not line:
            if data:
                yield StreamEvent(kind, json.loads("\n".join(data)), seq)
            kind, data = "message", []
            continue
        if line.startswith(":"):
            continue
        name, _colon, value = line.partition(":")
        value = value.removeprefix(" ")
        if name == "event":
            kind = value
        elif name == "data":
            data.append(value)
        elif name == "id" and value.isdigit():
            seq = int(value)
    if data:
        raise StreamBroken(_("the stream closed in the middle of a message"))


def read_timeout(response: requests.Response, seconds: float) -> None:
    """Change the read timeout of a streamed response's open socket (requests fixes it
    when the request is sent; a stream wants a short one until its first message)."""
    sock = getattr(getattr(getattr(response.raw, "_fp", None), "fp", None), "raw", None)
    with contextlib.suppress(AttributeError, OSError):
        sock._sock.settimeout(seconds)  # type: ignore[union-attr]


def timed_out(exc: BaseException) -> bool:
    """A read that timed out (requests reports one inside a streamed body as a
    ConnectionError around urllib3's ReadTimeoutError)."""
    return isinstance(exc, requests.ReadTimeout) or "Read timed out" in str(exc)


def read_stream(
    transport: Transport,
    game_id: str,
    *,
    after: int | None,
    token: str | None,
    resume: bool,
    quiet: float = STREAM_QUIET,
    first: float = STREAM_FIRST,
    shadow: int | None = None,
) -> Iterator[StreamEvent]:
    """A game's event stream, resumed where it stopped (``Last-Event-ID``) when a
    connection drops and ``resume``, until the server ends it (see
    :meth:`hanabi.client.games.GameCalls.stream`)."""
    last = after
    failures = 0
    while True:
        received = False
        try:
            for item in _connect(transport, game_id, last, token, first, quiet, shadow):
                received = True
                failures = 0
                if item.seq is not None:
                    last = item.seq
                yield item
                if item.type == "end":
                    return
        except (requests.RequestException, StreamBroken) as exc:
            if not received and timed_out(exc):
                raise StreamUnavailable(
                    _(
                        "No event arrived within {seconds} s: the stream is buffered.",
                        seconds=format(first, "g"),
                    )
                ) from exc
            if not resume or failures >= transport.retries:
                reason = _reason(exc) if isinstance(exc, requests.RequestException) else ""
                raise Unreachable(
                    _(
                        "The event stream from {server} broke: {reason}",
                        server=transport.server,
                        reason=reason or exc,
                    ),
                    reason=reason,
                ) from exc
        if not resume:
            return
        transport._sleep(failures)
        failures += 1


def _connect(
    transport: Transport,
    game_id: str,
    after: int | None,
    token: str | None,
    first: float,
    quiet: float,
    shadow: int | None = None,
) -> Iterator[StreamEvent]:
    """One connection of :func:`read_stream`; ends when the server closes it."""
    headers = {"Accept": "text/event-stream", **transport._auth_header(token)}
    if after is not None:
        headers["Last-Event-ID"] = str(after)
    response = transport.session.get(
        transport.url(f"/games/{game_id}/stream"),
        headers=headers,
        params=None if shadow is None else {"shadow": shadow},
        stream=True,
        timeout=(min(5.0, transport.timeout), first),
    )
    with response:
        if response.status_code in (404, 405, 406) and not _is_problem(response):
            raise StreamUnavailable(
                _("This server has no event stream ({status}).", status=response.status_code)
            )
        if response.status_code >= 400:
            raise _problem(response)
        if not response.headers.get("Content-Type", "").startswith("text/event-stream"):
            raise StreamUnavailable(_("The server answered something other than a stream."))
        lines = response.iter_lines(chunk_size=None, decode_unicode=False)
        for number, item in enumerate(parse_sse(lines)):
            if number == 0:
                read_timeout(response, quiet)  # it flows: now allow for keep-alives
            yield item
