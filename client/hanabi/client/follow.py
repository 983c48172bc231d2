"""Following a game from a helper thread: its event stream (server-sent events: each
change arrives with its events and the new view), or long-polls of the view with its ETag
where there is no stream (an older server, a proxy that buffers). Either way it keeps
trying while the server is away, and says so once; a refusal ends it.

The follower only puts :class:`~.inbox.Message` objects into the session's inbox: the
session's main thread does everything else.
"""

from __future__ import annotations

import threading
from collections.abc import Callable

from .api import ApiError, Client, StreamUnavailable, Unreachable
from .codes import GameStatus
from .i18n import N_, _
from .inbox import Inbox, Message, MessageKind
from .words import code_words

POLL_WAIT = 25  # seconds the server may hold a long-poll
STREAM_QUIET = 25  # seconds without a byte (keep-alives come every 15) before a stream is dead
RETRY_DELAYS = (0.5, 1, 2, 2, 3)  # seconds between reconnection attempts (last repeats)

#: What the table says when the server ends its stream for good (other than a finish).
ENDED = {
    "gone": N_("This game is gone (its lobby emptied, or it expired)."),
    "not_a_player": N_("You no longer hold a seat at this table."),
    "revoked": N_("Your session ended (a logout or a password change elsewhere): log in again."),
    "same_deal_elsewhere": N_(
        "You are playing this deal at another table: its cards stay hidden until that game ends."
    ),
    "shadow_not_allowed": N_("The table no longer lets you watch as that player."),
}


def server_away(exc: ApiError) -> bool:
    """A failure that says the server is gone for now, not that the request was wrong."""
    return isinstance(exc, Unreachable) or (exc.status or 0) >= 500


class Follower:
    """Follows one game for one session: ``seat_token()`` is the token to follow it with
    now (None once the seat is given up: a ``start watch``), ``after()`` the last event
    already seen."""

    def __init__(
        self,
        client: Client,
        game_id: str,
        inbox: Inbox,
        stop: threading.Event,
        *,
        seat_token: Callable[[], str | None],
        after: Callable[[], int],
        poll_wait: float = POLL_WAIT,
        stream: bool = True,
        shadow: int | None = None,
    ) -> None:
        # ``shadow``: the seat a spectator watches the table as (None: as the table shows
        # spectators); a seat's own credential gets its own view whatever it asks.
        self.shadow = shadow
        # Its own clients: the follower retries on its own schedule (and says so). With no
        # seat it looks as the client's own credential (an account: the server notes the
        # seeds whose cards it saw before playing them, docs/watching.md).
        self.client = Client(client.server, client.token, timeout=client.timeout, retries=0)
        # a password table's spectator pass (Client.use_pass, docs/lobby.md) comes along
        passes = {k: v for k, v in client.session.headers.items() if k.lower() == "x-table-pass"}
        self.client.session.headers.update(passes)
        self.game_id = game_id
        self.inbox = inbox
        self.stop = stop
        self.seat_token = seat_token
        self.after = after
        self.poll_wait = poll_wait
        self.stream = stream

    def run(self) -> None:
        """Follow the game over its stream; long-poll when there is none."""
        if self.stream:
            try:
                self._stream()
                return
            except StreamUnavailable:
                self.inbox.put(Message(MessageKind.POLLING))
        self._poll()

    def _stream(self) -> None:
        outage = Outage(self.inbox, self.stop)
        while not self.stop.is_set():
            token = self.seat_token()
            events: list[dict] = []
            try:
                items = self.client.stream(
                    self.game_id,
                    after=self.after(),
                    token=token,
                    resume=False,
                    quiet=STREAM_QUIET,
                    shadow=self.shadow,
                )
                for item in items:
                    outage.ok()
                    if self.stop.is_set() or token != self.seat_token():
                        break  # stopped, or the seat was just given up: follow as we are now
                    if item.type == "view":
                        self.inbox.put(Message(MessageKind.VIEW, item.data, events))
                        events = []
                        if item.data.get("status") == GameStatus.FINISHED:
                            return
                    elif item.type == "end":
                        reason = item.data.get("reason", "gone")
                        if reason == GameStatus.FINISHED or token != self.seat_token():
                            break
                        said = (
                            _(ENDED[reason])
                            if reason in ENDED
                            else _(
                                "The server closed the game ({reason}).", reason=code_words(reason)
                            )
                        )
                        self.inbox.put(Message(MessageKind.FATAL, ApiError(reason, 410, said)))
                        return
                    else:
                        events.append(item.data)
            except StreamUnavailable:
                raise  # the follower long-polls instead
            except ApiError as exc:
                if token != self.seat_token():
                    continue
                if not outage.away(exc):
                    return

    def _poll(self) -> None:
        etag = None
        outage = Outage(self.inbox, self.stop)
        while not self.stop.is_set():
            token = self.seat_token()
            try:
                # After a failure, ask without waiting: the answer says "back" at once.
                wait = self.poll_wait if etag and not outage.failures else None
                polled = self.client.poll(
                    self.game_id, etag, wait=wait, token=token, shadow=self.shadow
                )
            except ApiError as exc:
                if token != self.seat_token():
                    etag = None  # asked with the seat just given up: ask again as we are
                    continue
                if not outage.away(exc):
                    return
                continue
            outage.ok()
            if token != self.seat_token():
                etag = None  # a view for the seat just given up: ask again
                continue
            etag = polled.etag
            if polled.game is not None:
                self.inbox.put(Message(MessageKind.VIEW, polled.game))
                if polled.game.get("status") == GameStatus.FINISHED:
                    return


class Outage:
    """A follower's failures: the server away (say so from the second failure, wait a
    little longer each time, say when it is back) or a refusal (fatal for the session)."""

    def __init__(self, inbox: Inbox, stop: threading.Event) -> None:
        self.inbox = inbox
        self.stop = stop
        self.failures = 0
        self.announced = False

    def ok(self) -> None:
        if self.announced:
            self.inbox.put(Message(MessageKind.UP))
        self.failures, self.announced = 0, False

    def away(self, exc: ApiError) -> bool:
        """Handle ``exc``; False when the follower must stop."""
        if not server_away(exc):
            self.inbox.put(Message(MessageKind.FATAL, exc))
            return False
        # One failure may be a blip (a worker restarting): say so from the second.
        if self.failures >= 1 and not self.announced:
            self.inbox.put(Message(MessageKind.DOWN, exc))
            self.announced = True
        delay = RETRY_DELAYS[min(self.failures, len(RETRY_DELAYS) - 1)]
        self.failures += 1
        return not self.stop.wait(delay)
