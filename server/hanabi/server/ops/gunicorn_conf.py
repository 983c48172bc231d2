"""gunicorn settings and hooks for every way the API is served (``serving.gunicorn_command``
passes this module as gunicorn's config).

- ``graceful_timeout`` is ``HANABI_DRAIN_S``: how long a SIGTERM'd worker drains
  (:mod:`hanabi.server.ops.drain`).
- Logs are JSON lines, gunicorn's own too (:mod:`hanabi.server.ops.logs`).
- Metrics: the master makes (or empties) ``PROMETHEUS_MULTIPROC_DIR`` before any worker
  starts, and drops a dead worker's live gauges (:mod:`hanabi.server.ops.metrics`).

This module is read by the master, by path: it must not import prometheus_client at import
time (a value class chosen before the directory is set would count per process only), nor
the app (redis and ssl loaded before the gevent worker patches them would stay unpatched;
``hanabi.server`` loads its app only when ``create_app`` is asked for).
"""

from __future__ import annotations

import gc
import glob
import math
import os
import shutil
import tempfile
from typing import Any

from gunicorn.glogging import Logger

from hanabi.server.ops.config import load_config

graceful_timeout = max(1, math.ceil(load_config()["HANABI_DRAIN_S"]))


class JsonLogger(Logger):
    """gunicorn's logger, writing JSON lines (from its first line on, and after a SIGHUP).

    gunicorn's own access log is never written, whatever ``--access-logfile`` or
    ``GUNICORN_CMD_ARGS`` say: the app's request log (``HANABI_ACCESS_LOG``) replaces it, and
    gunicorn's format quotes the request line (a stream ticket travels in its query string),
    the user of a ``Basic`` Authorization header, and any header a format names."""

    def setup(self, cfg: Any) -> None:
        super().setup(cfg)
        from hanabi.server.ops.logs import configure

        configure(cfg.loglevel)

    @property
    def access_log_enabled(self) -> bool:
        return False

    def access(self, resp: Any, req: Any, environ: Any, request_time: Any) -> None:
        """Nothing: see the class docstring."""


logger_class = JsonLogger

#: The metrics directory this master made (and removes on exit); None if it was given.
_made_dir: str | None = None


def on_starting(server: Any) -> None:
    """In the master, before workers start: the metrics directory."""
    global _made_dir
    path = os.environ.get("PROMETHEUS_MULTIPROC_DIR")
    if path:
        os.makedirs(path, exist_ok=True)
        for stale in glob.glob(os.path.join(path, "*.db")):  # counts of an earlier run
            os.remove(stale)
    else:
        _made_dir = tempfile.mkdtemp(prefix="hanabi-metrics-")
        os.environ["PROMETHEUS_MULTIPROC_DIR"] = _made_dir


def post_worker_init(worker: Any) -> None:
    """Once the app is loaded: drain on SIGTERM (:func:`hanabi.server.ops.drain.install`).

    Also keep the start-up objects out of every garbage collection (``gc.freeze``), and
    collect the young generation less often. A worker holding thousands of waiting requests
    has a large, long-lived heap; this cuts the CPU a change costs when it wakes 1,000 of
    them by about 7 % (bench/scale.py)."""
    from hanabi.server.ops.drain import install

    install(worker)
    gc.freeze()
    gc.set_threshold(20_000, 20, 100)


def worker_exit(server: Any, worker: Any) -> None:
    """In the worker, as it exits: write the requests it counted since the last flush."""
    from hanabi.server.ops import metrics

    metrics.flush()


def child_exit(server: Any, worker: Any) -> None:
    """A worker is gone: its live gauges (hanabi_waiters) no longer count."""
    from prometheus_client import multiprocess

    multiprocess.mark_process_dead(worker.pid)


def on_exit(server: Any) -> None:
    if _made_dir is not None:
        shutil.rmtree(_made_dir, ignore_errors=True)
