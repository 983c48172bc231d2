"""Settling finished games in Redis: the pending set, each game's plan, and the script that
applies a game to one account (what these steps are for, and the order that makes them
exactly-once, is :mod:`hanabi.server.table.settle`).

``hanabi:settle:pending``  sorted set of games to settle, scored by when to look at one
    next (a sweeper's claim moves it on by its lease)
``{game:<id>}:settle``  the plan (JSON, SET NX: the first settler's wins), in the game's slot
``{acct:<id>}:rg``  the rated games an account holds a seat in, from just before the deal
    until they are settled (:mod:`.accounts`)
"""

from __future__ import annotations

from typing import Any

import orjson
import redis

from .accounts import akey
from .keys import settle_plan_key

PENDING = "hanabi:settle:pending"

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


def rated_games_key(account_id: str) -> str:
    """The rated games an account holds a seat in, from just before the deal until they
    are settled: what deleting the account ends (:mod:`hanabi.server.table.leaving`)."""
    return akey(account_id, "rg")


class SettlingStore:
    """The keys of settling. ``plan_ttl``: seconds a plan is kept (as long as the game)."""

    def __init__(self, client: redis.Redis, plan_ttl: int) -> None:
        self.redis = client
        self.plan_ttl = plan_ttl
        self._apply = client.register_script(APPLY_LUA)

    def pend(self, game_id: str, at_ms: int, rated_accounts: list[str]) -> None:
        """Put the game in the pending set (looked at from ``at_ms``), and in each rated
        account's rated games."""
        pipe = self.redis.pipeline(transaction=False)  # one key per command: cluster-safe
        pipe.zadd(PENDING, {game_id: at_ms})
        for account_id in rated_accounts:
            pipe.sadd(rated_games_key(account_id), game_id)
        pipe.execute()

    def settled(self, game_id: str) -> None:
        """The game leaves the pending set."""
        self.redis.zrem(PENDING, game_id)

    def due(self, now_ms: int, limit: int) -> list[str]:
        """Up to ``limit`` pending games due by ``now_ms``."""
        found = self.redis.zrangebyscore(PENDING, "-inf", now_ms, start=0, num=limit)
        return [raw.decode() for raw in found]

    def claim(self, game_id: str, until_ms: int) -> bool:
        """Move a pending game on to ``until_ms`` (a sweeper's claim), unless another
        sweeper moved it further already; whether this one did."""
        return bool(self.redis.zadd(PENDING, {game_id: until_ms}, xx=True, gt=True, ch=True))

    def look_again(self, game_id: str, at_ms: int) -> None:
        """A pending game still on: look at it again at ``at_ms``."""
        self.redis.zadd(PENDING, {game_id: at_ms}, xx=True)

    def plan(self, game_id: str) -> dict[str, Any] | None:
        stored = self.redis.get(settle_plan_key(game_id))
        return None if stored is None else orjson.loads(stored)

    def save_plan(self, game_id: str, plan: dict[str, Any]) -> dict[str, Any]:
        """Store ``plan`` unless one is stored already; the plan that is stored now."""
        key = settle_plan_key(game_id)
        self.redis.set(key, orjson.dumps(plan), nx=True, ex=self.plan_ttl)
        return orjson.loads(self.redis.get(key) or orjson.dumps(plan))

    def apply(self, account_id: str, args: list[Any]) -> dict[str, Any] | None:
        """Run :data:`APPLY_LUA` on one account: the ledger entry written now or before;
        None if the account is gone."""
        keys = [akey(account_id, part) for part in ("a", "st", "h", "hg", "rg")]
        found = self._apply(keys=keys, args=args)
        return None if found is None else orjson.loads(found)

    def rated_games(self, account_id: str) -> list[str]:
        """The account's rated games not settled yet, in order."""
        return sorted(raw.decode() for raw in self.redis.smembers(rated_games_key(account_id)))

    def forget_rated_game(self, account_id: str, game_id: str) -> None:
        self.redis.srem(rated_games_key(account_id), game_id)
