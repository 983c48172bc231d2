"""A small typed library over the Hanabi REST API (``/api/v1``).

Every call returns plain JSON data (views and events are dicts, exactly as the server
sends them) or a small dataclass around it, and every failure raises one exception type,
:class:`ApiError`, carrying the server's problem ``code``, ``status`` and ``detail``.

Requests that fail on the network are retried when that is safe: reads always, and
actions too, because an action names the ``turn`` it is for, so the server answers a
re-sent action with the original result instead of acting twice. Requests that would
have a second effect (creating a game, joining, chatting) are retried only when the
connection was never made, so the server cannot have seen them.

>>> api = Client("http://127.0.0.1:8000")                    # doctest: +SKIP
>>> seat = api.create_game("alice", max_players=2)           # doctest: +SKIP
>>> table = api.table(seat.game_id, seat.token)              # doctest: +SKIP
>>> table.play(turn=0, card=4)                               # doctest: +SKIP

This module is the library's face: :class:`Client` is the connection (:mod:`.transport`:
requests and retries) and holds two parts sent through it, the calls about games
(:mod:`.games`, its ``games``) and about accounts (:mod:`.accounts`, its ``accounts``),
whose calls it answers as its own; what calls return is in :mod:`.results`, what
they raise in :mod:`.errors`, the event stream in :mod:`.sse`, and the per-game handle in
:mod:`.table`. Everything is importable from here.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

from .accounts import AccountCalls
from .errors import ApiError, StreamUnavailable, Unreachable
from .games import GameCalls
from .history import HistoryCalls
from .results import ActResult, BotSeat, EventPage, GamePage, Poll, Seat
from .social import SocialCalls
from .sse import StreamEvent
from .table import Table
from .transport import DEFAULT_SERVER, Transport

__all__ = [
    "DEFAULT_SERVER",
    "ActResult",
    "ApiError",
    "BotSeat",
    "Client",
    "EventPage",
    "GamePage",
    "Poll",
    "Seat",
    "StreamEvent",
    "StreamUnavailable",
    "Table",
    "Unreachable",
]


class Client(Transport):
    """A connection to one Hanabi server.

    ``token`` is used for every call that does not pass its own; most programs either
    make one :class:`Client` per seat or call :meth:`table` to bind a game and a token.
    ``retries`` is how many times a safe request is re-sent after a network failure
    (with ``backoff`` seconds before the first retry, doubling each time).
    """

    def __init__(self, server: str = DEFAULT_SERVER, token: str | None = None, **how: Any) -> None:
        super().__init__(server, token, **how)
        self.games = GameCalls(self)
        self.accounts = AccountCalls(self)
        self.social = SocialCalls(self)
        self.history_calls = HistoryCalls(self)

    def table(self, game_id: str, token: str | None = None) -> Table:
        """This client bound to one game and one seat's token."""
        return Table(self, game_id, token if token is not None else self.token)


def _forward(part: str, method: Callable[..., Any]) -> Callable[..., Any]:
    """``Client.<name>``: the call of that name of the part the client holds as ``part``
    (its signature and docstring, for ``help`` and the docs)."""
    name = method.__name__

    @functools.wraps(method)
    def call(self: Client, *args: Any, **kwargs: Any) -> Any:
        return getattr(getattr(self, part), name)(*args, **kwargs)

    return call


for _part, _calls in (
    ("games", GameCalls),
    ("accounts", AccountCalls),
    ("social", SocialCalls),
    ("history_calls", HistoryCalls),
):
    for _name, _method in vars(_calls).items():
        if not _name.startswith("_") and callable(_method):
            assert not hasattr(Client, _name), f"Client.{_name} is taken"
            setattr(Client, _name, _forward(_part, _method))
