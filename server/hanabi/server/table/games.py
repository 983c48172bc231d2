"""The game service: lobby, seats, actions and reads, on top of the store and the engine.

Every rule comes from :mod:`hanabi.game`; the service only decides who may ask for what,
turns requests into engine calls, and commits the result atomically. :class:`Service` is
the one object the HTTP resources and the bot workers use; its parts live in modules named
for what they hold:

- :mod:`~hanabi.server.table.seats`: tokens, game ids, seats and seating rules;
- :mod:`~hanabi.server.table.writes`: the compare-and-set write loop every change goes through;
- :mod:`~hanabi.server.table.lobby`: create, join, bots, leave, start;
- :mod:`~hanabi.server.table.play`: actions and their retries, chat;
- :mod:`~hanabi.server.table.votes`: votes to end a game (``POST /terminate`` is one);
- :mod:`~hanabi.server.table.leaving`: a deleted account's rated games end as its abandonment;
- :mod:`~hanabi.server.table.clocks`, :mod:`~hanabi.server.table.deadlines`: timed and idle games, and
  ending them when a deadline passes;
- :mod:`~hanabi.server.table.reads`: records, views, the event log, exports, replays, listings;
- :mod:`~hanabi.server.table.rendering`: views, summaries, ETags;
- :mod:`~hanabi.server.storage.archive`: the compact log of finished games and their rebuilding.
"""

from __future__ import annotations

from ..storage.archive import Finished, decode_action, encode_action, setup_of
from . import rendering, seats
from .deadlines import Deadlines
from .leaving import Leaving
from .lobby import Lobby
from .play import Play
from .seats import bot_due, hash_token, new_game_id, not_found
from .votes import Votes
from .writes import Hooks, Outcome

__all__ = [
    "Finished",
    "Hooks",
    "Outcome",
    "Service",
    "bot_due",
    "decode_action",
    "encode_action",
    "hash_token",
    "new_game_id",
    "not_found",
]


class Service(Lobby, Play, Votes, Leaving, Deadlines):
    """The façade: lobby, play, vote, leaving and deadline operations (all on the write
    loop) and every read."""

    seat_of = staticmethod(seats.seat_of)
    seat_by_hash = staticmethod(seats.seat_by_hash)
    require_seat = staticmethod(seats.require_seat)
    require_host = staticmethod(seats.require_host)
    check_name = staticmethod(seats.check_name)
    setup_of = staticmethod(setup_of)
    players = staticmethod(rendering.players)
    etag = staticmethod(rendering.etag)
    summary = staticmethod(rendering.summary)
