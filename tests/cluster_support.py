"""The test suite's Redis Cluster (see :class:`hanabi.server.redis_process.RedisClusterProcess`)."""

from __future__ import annotations

from hanabi.server.redis_process import RedisClusterProcess

__all__ = ["RedisClusterProcess"]
