"""Seeds and leaderboards in Redis: which seeds each account has played, every team's result
per seed, the best games per variant and table size, and each player's counts per variant.

Every structure is one key (or a key and its twin hash in the same slot), so no command
spans two Cluster slots:

``hanabi:seeds:key``  the deployment's secret that deals a named seed (SET NX once: every
    process deals ``p2v0s17`` the same, and nobody can compute a deal from its name)
``hanabi:seed:{<name>}:r``  sorted set of a seed's results, best first (score is
    :func:`rank_score`; ties: earlier first, by member ``<ended ms, 13 digits>:<game id>``)
``hanabi:seed:{<name>}:g``  hash member -> the result as JSON (players, score, turns...)
``hanabi:board:{<variant>:p<n>}:r`` / ``:g``  the same for a leaderboard, kept to its cap
``{acct:<id>}:sd``  sorted set (all scores 0) of the seeds the account finished: a prefix
    ``p2v0s`` is a lex range, so one read lists a variant and size's seeds
``{acct:<id>}:so``  set of ``<seed>|<game id>``: games dealt and not yet settled
``{acct:<id>}:ps``  hash of counters per variant: ``<variant>:games``, ``:max``, ``:sum``
``{acct:<id>}:pl:<game id>``  a settled game's mark (expires): counted once
``hanabi:seal:{<name>}``  the id of the rated game a seed is sealed for while it runs (SET
    NX: no other table is dealt it). Made with a short expiry at the deal, kept from the
    deal's commit on, dropped when that game ends (or found over)
"""

from __future__ import annotations

import secrets
from typing import Any

import orjson
import redis

from .accounts import akey

SECRET_KEY = "hanabi:seeds:key"
TURN_SPAN = 10_000  # turns of a game are fewer: score and turns fit one sorted-set score


def rank_score(score: int, turns: int) -> int:
    """The sorted-set score of a result: higher scores first, then fewer turns."""
    return -score * TURN_SPAN + min(turns, TURN_SPAN - 1)


def member_of(ended_ms: int, game_id: str) -> str:
    return f"{ended_ms:013d}:{game_id}"


def seed_keys(name: str) -> tuple[str, str]:
    return "hanabi:seed:{" + name + "}:r", "hanabi:seed:{" + name + "}:g"


def seal_key(name: str) -> str:
    return "hanabi:seal:{" + name + "}"


def board_keys(variant: str, players: int) -> tuple[str, str]:
    tag = "{" + f"{variant}:p{players}" + "}"
    return f"hanabi:board:{tag}:r", f"hanabi:board:{tag}:g"


# KEYS: ranking zset, details hash (one slot). ARGV: member, rank score, JSON, cap.
# Adds (again: the same) and keeps the best ``cap``; the dropped leave the hash too.
ADD_LUA = """
redis.call('ZADD', KEYS[1], ARGV[2], ARGV[1])
redis.call('HSET', KEYS[2], ARGV[1], ARGV[3])
local extra = redis.call('ZCARD', KEYS[1]) - tonumber(ARGV[4])
if extra > 0 then
  local worst = redis.call('ZRANGE', KEYS[1], -extra, -1)
  for _, m in ipairs(worst) do redis.call('HDEL', KEYS[2], m) end
  redis.call('ZREMRANGEBYRANK', KEYS[1], -extra, -1)
end
return 1
"""

# KEYS: the account's counters, the game's mark (one slot). ARGV: variant, score, max 0/1,
# mark TTL. Counts the game once however often settling runs.
COUNT_LUA = """
if redis.call('SET', KEYS[2], 1, 'NX', 'EX', ARGV[4]) == false then return 0 end
redis.call('HINCRBY', KEYS[1], ARGV[1] .. ':games', 1)
redis.call('HINCRBY', KEYS[1], ARGV[1] .. ':sum', ARGV[2])
if ARGV[3] == '1' then redis.call('HINCRBY', KEYS[1], ARGV[1] .. ':max', 1) end
return 1
"""

# KEYS: a seal. ARGV: the game id that holds it. Drops the seal only if that game holds it.
RELEASE_LUA = """
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0
"""

# KEYS: a seal. ARGV: the game id that holds it. Keeps it (no expiry) if that game holds it.
KEEP_LUA = """
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('PERSIST', KEYS[1]) end
return 0
"""
SEAL_PENDING_S = 120  # a seal made at a deal whose commit never came goes by itself

MARK_TTL = 14 * 86400  # longer than a game can stay unsettled


class SeedStore:
    """The keys above. ``seed_cap``/``board_cap``: results kept per seed and per board."""

    def __init__(self, client: redis.Redis, seed_cap: int, board_cap: int) -> None:
        self.redis = client
        self.seed_cap = seed_cap
        self.board_cap = board_cap
        self._add = client.register_script(ADD_LUA)
        self._count = client.register_script(COUNT_LUA)
        self._release = client.register_script(RELEASE_LUA)
        self._keep = client.register_script(KEEP_LUA)
        self._secret: str | None = None

    def secret(self) -> str:
        """The deployment's dealing secret (made by the first process that asks)."""
        if self._secret is None:
            self.redis.set(SECRET_KEY, secrets.token_hex(32), nx=True)
            stored = self.redis.get(SECRET_KEY)
            assert stored is not None
            self._secret = stored.decode()
        return self._secret

    # -- what accounts played ------------------------------------------------------------

    def played(self, account_id: str, prefix: str) -> set[str]:
        """Seeds starting with ``prefix`` (``p2v0s``) the account finished or holds open."""
        found = self.redis.zrangebylex(akey(account_id, "sd"), "[" + prefix, "(" + prefix + "~")
        names = {raw.decode() for raw in found}
        for raw in self.redis.smembers(akey(account_id, "so")):
            name = raw.decode().partition("|")[0]
            if name.startswith(prefix):
                names.add(name)
        return names

    def standing(self, account_id: str, name: str) -> tuple[bool, list[str]]:
        """Whether the account finished seed ``name``, and its games on it dealt and not
        yet settled (one round trip: the keys share the account's slot)."""
        pipe = self.redis.pipeline(transaction=False)
        pipe.zscore(akey(account_id, "sd"), name)
        pipe.smembers(akey(account_id, "so"))
        score, members = pipe.execute()
        games = []
        for raw in members:
            seed, _, game_id = raw.decode().partition("|")
            if seed == name:
                games.append(game_id)
        return score is not None, games

    def mark_open(self, account_ids: list[str], name: str, game_id: str) -> None:
        pipe = self.redis.pipeline(transaction=False)  # one key per command: cluster-safe
        for account_id in account_ids:
            pipe.sadd(akey(account_id, "so"), f"{name}|{game_id}")
        pipe.execute()

    def drop_open(self, account_id: str, name: str, game_id: str) -> None:
        self.redis.srem(akey(account_id, "so"), f"{name}|{game_id}")

    def mark_finished(self, account_ids: list[str], name: str, game_id: str) -> None:
        """The accounts finished ``name`` in ``game_id`` (and any other seed that game was
        about to be dealt, had its start been decided again, is no longer open)."""
        for account_id in account_ids:
            key = akey(account_id, "so")
            stale = [m for m in self.redis.smembers(key) if m.decode().endswith("|" + game_id)]
            pipe = self.redis.pipeline(transaction=False)
            pipe.zadd(akey(account_id, "sd"), {name: 0})
            if stale:
                pipe.srem(key, *stale)
            pipe.execute()

    # -- sealed deals -----------------------------------------------------------------

    def seal(self, name: str, game_id: str) -> bool:
        """Seal seed ``name`` for ``game_id`` unless another game holds it (for a while:
        :meth:`keep_seal` keeps it once the deal is committed)."""
        return bool(self.redis.set(seal_key(name), game_id, nx=True, ex=SEAL_PENDING_S))

    def keep_seal(self, name: str, game_id: str) -> None:
        self._keep(keys=[seal_key(name)], args=[game_id])

    def sealed_by(self, name: str) -> str | None:
        held = self.redis.get(seal_key(name))
        return None if held is None else held.decode()

    def unseal(self, name: str, game_id: str) -> None:
        self._release(keys=[seal_key(name)], args=[game_id])

    def has_results(self, name: str) -> bool:
        """Whether any game on seed ``name`` was recorded (a team finished it)."""
        return bool(self.redis.exists(seed_keys(name)[0]))

    # -- results per seed and per board ----------------------------------------------

    def add_result(self, name: str, member: str, rank: int, entry: dict[str, Any]) -> None:
        self._add(
            keys=list(seed_keys(name)), args=[member, rank, orjson.dumps(entry), self.seed_cap]
        )

    def add_to_board(
        self, variant: str, players: int, member: str, rank: int, entry: dict[str, Any]
    ) -> None:
        keys = list(board_keys(variant, players))
        self._add(keys=keys, args=[member, rank, orjson.dumps(entry), self.board_cap])

    def page(
        self,
        keys: tuple[str, str],
        offset: int,
        limit: int,
        low: int | None = None,
        high: int | None = None,
    ) -> tuple[list[dict[str, Any]], int]:
        """Entries ``offset``.. of a ranking, best first, and how many there are (only those
        ranked between ``low`` and ``high`` when given)."""
        ranking, details = keys
        pipe = self.redis.pipeline(transaction=False)  # one key: one round trip
        if low is None or high is None:
            pipe.zrange(ranking, offset, offset + limit - 1)
            pipe.zcard(ranking)
        else:
            pipe.zrangebyscore(ranking, low, high, start=offset, num=limit)
            pipe.zcount(ranking, low, high)
        members, total = pipe.execute()
        if not members:
            return [], int(total)
        found = self.redis.hmget(details, members)
        return [orjson.loads(raw) for raw in found if raw is not None], int(total)

    # -- a player's counters --------------------------------------------------------------

    def count(self, account_id: str, game_id: str, variant: str, score: int, top: bool) -> None:
        keys = [akey(account_id, "ps"), akey(account_id, "pl:" + game_id)]
        self._count(keys=keys, args=[variant, score, int(top), MARK_TTL])

    def counters(self, account_id: str) -> dict[str, dict[str, int]]:
        out: dict[str, dict[str, int]] = {}
        for field, value in self.redis.hgetall(akey(account_id, "ps")).items():
            variant, _, name = field.decode().rpartition(":")
            out.setdefault(variant, {})[name] = int(value)
        return out
