"""The abuse limits' counters in Redis, so that they hold across every node of a
deployment (and on a Redis Cluster: every counter is one key).

Rates use the ``limits`` library (the engine of flask-limiter) with its moving-window
strategy, under ``hanabi:limits:*``. The waiting requests of one address are a sorted set
``hanabi:waiting:{<address>}``: an entry per held long-poll or stream, scored by when it
lapses should its node die without releasing it. Which limits there are, whom they count
and how a refusal reads is :mod:`hanabi.server.api.ratelimits`.
"""

from __future__ import annotations

from typing import Any

import redis
from limits import RateLimitItem
from limits.storage import RedisClusterStorage, RedisStorage
from limits.strategies import MovingWindowRateLimiter

#: Keeps one address's waiting requests: drop lapsed entries, refuse past the cap, else add.
# KEYS: the address's set.  ARGV: now ms, lapse ms, member, cap.  1: admitted, 0: full.
HOLD_LUA = """
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', ARGV[1])
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[4]) then return 0 end
redis.call('ZADD', KEYS[1], ARGV[2], ARGV[3])
redis.call('PEXPIREAT', KEYS[1], ARGV[2])
return 1
"""


def waiting_key(address: str) -> str:
    return "hanabi:waiting:{" + address + "}"


class RateCounters:
    """Moving windows per (kind, key), and the waiting requests per address."""

    def __init__(self, url: str, client: redis.Redis, cluster: bool) -> None:
        if cluster:
            node = url.split("://", 1)[1].split("/")[0]
            storage: Any = RedisClusterStorage(
                "redis+cluster://" + node, key_prefix="hanabi:limits"
            )
        else:
            storage = RedisStorage(url, key_prefix="hanabi:limits")
        self.limiter = MovingWindowRateLimiter(storage)
        self.redis = client
        self._hold = client.register_script(HOLD_LUA)

    def hit(self, item: RateLimitItem, name: str, key: str) -> bool:
        """Count one event; False (nothing counted) past the rate."""
        return bool(self.limiter.hit(item, name, key))

    def test(self, item: RateLimitItem, name: str, key: str) -> bool:
        """Whether one more event would be within the rate (nothing counted)."""
        return bool(self.limiter.test(item, name, key))

    def reset_at(self, item: RateLimitItem, name: str, key: str) -> float:
        """When (epoch seconds) the window has room again."""
        return float(self.limiter.get_window_stats(item, name, key).reset_time)

    def hold(self, address: str, member: str, now_ms: int, until_ms: int, cap: int) -> bool:
        """Add a waiting request of ``address`` (lapsing at ``until_ms``) unless it holds
        ``cap`` already; whether it was added."""
        args = [now_ms, until_ms, member, cap]
        return bool(self._hold(keys=[waiting_key(address)], args=args))

    def renew(self, address: str, member: str, until_ms: int) -> None:
        self.redis.zadd(waiting_key(address), {member: until_ms}, xx=True)

    def release(self, address: str, member: str) -> None:
        self.redis.zrem(waiting_key(address), member)
