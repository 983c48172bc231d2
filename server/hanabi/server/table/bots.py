"""Bot seats: worker threads in every server process play bot turns as they come due.

A bot seat is a player with ``bot`` set (its strategy) and no token. Nobody polls for it:

1. The commit that leaves a bot to move adds the game to its bucket's due set in the same
   Lua script (:data:`~hanabi.server.storage.store.COMMIT_LUA`) and publishes a wake-up.
2. Each worker thread listens for wake-ups. A wake-up names its game, which the thread
   then claims in one call to that game's bucket; every :data:`POLL` seconds it also looks
   at every bucket (a claim whose worker died, a wake-up lost with a connection, a passed
   deadline). A claim moves the game's score to now + lease
   (:data:`~hanabi.server.storage.store.CLAIM_LUA`), so no other worker takes it while this one
   plays.
3. It loads the game fresh, asks :func:`hanabi.bots.choose_action` for the move (the bot
   sees only what its seat may see) and commits it through
   :meth:`~hanabi.server.table.play.Play.act` with ``as_seat``: the same compare-and-set
   commit as a person's move. If someone got there first (a stale turn) it just moves on.
   That commit leaves the game due again at once if the next seat is a bot too (each bot
   move its own commit), or takes it off the due set.

The same threads end games whose deadline passed (a clock ran out, or nobody moved for
the game's idle limit): see :mod:`hanabi.server.table.deadlines`. So deadlines are enforced
where bot workers run (``HANABI_BOT_WORKER`` > 0 in at least one process).

A process that dies holding a claim leaves the game in the due set with the lease as its
score: once the lease runs out any worker claims it again (idle workers look at least every
:data:`POLL` seconds), so a game never stalls on a bot. Long-polls wake on bot moves like on
any commit. ``HANABI_BOT_WORKER=0`` runs no worker in a process (others still play).
"""

from __future__ import annotations

import logging
import os
import threading
import time
from typing import Any

from hanabi.bots import choose_action
from hanabi.game import Action, ActionKind, Game

from ..ops import metrics
from ..ops.serving import offload
from ..storage import redis_errors
from ..storage.store import BotWakes, Store
from .deadlines import Deadlines
from .play import Play
from .reads import Reads
from .refusals import Refused
from .seats import bot_due

log = logging.getLogger("hanabi.server.bots")

#: Longest wait (seconds) of an idle worker before it looks for expired claims.
POLL = 0.5


def fallback_action(game: Game) -> Action:
    """A legal move for when a strategy fails: discard the oldest card, else the first clue."""
    legal = game.legal_actions()
    discards = [a for a in legal if a.type == ActionKind.DISCARD]
    if discards:
        return min(discards, key=lambda a: a.card or 0)
    clues = [a for a in legal if a.type == ActionKind.CLUE]
    return (clues or legal)[0]


def request_body(turn: int, action: Action) -> dict[str, Any]:
    fields = {k: v for k, v in action.to_dict().items() if k != "seat"}
    return {"turn": turn, **fields}


def play_due_turn(store: Store, reads: Reads, play: Play, game_id: str) -> bool:
    """Play the bot turn of a claimed game, if there is one; True if a move was committed."""
    record = store.load(game_id)
    if record is None or not bot_due(record):
        store.release_bot_turn(game_id, None if record is None else record.version)
        return False
    seat = record.turn % len(record.players)
    strategy = record.players[seat].bot
    assert strategy is not None
    game = reads.live_game(record, with_log=True)  # a bot replays what its seat saw
    table = [p.table_strategy for p in record.players]  # who sits with it: hat needs hat
    try:
        # CPU work: in a real thread under gevent, so other clients are served meanwhile.
        action = offload(choose_action, strategy, game, seat, table)
    except Exception:
        log.exception("bot %s failed in game %s at turn %s", strategy, game_id, record.turn)
        action = fallback_action(game)
    for attempt in (action, fallback_action(game)):
        try:
            play.act(game_id, None, request_body(record.turn, attempt), as_seat=seat)
            metrics.action("bot")
            return True
        except Refused as exc:
            if exc.code in (
                "stale_turn", "game_over", "game_not_found", "game_not_started", "game_paused"
            ):  # fmt: skip
                return False  # someone else moved or paused (that commit set the due state)
            log.warning("bot %s move refused (%s) in game %s", strategy, exc.code, game_id)
    return False


class BotWorker:
    """``threads`` daemon threads playing due bot turns until :meth:`stop`, and ending the
    games whose deadline passed (``lease``: seconds a claimed turn or deadline is theirs)."""

    def __init__(
        self,
        store: Store,
        reads: Reads,
        play: Play,
        deadlines: Deadlines,
        threads: int,
        lease: float,
    ) -> None:
        self.store = store
        self.reads = reads
        self.play = play
        self.deadlines = deadlines
        self.threads = threads
        self.lease_ms = max(1, int(lease * 1000))
        self._stop = threading.Event()
        self._running: list[threading.Thread] = []
        self.moves = 0
        self._pid: int | None = None

    def start(self) -> BotWorker:
        if self.threads <= 0 or self._pid == os.getpid():
            return self
        self._pid = os.getpid()
        self._stop.clear()
        self._running = [
            threading.Thread(target=self._run, name=f"hanabi-bots-{i}", daemon=True)
            for i in range(self.threads)
        ]
        for thread in self._running:
            thread.start()
        return self

    def after_fork(self) -> None:
        """In a forked child (gunicorn --preload) the parent's threads are gone."""
        if self._pid is not None and self._pid != os.getpid():
            self._pid = None
            self.start()

    def stop(self, timeout: float = 5.0) -> None:
        self._stop.set()
        for thread in self._running:
            thread.join(timeout)
        self._running = []
        self._pid = None

    def run_named(self, game_ids: list[str]) -> int:
        """Claim and play the bot turns of the games wake-ups named (each once; a game
        another worker claimed first is skipped); the number of moves made."""
        moves = 0
        for game_id in dict.fromkeys(game_ids):
            if self._stop.is_set():
                break
            if self.store.claim_bot_game(game_id, self.lease_ms) and self._play(game_id):
                moves += 1
                self.moves += 1
        return moves

    def run_due(self) -> int:
        """Claim and play due bot turns until none is due; the number of moves made."""
        moves = 0
        while not self._stop.is_set():
            game_id = self.store.claim_bot_turn(self.lease_ms)
            if game_id is None:
                return moves
            if self._play(game_id):
                moves += 1
                self.moves += 1
        return moves

    def enforce_deadlines(self) -> int:
        """End the games whose deadline passed (see :mod:`hanabi.server.table.deadlines`)."""
        return 0 if self._stop.is_set() else self.deadlines.enforce_due(self.lease_ms)

    def _play(self, game_id: str) -> bool:
        return play_due_turn(self.store, self.reads, self.play, game_id)

    def _run(self) -> None:
        wakes: BotWakes | None = None
        named: list[str] = []
        next_look = 0.0  # when to look at every bucket again
        while not self._stop.is_set():
            try:
                if wakes is None:
                    wakes = self.store.bot_wakes()
                    next_look = 0.0  # wake-ups may have been lost meanwhile
                self.run_named(named)
                named = []
                if time.monotonic() >= next_look:
                    self.run_due()
                    self.enforce_deadlines()
                    next_look = time.monotonic() + POLL
                named = wakes.wait(next_look - time.monotonic())
            except redis_errors.ERRORS as exc:
                metrics.redis_error("bots")
                log.warning("bot worker lost Redis (%s); retrying", type(exc).__name__)
                if wakes is not None:
                    wakes.close()
                    wakes = None
                self._stop.wait(0.5)
            except Exception:  # a worker thread must outlive any one game's trouble
                log.exception("bot worker error")
                self._stop.wait(0.5)
        if wakes is not None:
            wakes.close()


_WORKERS: list[BotWorker] = []


def _after_fork() -> None:
    for worker in _WORKERS:
        worker.after_fork()


def start_worker(worker: BotWorker) -> BotWorker:
    """Start ``worker`` in this process, and again in any child forked from it."""
    worker.start()
    if worker.threads > 0:
        if not _WORKERS:
            os.register_at_fork(after_in_child=_after_fork)
        _WORKERS.append(worker)
    return worker
