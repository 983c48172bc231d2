"""Connecting to Redis: a single Redis or any node of a Redis Cluster (detected at start,
then served through redis-py's ``RedisCluster``)."""

from __future__ import annotations

import logging
from typing import Any

import redis
from redis.cluster import RedisCluster

from .slot_check import SlotCheckedRedis

log = logging.getLogger("hanabi.server")


def connect(url: str, check_slots: bool = False) -> tuple[redis.Redis, bool, bool]:
    """A client for ``url``: (client, whether it is a Cluster, whether the server has
    sharded pub/sub). Connection pools block for a moment when every connection is busy
    (1,000 woken waiters reading at once) instead of failing. ``check_slots``: on a single
    Redis, refuse what a Cluster would refuse (:mod:`.slot_check`)."""
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
    kind = SlotCheckedRedis if check_slots else redis.Redis
    return kind(connection_pool=pool), False, sharded
