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
3. **Apply.** One script per account, in the account's slot (:data:`APPLY_LUA`): if the
   account's ledger ``{acct:<id>}:hg`` has no entry for the game, change the rating, the
   statistics and the history, and write the entry; otherwise return the entry written.
   Either way the game leaves the account's rated games in progress (``{acct:<id>}:rg``).
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
from typing import Any

import orjson

from hanabi.game import get_variant

from ..storage import redis_errors
from ..storage.record import Record
from ..storage.store import Gone, Store, VersionConflict, iso, now_ms
from . import ratings
from .accounts import akey
from .writes import Hooks

log = logging.getLogger("hanabi.server.settle")

PENDING = "hanabi:settle:pending"
HISTORY_CAP = 2000
RECHECK_MS = 60_000  # a pending game still on is looked at again this much later
LEASE_MS = 30_000  # a sweeper's claim on a due game

# KEYS: a, st, h, hg, rg (one account's slot).  ARGV: game id, entry JSON, variant, player
# count, score, strikeout 0/1, rated 0/1, rating change, history member, history cap.
# Returns the ledger entry (JSON) written now or before; nil if the account is gone.
APPLY_LUA = """
if redis.call('EXISTS', KEYS[1]) == 0 then return false end
redis.call('SREM', KEYS[5], ARGV[1])
local done = redis.call('HGET', KEYS[4], ARGV[1])
if done then return done end
local v = ARGV[3]
local entry = cjson.decode(ARGV[2])
if ARGV[7] == '1' then
  local before = redis.call('HGET', KEYS[1], 'rating')
  local after = redis.call('HINCRBYFLOAT', KEYS[1], 'rating', ARGV[8])
  redis.call('HINCRBY', KEYS[1], 'rated_games', 1)
  redis.call('HINCRBY', KEYS[2], v .. ':rated', 1)
  redis.call('HINCRBYFLOAT', KEYS[2], v .. ':change', ARGV[8])
  entry['rating_change'] = {before = tonumber(before), after = tonumber(after)}
else
  if redis.call('HEXISTS', KEYS[1], 'unrated_games') == 0 then
    -- an account from before this counter: its unrated games counted once (stats.py)
    local n = 0
    local st = redis.call('HGETALL', KEYS[2])
    for i = 1, #st, 2 do
      local suffix = string.sub(st[i], -6)
      if suffix == ':games' then n = n + tonumber(st[i + 1])
      elseif suffix == ':rated' then n = n - tonumber(st[i + 1]) end
    end
    redis.call('HSET', KEYS[1], 'unrated_games', n)
  end
  redis.call('HINCRBY', KEYS[1], 'unrated_games', 1)
end
local score = tonumber(ARGV[5])
redis.call('HINCRBY', KEYS[2], v .. ':games', 1)
local best = v .. ':best:' .. ARGV[4]
local old = tonumber(redis.call('HGET', KEYS[2], best) or '-1')
if score > old then redis.call('HSET', KEYS[2], best, score) end
if score > 0 then
  redis.call('HINCRBY', KEYS[2], v .. ':scored', 1)
  redis.call('HINCRBY', KEYS[2], v .. ':score_sum', score)
end
if ARGV[6] == '1' then redis.call('HINCRBY', KEYS[2], v .. ':strikeouts', 1) end
local text = cjson.encode(entry)
redis.call('HSET', KEYS[4], ARGV[1], text)
redis.call('ZADD', KEYS[3], 0, ARGV[9])
local extra = redis.call('ZCARD', KEYS[3]) - tonumber(ARGV[10])
if extra > 0 then
  local oldest = redis.call('ZRANGE', KEYS[3], 0, extra - 1)
  for _, member in ipairs(oldest) do
    redis.call('HDEL', KEYS[4], string.sub(member, 15))
  end
  redis.call('ZREMRANGEBYRANK', KEYS[3], 0, extra - 1)
end
return text
"""


def plan_key(game_id: str) -> str:
    return "{game:" + game_id + "}:settle"


def rated_games_key(account_id: str) -> str:
    """The rated games an account holds a seat in, from just before the deal until they
    are settled: what deleting the account ends (:mod:`hanabi.server.table.leaving`)."""
    return akey(account_id, "rg")


def is_rated(record: Record) -> bool:
    """Whether the finished ``record`` counts for ratings (docs/ratings.md: a rated table of
    two or more non-bot accounts, no bot seats, a variant the rules rate, the standard
    rules; a table stored before a rule was checked is held to it here too)."""
    members = [p for p in record.players if p.account is not None]
    return (
        record.rated
        and ratings.is_rated_variant(get_variant(record.variant))
        and not any(record.options.get(name) for name in ratings.NON_STANDARD_OPTIONS)
        and all(p.bot is None and p.account is not None for p in record.players)
        and len(members) >= 2
    )


class Settler:
    """Applies finished games to their accounts (see the module doc)."""

    def __init__(self, store: Store, k: float, finished_ttl: int) -> None:
        self.store = store
        self.redis = store.redis
        self.k = k
        self.ttl = finished_ttl
        self._apply = self.redis.register_script(APPLY_LUA)

    def pending(self, record: Record) -> None:
        """Call before the commit that starts ``record``: it will be settled when it ends
        (and a rated one is in each seated account's :func:`rated_games_key` until then)."""
        accounts = [p.account for p in record.players if p.account is not None]
        if not accounts:
            return
        pipe = self.redis.pipeline(transaction=False)  # one key per command: cluster-safe
        pipe.zadd(PENDING, {record.id: now_ms() + RECHECK_MS})
        if record.rated:
            for account_id in accounts:
                pipe.sadd(rated_games_key(account_id), record.id)
        pipe.execute()

    def settle(self, game_id: str, record: Record | None = None) -> Record | None:
        """Settle the game if it is finished (idempotent): the record as it stands after,
        or None if the game is gone or not finished yet (it stays pending)."""
        if record is None:
            record = self.store.load(game_id)
        if record is None:
            self.redis.zrem(PENDING, game_id)
            return None
        if record.status != "finished":
            return None
        if not any(p.account is not None for p in record.players):
            self.redis.zrem(PENDING, game_id)
            return record
        plan = self._plan(record)
        changes: dict[str, dict[str, float]] = {}
        for member in plan["members"]:
            entry = self._apply_member(plan, member)
            if entry is not None and entry.get("rating_change"):
                changes[str(member["seat"])] = entry["rating_change"]
        if plan["rated"]:
            record = self._record_changes(record, changes)
        self.redis.zrem(PENDING, game_id)
        return record

    def _plan(self, record: Record) -> dict[str, Any]:
        stored = self.redis.get(plan_key(record.id))
        if stored is not None:
            return orjson.loads(stored)
        rated = is_rated(record)
        members = []
        max_score = get_variant(record.variant).max_score
        for seat, player in enumerate(record.players):
            if player.account is None:
                continue
            delta = 0.0
            if rated:  # each member against hanabot from their own rating (ratings.py)
                raw = self.redis.hget(akey(player.account, "a"), "rating")
                own = float(raw) if raw is not None else ratings.START
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
        self.redis.set(plan_key(record.id), orjson.dumps(plan), nx=True, ex=self.ttl)
        return orjson.loads(self.redis.get(plan_key(record.id)) or orjson.dumps(plan))

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
            int(plan["reason"] == "strikeout"),
            int(plan["rated"]),
            repr(member.get("delta", plan.get("delta", 0.0))),  # a plan stored before: one delta
            f"{plan['ended']:013d}:{plan['game']}",
            HISTORY_CAP,
        ]
        found = self._apply(keys=[akey(aid, p) for p in ("a", "st", "h", "hg", "rg")], args=args)
        return None if found is None else orjson.loads(found)

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
        due = self.redis.zrangebyscore(PENDING, "-inf", now, start=0, num=limit)
        settled = 0
        for raw in due:
            game_id = raw.decode()
            # Claim it for a while: another sweeper then passes it by.
            if not self.redis.zadd(PENDING, {game_id: now + LEASE_MS}, xx=True, gt=True, ch=True):
                continue
            record = self.store.load(game_id)
            if record is not None and record.status != "finished":
                self.redis.zadd(PENDING, {game_id: now + RECHECK_MS}, xx=True)
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
