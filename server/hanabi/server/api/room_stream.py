"""The server-sent event stream of a shared replay room.

``GET /replays/{id}/stream`` answers ``text/event-stream``: ``retry:``, then ``event: room``
with the room's whole state (``id:`` its version), then one more ``room`` after every
change the leader makes, ``: keep-alive`` comments while quiet, and ``event: end`` (data
``{"reason": "gone"}``) when the room expires. A stream opened as an account (its
credential, or a ticket issued to it; not a member's token) is checked again at every wake
and keep-alive: it ends with ``revoked`` once the credential ends, and with
``same_deal_elsewhere`` once the account sits down to the game's deal at another table (the
room would show it its own cards). The room's state is small, so each message
carries all of it: a follower who missed one loses nothing.

It is the games' stream machinery: the room is watched by the process's one change hub
under its pseudo game id (:meth:`~hanabi.server.storage.replays.RoomStore.hub_id`), a
waiting stream holds a socket and no thread, and a change read once per process is
rendered once per audience and version and shared by every follower's stream.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Iterator

from ..ops.times import now_ms
from ..storage.replays import StoredRoom
from ..table.hypotheticals import Audience
from ..table.refusals import Refused
from ..table.replays import Replays
from .ratelimits import LAPSE
from .stream import RETRY_MS, StreamEnd, draining, end, held_stream, message

log = logging.getLogger("hanabi.server")


class RoomStream:
    """The stream of one room for one viewer (``token_hash``: the hash of the bearer's
    token, or of the one its ticket stands for; None for none)."""

    def __init__(
        self,
        replays: Replays,
        room: StoredRoom,
        token_hash: str | None,
        *,
        keepalive: float,
        max_seconds: float,
        admitted: Callable[[StoredRoom], str | None] | None = None,
    ) -> None:
        self.replays = replays
        self.room = room
        self.token_hash = token_hash
        self.keepalive = keepalive
        self.max_seconds = max_seconds
        self.admitted = admitted
        self.held: Callable[[float], None] | None = None

    def open(self, held: Callable[[float], None] | None = None) -> Iterator[bytes]:
        """The stream's messages, counted as a game's stream is (:func:`held_stream`)."""
        self.held = held
        stop_at = time.monotonic() + self.max_seconds
        return held_stream(self.replays.reads.hold, held, lambda: self._messages(stop_at))

    def _audience(self, room: StoredRoom) -> Audience:
        # Only a stream opened with a token can be the leader's; the lead may move.
        if self.token_hash is None:
            return Audience.FOLLOWERS
        return self.replays.audience_of(room, self.token_hash)

    def _refused(self, room: StoredRoom) -> str | None:
        """Why the viewer may no longer follow the room (see
        :meth:`~hanabi.server.table.replays.Replays.still_admitted`), None if it may."""
        return None if self.admitted is None else self.admitted(room)

    def _messages(self, stop_at: float) -> Iterator[bytes]:
        replays, room = self.replays, self.room
        try:
            yield b"retry: %d\n\n" % RETRY_MS
            while True:
                body = replays.rendered(room, self._audience(room))
                yield message(body, "room", room.version)
                newest = room.version
                while newest == room.version:
                    remaining = stop_at - time.monotonic()
                    if remaining <= 0:
                        return  # the stream's time is up: the client reconnects
                    # A room ends at a time it knows (no change announces it): wake then.
                    ends_in = (room.state["expires"] - now_ms()) / 1000
                    if ends_in <= 0:
                        yield end(StreamEnd.GONE)
                        return
                    wait = min(self.keepalive, remaining, ends_in + 0.05)
                    newest = replays.wait(room.id, room.version, wait)
                    if newest == room.version:
                        if replays.reads.changes.draining:
                            yield draining()
                            return
                        if (refused := self._refused(room)) is not None:
                            yield end(refused)
                            return
                        if self.held is not None:
                            self.held(self.keepalive + LAPSE)
                        yield b": keep-alive\n\n"
                found = None if newest is None else replays.load_at(room.id, newest)
                if found is None:
                    yield end(StreamEnd.GONE)
                    return
                room = found
                if (refused := self._refused(room)) is not None:
                    yield end(refused)
                    return
        except Refused as exc:  # the room's game expired
            yield end(exc.code)
        except Exception as exc:  # storage trouble: close; the client resumes
            log.warning("replay room stream closed: %s", type(exc).__name__)
