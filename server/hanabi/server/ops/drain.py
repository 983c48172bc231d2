"""Graceful shutdown: what a worker process does between SIGTERM and its exit.

``HANABI_DRAIN_S`` (default 10 s) is gunicorn's ``graceful_timeout`` (set in
:mod:`hanabi.server.ops.gunicorn_conf`). On SIGTERM (the master passes it on to every worker):

1. At once, in every worker: each app is marked draining. ``GET /api/v1/ready`` answers 503
   (a load balancer stops sending new clients), held long-polls answer 304 (the client polls
   again, on another node) and later ones at once, event streams close with a ``retry:`` hint
   of 1-5 s, bot worker threads take no more turns (one being played is committed or left to
   its lease, so another node plays it).
2. Within a second gunicorn stops accepting connections. Requests in flight (an action) run
   to their end; a commit is one Lua script, so a move is applied whole or not at all, and
   the client that sent it gets its answer.
3. Idle keep-alive connections (a load balancer keeps some open) are closed, so the worker
   exits as soon as its last request is answered instead of waiting for the clients.
4. gunicorn's master kills a worker still running after ``HANABI_DRAIN_S``.
"""

from __future__ import annotations

import contextlib
import logging
import signal
import socket
import sys
import threading
import time
from collections.abc import Callable
from typing import Any

log = logging.getLogger("hanabi.server.drain")

#: How often a draining worker closes the connections that went idle (seconds).
SWEEP = 0.1

_drains: list[Callable[[], None]] = []


def attach(app: Any, changes: Any, bots: Any) -> Callable[[], None]:
    """Register ``app`` to be drained with its process (``changes``: its change hub, whose
    waits end; ``bots``: its bot worker, which stops); returns the function that drains it
    alone (tests call it; ``app.extensions["hanabi_drain"]``)."""

    def drain_app() -> None:
        changes.drain()
        bots.stop(timeout=0)  # the threads finish the turn at hand, then stop

    app.extensions["hanabi_drain"] = drain_app
    _drains.append(drain_app)
    return drain_app


def drain_process() -> None:
    """Drain every app of this process."""
    for drain_app in list(_drains):
        try:
            drain_app()
        except Exception:
            log.exception("draining an app failed")


def _spawn(fn: Callable[..., None], *args: Any) -> None:
    """Run ``fn`` out of the signal handler: a greenlet under gevent, else a thread."""
    monkey = sys.modules.get("gevent.monkey")
    if monkey is not None and monkey.is_module_patched("threading"):
        import gevent

        gevent.spawn(fn, *args)
    else:
        threading.Thread(target=fn, args=args, daemon=True).start()


class Connections:
    """The open client connections of a gunicorn async worker, and those serving a request."""

    def __init__(self) -> None:
        self.open: set[Any] = set()
        self.busy: set[Any] = set()
        self.closed: set[Any] = set()

    def track(self, worker: Any) -> None:
        handle, handle_request = worker.handle, worker.handle_request

        def tracked_handle(listener: Any, client: Any, addr: Any) -> None:
            self.open.add(client)
            try:
                handle(listener, client, addr)
            finally:
                self.open.discard(client)
                self.closed.discard(client)

        def tracked_request(listener_name: Any, req: Any, sock: Any, addr: Any) -> Any:
            self.busy.add(sock)
            try:
                return handle_request(listener_name, req, sock, addr)
            finally:
                self.busy.discard(sock)

        worker.handle, worker.handle_request = tracked_handle, tracked_request

    def close_idle(self) -> int:
        """End the connections that wait for a next request; how many are still open.

        The read side is shut on the OS socket itself (under gevent's wrapper, which would
        cancel the waiting read with an error): the worker reads the end of the input, as
        when a client hangs up, and gunicorn closes the connection. A connection with
        bytes waiting is not idle: a request is arriving (its headers may be in, its body
        not yet), and a read past a shut read side would cut that body short; it is left
        to become busy, and gunicorn closes it after the answer."""
        for sock in list(self.open - self.busy):
            raw = getattr(sock, "_sock", sock)
            if sock not in self.closed and not _input_waiting(raw):
                self.closed.add(sock)
                with contextlib.suppress(OSError):
                    raw.shutdown(socket.SHUT_RD)
        return len(self.open)


def _input_waiting(raw: socket.socket) -> bool:
    """Whether the client has sent bytes the worker has not read yet (a peek that never
    blocks; a connection the client closed has none)."""
    try:
        return bool(raw.recv(1, socket.MSG_PEEK | socket.MSG_DONTWAIT))
    except OSError:  # BlockingIOError: nothing waiting; any other: the connection is gone
        return False


def install(worker: Any) -> None:
    """In a gunicorn worker (``post_worker_init``): drain on SIGTERM, then let gunicorn's
    own graceful stop (which the same signal starts) finish the requests in flight."""
    connections = Connections()
    if hasattr(worker, "handle_request") and _is_gevent(type(worker)):
        connections.track(worker)
    seconds = float(worker.cfg.graceful_timeout)
    previous = signal.getsignal(signal.SIGTERM)

    def on_term(signum: int, frame: Any) -> None:
        if callable(previous):
            previous(signum, frame)  # gunicorn's: stop the worker's loop
        _spawn(run, connections, seconds)

    signal.signal(signal.SIGTERM, on_term)
    signal.siginterrupt(signal.SIGTERM, False)
    if not worker.alive:  # the SIGTERM came while the app was loading
        _spawn(run, connections, seconds)


def _is_gevent(kind: type) -> bool:
    """Whether a worker class is gunicorn's gevent worker or made from it
    (:class:`hanabi.server.ops.worker.GuardedWorker`)."""
    return any("gevent" in base.__module__ for base in kind.__mro__)


def run(connections: Connections, seconds: float) -> None:
    started = time.monotonic()
    log.info("SIGTERM: draining for up to %.1f s", seconds)
    drain_process()
    while time.monotonic() - started < seconds:
        if connections.close_idle() == 0:
            break
        time.sleep(SWEEP)
    log.info("drained in %.2f s", time.monotonic() - started)
