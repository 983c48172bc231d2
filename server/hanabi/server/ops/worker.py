"""gunicorn's gevent worker, guarded against clients that hoard connections (slowloris).

A gevent worker serves up to ``--worker-connections`` connections at once, and stops
accepting new ones while that many are open: one client that opened thousands of sockets
and sent nothing stalled every other client, ``/health`` included. This worker adds two
guards, both per worker process:

- **A cap per client address** (``HANABI_MAX_CONNECTIONS_PER_ADDRESS``, default 256). A
  connection over the cap is closed the moment it is accepted, before a byte is read, with
  a reset (``SO_LINGER`` 0): the kernel keeps no state for it, and refusing costs no more
  than accepting. No 429 is written there: the request has not been read yet, so a client
  could not be relied on to see the answer, and an attacker's sockets would cost a write
  each. A connection from a proxy in ``HANABI_TRUSTED_PROXIES`` is not capped by the
  proxy's address; once a request's headers are read, that request counts against the
  client the proxy names in ``X-Forwarded-For`` (:mod:`hanabi.server.ops.addresses`) for as
  long as it is served, and over the cap it is answered 429 ``too_many_connections``
  (problem+json, ``Retry-After``): the proxy, unlike the attacker, reads answers.
  gunicorn spreads connections over its workers, so one address holds up to (workers x
  cap) connections to a node. ``HANABI_LIMITS=off`` or a cap of 0 lifts the cap.
- **A deadline for a request's headers** (``HANABI_HEADER_TIMEOUT``, default 10 s): from
  the moment a connection is accepted, or the previous answer on it ended, to the end of
  the next request's headers. A client that sends nothing, or dribbles its headers, is
  closed then; so is a kept-alive connection idle that long. Only the headers are timed:
  a long-poll or an event stream, once its headers are in, lasts as long as it is meant
  to. A trusted proxy keeps its connections open between requests for gunicorn's
  ``--keep-alive`` instead (:data:`hanabi.server.ops.serving.PROXY_KEEPALIVE`): it pools
  them, and must not have one closed under a request it is sending.

gunicorn's master loads this class (``--worker-class hanabi.server.ops.worker.GuardedWorker``)
before any worker patches the standard library, so this module imports nothing at its top
but what gunicorn's own gevent worker does and the standard-library-only settings.
"""

from __future__ import annotations

import contextlib
import socket
import struct
import time
from typing import Any

import gevent
from gunicorn import util
from gunicorn.workers.ggevent import GeventWorker

from .addresses import forwarded_client, is_trusted, trusted_networks
from .config import enabled, load_config

#: Seconds a client refused for too many connections is told to wait (Retry-After).
RETRY_AFTER = 5
#: Seconds between two warnings in the log about the same address.
WARN_EVERY = 60.0
#: The greenlet attribute holding its connection's header deadline (see ``timeout_ctx``).
_DEADLINE = "hanabi_header_deadline"
#: SO_LINGER on, 0 s: close() resets the connection and frees it at once.
_RESET = struct.pack("ii", 1, 0)


class AddressCounts:
    """Connections (or, through a proxy, requests) open per client address in this process.

    One event loop runs every greenlet of the worker, and nothing here yields, so no lock
    is needed. Addresses leave the map when their count drops to 0: it holds only the
    addresses connected right now."""

    def __init__(self, cap: int) -> None:
        self.cap = cap
        self.open: dict[str, int] = {}

    def admit(self, address: str) -> bool:
        """Count one more for ``address``; False (nothing counted) if it is at the cap."""
        held = self.open.get(address, 0)
        if held >= self.cap:
            return False
        self.open[address] = held + 1
        return True

    def release(self, address: str) -> None:
        held = self.open.get(address, 0) - 1
        if held > 0:
            self.open[address] = held
        else:
            self.open.pop(address, None)


class GuardedWorker(GeventWorker):
    """The gevent worker with a per-address connection cap and a header deadline."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        """The settings, from the environment (gunicorn's ``--env`` included)."""
        super().__init__(*args, **kwargs)
        config = load_config()
        cap = int(config["HANABI_MAX_CONNECTIONS_PER_ADDRESS"])
        #: None: no cap.
        self.counts = AddressCounts(cap) if cap > 0 and enabled(config["HANABI_LIMITS"]) else None
        self.trusted = trusted_networks(str(config["HANABI_TRUSTED_PROXIES"]))
        timeout = float(config["HANABI_HEADER_TIMEOUT"])
        #: None: no deadline.
        self.header_timeout = timeout if timeout > 0 else None
        self._warned: dict[str, float] = {}

    # -- the cap on direct connections, and each connection's deadline ------------------

    def handle(self, listener: Any, client: Any, addr: Any) -> None:
        """One accepted connection, in its own greenlet: refused at once over the cap."""
        peer = addr[0] if isinstance(addr, tuple) and addr else None
        if peer is not None and is_trusted(peer, self.trusted):
            setattr(gevent.getcurrent(), _DEADLINE, self.cfg.keepalive)
            super().handle(listener, client, addr)
            return
        setattr(gevent.getcurrent(), _DEADLINE, self.header_timeout)
        if self.counts is None or peer is None:  # no cap, or a unix socket: no address
            super().handle(listener, client, addr)
            return
        if not self.counts.admit(peer):
            self._warn(peer)
            _reset(client)
            return
        try:
            super().handle(listener, client, addr)
        finally:
            self.counts.release(peer)

    def timeout_ctx(self) -> Any:
        """The deadline gunicorn puts on reading each request's headers (its keep-alive
        loop calls this around every read of the next request, the first one included);
        the connection is closed quietly when it passes."""
        deadline = getattr(gevent.getcurrent(), _DEADLINE, self.header_timeout)
        return gevent.Timeout(deadline, False)

    # -- the cap on requests a trusted proxy forwards ------------------------------------

    def handle_request(self, listener_name: Any, req: Any, sock: Any, addr: Any) -> bool:
        """Serve one request whose headers are read. From a trusted proxy, it counts
        against the forwarded client's address while it is served (429 over the cap)."""
        peer = addr[0] if isinstance(addr, tuple) and addr else None
        if self.counts is None or peer is None or not is_trusted(peer, self.trusted):
            return super().handle_request(listener_name, req, sock, addr)
        forwarded = ",".join(v for name, v in req.headers if name == "X-FORWARDED-FOR")
        client = forwarded_client(peer, forwarded, self.trusted)
        if is_trusted(client, self.trusted):  # no client named: never cap the proxy
            return super().handle_request(listener_name, req, sock, addr)
        if not self.counts.admit(client):
            self._warn(client)
            if req.body is not None:  # read to its end first: a close with unread input
                while req.body.read(65536):  # would reset the connection, answer and all
                    pass
            util.write(sock, _too_many_connections(self.counts.cap, req.headers))
            raise StopIteration()  # gunicorn's way to end the connection after an answer
        try:
            return super().handle_request(listener_name, req, sock, addr)
        finally:
            self.counts.release(client)

    def _warn(self, address: str) -> None:
        """One log line per address a minute while it is over the cap."""
        now = time.monotonic()
        if now - self._warned.get(address, -WARN_EVERY) < WARN_EVERY:
            return
        if len(self._warned) > 10_000:  # bounded: forget them all, at worst warn again
            self._warned.clear()
        self._warned[address] = now
        cap = self.counts.cap if self.counts else 0
        self.log.warning(
            "Refusing connections from %s: it holds %d, the most one address may hold "
            "open to one worker (HANABI_MAX_CONNECTIONS_PER_ADDRESS)",
            address,
            cap,
        )


def _reset(client: Any) -> None:
    """Close an accepted connection with a reset: nothing read, nothing kept."""
    with contextlib.suppress(OSError):
        client.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, _RESET)
    client.close()


def _too_many_connections(cap: int, headers: Any = ()) -> bytes:
    """The 429, in the language the request's ``Accept-Language`` asks for (gunicorn's
    request headers: (NAME, value) pairs) when the app said how
    (:data:`hanabi.server.ops.gunicorn_errors.SAY`)."""
    from .gunicorn_errors import SAY, problem_message  # loaded with the app by then

    asked = ",".join(value for name, value in headers if name == "ACCEPT-LANGUAGE")
    said = SAY(asked or None, cap, RETRY_AFTER) if SAY is not None else None
    extra = {"Retry-After": str(RETRY_AFTER)}
    if said is None:
        title, detail = (
            "Too Many Requests",
            (
                f"Too many connections from this address are open at once (at most {cap} to "
                f"each server process); close some, or try again in {RETRY_AFTER} s."
            ),
        )
    else:
        title, detail, tag = said
        extra |= {"Content-Language": tag, "Vary": "Accept-Language"}
    return problem_message(429, "Too Many Requests", "too_many_connections", detail, extra, title)
