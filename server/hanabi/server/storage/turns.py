"""Whose move it is, per account: the index behind ``GET /accounts/me/turns``.

Two keys per account, in the account's slot (``{acct:<id>}``, see :mod:`.accounts`), so
every update is one script on one node, whatever the Cluster:

``{acct:<id>}:tn``  sorted set: the games where it is the account's move, scored by their
                    deadline (ms; :data:`NO_DEADLINE` plus the turn's start for games
                    without one), the most urgent first
``{acct:<id>}:ti``  hash: game id -> ``<version>|<JSON>``, the entry as the list shows it
                    and the game version it was made from

The write loop updates them after a game's commit (:mod:`hanabi.server.table.turns`).
Commits of one game by two processes may reach an account's slot out of order: the
script applies an update only if it is from a later version than the entry it finds, and
the reader checks each entry's version against the game's (one pipelined read) and has the
table repair the few that differ (a late update, a chat line since, an expired game).
"""

from __future__ import annotations

from typing import Any

import orjson
import redis

from .accounts import akey
from .keys import game_keys

#: The score of games without a deadline: after every game with one (fits a double).
NO_DEADLINE = 8_000_000_000_000_000

# KEYS: the account's turns zset, its entries hash, its webhook hash, its account hash.
# ARGV: game id, version, "1" (its move: list it) or "0" (not: drop it), score, entry JSON.
# Returns {applied (1/0), whether the account has a webhook (1/0)}; nothing is listed for
# an account that no longer exists (a deleted account's seat plays on without it).
SET_TURN_LUA = """
if redis.call('EXISTS', KEYS[4]) == 0 then return {0, 0} end
local cur = redis.call('HGET', KEYS[2], ARGV[1])
local hook = redis.call('EXISTS', KEYS[3])
if cur and tonumber(string.match(cur, '^(%d+)|')) >= tonumber(ARGV[2]) then
  return {0, hook}
end
if ARGV[3] == '1' then
  redis.call('ZADD', KEYS[1], ARGV[4], ARGV[1])
  redis.call('HSET', KEYS[2], ARGV[1], ARGV[2] .. '|' .. ARGV[5])
elseif cur then
  redis.call('ZREM', KEYS[1], ARGV[1])
  redis.call('HDEL', KEYS[2], ARGV[1])
end
return {1, hook}
"""


def turns_key(account_id: str) -> str:
    return akey(account_id, "tn")


def entries_key(account_id: str) -> str:
    return akey(account_id, "ti")


class TurnIndex:
    """The per-account index of games awaiting the account's move."""

    def __init__(self, client: redis.Redis) -> None:
        self.redis = client
        self._set = client.register_script(SET_TURN_LUA)

    def set(
        self, account_id: str, game_id: str, version: int, listed: bool, score: int,
        entry: dict[str, Any] | None,
    ) -> tuple[bool, bool]:  # fmt: skip
        """List (``listed``) or drop the game for the account as of ``version``; returns
        (whether it applied, whether the account has a webhook)."""
        keys = [turns_key(account_id), entries_key(account_id), akey(account_id, "wh"),
                akey(account_id, "a")]  # fmt: skip
        args = [game_id, version, int(listed), score, orjson.dumps(entry or {})]
        applied, hook = self._set(keys=keys, args=args)
        return bool(applied), bool(hook)

    def page(self, account_id: str, limit: int) -> tuple[int, list[tuple[str, int, dict]]]:
        """(how many games are listed, the first ``limit`` as (game id, version, entry))."""
        pipe = self.redis.pipeline(transaction=False)
        pipe.zcard(turns_key(account_id))
        pipe.zrange(turns_key(account_id), 0, limit - 1)
        total, ids = pipe.execute()
        if not ids:
            return int(total), []
        raw = self.redis.hmget(entries_key(account_id), ids)
        out = []
        for game_id, value in zip(ids, raw, strict=True):
            version, _, entry = (value or b"0|{}").partition(b"|")
            out.append((game_id.decode(), int(version), orjson.loads(entry)))
        return int(total), out

    def versions(self, game_ids: list[str]) -> list[int | None]:
        """The games' stored versions (None: gone), one pipelined round trip."""
        pipe = self.redis.pipeline(transaction=False)
        for game_id in game_ids:
            pipe.hget(game_keys(game_id)[0], "v")
        return [None if v is None else int(v) for v in pipe.execute()]

    def drop(self, account_id: str, game_id: str) -> None:
        """Forget a game that no longer exists."""
        pipe = self.redis.pipeline(transaction=False)
        pipe.zrem(turns_key(account_id), game_id)
        pipe.hdel(entries_key(account_id), game_id)
        pipe.execute()
