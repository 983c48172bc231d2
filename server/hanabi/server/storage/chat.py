"""Chat channels in Redis: the lobby's chat and each shared replay room's, each a bounded
list of lines with a version, watched through the change hub like a game.

A channel is named by a pseudo game id, ``chat-lobby`` or ``chat-room-<room id>`` (a "-"
no game id has, and a prefix no other pseudo id uses), so its keys share the hash tag
``{game:chat-...}`` (one Cluster slot) and every line is announced on the channel's own
pub/sub channel (``{game:chat-...}:changes``) inside the script that adds it: a waiting
reader holds a socket, never a thread (:mod:`.changes`).

``{game:<hub>}:cl``  list of lines (JSON, each with its ``seq``), at most ``keep`` of them:
                     older lines fall off as new ones come (LTRIM in the same script).
``{game:<hub>}:cv``  the channel's version: the ``seq`` of its newest line.
``{game:<hub>}:ch``  sorted set of the lines hidden by reports (seq scored by seq).
``{game:<hub>}:cr:<seq>``  set of the accounts that reported a line (dropped with it).

Per account (``{acct:<id>}``, :mod:`.accounts`): ``:mu`` the accounts it muted, ``:fo`` the
accounts it follows, ``:fr`` the accounts that follow it. A follow is two writes in two
slots (no cross-slot script on a Cluster); a crash between them leaves a follower the
followed account does not know of, which only costs that follower a notification.

The moderators' queue of reports is one list, ``hanabi:chat:reports`` (newest first,
bounded), read with ``redis-cli LRANGE hanabi:chat:reports 0 -1``.
"""

from __future__ import annotations

from dataclasses import dataclass

import orjson
import redis

from .accounts import akey
from .keys import channel, tag

#: The prefix of every chat channel's pseudo game id.
CHAT_PREFIX = "chat-"
LOBBY = CHAT_PREFIX + "lobby"
REPORTS = "hanabi:chat:reports"
#: Reports kept for the moderators.
REPORTS_KEPT = 1000

# KEYS: lines, version.  ARGV: the line's JSON without its seq (an object), the lines
# kept, publish command, channel, expiry in ms (0: none).  Returns the line's seq.
SAY_LUA = """
local seq = redis.call('INCR', KEYS[2])
local line = '{"seq":' .. seq .. ',' .. string.sub(ARGV[1], 2)
redis.call('RPUSH', KEYS[1], line)
redis.call('LTRIM', KEYS[1], -tonumber(ARGV[2]), -1)
local ttl = tonumber(ARGV[5])
if ttl > 0 then
  redis.call('PEXPIRE', KEYS[1], ttl)
  redis.call('PEXPIRE', KEYS[2], ttl)
end
redis.call(ARGV[3], ARGV[4], seq)
return seq
"""

# KEYS: the line's reporters, hidden lines.  ARGV: reporter, reports that hide it, seq,
# expiry ms.  Returns 1 when this report hid the line. A hidden line wakes no reader (the
# version counts lines): it is left out of every read from then on.
REPORT_LUA = """
local added = redis.call('SADD', KEYS[1], ARGV[1])
redis.call('PEXPIRE', KEYS[1], ARGV[4])
if added == 1 and redis.call('SCARD', KEYS[1]) >= tonumber(ARGV[2]) then
  if redis.call('ZADD', KEYS[2], 'NX', ARGV[3], ARGV[3]) == 1 then
    redis.call('PEXPIRE', KEYS[2], ARGV[4])
    return 1
  end
end
return 0
"""

#: How long a report's keys live (a line is long gone by then), ms.
REPORT_TTL_MS = 7 * 24 * 3600 * 1000


def chat_keys(hub_id: str) -> tuple[str, str, str]:
    """A channel's lines, its version and its hidden lines."""
    prefix = tag(hub_id)
    return prefix + ":cl", prefix + ":cv", prefix + ":ch"


def room_hub(room_id: str) -> str:
    """The pseudo game id of a replay room's chat."""
    return CHAT_PREFIX + "room-" + room_id


def is_chat_hub(game_id: str) -> bool:
    return game_id.startswith(CHAT_PREFIX)


@dataclass(frozen=True)
class StoredLines:
    """A channel as read: its version, its lines (oldest first), the hidden seqs."""

    version: int
    lines: list[dict]
    hidden: frozenset[int]


class ChatStore:
    """Chat channels, mutes and follows on the games' Redis (or Cluster)."""

    def __init__(self, client: redis.Redis, sharded: bool) -> None:
        self.redis = client
        self.publish = "SPUBLISH" if sharded else "PUBLISH"
        self._say = self.redis.register_script(SAY_LUA)
        self._report = self.redis.register_script(REPORT_LUA)

    # -- lines -------------------------------------------------------------------------

    def say(self, hub_id: str, line: dict, keep: int, ttl_ms: int = 0) -> int:
        """Add a line (keeping the newest ``keep``); its seq. Announced on the hub."""
        lines, version, _ = chat_keys(hub_id)
        args = [orjson.dumps(line), keep, self.publish, channel(hub_id), ttl_ms]
        return int(self._say(keys=[lines, version], args=args))

    def read(self, hub_id: str) -> StoredLines:
        lines, version, hidden = chat_keys(hub_id)
        with self.redis.pipeline(transaction=False) as pipe:
            pipe.get(version)
            pipe.lrange(lines, 0, -1)
            pipe.zrange(hidden, 0, -1)
            seq, raw, gone = pipe.execute()
        return StoredLines(
            int(seq or 0), [orjson.loads(line) for line in raw], frozenset(int(s) for s in gone)
        )

    def version(self, hub_id: str) -> int:
        """A channel's version (0 before its first line: a channel never disappears)."""
        return int(self.redis.get(chat_keys(hub_id)[1]) or 0)

    def report(self, hub_id: str, seq: int, reporter: str, hide_at: int, entry: dict) -> bool:
        """Count ``reporter``'s report of line ``seq`` (once per reporter) and queue it for
        the moderators; True when it was the report that hid the line."""
        hidden = chat_keys(hub_id)[2]
        reporters = tag(hub_id) + ":cr:" + str(seq)
        args = [reporter, hide_at, seq, REPORT_TTL_MS]
        hid = bool(self._report(keys=[reporters, hidden], args=args))
        with self.redis.pipeline(transaction=False) as pipe:
            pipe.lpush(REPORTS, orjson.dumps(entry))
            pipe.ltrim(REPORTS, 0, REPORTS_KEPT - 1)
            pipe.execute()
        return hid

    # -- an account's mutes and follows -------------------------------------------------

    def members(self, account_id: str, part: str) -> set[str]:
        """An account's muted (``mu``), followed (``fo``) or followers (``fr``) ids."""
        return {m.decode() for m in self.redis.smembers(akey(account_id, part))}

    def count(self, account_id: str, part: str) -> int:
        return int(self.redis.scard(akey(account_id, part)))

    def has(self, account_id: str, part: str, other: str) -> bool:
        return bool(self.redis.sismember(akey(account_id, part), other))

    def add(self, account_id: str, part: str, other: str) -> bool:
        """Add ``other``; False if it was there already."""
        return bool(self.redis.sadd(akey(account_id, part), other))

    def remove(self, account_id: str, part: str, other: str) -> bool:
        return bool(self.redis.srem(akey(account_id, part), other))

    def some(self, account_id: str, part: str, count: int) -> list[str]:
        """Up to ``count`` members (all of them when there are no more)."""
        found = self.redis.srandmember(akey(account_id, part), count)
        return [m.decode() for m in found or ()]
