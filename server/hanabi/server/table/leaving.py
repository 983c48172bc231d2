"""A player who leaves for good: deleting an account ends its rated games in progress.

As on the large platform the rules follow (a player who leaves a rated game in progress
ends it for the table), each rated game where the account holds a seat ends at once with a
``terminate`` action by that seat: reason ``terminated``, score 0, the event naming the
seat. It is then settled like any game ended early (a vote, a clock run out, an idle
game): every seat, the leaving one included, is rated on a score of 0, so deleting an
account never escapes a loss, and the partners lose what an abandonment costs them today.

It runs before the account's keys are deleted, so the leaving seat's loss is written to
its ledger and shows in ``result.rating_changes`` like the others'. Every step is the write
loop's compare-and-set or the settler's exactly-once steps: a deletion retried after a
crash, or two at once, ends each game once and rates each seat once.

Unrated games are left to their players: they end as any game does (a vote, a clock). A
rated table still in the lobby is not dealt while it seats a deleted account (409
``account_deleted`` at the start, :mod:`hanabi.server.table.rated`); the host frees that seat.
"""

from __future__ import annotations

from hanabi.game import Action

from ..storage.record import GameStatus, Record
from ..storage.settling import SettlingStore
from ..storage.store import Store
from .reads import Reads
from .refusals import Refused
from .writes import Outcome, WriteLoop


class Leaving:
    """Ending the rated games of an account that is deleted."""

    def __init__(
        self, store: Store, settling: SettlingStore, writes: WriteLoop, reads: Reads
    ) -> None:
        self.store = store
        self.settling = settling
        self.writes = writes
        self.reads = reads

    def end_rated_games(self, account_id: str) -> list[str]:
        """End and settle every rated game in progress where ``account_id`` holds a seat
        (see the module doc); the ids of those found. Idempotent."""
        found = []
        for game_id in self.settling.rated_games(account_id):
            record = self.store.load(game_id)
            if record is None:  # expired unfinished: nothing left to settle
                self.settling.forget_rated_game(account_id, game_id)
                continue
            found.append(game_id)
            if record.status is GameStatus.PLAYING:
                record = self._leave_game(game_id, account_id) or record
            if record.status is GameStatus.FINISHED and "rating_changes" not in (
                record.result or {}
            ):
                self.writes.hooks.finished(
                    record
                )  # ended but not settled yet (e.g. a dead process)
        return found

    def _leave_game(self, game_id: str, account_id: str) -> Record | None:
        """End ``game_id`` by the seat of ``account_id`` if it is still in progress; the
        record after (settled by the write loop when this ended it), None if gone."""

        def change(record: Record) -> Outcome:
            seat = next((i for i, p in enumerate(record.players) if p.account == account_id), None)
            if record.status is not GameStatus.PLAYING or seat is None:
                return Outcome(record, replayed=True)  # ended meanwhile: nothing to do
            game = self.reads.live_game(record)
            action = Action.terminate(seat)  # like a vote: ends the game even past a deadline
            outcome = self.writes.advance(record, game, seat, action, game.apply(action))
            outcome.seat = None
            return outcome

        try:
            return self.writes.write(game_id, change).record
        except Refused as exc:
            if exc.code == "game_not_found":  # expired meanwhile
                return None
            raise
