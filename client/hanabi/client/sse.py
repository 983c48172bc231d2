"""Server-sent events as the client library reads them: the message type, a parser for a
stream's lines (the HTML standard's rules, for the fields this API sends), and the socket
timeout a stream needs once its first message has arrived."""

from __future__ import annotations

import contextlib
import json
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import requests


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
        name, _, value = line.partition(":")
        value = value.removeprefix(" ")
        if name == "event":
            kind = value
        elif name == "data":
            data.append(value)
        elif name == "id" and value.isdigit():
            seq = int(value)
    if data:
        raise StreamBroken("the stream closed in the middle of a message")


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
