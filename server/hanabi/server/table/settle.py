"""Settling finished games: ratings, statistics and history, exactly once per game.

A game and its players' accounts live in different Cluster slots, so no one script can
change them together. Instead every step is idempotent and keyed by the game id:

1. **Pending.** Before the commit that starts a game with an account seated, the game id
   goes into ``hanabi:settle:pending`` (a sorted set scored by when to look at it next).
   Added *before* the commit, so no started game can be missed.
2. **Plan.** When the game is finished, the first settler stores the plan under
   ``{game:<id>}:settle`` with SET NX (the game's slot): who is rated, each member by how
   much (computed from their rating at that moment), the statistics to add. Every other
   settler reads the winner's plan, so all of them apply the same numbers.
3. **Apply.** One script per account, in the account's slot
   (:data:`hanabi.server.storage.settling.APPLY_LUA`): if the account's ledger
   ``{acct:<id>}:hg`` has no entry for the game, change the rating, the statistics and the
   history, and write the entry; otherwise return the entry written. Either way the game
   leaves the account's rated games in progress (``{acct:<id>}:rg``).
4. **Record.** ``result.rating_changes`` goes into the game with a compare-and-set commit
   (rated games), then the game leaves the pending set.

A process that dies anywhere in this leaves the game pending; the sweeper (a thread in
every server process, :class:`Sweeper`) takes up due pending games and runs the same
steps, which complete what was left and repeat nothing. Two processes finishing the same
game at once both run them, with the same effect as one.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from typing import Any

import orjson

from hanabi.game import EndReason, get_variant

from ..ops.times import iso, now_ms
from ..storage import redis_errors
from ..storage.accounts import AccountStore
from ..storage.record import GameStatus, Record, SeatKind
from ..storage.settling import SettlingStore
from ..storage.store import Gone, Store, VersionConflict
from . import ratings
from .writes import Hooks

log = logging.getLogger("hanabi.server.settle")

HISTORY_CAP = 2000
RECHECK_MS = 60_000  # a pending game still on is looked at again this much later
LEASE_MS = 30_000  # a sweeper's claim on a due game


def is_rated(record: Record) -> bool:
    """Whether the finished ``record`` counts for ratings (docs/ratings.md: a rated table of
    two or more non-bot accounts, no bot seats, a variant the rules rate, the standard
    rules; a table stored before a rule was checked is held to it here too)."""
    members = [p for p in record.players if p.account is not None]
    return (
        record.rated
        and ratings.is_rated_variant(get_variant(record.variant))
        and not any(record.options.get(name) for name in ratings.NON_STANDARD_OPTIONS)
        and all(p.kind is SeatKind.PERSON and p.account is not None for p in record.players)
        and len(members) >= 2
    )


class Settler:
    """Applies finished games to their accounts (see the module doc)."""

    def __init__(
        self,
        store: Store,
        settling: SettlingStore,
        accounts: AccountStore,
        k: float,
        results: Callable[[Record], None] | None = None,
    ) -> None:
        self.store = store
        self.settling = settling
        self.accounts = accounts
        self.k = k
        self.results = results  # seeds and leaderboards (table/leaderboards.Results.record)

    def pending(self, record: Record) -> None:
        """Call before the commit that starts ``record``: it will be settled when it ends
        (and a rated one is in each seated account's rated games until then)."""
        accounts = [p.account for p in record.players if p.account is not None]
        if not accounts:
            return
        self.settling.pend(record.id, now_ms() + RECHECK_MS, accounts if record.rated else [])

    def settle(self, game_id: str, record: Record | None = None) -> Record | None:
        """Settle the game if it is finished (idempotent): the record as it stands after,
        or None if the game is gone or not finished yet (it stays pending)."""
        if record is None:
            record = self.store.load(game_id)
        if record is None:
            self.settling.settled(game_id)
            return None
        if record.status is not GameStatus.FINISHED:
            return None
        if not any(p.account is not None for p in record.players):
            self.settling.settled(game_id)
            return record
        plan = self._plan(record)
        changes: dict[str, dict[str, float]] = {}
        for member in plan["members"]:
            entry = self._apply_member(plan, member)
            if entry is not None and entry.get("rating_change"):
                changes[str(member["seat"])] = entry["rating_change"]
        if plan["rated"]:
            record = self._record_changes(record, changes)
        if self.results is not None:  # idempotent: a retry records the same
            self.results(record)
        self.settling.settled(game_id)
        return record

    def _plan(self, record: Record) -> dict[str, Any]:
        stored = self.settling.plan(record.id)
        if stored is not None:
            return stored
        rated = is_rated(record)
        members = []
        max_score = get_variant(record.variant).max_score
        for seat, player in enumerate(record.players):
            if player.account is None:
                continue
            delta = 0.0
            if rated:  # each member against hanabot from their own rating (ratings.py)
                own = self.accounts.rating(player.account)
                own = ratings.START if own is None else own
                delta = ratings.change(own, max_score, record.score, self.k)
            members.append({"seat": seat, "account": player.account, "delta": delta})
        result = record.result or {}
        plan = {
            "game": record.id,
            "rated": rated,
            "variant": record.variant,
            "players": [p.name for p in record.players],
            "score": record.score,
            "reason": result.get("reason"),
            "ended": record.updated,
            "members": members,
        }
        return self.settling.save_plan(record.id, plan)

    def _apply_member(self, plan: dict[str, Any], member: dict[str, Any]) -> dict[str, Any] | None:
        aid = member["account"]
        entry = {
            "id": plan["game"],
            "variant": plan["variant"],
            "players": plan["players"],
            "seat": member["seat"],
            "score": plan["score"],
            "reason": plan["reason"],
            "ended": iso(plan["ended"]),
            "rated": plan["rated"],
        }
        args = [
            plan["game"],
            orjson.dumps(entry),
            plan["variant"],
            len(plan["players"]),
            plan["score"],
            int(plan["reason"] == EndReason.STRIKEOUT),
            int(plan["rated"]),
            repr(member.get("delta", plan.get("delta", 0.0))),  # a plan stored before: one delta
            f"{plan['ended']:013d}:{plan['game']}",
            HISTORY_CAP,
        ]
        return self.settling.apply(aid, args)

    def _record_changes(self, record: Record, changes: dict[str, Any]) -> Record:
        """Put ``rating_changes`` into the game's result (compare-and-set; once)."""
        for _ in range(50):
            if (record.result or {}).get("rating_changes") is not None:
                return record
            record.result = {**(record.result or {}), "rating_changes": changes}
            try:
                self.store.commit(record, record.version)
                return record
            except VersionConflict as conflict:
                current = conflict.current or self.store.load(record.id)
            except Gone:
                return record
            if current is None:
                return record
            record = current
        return record  # pragma: no cover - 50 writers in a row on a finished game

    # -- the sweeper -------------------------------------------------------------------

    def sweep(self, limit: int = 20) -> int:
        """Settle pending games that are due; returns how many were finished and settled."""
        now = now_ms()
        settled = 0
        for game_id in self.settling.due(now, limit):
            # Claim it for a while: another sweeper then passes it by.
            if not self.settling.claim(game_id, now + LEASE_MS):
                continue
            record = self.store.load(game_id)
            if record is not None and record.status is not GameStatus.FINISHED:
                self.settling.look_again(game_id, now + RECHECK_MS)
                continue
            if self.settle(game_id, record) is not None:
                settled += 1
        return settled


class Sweeper:
    """A daemon thread that runs :meth:`Settler.sweep` every ``interval`` seconds."""

    def __init__(self, settler: Settler, interval: float) -> None:
        self.settler = settler
        self.interval = interval
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self.run, name="hanabi-settle", daemon=True)

    def start(self) -> Sweeper:
        self.thread.start()
        return self

    def run(self) -> None:
        while not self.stop.wait(self.interval):
            try:
                self.settler.sweep()
            except redis_errors.ERRORS as exc:  # Redis away: the next sweep retries
                log.warning("settle sweep: Redis unavailable (%s)", type(exc).__name__)
            except Exception:
                log.exception("settle sweep failed")


class SettleHooks(Hooks):
    """Settles games with accounts seated: pending before the deal, settled at the end."""

    def __init__(self, settler: Settler) -> None:
        self.settler = settler

    def starting(self, record: Record) -> None:
        self.settler.pending(record)

    def finished(self, record: Record) -> Record | None:
        if not any(p.account is not None for p in record.players):
            return None
        try:
            return self.settler.settle(record.id, record)
        except Exception:
            log.exception("settling a finished game failed; the sweeper will retry")
            return None
