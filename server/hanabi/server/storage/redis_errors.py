"""What a failure of Redis means to the service, on a single Redis and a Redis Cluster alike.

redis-py raises ``RedisError`` for what one server answers or fails to answer. In cluster
mode it also raises ``RedisClusterException``, which is *not* a ``RedisError``, when no
node of the cluster can be reached (the whole cluster restarting, say) or a slot has no
node. A cluster that lost a master answers CLUSTERDOWN or TRYAGAIN, a full Redis under
``noeviction`` answers OOM to every write, and a master turned replica in a failover
answers READONLY: all ``ResponseError``s, yet all mean "storage is away for now", not a
bug. Read as ``RedisError`` and ``ConnectionError`` alone, a cluster that went away
answered 500 (``/health`` included), a full Redis answered 500 to every write, and the
background threads logged tracebacks instead of a one-line warning. Every place that
must outlive Redis (the bot worker, the settle sweep, the clock offset, the health
checks) and the error handler read both families from here.
"""

from __future__ import annotations

import redis.exceptions as rx

#: Everything the Redis client raises about Redis, single or cluster.
ERRORS: tuple[type[Exception], ...] = (rx.RedisError, rx.RedisClusterException)

#: Redis is away for now: a request answers 503 ``storage_unavailable`` and may retry.
_AWAY: tuple[type[Exception], ...] = (
    rx.ConnectionError,
    rx.TimeoutError,
    rx.ClusterDownError,  # CLUSTERDOWN, and MASTERDOWN
    rx.TryAgainError,  # a slot in the middle of a move
    rx.OutOfMemoryError,  # maxmemory reached under noeviction: writes refused, nothing lost
    rx.ReadOnlyError,  # a failover under way
    rx.SlotNotCoveredError,
)


def unavailable(exc: BaseException) -> bool:
    """Whether ``exc`` says Redis cannot be reached for now (rather than that a command
    was wrong, which is a bug: 500). The cluster client's "cannot be connected" has no
    class of its own; the connection error it was raised from tells."""
    if isinstance(exc, _AWAY):
        return True
    return isinstance(exc, rx.RedisClusterException) and isinstance(exc.__cause__, _AWAY)
