"""The test suite's Redis Cluster (see :class:`hanabi.server.ops.redis_process.RedisClusterProcess`)."""

from __future__ import annotations

from hanabi.server.ops.redis_process import RedisClusterProcess

__all__ = ["RedisClusterProcess"]
