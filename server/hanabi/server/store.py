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
and a compact copy of the action log, so a read is one round trip and no replay; its size
does not grow with chat or lobby comings and goings (each event is stored once, in the
event list). The commit that ends a game keeps only that blob, zlib-compressed, without the
snapshot and with the table's own events (lobby events and chat) read from the event list,
and drops both lists: the action log is the truth, and the events and final state of a
finished game are rebuilt from it (and cached per process, keyed by version).

Every change is one Lua script that checks the version it read, so concurrent writers in
any number of processes never lose or double a change; the loser re-reads and retries.
The commit also refreshes every key's expiry and publishes the new version on the game's
channel for long-polls and streams.

Bot turns: ``{game:bots-<b>}:bots:due`` (one per bucket, see :mod:`hanabi.server.slots`)
is a sorted set of the ids of the bucket's games whose seat to move is a bot, scored by
when a worker may take the turn (ms). Every game's id puts it in the slot of one bucket,
so the commit that leaves a bot to move adds the game to the due set beside it (due now)
in the same script, and publishes a wake-up on ``hanabi:bots:wake`` (a classic broadcast:
bot wake-ups are rare and tiny): a due bot turn is never lost between a commit and its
enqueueing, and no script touches two slots. A commit that leaves a human to move (or
ends or deletes the game) removes it. A worker claims a game by moving its score to now +
lease (:data:`CLAIM_LUA`), and a claim whose worker died simply comes due again when the
lease runs out (see :mod:`hanabi.server.bots`).

Deadlines: ``{game:bots-<b>}:deadlines`` (beside the due set) holds the games of the
bucket with a deadline (a clock that runs out, an idle limit), scored by it (ms, Redis
time); the game's hash keeps ``ts``, ``left`` and ``dl``. The commit script keeps both (see
:mod:`hanabi.server.clocks`) and workers claim them like bot turns
(:mod:`hanabi.server.deadlines`).

Changes are published on the game's own channel ``{game:<id>}:changes`` (in the game's
slot): with ``SPUBLISH``, sharded pub/sub, where the server has it (Redis 7 and later), so
on a Cluster a change reaches only the node that owns the game, else ``PUBLISH``.

REDIS_URL may name a single Redis or any node of a Redis Cluster (detected at start, then
served through redis-py's ``RedisCluster``).

The index of games by status is kept after each commit (:mod:`hanabi.server.listings`).

The listing's change feed: ``{game:listing}:version`` counts the changes that alter which
games a listing holds or a lobby table's seats (a create, join, leave, bot, start, end,
deletion), and each count is published on ``{game:listing}:changes`` like a game's version
(``listing`` is a pseudo game id: no real id is that short), so a client can hold
``GET /games?wait=N`` until the lobby changes, served by the same change hub as games.
"""

from __future__ import annotations

import logging
import time
import zlib
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

import orjson
import redis
from redis.cluster import RedisCluster

from .clocks import CLOCK_LUA, DeadlinePassed, NotDue
from .listings import GameIndex
from .slots import BUCKETS, bucket_of, bucket_tag

log = logging.getLogger("hanabi.server")

BOTS_WAKE = "hanabi:bots:wake"
#: The pseudo game id of the listings' change feed (see the module's docstring).
LISTING = "listing"
LISTING_VERSION = "{game:" + LISTING + "}:version"

# KEYS: the listing's version.  ARGV: publish command, the listing's channel.
LISTING_LUA = """
local version = redis.call('INCR', KEYS[1])
redis.call(ARGV[1], ARGV[2], version)
return version
"""

# KEYS: g, a, e, the bucket's bots due set, the bucket's deadlines (all in the game's slot).
# ARGV: expected version ("0": create), players, blob, ttl ms, mode, game id, bot ("0": no
# bot to move, "1": a bot is due, "2": a bot is due and this commit is a bot worker's, so
# any claim of the game is over), now ms, publish command (SPUBLISH or PUBLISH), the game's
# channel, the clock change ("": none; see hanabi.server.clocks.CLOCK_LUA), number of
# action entries, action entries..., event entries...
# mode: "keep" (append), "archive" (drop the lists), "delete" (drop the game).
# Returns {new version, the clock appended to the blob ("": none)}; on a version conflict
# {version, players, blob} as stored now (so the writer can retry without another read);
# -2 if the game is gone; -3 a move after the game's deadline; -4 an expiry not yet due.
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
CLOCK_LUA
if ARGV[5] == 'delete' then
  redis.call('DEL', KEYS[1], KEYS[2], KEYS[3])
  redis.call('ZREM', KEYS[5], ARGV[6])
else
  local blob = ARGV[3]
  if clock ~= '' and string.sub(blob, 1, 1) == 'J' then
    blob = string.sub(blob, 1, -2) .. ',"clock":' .. clock .. '}'
  end
  redis.call('HSET', KEYS[1], 'v', nv, 'p', ARGV[2], 's', blob)
  local na = tonumber(ARGV[12])
  if ARGV[5] == 'archive' then
    redis.call('DEL', KEYS[2], KEYS[3])
  else
    if na > 0 then redis.call('RPUSH', KEYS[2], unpack(ARGV, 13, 12 + na)) end
    if #ARGV > 12 + na then redis.call('RPUSH', KEYS[3], unpack(ARGV, 13 + na, #ARGV)) end
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
  redis.call('PUBLISH', 'BOTS_WAKE', ARGV[6])
end
redis.call(ARGV[9], ARGV[10], nv)
return {nv, clock}
""".replace("BOTS_WAKE", BOTS_WAKE).replace("CLOCK_LUA", CLOCK_LUA)


# KEYS: bots due.  ARGV: now ms, lease ms.  The first game due by now, re-scored to
# now + lease (claimed), or nil.
CLAIM_LUA = """
local due = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', ARGV[1], 'LIMIT', 0, 1)
if #due == 0 then return false end
redis.call('ZADD', KEYS[1], tonumber(ARGV[1]) + tonumber(ARGV[2]), due[1])
return due[1]
"""

# KEYS: a bucket's due set.  ARGV: game id, now ms, lease ms.  1: the game was due by now
# and is claimed (re-scored to now + lease); 0: it is not due, or someone holds its claim.
CLAIM_GAME_LUA = """
local score = redis.call('ZSCORE', KEYS[1], ARGV[1])
if not score or tonumber(score) > tonumber(ARGV[2]) then return 0 end
redis.call('ZADD', KEYS[1], tonumber(ARGV[2]) + tonumber(ARGV[3]), ARGV[1])
return 1
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


# KEYS: g, deadlines.  ARGV: game id.  A worker that ended nothing puts the game back at
# the deadline its hash holds now (or takes it off the set if it has none).
RESTORE_DEADLINE_LUA = """
local dl = redis.call('HGET', KEYS[1], 'dl')
if dl then
  redis.call('ZADD', KEYS[2], dl, ARGV[1])
  return 1
end
redis.call('ZREM', KEYS[2], ARGV[1])
return 0
"""


def keys(game_id: str) -> tuple[str, str, str]:
    tag = "{game:" + game_id + "}"
    return tag + ":g", tag + ":a", tag + ":e"


def channel(game_id: str) -> str:
    """The pub/sub channel a game's commits are announced on (in the game's slot)."""
    return "{game:" + game_id + "}:changes"


def game_of_channel(name: str) -> str:
    """The game id of a :func:`channel` name."""
    return name[len("{game:") : name.index("}")]


def due_key(bucket: int) -> str:
    """A bucket's due set of bot turns (in the bucket's slot)."""
    return "{game:" + bucket_tag(bucket) + "}:bots:due"


def deadlines_key(bucket: int) -> str:
    """A bucket's deadlines: games that end when a clock runs out or they sit idle."""
    return "{game:" + bucket_tag(bucket) + "}:deadlines"


def now_ms() -> int:
    return int(time.time() * 1000)


def iso(ms: int) -> str:
    """RFC 3339 UTC, always with milliseconds, so that timestamps sort as strings too."""
    stamp = datetime.fromtimestamp(ms / 1000, UTC).isoformat(timespec="milliseconds")
    return stamp.replace("+00:00", "Z")


@dataclass
class Player:
    name: str
    bot: str | None = None
    token: str | None = None  # hash of the bearer token; None for a bot seat
    account: str | None = None  # the account id the seat is bound to (its credential acts)
    plays: str | None = None  # the strategy the program in a person's seat says it plays

    @property
    def table_strategy(self) -> str | None:
        """What this seat plays as far as the table knows: a server bot's strategy, the
        one a program in a person's seat declared, or None (a person)."""
        return self.bot or self.plays

    def to_row(self) -> list[Any]:
        row = [self.name, self.bot, self.token]
        if self.plays is not None:
            return [*row, self.account, self.plays]
        return row if self.account is None else [*row, self.account]


@dataclass
class Record:
    """One game as stored: settings, seats and, once started, the engine snapshot.

    ``events`` counts the event log, ``chats`` its chat lines and ``chat_bytes`` their
    text's UTF-8 bytes (both kept by the commit that appends the line). ``acts`` is a compact copy
    of the action log (one ``"<seat>:<code>"`` per turn). ``chat`` is set in a finished
    game's archive only: the table's own events (lobby events and chat) as
    ``[seq, event]``. Once the game is finished ``acts`` and ``chat`` are all that is kept,
    and its events are rebuilt from them.
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
    chats: int = 0
    chat_bytes: int = 0
    custom_deal: bool = False  # the creator chose the seed or the deck: they know the deal
    rated: bool = False  # a rated game (accounts only; see hanabi.server.settle)
    timing: dict[str, Any] | None = None  # {"idle_limit": s, "timer": {base, per_turn}|None}
    clock: dict[str, Any] | None = None  # {"ts", "left", "dl"} (ms), kept by the commit script
    votes: list[int] = field(default_factory=list)  # seats that voted to end (votes.py)

    _BLOB = ("status", "variant", "options", "max_players", "seed", "deck", "host", "created",
             "updated", "turn", "events", "score", "result", "snap", "acts", "chat",
             "chats", "chat_bytes", "custom_deal", "rated", "votes", "timing")  # fmt: skip

    def blob(self) -> bytes:
        data = {name: getattr(self, name) for name in self._BLOB}
        if self.status == "finished":
            return b"Z" + zlib.compress(orjson.dumps(data), 9)
        data["chat"] = None  # only archives hold the table's events (older states did too)
        return b"J" + orjson.dumps(data)

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


class BotWakes:
    """One subscription to ``hanabi:bots:wake``, for one bot worker thread."""

    def __init__(self, client: redis.Redis) -> None:
        self.pubsub = client.pubsub(ignore_subscribe_messages=True)
        self.pubsub.subscribe(BOTS_WAKE)

    def wait(self, timeout: float) -> list[str]:
        """Block until a commit made a bot turn due (or ``timeout`` seconds pass): the ids
        of the games announced since the last call (none on a timeout)."""
        games: list[str] = []
        message = self.pubsub.get_message(timeout=max(timeout, 0.0))
        while message is not None:
            data = message["data"]
            games.append(data.decode() if isinstance(data, bytes) else str(data))
            message = self.pubsub.get_message(timeout=0)
        return games

    def close(self) -> None:
        self.pubsub.close()


class Conflict(Exception):
    """Another writer committed first: retry from ``current`` (the stored record, if known)."""

    def __init__(self, current: Record | None = None) -> None:
        super().__init__("version conflict")
        self.current = current


class Gone(Exception):
    """The game no longer exists (expired or deleted)."""


def connect(url: str) -> tuple[redis.Redis, bool, bool]:
    """A client for ``url``: (client, whether it is a Cluster, whether the server has
    sharded pub/sub). Connection pools block for a moment when every connection is busy
    (1,000 woken waiters reading at once) instead of failing."""
    options: dict[str, Any] = {
        "socket_connect_timeout": 2,
        "socket_timeout": 5,
        "max_connections": 256,
        "timeout": 5,  # seconds to wait for a free connection
        "protocol": 2,  # RESP2: redis-py parses it with less work than RESP3
    }
    cluster, version = False, (0,)
    probe = redis.Redis.from_url(url, socket_connect_timeout=2, socket_timeout=5)
    try:
        cluster = bool(probe.info("cluster").get("cluster_enabled"))
        version = tuple(int(p) for p in str(probe.info("server")["redis_version"]).split("."))
    except redis.exceptions.RedisError:
        log.warning("Redis does not answer at start: serving as a single Redis until it does")
    finally:
        probe.close()
    sharded = version >= (7,)
    if cluster:
        client = RedisCluster.from_url(
            url, connection_pool_class=redis.BlockingConnectionPool, **options
        )
        return client, True, sharded
    pool = redis.BlockingConnectionPool.from_url(url, **options)
    return redis.Redis(connection_pool=pool), False, sharded


class Store(GameIndex):
    """The game store on one Redis or a Redis Cluster."""

    def __init__(self, url: str, ttls: dict[str, int], lobby_listed_s: float = 600) -> None:
        self.redis, self.cluster, self.sharded = connect(url)
        self.publish = "SPUBLISH" if self.sharded else "PUBLISH"
        self.ttls = ttls  # status -> seconds
        self.lobby_listed_ms = int(lobby_listed_s * 1000)  # see the lobby index (module doc)
        self._commit = self.redis.register_script(COMMIT_LUA)
        self._claim = self.redis.register_script(CLAIM_LUA)
        self._claim_game = self.redis.register_script(CLAIM_GAME_LUA)
        self._release = self.redis.register_script(RELEASE_LUA)
        self._restore_deadline = self.redis.register_script(RESTORE_DEADLINE_LUA)
        self._listing = self.redis.register_script(LISTING_LUA)

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
        """A game's stored version (None: no such game); for :data:`LISTING`, the
        listing's change count."""
        if game_id == LISTING:
            return self.listing_version()
        version = self.redis.hget(keys(game_id)[0], "v")
        return None if version is None else int(version)

    def listing_version(self) -> int:
        return int(self.redis.get(LISTING_VERSION) or 0)

    def listing_changed(self) -> int:
        """Count and announce a change of the listings (after its commit)."""
        return int(self._listing(keys=[LISTING_VERSION], args=[self.publish, channel(LISTING)]))

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
        clock: str = "",
    ) -> tuple[int, bytes, bytes]:
        """Write ``record`` if the stored version is still ``expected`` (0: a new game).

        ``bot`` keeps the due set of bot turns in step (see :data:`COMMIT_LUA`).

        Raises :class:`Conflict` or :class:`Gone`; returns the new version and the players
        and blob bytes written (what a later :meth:`load` would return).
        """
        mode = "delete" if delete else "archive" if record.status == "finished" else "keep"
        ttl_ms = self.ttls[record.status] * 1000
        args: list[Any] = [expected, record.players_json(), record.blob(), ttl_ms, mode]
        args += [record.id, bot, now_ms(), self.publish, channel(record.id), clock, len(actions)]
        args += [orjson.dumps(a) for a in actions]
        args += [orjson.dumps(e) for e in events]
        bucket = bucket_of(record.id)
        due, deadlines = due_key(bucket), deadlines_key(bucket)
        result = self._commit(keys=[*keys(record.id), due, deadlines], args=args)
        if isinstance(result, list) and len(result) == 3:
            version, players, blob = result
            raise Conflict(Record.load(record.id, version, players, blob))
        if result == -1:
            raise Conflict
        if result == -2:
            raise Gone
        if result == -3:
            raise DeadlinePassed
        if result == -4:
            raise NotDue
        version, appended = result
        blob = args[2]
        if appended and blob[:1] == b"J":
            blob = blob[:-1] + b',"clock":' + appended + b"}"
        record.version = int(version)
        record.clock = orjson.loads(appended) if appended else None
        return record.version, args[1], blob

    # -- bot turns ---------------------------------------------------------------------

    def claim_bot_turn(self, lease_ms: int) -> str | None:
        """A game whose bot turn is due, now claimed for ``lease_ms``; None if none is due.

        One look at every bucket's due set (a pipeline; on a Cluster, one round trip per
        node), then a claim in the buckets that have something due."""
        return self._claim_due(due_key, now_ms(), lease_ms)

    def claim_bot_game(self, game_id: str, lease_ms: int) -> bool:
        """Claim one game's due bot turn for ``lease_ms`` (a wake-up named it): one call to
        the game's node, where :meth:`claim_bot_turn` looks at every bucket."""
        args = [game_id, now_ms(), lease_ms]
        return bool(self._claim_game(keys=[due_key(bucket_of(game_id))], args=args))

    def _claim_due(self, key_of: Any, now: int, lease_ms: int) -> str | None:
        pipe = self.redis.pipeline(transaction=False)
        for bucket in range(BUCKETS):
            pipe.zrangebyscore(key_of(bucket), "-inf", now, start=0, num=1)
        for bucket, due in enumerate(pipe.execute()):
            if due:
                found = self._claim(keys=[key_of(bucket)], args=[now, lease_ms])
                if found is not None:
                    return found.decode()
        return None

    # -- deadlines ---------------------------------------------------------------------

    def claim_deadline(self, now: int, lease_ms: int) -> str | None:
        """A game whose deadline passed by ``now`` (ms, Redis time), now claimed for
        ``lease_ms``; None if none has. A claimed deadline whose worker died comes due
        again when the lease runs out."""
        return self._claim_due(deadlines_key, now, lease_ms)

    def restore_deadline(self, game_id: str) -> None:
        """Undo a claim that ended nothing: the game goes back at its current deadline."""
        bucket = bucket_of(game_id)
        self._restore_deadline(keys=[keys(game_id)[0], deadlines_key(bucket)], args=[game_id])

    def deadline(self, game_id: str) -> float | None:
        """The game's score in its bucket's deadlines (ms; a claim's lease end once claimed)."""
        return self.redis.zscore(deadlines_key(bucket_of(game_id)), game_id)

    def release_bot_turn(self, game_id: str, version: int | None) -> bool:
        """Drop a game with no bot to move at ``version`` from the due set (see RELEASE_LUA)."""
        args = [game_id, "" if version is None else version, now_ms()]
        due = due_key(bucket_of(game_id))
        return bool(self._release(keys=[keys(game_id)[0], due], args=args))

    def is_bot_due(self, game_id: str) -> bool:
        """Whether the game is in its bucket's due set (claimed or not)."""
        return self.redis.zscore(due_key(bucket_of(game_id)), game_id) is not None

    def bot_wakes(self) -> BotWakes:
        """A listener for the wake-ups that commits publish when a bot becomes due."""
        return BotWakes(self.redis)

    def load_many(self, game_ids: list[str]) -> list[Record | None]:
        pipe = self.redis.pipeline(transaction=False)
        for game_id in game_ids:
            pipe.hmget(keys(game_id)[0], "v", "p", "s")
        out: list[Record | None] = []
        for game_id, (version, players, blob) in zip(game_ids, pipe.execute()):
            out.append(None if blob is None else Record.load(game_id, version, players, blob))
        return out
