"""Games in Redis: loading, atomic compare-and-set commits, bot turns and deadlines.

The key layout is :mod:`.keys`, the record and its blob :mod:`.record`, the scripts and
what they keep in step :mod:`.scripts`, the listing index :mod:`.listings`.

Every change is one Lua script that checks the version it read, so concurrent writers in
any number of processes never lose or double a change; the loser re-reads and retries.
"""

from __future__ import annotations

from typing import Any

import orjson
import redis

from ..ops.times import now_ms
from .connect import connect
from .keys import (
    BOTS_WAKE,
    LISTING,
    LISTING_VERSION,
    channel,
    deadlines_key,
    due_key,
    game_keys,
)
from .listings import INDEX, GameIndex
from .record import ActionEntry, BotDue, GameStatus, Record
from .scripts import (
    CLAIM_GAME_LUA,
    CLAIM_LUA,
    COMMIT_LUA,
    LISTING_LUA,
    RELEASE_LUA,
    RESTORE_DEADLINE_LUA,
)
from .slots import BUCKETS, bucket_of


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


class VersionConflict(Exception):
    """Another writer committed first: retry from ``current`` (the stored record, if known)."""

    def __init__(self, current: Record | None = None) -> None:
        super().__init__("version conflict")
        self.current = current


class Gone(Exception):
    """The game no longer exists (expired or deleted)."""


class DeadlinePassed(Exception):
    """A move reached Redis after the game's deadline: the deadline wins."""


class NotDue(Exception):
    """An expiry reached Redis before the game's deadline (or after a move moved it)."""


class Store(GameIndex):
    """The game store on one Redis or a Redis Cluster."""

    def __init__(
        self,
        url: str,
        ttls: dict[str, int],
        lobby_listed_s: float = 600,
        *,
        check_slots: bool = False,
    ) -> None:
        self.redis, self.cluster, self.sharded = connect(url, check_slots)
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
        g, _, _ = game_keys(game_id)
        version, players, blob = self.redis.hmget(g, "v", "p", "s")
        if version is None or blob is None:
            return None
        return Record.load(game_id, version, players, blob)

    def load_raw(self, game_id: str) -> tuple[int, bytes, bytes] | None:
        """Version, players bytes and state bytes in one round trip, parsed later (often
        the players alone are needed: a 304 never parses the state)."""
        version, players, blob = self.redis.hmget(game_keys(game_id)[0], "v", "p", "s")
        if version is None or players is None or blob is None:
            return None
        return int(version), players, blob

    def version(self, game_id: str) -> int | None:
        """A game's stored version (None: no such game); for :data:`LISTING`, the
        listing's change count."""
        if game_id == LISTING:
            return self.listing_version()
        version = self.redis.hget(game_keys(game_id)[0], "v")
        return None if version is None else int(version)

    def listing_version(self) -> int:
        return int(self.redis.get(LISTING_VERSION) or 0)

    def listing_changed(self) -> int:
        """Count and announce a change of the listings (after its commit)."""
        return int(self._listing(keys=[LISTING_VERSION], args=[self.publish, channel(LISTING)]))

    def action_entry(self, game_id: str, turn: int) -> ActionEntry | None:
        raw = self.redis.lindex(game_keys(game_id)[1], turn)
        return None if raw is None else ActionEntry.load(raw)

    def actions(self, game_id: str) -> list[ActionEntry]:
        return [ActionEntry.load(raw) for raw in self.redis.lrange(game_keys(game_id)[1], 0, -1)]

    def events(self, game_id: str, start: int, stop: int = -1) -> list[dict[str, Any]]:
        """Events by 0-based index, ``stop`` inclusive (Redis LRANGE)."""
        return [orjson.loads(raw) for raw in self.redis.lrange(game_keys(game_id)[2], start, stop)]

    # -- writing -----------------------------------------------------------------------

    def commit(
        self,
        record: Record,
        expected: int,
        *,
        actions: list[ActionEntry] = (),  # type: ignore[assignment]
        events: list[dict[str, Any]] = (),  # type: ignore[assignment]
        delete: bool = False,
        bot: BotDue = BotDue.NO,
        clock: str = "",
    ) -> tuple[int, bytes, bytes]:
        """Write ``record`` if the stored version is still ``expected`` (0: a new game).

        ``bot`` keeps the due set of bot turns in step (see :data:`COMMIT_LUA`).

        Raises :class:`VersionConflict` or :class:`Gone`; returns the new version and the players
        and blob bytes written (what a later :meth:`load` would return).
        """
        mode = "delete" if delete else "archive" if record.status is GameStatus.FINISHED else "keep"
        ttl_ms = self.ttl_of(record) * 1000
        args: list[Any] = [expected, record.players_json(), record.blob(), ttl_ms, mode]
        args += [record.id, bot, now_ms(), self.publish, channel(record.id), clock, len(actions)]
        args += [entry.dump() for entry in actions]
        args += [orjson.dumps(e) for e in events]
        bucket = bucket_of(record.id)
        due, deadlines = due_key(bucket), deadlines_key(bucket)
        result = self._commit(keys=[*game_keys(record.id), due, deadlines], args=args)
        if isinstance(result, list) and len(result) == 3:
            version, players, blob = result
            raise VersionConflict(Record.load(record.id, version, players, blob))
        if result == -1:
            raise VersionConflict
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

    def ttl_of(self, record: Record) -> int:
        """Seconds the game lives without a change: its status's TTL, and for a turn-based
        game in play at least its move clock and a day (it must not expire while waiting)."""
        ttl = self.ttls[record.status]
        move_clock = (record.timing or {}).get("move_clock")
        if move_clock and record.status is GameStatus.PLAYING:
            ttl = max(ttl, move_clock + 24 * 3600)
        return ttl

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
        self._restore_deadline(keys=[game_keys(game_id)[0], deadlines_key(bucket)], args=[game_id])

    def deadline(self, game_id: str) -> float | None:
        """The game's score in its bucket's deadlines (ms; a claim's lease end once claimed)."""
        return self.redis.zscore(deadlines_key(bucket_of(game_id)), game_id)

    def release_bot_turn(self, game_id: str, version: int | None) -> bool:
        """Drop a game with no bot to move at ``version`` from the due set (see RELEASE_LUA)."""
        args = [game_id, "" if version is None else version, now_ms()]
        due = due_key(bucket_of(game_id))
        return bool(self._release(keys=[game_keys(game_id)[0], due], args=args))

    def is_bot_due(self, game_id: str) -> bool:
        """Whether the game is in its bucket's due set (claimed or not)."""
        return self.redis.zscore(due_key(bucket_of(game_id)), game_id) is not None

    def bot_wakes(self) -> BotWakes:
        """A listener for the wake-ups that commits publish when a bot becomes due."""
        return BotWakes(self.redis)

    def gauges(self) -> tuple[dict[str, int], int]:
        """What the metrics show of Redis: lobby and playing games (their index sets, which
        expired games leave lazily) and due bot turns, in one pipelined round trip."""
        statuses = (GameStatus.LOBBY, GameStatus.PLAYING)
        pipe = self.redis.pipeline(transaction=False)
        for status in statuses:
            pipe.zcard(INDEX + status)
        for bucket in range(BUCKETS):  # one due set per slot bucket
            pipe.zcard(due_key(bucket))
        counts = [int(n) for n in pipe.execute()]
        by_status = {status.value: count for status, count in zip(statuses, counts, strict=False)}
        return by_status, sum(counts[len(statuses) :])

    def load_many(self, game_ids: list[str]) -> list[Record | None]:
        pipe = self.redis.pipeline(transaction=False)
        for game_id in game_ids:
            pipe.hmget(game_keys(game_id)[0], "v", "p", "s")
        out: list[Record | None] = []
        for game_id, (version, players, blob) in zip(game_ids, pipe.execute()):
            out.append(None if blob is None else Record.load(game_id, version, players, blob))
        return out
