"""A startup warning when the Redis in use may evict keys under memory pressure.

Games live in Redis only: a Redis whose ``maxmemory-policy`` is anything but
``noeviction`` drops keys (games, seats, accounts) when it is full, silently, where
``noeviction`` refuses the write (503 ``storage_unavailable``) and loses nothing. The
embedded Redis always runs with ``noeviction``; a ``REDIS_URL`` one is the operator's, so
the server looks once at start and warns. Managed Redis services often disable ``CONFIG``:
then nothing is said and nothing fails. On a Redis Cluster the node asked is one master.
"""

from __future__ import annotations

import logging
from typing import Any

from ..storage import redis_errors

log = logging.getLogger("hanabi.server")

#: The one policy that never drops a key.
SAFE_POLICY = "noeviction"


def evicting_policy(client: Any) -> str | None:
    """The Redis's ``maxmemory-policy`` if it is not ``noeviction``; None when it is, or
    when it cannot be read (CONFIG disabled or not allowed, Redis not answering)."""
    try:
        answer = client.config_get("maxmemory-policy")
    except redis_errors.ERRORS:
        return None
    policy = answer.get("maxmemory-policy") if isinstance(answer, dict) else None
    if isinstance(policy, bytes):
        policy = policy.decode()
    return None if policy in (None, SAFE_POLICY) else str(policy)


def warn_if_evicting(client: Any) -> None:
    """Log one warning if the Redis may evict game keys (see :func:`evicting_policy`)."""
    policy = evicting_policy(client)
    if policy is not None:
        log.warning(
            "Redis maxmemory-policy is %s: when Redis is full it deletes keys, games "
            "included; set maxmemory-policy noeviction (docs/deploy.md)",
            policy,
        )
