"""The server-sent event stream of one game, as one viewer may see it.

``GET /games/{id}/stream`` answers ``text/event-stream``. The stream says, in order:

- ``retry: <ms>``: how long a browser waits before it reconnects;
- with ``Last-Event-ID`` or ``?after=N``: every event after ``N`` that the client missed,
  each as ``id: <seq>``, ``event: <type>``, ``data: <the event's JSON>``, exactly as
  ``GET /games/{id}/events`` shows it to this viewer;
- ``event: view``: the viewer's whole view (what ``GET /games/{id}`` returns), with the id of
  the last event it includes, so a reconnecting browser resumes right after it;
- then, after every change: its events, and one ``view``;
- a comment line (``: keep-alive``) whenever :data:`KEEPALIVE` seconds pass quietly, so
  proxies keep the connection;
- ``event: end`` (data ``{"reason": ...}``) before the server closes the stream for good:
  ``finished`` (nothing more will happen), ``gone`` (the game expired or its lobby emptied),
  ``not_a_player`` (the viewer's seat was freed), ``revoked`` (the account credential the
  stream was opened with ended: a logout, a password change, a revoked key, a deleted
  account; checked at every wake, so within one keep-alive period, whichever process or
  node ended it). A client closes its ``EventSource`` then;
  a stream that simply closes (the server restarts, :data:`HANABI_STREAM_MAX` passes) is
  to be resumed with ``Last-Event-ID``.

Redaction is the service's own: events go through
:meth:`~hanabi.server.table.reads.Reads.events` and the view through
:meth:`~hanabi.server.table.reads.Reads.rendered`, the same code as the plain reads, so a
stream never carries a card to its holder while the game is on. A stream holds no thread
while it waits (:mod:`hanabi.server.storage.changes`), and every message is built from one
consistent read of the game: its events up to that version and the view of that version.
"""

from __future__ import annotations

import logging
import random
import time
from collections.abc import Callable, Iterator
from enum import StrEnum
from typing import Any

import orjson

from ..storage.record import GameStatus, Record
from ..table.reads import Reads
from ..table.refusals import Refused
from ..table.viewers import Viewer
from .ratelimits import LAPSE

log = logging.getLogger("hanabi.server")

#: Milliseconds a browser waits before reconnecting a closed stream.
RETRY_MS = 2000
#: Events read from Redis at a time when a stream replays what a client missed.
PAGE = 200
#: Up to this many new events, a step's messages are built once and shared by every stream
#: of the same viewer and position (what a change sends to its 1,000 spectators).
SHARED = 50


class StreamEnd(StrEnum):
    """Why a stream ends for good (the ``end`` message's ``reason``); a refusal met on the
    way ends it with the refusal's code (``not_a_player``: the viewer's seat was freed)."""

    FINISHED = "finished"  # the game is over: nothing more will happen
    GONE = "gone"  # the game expired, or its lobby emptied
    REVOKED = "revoked"  # the account credential the stream was opened with ended


def message(data: bytes, event: str | None = None, seq: int | None = None) -> bytes:
    """One SSE message. ``data`` is compact JSON, which never holds a raw line break."""
    head = b""
    if seq is not None:
        head += b"id: %d\n" % seq
    if event is not None:
        head += b"event: " + event.encode() + b"\n"
    return head + b"data: " + data + b"\n\n"


def end(reason: str) -> bytes:
    return message(orjson.dumps({"reason": reason}), "end")


def held_stream(
    hold: Callable[[], Callable[[], None]],
    held: Callable[[float], None] | None,
    messages: Callable[[], Iterator[bytes]],
) -> Iterator[bytes]:
    """A stream's ``messages``, counted among this process's waiting requests (``hold``:
    503 past the limit, raised here, before any byte is sent) and with ``held`` among its
    address's (renewed by the stream at each keep-alive); both let go when it ends, however
    it ends. A game's stream and a replay room's open this way."""
    try:
        release = hold()
    except Refused:
        if held is not None:
            held(0)
        raise
    return _released(messages(), release, held)


def _released(
    messages: Iterator[bytes], release: Callable[[], None], held: Callable[[float], None] | None
) -> Iterator[bytes]:
    try:
        yield from messages
    finally:
        release()
        if held is not None:
            held(0)


def draining() -> bytes:
    """The last words of a stream whose server is stopping: reconnect (to another node) in
    1-5 s, spread out so that thousands of browsers do not all come back at once."""
    return b": server draining\nretry: %d\n\n" % random.randint(1000, 5000)


class GameStream:
    """The stream of one game for one viewer. ``resolve``: who the viewer is at a version
    of the game (:mod:`hanabi.server.table.viewers`), asked again at every change (a game
    that ends shows a spectator every card; a freed seat's token is refused).
    ``alive``: whether the account credential it was opened with still stands (None: a
    seat token or a spectator, which nothing revokes)."""

    def __init__(
        self,
        reads: Reads,
        record: Record,
        resolve: Callable[[Record], Viewer],
        after: int | None,
        *,
        keepalive: float,
        max_seconds: float,
        alive: Callable[[], bool] | None = None,
    ) -> None:
        self.reads = reads
        self.record = record
        self.resolve = resolve
        self.after = after
        self.keepalive = keepalive
        self.max_seconds = max_seconds
        self.alive = alive
        self.held: Callable[[float], None] | None = None

    def open(self, held: Callable[[float], None] | None = None) -> Iterator[bytes]:
        """The stream's messages (:func:`held_stream`). ``held``: the stream's entry among
        its address's waiting requests, renewed at every keep-alive and dropped at the end."""
        self.held = held
        stop_at = time.monotonic() + self.max_seconds
        return held_stream(self.reads.hold, held, lambda: self._messages(stop_at))

    def _messages(self, stop_at: float) -> Iterator[bytes]:
        reads, record = self.reads, self.record
        try:
            yield b"retry: %d\n\n" % RETRY_MS
            who = self.resolve(record)
            last = self.after if self.after is not None else record.event_count
            while True:
                if 0 <= record.event_count - last <= SHARED:
                    # The usual step (a change's few events, or none): every viewer of this
                    # version who saw the same events gets the same bytes, built once.
                    batch, last = self._shared(record, who, last)
                    yield batch
                else:  # a replay from further back: a page of events at a time
                    after = min(last, record.event_count)
                    for event in self._events(record, who, after):
                        yield message(orjson.dumps(event), event["type"], event["seq"])
                        last = event["seq"]
                    last = max(last, record.event_count)
                    view = reads.rendered(record, who)
                    yield message(view, "view", last)
                if record.status is GameStatus.FINISHED:
                    yield end(StreamEnd.FINISHED)
                    return
                found = self._next(record.id, record.version, stop_at)
                while found == "quiet":
                    if self._revoked():
                        yield end(StreamEnd.REVOKED)
                        return
                    if self.held is not None:
                        self.held(self.keepalive + LAPSE)
                    yield b": keep-alive\n\n"
                    found = self._next(record.id, record.version, stop_at)
                if found is None:
                    return  # the stream's time is up: the client resumes
                if found == "draining":
                    yield draining()
                    return
                if isinstance(found, bytes):
                    yield found
                    return
                if self._revoked():
                    yield end(StreamEnd.REVOKED)
                    return
                record = found
                who = self.resolve(record)
        except Refused as exc:  # the viewer's seat was freed (a lobby seat only), or a
            # shadow the game no longer allows (same_deal_elsewhere, a lobby's seat gone)
            yield end(exc.code)
        except Exception as exc:  # storage trouble: close; the client resumes
            log.warning("event stream closed: %s", type(exc).__name__)

    def _revoked(self) -> bool:
        return self.alive is not None and not self.alive()

    def _shared(self, record: Record, who: Viewer, last: int) -> tuple[bytes, int]:
        """The events after ``last`` and the view, as ``who`` sees ``record``: built once
        per (game, version, viewer, last) in this process and shared by every stream that
        needs the same bytes (1,000 spectators of a game read and render it once)."""
        reads = self.reads
        key = ("stream", record.id, record.version, who.key, last)
        # A seat's view carries its notes, which change without a commit: built afresh.
        spectator = who.seat is None
        cached = reads.views.get(key) if spectator else None
        if cached is not None:
            return cached

        def build() -> tuple[bytes, int]:
            parts, newest = [], last
            for event in self._events(record, who, min(last, record.event_count)):
                parts.append(message(orjson.dumps(event), event["type"], event["seq"]))
                newest = event["seq"]
            newest = max(newest, record.event_count)
            parts.append(message(reads.rendered(record, who), "view", newest))
            built = (b"".join(parts), newest)
            if spectator:
                reads.views.put(key, built)
            return built

        return reads.loads.do(key, build)

    def _events(self, record: Record, who: Viewer, after: int) -> Iterator[dict[str, Any]]:
        """Every event after ``after`` as ``who`` sees it, read a page at a time."""
        while True:
            page = self.reads.events(record, who, after, PAGE)
            yield from page
            if len(page) < PAGE:
                return
            after = page[-1]["seq"]

    def _next(self, game_id: str, version: int, stop_at: float) -> Any:
        """The game's next version as a Record; "quiet" after a keep-alive period; None
        when the stream's time is up; "draining" when the server stops; the closing
        message if the game is gone."""
        remaining = stop_at - time.monotonic()
        if remaining <= 0:
            return None
        newest = self.reads.wait_for_change(game_id, version, min(self.keepalive, remaining))
        if newest == version:
            if self.reads.changes.draining:
                return "draining"
            return "quiet" if time.monotonic() < stop_at else None
        record = None if newest is None else self.reads.record_at(game_id, newest)
        return end(StreamEnd.GONE) if record is None else record
