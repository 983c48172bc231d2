"""How the API is served: gunicorn with gevent workers, and CPU work kept off the loop.

Why gevent: a long-poll or an event stream spends nearly all its life waiting. With
gunicorn's threaded workers each one held an OS thread, so a few dozen waiting clients
starved a node. gevent's worker runs every request as a greenlet on one event loop per
process (Flask, flask-restx and redis-py work unchanged once gunicorn has patched the
standard library), so a waiting client costs a socket and a little memory: one process holds
thousands. What gevent cannot do is pre-empt CPU work, so anything heavy (a bot's turn) runs
in a real thread through :func:`offload`, and the loop keeps serving other clients.

Every place that starts the server (``python -m hanabi.server``, the tests, the benchmarks)
builds its command with :func:`gunicorn_command`, so they all serve the same way.
"""

from __future__ import annotations

import contextlib
import resource
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

T = TypeVar("T")

#: gunicorn's longest request line (its maximum; default 4094): far past every documented
#: input (ids of 64 characters, cursors of 100, even percent-encoded); longer ones get 414
#: problem+json (:mod:`hanabi.server.ops.gunicorn_errors`).
LIMIT_REQUEST_LINE = 8190
#: Connections one worker process serves at once (held long-polls and streams included).
WORKER_CONNECTIONS = 8_000
#: gunicorn's --keep-alive: how long a trusted proxy's connection may stay idle between
#: requests (above nginx's and HAProxy's usual pool timeouts). Every other client has
#: HANABI_HEADER_TIMEOUT instead (:mod:`hanabi.server.ops.worker`).
PROXY_KEEPALIVE = 75


def gunicorn_command(
    bind: str,
    workers: int,
    *,
    connections: int = WORKER_CONNECTIONS,
    access_log: bool = False,
    log_level: str = "info",
    app: str = "hanabi.server:create_app()",
) -> list[str]:
    """The command line that serves ``app`` (a gunicorn app spec) on ``bind``.

    ``access_log``: the app's JSON request log on stdout (``HANABI_ACCESS_LOG``), which
    replaces gunicorn's access log. The graceful timeout is ``HANABI_DRAIN_S``, from the
    environment (:mod:`hanabi.server.ops.gunicorn_conf`)."""
    command = [
        sys.executable, "-m", "gunicorn",
        "--bind", bind,
        # gunicorn's gevent worker with a per-address connection cap and a header deadline.
        "--worker-class", "hanabi.server.ops.worker.GuardedWorker",
        "--workers", str(workers),
        "--worker-connections", str(connections),
        "--timeout", "60",
        "--keep-alive", str(PROXY_KEEPALIVE),
        "--backlog", "4096",
        "--log-level", log_level,
        "--no-control-socket",
        "--limit-request-line", str(LIMIT_REQUEST_LINE),
        # By path, not as hanabi.server.ops.gunicorn_conf: importing the package in gunicorn's
        # master would load redis and ssl before the gevent worker patches them.
        "--config", str(Path(__file__).with_name("gunicorn_conf.py")),
    ]  # fmt: skip
    command += ["--env", f"HANABI_ACCESS_LOG={'on' if access_log else 'off'}"]
    return [*command, app]


def raise_open_files(wanted: int) -> tuple[int, int]:
    """Raise this process's soft open-files limit towards ``wanted`` (children inherit it),
    as far as the hard limit allows; returns (soft, hard) as they are afterwards."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    target = wanted if hard == resource.RLIM_INFINITY else min(wanted, hard)
    if soft != resource.RLIM_INFINITY and soft < target:
        with contextlib.suppress(ValueError, OSError):
            resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
    return resource.getrlimit(resource.RLIMIT_NOFILE)


def _gevent_threads() -> bool:
    """Whether gunicorn's gevent worker has patched threads into greenlets here."""
    monkey = sys.modules.get("gevent.monkey")
    return monkey is not None and monkey.is_module_patched("threading")


def yield_to_others() -> None:
    """Let the other greenlets that are ready run before this one goes on (no-op without
    gevent). A woken long-poll calls it once its answer is written: when a change wakes
    1,000 waiters, every answer goes out before the clients' next polls are read."""
    if _gevent_threads():
        import gevent

        gevent.sleep(0)


def offload(fn: Callable[..., T], *args: Any) -> T:
    """``fn(*args)`` in a real OS thread when this process runs on gevent (the calling
    greenlet waits; the event loop goes on serving), else directly.

    For pure CPU work only (no I/O: sockets in a real thread would fight the loop). The
    interpreter switches threads every few milliseconds, so a long computation slows the
    loop but never stops it.
    """
    if _gevent_threads():
        import gevent

        return gevent.get_hub().threadpool.apply(fn, args)
    return fn(*args)
