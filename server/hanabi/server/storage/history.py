"""Finished games' history in Redis: one entry per game, date indexes to search them by,
tags, and each variant's page (docs/history.md).

A finished game lives ``HANABI_FINISHED_TTL``; its history entry lives on (bounded by
``HANABI_HISTORY_MAX``), so the search never loads a game. Every command touches one key,
or keys of one hash tag, so each works on a Redis Cluster:

``hanabi:hist:{g}``  hash game id -> the entry as JSON (players, variant, score...)
``hanabi:hist:{all}``  sorted set of game ids by when they ended (ms): the whole history
``hanabi:hist:{p:<name>}`` / ``{v:<variant>}`` / ``{t:<tag>}``  the same, of one player
    (by seat name, case-folded), one variant (its board key, ``v0``) and one tag
``hanabi:hist:{vs:<variant>}:n``  hash: ``games``, ``sum`` of the games that count
``hanabi:hist:{vs:<variant>}:b``  sorted set of the best games that count (rank score)
``hanabi:hist:{vs:<variant>}:s``  sorted set seed name -> the best score dealt on it
``hanabi:hist:{deals}``  hash: a named seed's deal (its digest) -> the seed's name, so
    that an import cannot publish a seed's cards (table/imports.py)
``hanabi:tags:{<game id>}``  set of ``<tag>|<account id>``: who tagged the game what
``{acct:<id>}:tg``  set of ``<game id>|<tag>``: an account's tags (its bound)
"""

from __future__ import annotations

from typing import Any

import orjson
import redis

from .accounts import akey

ENTRIES = "hanabi:hist:{g}"
DEALS = "hanabi:hist:{deals}"
ALL = "hanabi:hist:{all}"
BEST_KEPT = 50  # best games kept per variant


def player_index(name: str) -> str:
    return "hanabi:hist:{p:" + name.casefold() + "}"


def variant_index(key: str) -> str:
    return "hanabi:hist:{v:" + key + "}"


def tag_index(tag: str) -> str:
    return "hanabi:hist:{t:" + tag + "}"


def variant_keys(key: str) -> tuple[str, str, str]:
    tag = "hanabi:hist:{vs:" + key + "}"
    return tag + ":n", tag + ":b", tag + ":s"


def tags_key(game_id: str) -> str:
    return "hanabi:tags:{" + game_id + "}"


# KEYS: counters, best, seeds (one slot). ARGV: score, rank score, game id, seed ("": none),
# counts (0/1), the best kept. The entry's HSETNX made this run once per game.
VARIANT_LUA = """
if ARGV[5] == '1' then
  redis.call('HINCRBY', KEYS[1], 'games', 1)
  redis.call('HINCRBY', KEYS[1], 'sum', ARGV[1])
  redis.call('ZADD', KEYS[2], ARGV[2], ARGV[3])
  local extra = redis.call('ZCARD', KEYS[2]) - tonumber(ARGV[6])
  if extra > 0 then redis.call('ZREMRANGEBYRANK', KEYS[2], -extra, -1) end
end
if ARGV[4] ~= '' then
  local old = redis.call('ZSCORE', KEYS[3], ARGV[4])
  if (not old) or tonumber(old) < tonumber(ARGV[1]) then
    redis.call('ZADD', KEYS[3], ARGV[1], ARGV[4])
  end
end
return 1
"""

# KEYS: the game's tags, the account's tags (two slots: run as two steps by the caller,
# the account's first, so its bound holds). ARGV: member, most.
ADD_BOUNDED_LUA = """
if redis.call('SISMEMBER', KEYS[1], ARGV[1]) == 1 then return 0 end
if redis.call('SCARD', KEYS[1]) >= tonumber(ARGV[2]) then return -1 end
redis.call('SADD', KEYS[1], ARGV[1])
return 1
"""


class HistoryStore:
    """The keys above. ``cap``: entries kept (the oldest leave first)."""

    def __init__(self, client: redis.Redis, cap: int) -> None:
        self.redis = client
        self.cap = cap
        self._variant = client.register_script(VARIANT_LUA)
        self._bounded = client.register_script(ADD_BOUNDED_LUA)

    # -- writing -------------------------------------------------------------------------

    def add(
        self,
        entry: dict[str, Any],
        indexes: list[str],
        variant: tuple[str, int, int, str, bool],
    ) -> bool:
        """Add a finished game's entry once (False: it was there); ``variant``: its board
        key, score, rank score, seed name and whether it counts."""
        game_id, ended = entry["game_id"], entry["ended"]
        if not self.redis.hsetnx(ENTRIES, game_id, orjson.dumps(entry)):
            return False
        pipe = self.redis.pipeline(transaction=False)  # one key per command
        for key in [ALL, *indexes]:
            pipe.zadd(key, {game_id: ended})
        pipe.execute()
        key, score, rank, seed, counts = variant
        self._variant(
            keys=list(variant_keys(key)),
            args=[score, rank, game_id, seed, int(counts), BEST_KEPT],
        )
        self._trim()
        return True

    def note_deal(self, digest: str, seed: str) -> None:
        self.redis.hset(DEALS, digest, seed)

    def deal_seed(self, digest: str) -> str | None:
        """The named seed dealt this deal, if a game on it finished here."""
        raw = self.redis.hget(DEALS, digest)
        return None if raw is None else raw.decode()

    def _trim(self) -> None:
        extra = int(self.redis.zcard(ALL)) - self.cap
        if extra <= 0:
            return
        oldest = self.redis.zrange(ALL, 0, extra - 1)
        if oldest:
            pipe = self.redis.pipeline(transaction=False)
            pipe.hdel(ENTRIES, *oldest)
            pipe.zrem(ALL, *oldest)
            pipe.execute()  # the other indexes drop them when a search meets them

    # -- reading ------------------------------------------------------------------------

    def entry(self, game_id: str) -> dict[str, Any] | None:
        raw = self.redis.hget(ENTRIES, game_id)
        return None if raw is None else orjson.loads(raw)

    def scan(
        self, index: str, high: int | None, low: int | None, offset: int, count: int
    ) -> list[tuple[str, int]]:
        """Game ids of ``index`` ended between ``low`` and ``high`` ms, newest first."""
        found = self.redis.zrevrangebyscore(
            index,
            "+inf" if high is None else high,
            "-inf" if low is None else low,
            start=offset,
            num=count,
            withscores=True,
        )
        return [(raw.decode(), int(score)) for raw, score in found]

    def entries(self, game_ids: list[str]) -> list[dict[str, Any] | None]:
        if not game_ids:
            return []
        return [
            None if raw is None else orjson.loads(raw)
            for raw in self.redis.hmget(ENTRIES, game_ids)
        ]

    def forget(self, index: str, game_ids: list[str]) -> None:
        """Drop ids whose entries left (trimmed) from an index."""
        if game_ids:
            self.redis.zrem(index, *game_ids)

    def tags_of(self, game_ids: list[str]) -> list[list[tuple[str, str]]]:
        """Each game's ``(tag, account id)`` pairs (one round trip)."""
        pipe = self.redis.pipeline(transaction=False)
        for game_id in game_ids:
            pipe.smembers(tags_key(game_id))
        out = []
        for members in pipe.execute():
            pairs = [m.decode().partition("|") for m in members]
            out.append(sorted((tag, who) for tag, _, who in pairs))
        return out

    def variant_page(self, key: str, seeds_below: int, offset: int, limit: int) -> dict[str, Any]:
        """A variant's counters, its best game ids and the seeds whose best is below
        ``seeds_below`` (a page of them, and how many)."""
        counters, best, seeds = variant_keys(key)
        pipe = self.redis.pipeline(transaction=False)
        pipe.hgetall(counters)
        pipe.zrange(best, 0, -1)
        pipe.zrangebyscore(seeds, "-inf", f"({seeds_below}", start=offset, num=limit)
        pipe.zcount(seeds, "-inf", f"({seeds_below}")
        pipe.zcard(seeds)
        counts, best_ids, missing, missing_total, seeds_total = pipe.execute()
        return {
            "counters": {k.decode(): int(v) for k, v in counts.items()},
            "best": [raw.decode() for raw in best_ids],
            "missing": [raw.decode() for raw in missing],
            "missing_total": int(missing_total),
            "seeds_total": int(seeds_total),
        }

    # -- tags -----------------------------------------------------------------------------

    def tag(self, game_id: str, account_id: str, tag: str, per_game: int, per_account: int) -> int:
        """Add a tag: 1 added, 0 already there, -1 past the account's bound, -2 past the
        account's bound on this game."""
        mine = [
            raw.decode().partition("|")[0] == tag
            for raw in self.redis.smembers(tags_key(game_id))
            if raw.decode().endswith("|" + account_id)
        ]
        if any(mine):
            return 0
        if len(mine) >= per_game:
            return -2
        added = self._bounded(keys=[akey(account_id, "tg")], args=[f"{game_id}|{tag}", per_account])
        if added == -1:
            return -1
        pipe = self.redis.pipeline(transaction=False)
        pipe.sadd(tags_key(game_id), f"{tag}|{account_id}")
        pipe.zadd(tag_index(tag), {game_id: self._ended(game_id)})
        pipe.execute()
        return 1

    def untag(self, game_id: str, account_id: str, tag: str) -> bool:
        """Remove the account's tag (False: it had none); the tag's index keeps the game
        while another account's same tag is on it."""
        if not self.redis.srem(tags_key(game_id), f"{tag}|{account_id}"):
            return False
        self.redis.srem(akey(account_id, "tg"), f"{game_id}|{tag}")
        left = [
            raw
            for raw in self.redis.smembers(tags_key(game_id))
            if raw.decode().startswith(tag + "|")
        ]
        if not left:
            self.redis.zrem(tag_index(tag), game_id)
        return True

    def _ended(self, game_id: str) -> int:
        score = self.redis.zscore(ALL, game_id)
        return 0 if score is None else int(score)
