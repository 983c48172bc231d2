"""What ``GET /metrics`` answers: every process's counts (:mod:`hanabi.server.ops.metrics`)
in Prometheus's text format, with the gauges that are read from Redis when a scrape comes
(through a function the composition gives: this module knows no Redis keys). The endpoint
itself, closed without its token, is :mod:`hanabi.server.api.metrics`.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import Any

from . import metrics

#: Reads the gauges' values from Redis: the number of games by status (lobby, playing),
#: and of bot turns due (:meth:`hanabi.server.storage.store.Store.gauges`).
ReadGauges = Callable[[], tuple[dict[str, int], int]]

#: Seconds the Redis-backed gauges are cached per process (a scrape every 15 s reads Redis
#: once; many scrapers at once still read it once per TTL).
REDIS_TTL = 5.0
CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8"


# -- the Redis-backed gauges -----------------------------------------------------------


class RedisGauges:
    """``hanabi_games{status}`` and ``hanabi_bot_due``, read at scrape time (one round trip),
    at most once per :data:`REDIS_TTL` seconds."""

    def __init__(self, read: ReadGauges) -> None:
        self.read = read
        self._read_at = -REDIS_TTL
        self._values: tuple[dict[str, int], int] | None = None
        self._lock = threading.Lock()

    def values(self) -> tuple[dict[str, int], int] | None:
        with self._lock:
            now = time.monotonic()
            if now - self._read_at >= REDIS_TTL:
                self._read_at = now
                try:
                    self._values = self.read()
                except Exception:  # a scrape still shows the process's own counts
                    metrics.redis_error("metrics")
                    self._values = None
            return self._values

    def collect(self) -> Any:
        from prometheus_client.core import GaugeMetricFamily

        found = self.values()
        if found is None:
            return
        games, due = found
        family = GaugeMetricFamily(
            "hanabi_games", "Games by status (Redis index)", labels=["status"]
        )
        for status, count in games.items():
            family.add_metric([status], count)
        yield family
        yield GaugeMetricFamily("hanabi_bot_due", "Bot turns waiting for a bot worker", value=due)


def exposition(redis_gauges: RedisGauges) -> bytes:
    """The text format of every process's metrics and the Redis-backed gauges."""
    from prometheus_client import REGISTRY, CollectorRegistry, generate_latest, multiprocess

    metrics.flush()
    path = metrics.multiprocess_dir()
    if path:
        registry = CollectorRegistry()
        multiprocess.MultiProcessCollector(registry, path=path)
    else:
        registry = REGISTRY
    extra = CollectorRegistry(auto_describe=True)
    extra.register(redis_gauges)
    return generate_latest(registry) + generate_latest(extra)
