"""Shared replay rooms in Redis: a room's state and members, each change one script.

A room lives in one Cluster slot (the keys of :func:`~.keys.room_keys`) and announces every
change on its channel, ``{game:room-<id>}:changes``, exactly as a game's commit does, so
the change hub (:mod:`.changes`) wakes its followers' streams with no thread per follower.
A room never holds a game's keys: it names a finished game by id and keeps its own state
(position, highlights, hypothetical) beside it. Rooms expire a fixed time after they are
made (no change renews them); an owner's open rooms are counted in one sorted set.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum

import orjson
import redis

from ..ops.times import now_ms
from .keys import ROOM_PREFIX, channel, room_keys, rooms_of_key

# KEYS: the owner's rooms.  ARGV: now (ms), the room id, its expiry (ms), the limit.
CLAIM_ROOM_LUA = """
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', ARGV[1])
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[4]) then return 0 end
redis.call('ZADD', KEYS[1], ARGV[3], ARGV[2])
redis.call('PEXPIREAT', KEYS[1], ARGV[3])
return 1
"""

# KEYS: room, members.  ARGV: state, member id, member, expiry (ms).
CREATE_ROOM_LUA = """
if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
redis.call('HSET', KEYS[1], 'v', 1, 's', ARGV[1])
redis.call('HSET', KEYS[2], ARGV[2], ARGV[3])
redis.call('PEXPIREAT', KEYS[1], ARGV[4])
redis.call('PEXPIREAT', KEYS[2], ARGV[4])
return 1
"""

# KEYS: room.  ARGV: the version read, the new state, publish command, channel.
# Returns the new version, -1 if the room is gone, -2 if another change came first.
COMMIT_ROOM_LUA = """
local v = redis.call('HGET', KEYS[1], 'v')
if not v then return -1 end
if tonumber(v) ~= tonumber(ARGV[1]) then return -2 end
local nv = tonumber(v) + 1
redis.call('HSET', KEYS[1], 'v', nv, 's', ARGV[2])
redis.call(ARGV[3], ARGV[4], nv)
return nv
"""

# KEYS: room, members.  ARGV: member id, member, the most members, publish command, channel.
# Returns the new version, -1 if the room is gone, -3 if it is full.
JOIN_ROOM_LUA = """
local v = redis.call('HGET', KEYS[1], 'v')
if not v then return -1 end
if redis.call('HLEN', KEYS[2]) >= tonumber(ARGV[3]) then return -3 end
redis.call('HSET', KEYS[2], ARGV[1], ARGV[2])
local nv = redis.call('HINCRBY', KEYS[1], 'v', 1)
redis.call(ARGV[4], ARGV[5], nv)
return nv
"""


class RoomWrite(IntEnum):
    """What a room's script answers besides a new version."""

    GONE = -1  # the room expired
    RACED = -2  # another change was committed since the read: read again
    FULL = -3  # the room has all the members it may


@dataclass(frozen=True)
class StoredRoom:
    """A room as read: its version, its state (JSON), its members' count."""

    id: str
    version: int
    state: dict
    members: int


class RoomStore:
    """The rooms on one Redis or a Redis Cluster (on the games' own client)."""

    def __init__(self, client: redis.Redis, sharded: bool) -> None:
        self.redis = client
        self.publish = "SPUBLISH" if sharded else "PUBLISH"
        self._claim = self.redis.register_script(CLAIM_ROOM_LUA)
        self._create = self.redis.register_script(CREATE_ROOM_LUA)
        self._commit = self.redis.register_script(COMMIT_ROOM_LUA)
        self._join = self.redis.register_script(JOIN_ROOM_LUA)

    @staticmethod
    def hub_id(room_id: str) -> str:
        """The pseudo game id the change hub watches a room under."""
        return ROOM_PREFIX + room_id

    @staticmethod
    def is_hub_id(game_id: str) -> bool:
        return game_id.startswith(ROOM_PREFIX)

    def claim(self, owner: str, room_id: str, expires_ms: int, limit: int) -> bool:
        """Count a new room against ``owner``'s open rooms; False when it has ``limit``."""
        args = [now_ms(), room_id, expires_ms, limit]
        return bool(self._claim(keys=[rooms_of_key(owner)], args=args))

    def create(
        self, room_id: str, state: dict, member_id: str, member: dict, expires_ms: int
    ) -> bool:
        """Store a new room with its first member; False if the id is taken."""
        args = [orjson.dumps(state), member_id, orjson.dumps(member), expires_ms]
        return bool(self._create(keys=list(room_keys(room_id)), args=args))

    def load(self, room_id: str) -> StoredRoom | None:
        room, members = room_keys(room_id)
        with self.redis.pipeline(transaction=False) as pipe:
            pipe.hmget(room, "v", "s")
            pipe.hlen(members)
            (version, state), count = pipe.execute()
        if version is None or state is None:
            return None
        return StoredRoom(room_id, int(version), orjson.loads(state), int(count))

    def hub_version(self, hub_id: str) -> int | None:
        """A room's version by its pseudo game id (what the change hub reads)."""
        return self.version(hub_id[len(ROOM_PREFIX) :])

    def version(self, room_id: str) -> int | None:
        version = self.redis.hget(room_keys(room_id)[0], "v")
        return None if version is None else int(version)

    def member(self, room_id: str, member_id: str) -> dict | None:
        raw = self.redis.hget(room_keys(room_id)[1], member_id)
        return None if raw is None else orjson.loads(raw)

    def member_hashes(self, room_id: str) -> list[str]:
        """The token hashes of a room's members (at most its members' limit)."""
        raw = self.redis.hvals(room_keys(room_id)[1])
        return [orjson.loads(member)["token"] for member in raw]

    def commit(self, room_id: str, version: int, state: dict) -> int:
        """Write ``state`` over the ``version`` read; the new version, or a
        :class:`RoomWrite` code."""
        channel_name = channel(self.hub_id(room_id))
        args = [version, orjson.dumps(state), self.publish, channel_name]
        return int(self._commit(keys=[room_keys(room_id)[0]], args=args))

    def join(self, room_id: str, member_id: str, member: dict, limit: int) -> int:
        """Add a member (at most ``limit`` in all); the new version, or a code."""
        channel_name = channel(self.hub_id(room_id))
        args = [member_id, orjson.dumps(member), limit, self.publish, channel_name]
        return int(self._join(keys=list(room_keys(room_id)), args=args))
