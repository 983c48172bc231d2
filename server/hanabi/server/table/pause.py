"""Pausing a game by vote (issue 48): the table stops, and so do its deadlines.

Only an unrated table without a chess clock may pause (409 ``pause_not_allowed``): a rated
or timed game is a contest of time too. Its other limits, the idle limit and a turn-based
table's move clock, stop while it is paused: the commit that pauses keeps the moment
(``ps`` in the game's hash, Redis's time) and takes the deadline off the deadlines set;
the one that goes on moves the turn's start and the deadline on by the time paused
(``PAUSE``/``RESUME`` of :data:`hanabi.server.storage.scripts.CLOCK_LUA`). While paused
nobody moves (409 ``game_paused``) and no bot is due; chat and a vote to end still work.

A seated person votes ``{"paused": true}`` to pause and ``{"paused": false}`` to go on;
asking for the state the table is in takes a pending vote back. The table changes as soon
as :func:`~.vote_count.votes_needed` people asked for it (the same count as ending early:
half of the seated people, both of two, one playing alone with bots), and the votes start
again from none. Each vote is a ``pause`` event ``{paused, changed, votes, needed}``
without a seat, like a vote to end: who voted is not shown.
"""

from __future__ import annotations

from ..storage.record import GameStatus, Record
from ..storage.scripts import PAUSE, RESUME
from .refusals import Conflict
from .seats import require_seat
from .table_keys import pausable
from .vote_count import votes_needed
from .writes import Outcome, WriteLoop


class Pauses:
    """Votes to pause and to go on."""

    def __init__(self, writes: WriteLoop) -> None:
        self.writes = writes

    def vote(self, game_id: str, token: str | None, paused: bool) -> Outcome:
        """Vote for ``paused``; the vote that reaches the count changes the table in the
        same commit, which also stops or restarts its deadlines."""

        def change(record: Record) -> Outcome:
            seat = require_seat(record, token)
            if record.status is GameStatus.LOBBY:
                raise Conflict("game_not_started", "The game has not started yet.")
            if record.status is GameStatus.FINISHED:
                raise Conflict("game_over", "The game is over.")
            if not pausable(record):
                raise Conflict(
                    "pause_not_allowed",
                    "Only an unrated game without a chess clock may pause.",
                )
            pause = dict(record.pause or {"on": False, "votes": []})
            votes = set(pause.get("votes") or [])
            wants_change = paused != record.paused
            if (seat in votes) == wants_change:
                return Outcome(record, seat, [], first_seq=record.event_count + 1, replayed=True)
            votes = votes | {seat} if wants_change else votes - {seat}
            needed = votes_needed(record)
            outcome = Outcome(record, seat)
            changed = len(votes) >= needed
            if changed:
                pause = {"on": paused, "votes": []}
                outcome.clock = PAUSE if paused else RESUME
                count = 0
            else:
                pause["votes"] = sorted(votes)
                count = len(votes)
            record.pause = pause if pause["on"] or pause["votes"] else None
            event = {"type": "pause", "paused": record.paused, "changed": changed, "votes": count,
                     "needed": needed}  # fmt: skip
            outcome.events = [self.writes.note(record, event)]
            outcome.first_seq = record.event_count
            return outcome

        return self.writes.write(game_id, change)
