"""Games in Redis: the record layout, atomic compare-and-set commits, and the game index.

Per game, all keys share the hash tag ``{game:<id>}`` so one game lives in one Cluster slot:

``{game:<id>}:g``  hash ``v`` (version, grows by one per commit), ``p`` (players JSON:
                   ``[[name, bot, token_hash], ...]``) and ``s`` (state blob).
``{game:<id>}:a``  list, the action log while the game is on: one JSON entry per turn,
                   ``{"s": seat, "a": action, "e": [first event index, event count]}``.
``{game:<id>}:e``  list, the event log while the game is on (public, unredacted; chat too).
``{game:<id>}:settle``  the plan that settles a finished game with accounts seated
                   (:mod:`hanabi.server.settle`).

The state blob of a lobby or live game is JSON holding the settings, the engine's snapshot
and a compact copy of the action log and chat lines, so a read is one round trip and no
replay. The commit that ends a game keeps only that blob, zlib-compressed and without the
snapshot, and drops both lists: the action log is the truth, and the events and final state
of a finished game are rebuilt from it (and cached per process, keyed by version).

Every change is one Lua script that checks the version it read, so concurrent writers in
any number of processes never lose or double a change; the loser re-reads and retries.
The commit also refreshes every key's expiry and publishes the new version on
``hanabi:changes:<id>`` for long-polls.

Bot turns: ``hanabi:bots:due`` is a sorted set of game ids whose seat to move is a bot,
scored by when a worker may take the turn (ms). The commit that leaves a bot to move adds
the game (due now) and pushes a wake-up on ``hanabi:bots:wake`` in the same script, so a
due bot turn is never lost between a commit and its enqueueing; a commit that leaves a
human to move (or ends or deletes the game) removes it. A worker claims a game by moving
its score to now + lease (:data:`CLAIM_LUA`), and a claim whose worker died simply comes
due again when the lease runs out (see :mod:`hanabi.server.bots`). These two keys are
global, so a commit script touches keys of two slots: fine on one Redis; a Cluster
deployment would need the due set per slot.

The index (``hanabi:index:<status>`` and ``hanabi:index:all``, sorted sets ordered by
member ``<created ms>:<id>``)
is updated after the commit and is advisory: listings re-check each game's status and drop
members whose game expired.
"""

from __future__ import annotations

import time
import zlib
from dataclasses import dataclass, field
from typing import Any

import orjson
import redis

CHANNEL = "hanabi:changes"
INDEX = "hanabi:index:"
BOTS_DUE = "hanabi:bots:due"
BOTS_WAKE = "hanabi:bots:wake"

# KEYS: g, a, e, bots due, bots wake.  ARGV: expected version ("0": create), players, blob,
# ttl ms, mode, game id, bot ("0": no bot to move, "1": a bot is due, "2": a bot is due and
# this commit is a bot worker's, so any claim of the game is over), now ms,
# number of action entries, action entries..., event entries...
# mode: "keep" (append), "archive" (drop the lists), "delete" (drop the game).
# Returns the new version; on a version conflict {version, players, blob} as stored now (so
# the writer can retry without another read); -2 if the game is gone.
COMMIT_LUA = """
local v = redis.call('HGET', KEYS[1], 'v')
if ARGV[1] == '0' then
  if v then return -1 end
elseif not v then
  return -2
elseif v ~= ARGV[1] then
  return redis.call('HMGET', KEYS[1], 'v', 'p', 's')
end
local nv = tonumber(ARGV[1]) + 1
if ARGV[5] == 'delete' then
  redis.call('DEL', KEYS[1], KEYS[2], KEYS[3])
else
  redis.call('HSET', KEYS[1], 'v', nv, 'p', ARGV[2], 's', ARGV[3])
  local na = tonumber(ARGV[9])
  if ARGV[5] == 'archive' then
    redis.call('DEL', KEYS[2], KEYS[3])
  else
    if na > 0 then redis.call('RPUSH', KEYS[2], unpack(ARGV, 10, 9 + na)) end
    if #ARGV > 9 + na then redis.call('RPUSH', KEYS[3], unpack(ARGV, 10 + na, #ARGV)) end
    redis.call('PEXPIRE', KEYS[2], ARGV[4])
    redis.call('PEXPIRE', KEYS[3], ARGV[4])
  end
  redis.call('PEXPIRE', KEYS[1], ARGV[4])
end
if ARGV[7] == '0' or ARGV[5] == 'delete' then
  redis.call('ZREM', KEYS[4], ARGV[6])
else
  -- "1" keeps a worker's claim (NX): a chat line must not hand the turn to a second worker
  if ARGV[7] == '2' then
    redis.call('ZADD', KEYS[4], ARGV[8], ARGV[6])
  else
    redis.call('ZADD', KEYS[4], 'NX', ARGV[8], ARGV[6])
  end
  redis.call('LPUSH', KEYS[5], ARGV[6])
  redis.call('LTRIM', KEYS[5], 0, 63)
end
redis.call('PUBLISH', 'CHANNEL:' .. ARGV[6], nv)
return nv
""".replace("CHANNEL", CHANNEL)


# KEYS: bots due.  ARGV: now ms, lease ms.  The first game due by now, re-scored to
# now + lease (claimed), or nil.
CLAIM_LUA = """
local due = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', ARGV[1], 'LIMIT', 0, 1)
if #due == 0 then return false end
redis.call('ZADD', KEYS[1], tonumber(ARGV[1]) + tonumber(ARGV[2]), due[1])
return due[1]
"""

# KEYS: g, bots due.  ARGV: game id, the version the worker found ("": no game), now ms.
# A worker that found no bot to move drops the game from the due set, unless a commit came
# in since it looked (then the game is due again at once: that commit's bot may be due).
RELEASE_LUA = """
local v = redis.call('HGET', KEYS[1], 'v')
if (not v and ARGV[2] == '') or v == ARGV[2] then
  redis.call('ZREM', KEYS[2], ARGV[1])
  return 1
end
redis.call('ZADD', KEYS[2], ARGV[3], ARGV[1])
return 0
"""


def keys(game_id: str) -> tuple[str, str, str]:
    tag = "{game:" + game_id + "}"
    return tag + ":g", tag + ":a", tag + ":e"


def now_ms() -> int:
    return int(time.time() * 1000)


@dataclass
class Player:
    name: str
    bot: str | None = None
    token: str | None = None  # hash of the bearer token; None for a bot seat
    account: str | None = None  # the account id the seat is bound to (its credential acts)

    def to_row(self) -> list[Any]:
        row = [self.name, self.bot, self.token]
        return row if self.account is None else [*row, self.account]


@dataclass
class Record:
    """One game as stored: settings, seats and, once started, the engine snapshot.

    ``events`` counts the event log. ``acts`` is a compact copy of the action log (one
    ``"<seat>:<code>"`` per turn) and ``chat`` the chat lines as ``[seq, event]``: once the
    game is finished they are all that is kept, and its events are rebuilt from them.
    """

    id: str
    status: str
    variant: str
    options: dict[str, bool]
    max_players: int
    seed: str
    deck: list[list[Any]] | None
    host: int
    created: int
    updated: int
    players: list[Player] = field(default_factory=list)
    version: int = 0
    turn: int = 0
    events: int = 0
    score: int = 0
    result: dict[str, Any] | None = None
    snap: dict[str, Any] | None = None
    acts: list[str] | None = None
    chat: list[list[Any]] | None = None
    rated: bool = False  # a rated game (accounts only; see hanabi.server.settle)

    _BLOB = ("status", "variant", "options", "max_players", "seed", "deck", "host", "created",
             "updated", "turn", "events", "score", "result", "snap", "acts", "chat",
             "rated")  # fmt: skip

    def blob(self) -> bytes:
        data = {name: getattr(self, name) for name in self._BLOB}
        raw = orjson.dumps(data)
        if self.status == "finished":
            return b"Z" + zlib.compress(raw, 9)
        return b"J" + raw

    def players_json(self) -> bytes:
        return orjson.dumps([p.to_row() for p in self.players])

    @classmethod
    def load(cls, game_id: str, version: bytes, players: bytes, blob: bytes) -> Record:
        raw = zlib.decompress(blob[1:]) if blob[:1] == b"Z" else blob[1:]
        data = orjson.loads(raw)
        rows = orjson.loads(players)
        return cls(
            id=game_id,
            version=int(version),
            players=[Player(*row) for row in rows],
            **data,
        )


def parse_players(raw: bytes) -> list[Player]:
    return [Player(*row) for row in orjson.loads(raw)]


class Conflict(Exception):
    """Another writer committed first: retry from ``current`` (the stored record, if known)."""

    def __init__(self, current: Record | None = None) -> None:
        super().__init__("version conflict")
        self.current = current


class Gone(Exception):
    """The game no longer exists (expired or deleted)."""


class Store:
    """The game store on one Redis (or Cluster) connection pool."""

    def __init__(self, url: str, ttls: dict[str, int]) -> None:
        # A blocking pool: when every connection is busy (1,000 woken waiters reading at
        # once), a request waits its turn for a moment instead of failing.
        pool = redis.BlockingConnectionPool.from_url(
            url,
            socket_connect_timeout=2,
            socket_timeout=5,
            max_connections=256,
            timeout=5,
            protocol=2,  # RESP2: redis-py parses it with less work than RESP3
        )
        self.redis = redis.Redis(connection_pool=pool)
        self.ttls = ttls  # status -> seconds
        self._commit = self.redis.register_script(COMMIT_LUA)
        self._claim = self.redis.register_script(CLAIM_LUA)
        self._release = self.redis.register_script(RELEASE_LUA)

    # -- reading -----------------------------------------------------------------------

    def ping(self) -> bool:
        return bool(self.redis.ping())

    def load(self, game_id: str) -> Record | None:
        g, _, _ = keys(game_id)
        version, players, blob = self.redis.hmget(g, "v", "p", "s")
        if version is None or blob is None:
            return None
        return Record.load(game_id, version, players, blob)

    def load_raw(self, game_id: str) -> tuple[int, bytes, bytes] | None:
        """Version, players bytes and state bytes in one round trip, parsed later (often
        the players alone are needed: a 304 never parses the state)."""
        version, players, blob = self.redis.hmget(keys(game_id)[0], "v", "p", "s")
        if version is None or players is None or blob is None:
            return None
        return int(version), players, blob

    def version(self, game_id: str) -> int | None:
        version = self.redis.hget(keys(game_id)[0], "v")
        return None if version is None else int(version)

    def action_entry(self, game_id: str, turn: int) -> dict[str, Any] | None:
        raw = self.redis.lindex(keys(game_id)[1], turn)
        return None if raw is None else orjson.loads(raw)

    def actions(self, game_id: str) -> list[dict[str, Any]]:
        return [orjson.loads(raw) for raw in self.redis.lrange(keys(game_id)[1], 0, -1)]

    def events(self, game_id: str, start: int, stop: int = -1) -> list[dict[str, Any]]:
        """Events by 0-based index, ``stop`` inclusive (Redis LRANGE)."""
        return [orjson.loads(raw) for raw in self.redis.lrange(keys(game_id)[2], start, stop)]

    # -- writing -----------------------------------------------------------------------

    def commit(
        self,
        record: Record,
        expected: int,
        *,
        actions: list[dict[str, Any]] = (),  # type: ignore[assignment]
        events: list[dict[str, Any]] = (),  # type: ignore[assignment]
        delete: bool = False,
        bot: str = "0",
    ) -> tuple[int, bytes, bytes]:
        """Write ``record`` if the stored version is still ``expected`` (0: a new game).

        ``bot`` keeps the due set of bot turns in step (see :data:`COMMIT_LUA`).

        Raises :class:`Conflict` or :class:`Gone`; returns the new version and the players
        and blob bytes written (what a later :meth:`load` would return).
        """
        mode = "delete" if delete else "archive" if record.status == "finished" else "keep"
        ttl_ms = self.ttls[record.status] * 1000
        args: list[Any] = [expected, record.players_json(), record.blob(), ttl_ms, mode]
        args += [record.id, bot, now_ms(), len(actions)]
        args += [orjson.dumps(a) for a in actions]
        args += [orjson.dumps(e) for e in events]
        result = self._commit(keys=[*keys(record.id), BOTS_DUE, BOTS_WAKE], args=args)
        if isinstance(result, list):
            version, players, blob = result
            raise Conflict(Record.load(record.id, version, players, blob))
        if result == -1:
            raise Conflict
        if result == -2:
            raise Gone
        record.version = int(result)
        return record.version, args[1], args[2]

    # -- bot turns ---------------------------------------------------------------------

    def claim_bot_turn(self, lease_ms: int) -> str | None:
        """A game whose bot turn is due, now claimed for ``lease_ms``; None if none is due."""
        found = self._claim(keys=[BOTS_DUE], args=[now_ms(), lease_ms])
        return None if found is None else found.decode()

    def release_bot_turn(self, game_id: str, version: int | None) -> bool:
        """Drop a game with no bot to move at ``version`` from the due set (see RELEASE_LUA)."""
        args = [game_id, "" if version is None else version, now_ms()]
        return bool(self._release(keys=[keys(game_id)[0], BOTS_DUE], args=args))

    def wait_bot_wake(self, timeout: float) -> bool:
        """Block until a commit made a bot turn due (or ``timeout`` seconds pass)."""
        return self.redis.blpop([BOTS_WAKE], timeout=timeout) is not None

    def index(self, record: Record, old_status: str | None, delete: bool = False) -> None:
        """Keep ``hanabi:index:<status>`` and ``hanabi:index:all`` in step with a commit."""
        member = f"{record.created:013d}:{record.id}"
        pipe = self.redis.pipeline(transaction=False)
        if old_status and (old_status != record.status or delete):
            pipe.zrem(INDEX + old_status, member)
        if delete:
            pipe.zrem(INDEX + "all", member)
        else:
            pipe.zadd(INDEX + record.status, {member: 0})
            pipe.zadd(INDEX + "all", {member: 0})
        pipe.execute()

    def scan_index(self, status: str, cursor: str | None, count: int) -> list[str]:
        """Members of a status index, newest first, strictly after ``cursor``."""
        start = "(" + cursor if cursor else "+"
        return [
            m.decode()
            for m in self.redis.zrange(
                INDEX + status, start, "-", desc=True, bylex=True, offset=0, num=count
            )
        ]

    def load_many(self, game_ids: list[str]) -> list[Record | None]:
        pipe = self.redis.pipeline(transaction=False)
        for game_id in game_ids:
            pipe.hmget(keys(game_id)[0], "v", "p", "s")
        out: list[Record | None] = []
        for game_id, (version, players, blob) in zip(game_ids, pipe.execute()):
            out.append(None if blob is None else Record.load(game_id, version, players, blob))
        return out

    def unindex(self, status: str, members: list[str]) -> None:
        if members:
            self.redis.zrem(INDEX + status, *members)
