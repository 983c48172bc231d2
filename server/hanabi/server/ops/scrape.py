"""``GET /metrics``: every process's counts (:mod:`hanabi.server.ops.metrics`) in Prometheus's
text format, with the gauges that are read from Redis when a scrape comes.

``HANABI_METRICS=off`` counts nothing and serves no ``/metrics``. ``/metrics`` is never
public: it wants ``Authorization: Bearer <HANABI_METRICS_TOKEN>``, and without that setting
it is closed (403 ``metrics_closed``). The counts tell how busy the service is, how many
games are waiting and which routes fail: a scraper's business, not every visitor's. A
token, not a second listening address: every address gunicorn binds reaches the same app,
and behind a reverse proxy on the same host every request comes from 127.0.0.1.
"""

from __future__ import annotations

import hmac
import threading
import time
from typing import Any

from flask import Flask, Response, request

from ..api.problems import ApiError
from ..storage.keys import due_key
from ..storage.listings import INDEX
from ..storage.slots import BUCKETS as SLOT_BUCKETS
from . import metrics
from .config import enabled

#: Seconds the Redis-backed gauges are cached per process (a scrape every 15 s reads Redis
#: once; many scrapers at once still read it once per TTL).
REDIS_TTL = 5.0
CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8"


# -- the Redis-backed gauges -----------------------------------------------------------


class RedisGauges:
    """``hanabi_games{status}`` and ``hanabi_bot_due``, read at scrape time with one
    pipelined round trip of ZCARDs, at most once per :data:`REDIS_TTL` seconds."""

    STATUSES = ("lobby", "playing")

    def __init__(self, store: Any) -> None:
        self.store = store
        self._read_at = -REDIS_TTL
        self._values: tuple[list[int], int] | None = None
        self._lock = threading.Lock()

    def values(self) -> tuple[list[int], int] | None:
        with self._lock:
            now = time.monotonic()
            if now - self._read_at >= REDIS_TTL:
                self._read_at = now
                try:
                    pipe = self.store.redis.pipeline(transaction=False)
                    for status in self.STATUSES:
                        pipe.zcard(INDEX + status)
                    for bucket in range(SLOT_BUCKETS):  # one due set per slot bucket
                        pipe.zcard(due_key(bucket))
                    counts = [int(n) for n in pipe.execute()]
                    games = counts[: len(self.STATUSES)]
                    self._values = (games, sum(counts[len(self.STATUSES) :]))
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
        for status, count in zip(self.STATUSES, games, strict=True):
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


# -- the endpoint ----------------------------------------------------------------------


def check_token(expected: str) -> None:
    """403 if no token is configured; 401 without a bearer token, 403 with a wrong one
    (compared in constant time)."""
    if not expected:
        raise ApiError(
            403, "metrics_closed",
            "GET /metrics is closed: set HANABI_METRICS_TOKEN on the server and send it as "
            "'Authorization: Bearer <token>'.",
        )  # fmt: skip
    header = request.headers.get("Authorization", "")
    scheme, _, given = header.strip().partition(" ")
    if scheme.lower() != "bearer" or not given.strip():
        raise ApiError(401, "auth_required", "GET /metrics wants 'Authorization: Bearer <token>'.")
    if not hmac.compare_digest(given.strip().encode(), expected.encode()):
        raise ApiError(403, "forbidden", "This token does not open /metrics.")


def install(app: Flask, store: Any) -> bool:
    """Count this app's requests and serve ``GET /metrics``, unless ``HANABI_METRICS`` is off.
    Returns whether metrics are on."""
    if not enabled(app.config["HANABI_METRICS"]):
        return False
    metrics.get()
    redis_gauges = RedisGauges(store)
    token = app.config["HANABI_METRICS_TOKEN"]

    @app.get("/metrics")
    def serve_metrics() -> Response:
        check_token(token)
        return Response(exposition(redis_gauges), headers={"Content-Type": CONTENT_TYPE})

    return True
