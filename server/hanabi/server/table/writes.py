"""The write loop: every change to a game is decided on its state and committed with
compare-and-set (see :mod:`hanabi.server.storage.scripts`).

A writer that lost the race decides again on the state the commit found, so 20 identical
requests apply one action and a full table refuses the 21st seat. The lobby and play
operations (:mod:`~hanabi.server.table.lobby`, :mod:`~hanabi.server.table.play`) only say
what a change is; this module commits it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from hanabi.game import Action, Game

from ..ops.times import now_ms
from ..storage.archive import encode_action
from ..storage.record import ActionEntry, BotDue, GameStatus, Record
from ..storage.scripts import clock_change
from ..storage.slots import new_game_id
from ..storage.store import DeadlinePassed, Gone, Store, VersionConflict
from .reads import Reads
from .refusals import Conflict, Refused, Unavailable
from .seats import bot_due, not_found

MAX_RETRIES = 100
#: Events the table makes (the engine's are rebuilt from the action log).
TABLE_EVENTS = frozenset(
    {"join", "leave", "remove", "start", "chat", "vote", "plays", "pause", "decline"}
)


@dataclass
class Outcome:
    """What a write produced, for the response."""

    record: Record
    seat: int | None = None
    events: list[dict[str, Any]] = field(default_factory=list)
    first_seq: int = 0
    replayed: bool = False  # an identical retry: nothing was applied
    token: str | None = None
    game: Game | None = None
    action_entries: list[ActionEntry] = field(default_factory=list)  # to append to the log
    ends_by_deadline: bool = False  # the change ends the game by its deadline (deadlines.py)
    clock: str = ""  # a clock change of its own: a pause or its end (pause.py)


class Hooks:
    """What other parts of the service do around a commit (no-ops here): settling games
    with accounts seated (:class:`hanabi.server.table.settle.SettleHooks`) replaces them."""

    def starting(self, record: Record) -> None:
        """Before the commit that deals ``record``."""

    def finished(self, record: Record) -> Record | None:
        """After the commit that ended ``record``: the record as it stands after (or None)."""
        return None


class WriteLoop:
    """Commits changes to games for every operation of the table. ``reads``: whose caches
    it keeps current (the records this process last wrote); ``hooks``: run around the
    commits that deal and end a game."""

    def __init__(self, store: Store, reads: Reads, hooks: Hooks | None = None) -> None:
        self.store = store
        self.reads = reads
        self.hooks = hooks or Hooks()
        #: Called after every commit with (record, old status, old turn): the turns index.
        self.watchers: list[Callable[[Record, GameStatus | None, int], None]] = []

    def write(
        self, game_id: str, change: Callable[[Record], Outcome], *, by_bot: bool = False
    ) -> Outcome:
        """Decide on the game's state and commit with compare-and-set; on a conflict decide
        again on the state the commit found.

        Every commit says whether it leaves a bot to move, so the due set of bot turns is
        kept in the same atomic step (``by_bot``: the commit is a bot worker's own move).

        The first decision may start from this process's copy of the version it last wrote
        (no read): a commit validates it, and any answer that commits nothing (a refusal, a
        retry's original result) is decided again on freshly read state.
        """
        records = self.reads.records
        record = self._cached(game_id)
        trusted = record is None
        if record is None:
            record = self.reads.load(game_id)
        for _ in range(MAX_RETRIES):
            expected, old_status, old_turn = record.version, record.status, record.turn
            try:
                outcome = change(record)
            except Refused:
                if trusted:
                    raise
                record, trusted = self.reads.load(game_id), True
                continue
            if outcome.replayed:
                if trusted:
                    return outcome
                record, trusted = self.reads.load(game_id), True
                continue
            record.updated = now_ms()
            if old_status is GameStatus.LOBBY and record.status is GameStatus.PLAYING:
                self.hooks.starting(record)
            delete = not record.players
            bot = (
                BotDue.NO
                if delete or not bot_due(record)
                else BotDue.AFTER_BOT
                if by_bot
                else BotDue.YES
            )
            try:
                version, players, blob = self.store.commit(
                    record,
                    expected,
                    actions=outcome.action_entries,
                    events=outcome.events,
                    delete=delete,
                    bot=bot,
                    clock=outcome.clock
                    or clock_change(record, old_status, old_turn, outcome.ends_by_deadline),
                )
            except VersionConflict as conflict:
                record = conflict.current or self.reads.load(game_id)
                trusted = True
                continue
            except Gone:
                records.pop(game_id)
                raise not_found(game_id) from None
            except DeadlinePassed:
                raise Conflict(
                    "deadline_passed",
                    "Too late: the game's deadline passed before this move arrived (a clock ran "
                    "out, or the game sat idle), so it ends without it.",
                ) from None
            if delete:
                records.pop(game_id)
            else:
                records.put(game_id, (version, players, blob))
            if delete or record.status != old_status:
                self.store.index(record, old_status, delete=delete)
            elif record.status is GameStatus.LOBBY:
                self.store.lobby_changed(record)  # a seat taken or freed: the lobby shows it
            for watch in self.watchers:
                watch(record, old_status, old_turn)
            if old_status is not GameStatus.FINISHED and record.status is GameStatus.FINISHED:
                settled = self.hooks.finished(record)
                if settled is not None:  # its result now has the rating changes
                    outcome.record = settled
                    self.store.listing_changed()
            return outcome
        raise Unavailable("busy", "The game is too busy right now; try again.")

    def open(self, table: Callable[[str], Record], first: dict[str, Any]) -> Record:
        """Commit a new game: ``table`` makes its record under a fresh id (drawn again in
        the rare case it is taken), ``first`` is its first event (the host's join)."""
        for _ in range(8):
            record = table(new_game_id())
            joined = self.note(record, first)
            try:
                stored = self.store.commit(record, 0, events=[joined])
            except VersionConflict:
                continue
            self.reads.records.put(record.id, stored)
            self.store.index(record, None)
            return record
        raise Unavailable("busy", "Could not allocate a game id; try again.")

    def _cached(self, game_id: str) -> Record | None:
        raw = self.reads.records.get(game_id)
        return None if raw is None else Record.load(game_id, *raw)

    def advance(
        self,
        record: Record,
        game: Game,
        seat: int,
        action: Action,
        events: list[dict[str, Any]],
    ) -> Outcome:
        """Record an applied action; archive the game if it just ended."""
        first = record.event_count
        record.turn = game.turn
        record.event_count += len(events)
        record.score = game.score
        # A compact copy of the log rides along in the state, so ending the game needs no
        # replay: the archive is that copy and the table's own events.
        record.compact_log = [*self.reads.compact_log(record), encode_action(seat, action)]
        outcome = Outcome(record, seat, events, first_seq=first + 1, game=game)
        if game.is_over:
            record.status = GameStatus.FINISHED
            record.result = dict(game.result or {})
            record.score = record.result["score"]
            record.snapshot = None  # the commit archives: the lists are dropped
            record.table_events = self._table_events(record, first)
        else:
            record.snapshot = game.snapshot()
            outcome.action_entries = [ActionEntry(seat, action.to_dict(), first, len(events))]
        return outcome

    def _table_events(self, record: Record, count: int) -> list[list[Any]]:
        """The table's own events among the first ``count`` of the log, as ``[seq, event]``:
        what a finished game's archive keeps besides its actions (the engine's events are
        rebuilt from those). Read once, by the commit that ends the game; if the log grew
        since this record was read, that commit fails on the version and decides again."""
        logged = self.store.events(record.id, 0, count - 1) if count else []
        return [[i + 1, e] for i, e in enumerate(logged) if e.get("type") in TABLE_EVENTS]

    @staticmethod
    def note(record: Record, event: dict[str, Any]) -> dict[str, Any]:
        """Add a table event (join, leave, remove, start, chat) to the public event log.

        The log is its one copy while the game lasts (the state does not grow with chat);
        the commit that ends the game folds them into the archive (:meth:`_table_events`).
        """
        event = {"type": event["type"], "turn": record.turn, **event}
        record.event_count += 1
        if event["type"] == "chat":
            record.chat_lines += 1
            record.chat_bytes += len(event["text"].encode())
        return event
