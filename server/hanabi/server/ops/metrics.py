"""Prometheus metrics: ``GET /metrics`` in the text format, counted in every worker process.

gunicorn runs several worker processes, and a scrape reaches one of them, so every process
writes its counts to memory-mapped files in ``PROMETHEUS_MULTIPROC_DIR`` (prometheus-client's
multiprocess mode) and the process that answers a scrape adds them all up. The gunicorn hooks
(:mod:`hanabi.server.ops.gunicorn_conf`) make and empty that directory when the server starts
and drop a dead worker's live gauges (``child_exit``). Without that directory (the Flask test
client, a single process) the same metrics are counted in this process alone.

The metrics:

- ``hanabi_requests_total{route,method,status}``: route is the URL rule
  (``/api/v1/games/{game_id}``), never the path with its ids.
- ``hanabi_request_seconds{route}``: histogram of the time to answer; held requests (a
  long-poll with ``?wait=``, an event stream) are left out: their time is the client's wait.
- ``hanabi_waiters``: long-polls and streams held right now (sum over live processes).
- ``hanabi_games{status}``: lobby and playing games, from the index sorted sets in Redis
  (ZCARD; the index is advisory: expired games leave it lazily), cached
  :data:`hanabi.server.ops.scrape.REDIS_TTL` seconds.
- ``hanabi_bot_due``: games whose bot turn waits for a bot worker (the due set, ZCARD).
- ``hanabi_actions_total{by}``: moves applied (``person`` or ``bot``; replays of a move not).
- ``hanabi_redis_errors_total{source}``: Redis failures met by requests, bot workers and
  the change listener.

The endpoint that serves them, and the gauges it reads from Redis at scrape time, are in
:mod:`hanabi.server.ops.scrape`.
"""

from __future__ import annotations

import bisect
import os
import sys
import threading
import time
from typing import Any

#: Histogram buckets (seconds) of hanabi_request_seconds.
BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0)
METHODS = frozenset({"GET", "POST", "DELETE", "PUT", "PATCH", "HEAD", "OPTIONS"})


class _Metrics:
    """The metric objects, made once per process on first use: under gunicorn that is in
    the worker, after the master has set ``PROMETHEUS_MULTIPROC_DIR``."""

    def __init__(self) -> None:
        from prometheus_client import Counter, Gauge, Histogram, values

        if multiprocess_dir() and values.ValueClass is values.MutexValue:
            # prometheus_client was imported before the directory was set (the gunicorn
            # master imports this package to read its hooks): choose the value class again.
            values.ValueClass = values.get_value_class()
        self.requests = Counter(
            "hanabi_requests", "HTTP requests answered", ["route", "method", "status"]
        )
        self.seconds = Histogram(
            "hanabi_request_seconds",
            "Time to answer a request (held long-polls and streams left out)",
            ["route"],
            buckets=BUCKETS,
        )
        self.waiters = Gauge(
            "hanabi_waiters", "Long-polls and event streams held now", multiprocess_mode="livesum"
        )
        self.actions = Counter("hanabi_actions", "Moves applied", ["by"])
        self.redis_errors = Counter("hanabi_redis_errors", "Redis failures met", ["source"])
        self.lock = _real_lock()
        self.batch = _Batch()
        threading.Thread(target=self._flush_often, name="hanabi-metrics", daemon=True).start()

    def _flush_often(self) -> None:
        while True:
            time.sleep(FLUSH)
            self.flush()

    def flush(self) -> None:
        """Write the requests counted since the last flush to the metrics."""
        with self.lock:
            batch, self.batch = self.batch, _Batch()
        for (route, method, status), n in batch.counts.items():
            label = method if method in METHODS else "other"
            self.requests.labels(route, label, str(status)).inc(n)
        for route, sums in batch.seconds.items():
            child = self.seconds.labels(route)
            # Histogram.observe() per request costs 2 locked writes to the mapped file; a
            # batch adds each bucket's count at once (the child's own values, as observe).
            child._sum.inc(sums[0])
            for i, n in enumerate(sums[1:]):
                if n:
                    child._buckets[i].inc(n)


#: Seconds between writes of the counted requests to the metrics (a scrape of this process
#: writes them first).
FLUSH = 1.0
_BOUNDS = (*BUCKETS, float("inf"))


def _real_lock() -> Any:
    """A lock of the OS: under gevent it is never held across a switch here, and costs a
    tenth of gevent's."""
    monkey = sys.modules.get("gevent.monkey")
    if monkey is not None:
        return monkey.get_original("_thread", "allocate_lock")()
    return threading.Lock()


class _Batch:
    """Requests counted since the last flush: a dict update per request, no file write."""

    def __init__(self) -> None:
        self.counts: dict[tuple[str, str, int], int] = {}
        self.seconds: dict[str, list[float]] = {}  # route -> [sum, count per bucket...]


_lock = threading.Lock()
_metrics: _Metrics | None = None


def multiprocess_dir() -> str | None:
    return os.environ.get("PROMETHEUS_MULTIPROC_DIR") or None


def get() -> _Metrics:
    global _metrics
    if _metrics is None:
        with _lock:
            if _metrics is None:
                _metrics = _Metrics()
    return _metrics


def flush() -> None:
    """Write this process's pending request counts (before a scrape, at exit)."""
    if _metrics is not None:
        _metrics.flush()


# -- counting (called from requests, the bot worker and the change hub) -------------------


def observe_request(route: str, method: str, status: int, seconds: float | None) -> None:
    """Count one answered request; ``seconds`` None for a held one (not in the histogram)."""
    m = _metrics
    if m is None:
        return
    with m.lock:
        batch = m.batch
        key = (route, method, status)
        batch.counts[key] = batch.counts.get(key, 0) + 1
        if seconds is not None:
            sums = batch.seconds.get(route)
            if sums is None:
                sums = batch.seconds[route] = [0.0] * (len(_BOUNDS) + 1)
            sums[0] += seconds
            sums[1 + bisect.bisect_left(_BOUNDS, seconds)] += 1


def action(by: str) -> None:
    """Count one applied move (``person`` or ``bot``)."""
    if _metrics is not None:
        _metrics.actions.labels(by).inc()


def redis_error(source: str) -> None:
    """Count one Redis failure met by ``source`` (request, bots, changes, metrics)."""
    if _metrics is not None:
        _metrics.redis_errors.labels(source).inc()


def set_waiters(count: int) -> None:
    """This process now holds ``count`` waiting requests."""
    if _metrics is not None:
        _metrics.waiters.set(count)
