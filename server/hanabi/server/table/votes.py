"""Ending a game by vote: no one seated player can end everybody's game alone.

A seated person votes to end the game (``POST /games/{id}/votes`` ``{"end": true}``) or
takes the vote back (``false``). The game ends (reason ``terminated``, score 0) as soon as
:func:`~.vote_count.votes_needed` people have voted: at least half of the seated
people, and both in a game of two. Bots don't vote. ``POST /terminate`` is a vote to end.

Who voted is not shown to the others: the view has only the count (and each voter sees
their own vote), and each vote is a ``vote`` event ``{end, votes, needed}`` without a seat.
A table event like chat, it is kept in the archive of the finished game.
"""

from __future__ import annotations

from hanabi.game import Action

from ..storage.record import GameStatus, Record
from .reads import Reads
from .refusals import Conflict
from .seats import require_seat
from .vote_count import votes_needed
from .writes import Outcome, WriteLoop


class Votes:
    """Votes to end a game."""

    def __init__(self, writes: WriteLoop, reads: Reads) -> None:
        self.writes = writes
        self.reads = reads

    def vote(self, game_id: str, token: str | None, end: bool) -> Outcome:
        """Vote to end the game (``end``) or take the vote back; the vote that reaches
        :func:`votes_needed` ends it in the same commit. Voting twice changes nothing."""

        def change(record: Record) -> Outcome:
            seat = require_seat(record, token)
            if record.status is GameStatus.LOBBY:
                raise Conflict("game_not_started", "The game has not started yet.")
            if record.status is GameStatus.FINISHED:
                raise Conflict("game_over", "The game is over.")
            if (seat in record.votes) == end:
                return Outcome(record, seat, [], first_seq=record.event_count + 1, replayed=True)
            record.votes = sorted({*record.votes, seat} if end else set(record.votes) - {seat})
            needed = votes_needed(record)
            event = {"type": "vote", "end": end, "votes": len(record.votes), "needed": needed}
            noted = self.writes.note(record, event)
            first_seq = record.event_count
            if len(record.votes) < needed:
                return Outcome(record, seat, [noted], first_seq=first_seq)
            game = self.reads.live_game(record)
            action = Action.terminate()  # by the table: the event names no voter
            outcome = self.writes.advance(record, game, -1, action, game.apply(action))
            if record.table_events is not None:  # the vote is not in the stored log yet
                record.table_events.append([first_seq, noted])
            outcome.seat, outcome.first_seq = seat, first_seq
            outcome.events = [noted, *outcome.events]
            return outcome

        return self.writes.write(game_id, change)

    def terminate(self, game_id: str, token: str | None) -> Outcome:
        """``POST /terminate``: a vote to end (kept for clients written before votes)."""
        return self.vote(game_id, token, True)
