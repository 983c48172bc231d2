"""Deadlines enforced: the game whose clock ran out or that sat idle too long ends.

Nobody polls for it. The commit that moves a turn puts the game's deadline in its bucket's
deadlines set (:mod:`hanabi.server.storage.scripts`); the bot workers of every process
(:mod:`hanabi.server.table.bots`) also claim due deadlines, with the same lease as bot turns
(a claim whose process died comes due again), and end the game through the write loop:
reason ``timeout`` (an event names the seat whose clock ran out) or ``idle``, score 0.

That commit is accepted only if the deadline has passed by Redis's clock and the game is
still at the version the worker read: a move made in time always wins, and a deadline is
enforced once. A deadline that passed while every process was down is in the set still,
due: the first worker to look after a restart ends the game. Ending is a commit like any
other, so long-polls and streams of the game wake up.
"""

from __future__ import annotations

import logging

from hanabi.game import Action, EndReason

from ..storage.record import GameStatus, Record
from ..storage.store import NotDue, Store
from .reads import Reads
from .refusals import Conflict, Refused
from .writes import Outcome, WriteLoop

log = logging.getLogger("hanabi.server.deadlines")


def expiry_of(record: Record) -> tuple[int | None, EndReason]:
    """(seat, reason) of the deadline ``record`` holds: ``timeout`` and the seat to move
    if its clock runs out first, else ``idle`` (no seat)."""
    clock = record.clock or {}
    seat = record.turn % len(record.players)
    left = clock.get("left") or []
    if seat < len(left) and clock.get("dl") is not None and clock["ts"] + left[seat] <= clock["dl"]:
        return seat, EndReason.TIMEOUT
    return None, EndReason.IDLE


class Deadlines:
    """Ending the games whose deadline passed, for the bot workers that claim them."""

    def __init__(self, store: Store, writes: WriteLoop, reads: Reads) -> None:
        self.store = store
        self.writes = writes
        self.reads = reads

    def expire(self, game_id: str) -> bool:
        """End the game if its deadline has passed (by Redis's clock); True if it did."""

        def change(record: Record) -> Outcome:
            if record.status is not GameStatus.PLAYING or not (record.clock or {}).get("dl"):
                raise Conflict("no_deadline", "This game has no deadline to enforce.")
            seat, reason = expiry_of(record)
            game = self.reads.live_game(record)
            action = Action.terminate(seat, reason)
            outcome = self.writes.advance(record, game, -1 if seat is None else seat, action,
                                    game.apply(action))  # fmt: skip
            outcome.seat = None
            outcome.ends_by_deadline = True
            return outcome

        try:
            self.writes.write(game_id, change)
        except (NotDue, Refused):
            self.store.restore_deadline(game_id)
            return False
        return True

    def enforce_due(self, lease_ms: int) -> int:
        """Claim and enforce due deadlines until none is due; how many games ended."""
        ended = 0
        while True:
            game_id = self.store.claim_deadline(self.reads.server_time.now_ms(), lease_ms)
            if game_id is None:
                return ended
            if self.expire(game_id):
                ended += 1
