"""Change notifications: how a held long-poll or event stream learns that its game changed.

Every commit publishes the game's new version on the game's own channel (``SPUBLISH``,
sharded pub/sub, on Redis 7 and later, else ``PUBLISH``, inside the commit script; see
:mod:`hanabi.server.storage.scripts`). Each server process keeps **one** Redis
pub/sub connection, read by one listener, whatever the number of waiting requests: a game's
channel is subscribed while some request of this process waits on it (and lingers a while
after, since a woken client usually waits again at once). Per game the hub remembers the
newest version announced and a wake-up that every waiter of that game shares, so a change
to a game with 1,000 spectators is one message, one version, one wake-up call.

A waiter holds no thread of its own: under gunicorn's gevent worker (``make run``) threads
are greenlets, so an idle waiter costs a socket and a few hundred bytes. The same code runs
with real threads (the Flask test client, a threaded server).

The listener sleeps in ``select`` on its pub/sub sockets and a pipe of its own, so an idle
process costs nothing: a message wakes it, and so does a request that needs a new
subscription (it writes a byte to the pipe).

Correctness does not depend on a message arriving: a waiter that finds no version announced
yet reads the stored one after its subscription is confirmed, and a listener that lost its
connection reads every watched game's version again before it wakes anyone.
"""

from __future__ import annotations

import contextlib
import logging
import os
import select
import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import redis

from ..ops import metrics
from .keys import channel, game_of_channel

log = logging.getLogger("hanabi.server")

#: How long a game's channel stays subscribed after its last waiter left (seconds).
LINGER = 30.0
#: The longest the listener sleeps with nothing to do (seconds): it sweeps unused
#: subscriptions on waking. Messages and new subscriptions wake it at once.
IDLE = 0.25
#: How long a new waiter waits for Redis to confirm its subscription before it relies on a
#: read of the stored version alone (seconds).
CONFIRM = 1.0


class Busy(Exception):
    """This process already holds as many waiting requests as it may."""


@dataclass
class _Game:
    """What this process knows of one watched game."""

    wake: threading.Event = field(default_factory=threading.Event)
    confirmed: threading.Event = field(default_factory=threading.Event)
    latest: int | None = None  # the newest version announced since the subscription
    waiters: int = 0
    last_used: float = field(default_factory=time.monotonic)

    def announce(self, version: int | None) -> None:
        """Record ``version`` (None: unknown, re-read it) and wake every waiter at once."""
        if version is None or self.latest is None or version > self.latest:
            self.latest = version
        self.wake_up()

    def wake_up(self) -> None:
        wake, self.wake = self.wake, threading.Event()
        wake.set()


class ChangeHub:
    """Per process: one pub/sub connection, and the waiters of every game it watches.

    ``read_version(game_id)`` reads a game's stored version (None once it is gone).
    ``limit`` caps the waiting requests this process holds at once (:meth:`hold`).
    """

    def __init__(
        self,
        client: redis.Redis,
        read_version: Callable[[str], int | None],
        limit: int = 10_000,
        *,
        sharded: bool = False,
        cluster: bool = False,
    ) -> None:
        self._client = client
        self._sharded = sharded
        self._cluster = cluster
        self._read_version = read_version
        self.limit = limit
        self._lock = threading.Lock()
        self._games: dict[str, _Game] = {}
        self._todo: deque[tuple[str, str]] = deque()  # ("subscribe" | "unsubscribe", id)
        self._bell: tuple[int, int] | None = None  # the listener's wake-up pipe (read, write)
        self._pid: int | None = None
        self.waiting = 0  # waiters held right now, for limits and metrics
        self.draining = False  # the process is stopping: waits return at once (drain())

    # -- waiting ---------------------------------------------------------------------

    def wait(self, game_id: str, version: int, timeout: float) -> int | None:
        """Block until ``game_id`` is past ``version`` or ``timeout`` seconds pass.

        Returns the newest version known (``version`` itself on a timeout; None if the game
        is gone). ``version`` is one the caller read from the store: any change committed
        after that read wakes this call.
        """
        if self.draining:
            return version
        deadline = time.monotonic() + timeout
        game = self._enter(game_id)
        try:
            wake = game.wake
            if game.latest is None:
                # Nothing announced since the subscription: once Redis confirms it, no change
                # can slip by, so one read of the stored version settles the start.
                game.confirmed.wait(CONFIRM)
                stored = self._read_version(game_id)
                if stored is None:
                    return None
                if game.latest is None or stored > game.latest:
                    game.latest = stored
            while True:
                latest = game.latest
                if latest is None:  # the listener reconnected and lost track: read again
                    latest = self._read_version(game_id)
                    if latest is None:
                        return None
                if latest > version:
                    return latest
                remaining = deadline - time.monotonic()
                if remaining <= 0 or self.draining:
                    return version
                wake.wait(remaining)
                wake = game.wake
        finally:
            self._leave(game_id, game)

    def latest(self, game_id: str) -> int | None:
        """The game's current version as this process knows it without asking Redis, or
        None when it does not (the game is not watched here, or nothing was announced since
        its subscription). A commit may be announced a moment later: good enough for a
        request that is about to wait for changes anyway, never for a plain read."""
        game = self._games.get(game_id)
        if game is None or not game.confirmed.is_set():
            return None
        return game.latest

    def hold(self) -> Callable[[], None]:
        """Count one more waiting request (a long-poll or a stream) until the returned
        function is called; raises :class:`Busy` when this process already holds ``limit``."""
        with self._lock:
            if self.waiting >= self.limit:
                raise Busy
            self.waiting += 1
            metrics.set_waiters(self.waiting)
        released = False

        def release() -> None:
            nonlocal released
            with self._lock:
                if not released:
                    released = True
                    self.waiting -= 1
                    metrics.set_waiters(self.waiting)

        return release

    def _enter(self, game_id: str) -> _Game:
        self._ensure_listener()
        with self._lock:
            game = self._games.get(game_id)
            if game is None:
                game = self._games[game_id] = _Game()
                self._todo.append(("subscribe", game_id))
                self._ring()
            game.waiters += 1
            game.last_used = time.monotonic()
            return game

    def _leave(self, game_id: str, game: _Game) -> None:
        with self._lock:
            game.waiters -= 1
            game.last_used = time.monotonic()

    def wake_all(self) -> None:
        """Wake every waiter with its game's version unknown (they read it again): after
        the listener lost messages, or when the process drains."""
        with self._lock:
            games = list(self._games.values())
        for game in games:
            game.announce(None)

    def drain(self) -> None:
        """The process is stopping: every held wait returns now (as a timeout: the version
        it knows) and every later one at once (see :mod:`hanabi.server.ops.drain`)."""
        self.draining = True
        with self._lock:
            games = list(self._games.values())
        for game in games:
            game.wake_up()

    # -- the listener ----------------------------------------------------------------

    def _ensure_listener(self) -> None:
        """Start the listener in this process (after a fork the parent's is gone)."""
        pid = os.getpid()
        if self._pid == pid:
            return
        with self._lock:
            if self._pid == pid:
                return
            if self._pid is not None:  # a forked child: the parent's waiters are not ours
                self.waiting = 0
            self._pid = pid
            self._games.clear()
            self._todo.clear()
            self._bell = os.pipe()
            for end in self._bell:
                os.set_blocking(end, False)
            threading.Thread(target=self._listen, name="hanabi-changes", daemon=True).start()

    def _ring(self) -> None:
        """Wake the listener to look at its to-do list."""
        if self._bell is not None:
            # a full pipe (BlockingIOError) has wake-ups enough for the listener to read
            with contextlib.suppress(BlockingIOError):
                os.write(self._bell[1], b".")

    def _listen(self) -> None:
        while True:
            subscriber = _Subscriber(self._client, self._sharded, self._cluster)
            try:
                with self._lock:
                    known = list(self._games)
                    for game in self._games.values():
                        game.confirmed.clear()
                    self._todo.clear()
                if known:
                    subscriber.subscribe(*(channel(g) for g in known))
                self.wake_all()  # anything may have changed while we were away
                self._serve(subscriber)
            except Exception as exc:  # keep listening whatever happens
                metrics.redis_error("changes")
                log.warning("change listener lost Redis (%s); reconnecting", type(exc).__name__)
                time.sleep(0.5)
            finally:
                subscriber.close()

    def _serve(self, subscriber: _Subscriber) -> None:
        last_sweep = time.monotonic()
        assert self._bell is not None
        while True:
            self._run_todo(subscriber)
            message = subscriber.get()
            while message is not None:
                kind, name = message["type"], message["channel"]
                kind = kind.decode() if isinstance(kind, bytes) else kind
                name = name.decode() if isinstance(name, bytes) else str(name)
                with self._lock:
                    game = self._games.get(game_of_channel(name))
                if game is not None:
                    if kind in ("message", "smessage"):
                        game.announce(int(message["data"]))
                    elif kind in ("subscribe", "ssubscribe"):
                        game.confirmed.set()
                message = subscriber.get()
            now = time.monotonic()
            if now - last_sweep > 1.0:
                last_sweep = now
                self._sweep(now)
            # Every buffered message is read: sleep until a socket or the bell has news.
            subscriber.wait(self._bell[0], IDLE)
            with contextlib.suppress(BlockingIOError):
                os.read(self._bell[0], 4096)

    def _run_todo(self, subscriber: _Subscriber) -> None:
        while True:
            with self._lock:
                if not self._todo:
                    return
                action, game_id = self._todo.popleft()
                if action == "unsubscribe" and game_id in self._games:
                    continue  # wanted again meanwhile
            if action == "subscribe":
                subscriber.subscribe(channel(game_id))
            else:
                subscriber.unsubscribe(channel(game_id))

    def _sweep(self, now: float) -> None:
        """Drop subscriptions nobody has waited on for a while."""
        with self._lock:
            for game_id, game in list(self._games.items()):
                if game.waiters == 0 and now - game.last_used > LINGER:
                    del self._games[game_id]
                    self._todo.append(("unsubscribe", game_id))


class _Subscriber:
    """The listener's subscriptions in the form the server calls for: sharded channels
    (``SSUBSCRIBE``, Redis 7 and later) or classic ones; on a Cluster, one plain pub/sub
    connection to each node that owns a watched game's slot (found from the client's slot
    map; after a resharding, an error makes the listener start over and look again)."""

    def __init__(self, client: Any, sharded: bool, cluster: bool) -> None:
        self.client = client
        self.sharded = sharded
        self.cluster = cluster
        self.nodes: dict[str, Any] = {}  # node name (or "") -> PubSub
        self.where: dict[str, str] = {}  # channel -> node name

    def _pubsub_for(self, name: str) -> Any:
        node = ""
        if self.cluster:
            owner = self.client.get_node_from_key(name)
            node = owner.name
            if node not in self.nodes:
                self.nodes[node] = owner.redis_connection.pubsub()
        elif node not in self.nodes:
            self.nodes[node] = self.client.pubsub()
        self.where[name] = node
        return self.nodes[node]

    def subscribe(self, *names: str) -> None:
        for name in names:
            pubsub = self._pubsub_for(name)
            if self.sharded:
                pubsub.ssubscribe(name)
            else:
                pubsub.subscribe(name)

    def unsubscribe(self, name: str) -> None:
        node = self.where.pop(name, None)
        if node is None:
            return
        if self.sharded:
            self.nodes[node].sunsubscribe(name)
        else:
            self.nodes[node].unsubscribe(name)

    def wait(self, bell: int, timeout: float) -> None:
        """Sleep until a subscribed node's connection or ``bell`` (a file descriptor) can
        be read, or ``timeout`` seconds pass. Only once :meth:`get` found nothing: a
        message already read into a connection's buffer does not show on its socket. A
        connection with no subscription left has nothing unread (redis-py counts it
        unsubscribed only once the last confirmation is read) and is not watched."""
        sockets = [
            p.connection._sock
            for p in self.nodes.values()
            if p.subscribed and p.connection is not None and p.connection._sock is not None
        ]
        select.select([bell, *sockets], [], [], timeout)

    def get(self) -> dict[str, Any] | None:
        """The next message any node has for us already, without waiting (None: none).
        Confirmations count: an unsubscription's is read too, or its socket would stay
        readable and wake :meth:`wait` for nothing."""
        for pubsub in self.nodes.values():
            message = pubsub.get_message(timeout=0)
            if message is not None:
                return message
        return None

    def close(self) -> None:
        for pubsub in self.nodes.values():
            pubsub.close()
