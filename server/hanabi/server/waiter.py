"""Long-poll wake-ups: one Redis pub/sub connection and listener thread per process.

Every commit publishes ``<version>`` on its game's channel (:func:`channel`). A process
subscribes to a game's channel only while some request of its own waits on that game (and
for a while after, since a woken client usually polls again at once), so a commit costs
nothing in processes that do not care about that game. A waiter always re-reads the version
itself; a notification lost while the listener reconnects costs a periodic re-check, never
a wrong answer.
"""

from __future__ import annotations

import logging
import os
import threading
import time
from collections import defaultdict, deque
from dataclasses import dataclass, field

import redis

from .store import CHANNEL

log = logging.getLogger("hanabi.server")

#: A waiter re-checks the stored version at least this often (seconds), in case a
#: notification was lost while the listener reconnected.
RECHECK = 2.0
#: How long a game's channel stays subscribed after its last waiter left (seconds).
LINGER = 30.0
#: How long the listener blocks for a message before it looks at its to-do list (seconds):
#: it bounds the delay of a new subscription, not of a wake-up.
TICK = 0.01


def channel(game_id: str) -> str:
    return CHANNEL + ":" + game_id


@dataclass
class _Subscription:
    confirmed: threading.Event = field(default_factory=threading.Event)
    last_used: float = field(default_factory=time.monotonic)


class Waiter:
    def __init__(self, client: redis.Redis) -> None:
        self._client = client
        self._lock = threading.Lock()
        self._waiting: dict[str, set[threading.Event]] = defaultdict(set)
        self._subs: dict[str, _Subscription] = {}
        self._todo: deque[tuple[str, str]] = deque()  # ("subscribe" | "unsubscribe", game id)
        self._pid: int | None = None

    def register(self, game_id: str) -> threading.Event:
        """An event set when ``game_id`` changes; returns once notifications flow."""
        self._ensure_listener()
        event = threading.Event()
        with self._lock:
            self._waiting[game_id].add(event)
            sub = self._subs.get(game_id)
            if sub is None:
                sub = self._subs[game_id] = _Subscription()
                self._todo.append(("subscribe", game_id))
            sub.last_used = time.monotonic()
        # Once Redis confirms the subscription no change can slip by unnoticed; if it does
        # not confirm in time, the caller's periodic re-check still answers correctly.
        sub.confirmed.wait(1.0)
        return event

    def unregister(self, game_id: str, event: threading.Event) -> None:
        with self._lock:
            group = self._waiting.get(game_id)
            if group is not None:
                group.discard(event)
                if not group:
                    del self._waiting[game_id]
            sub = self._subs.get(game_id)
            if sub is not None:
                sub.last_used = time.monotonic()

    # -- the listener thread -------------------------------------------------------------

    def _ensure_listener(self) -> None:
        """Start the listener in this process (after a fork the parent's thread is gone)."""
        pid = os.getpid()
        if self._pid == pid:
            return
        with self._lock:
            if self._pid == pid:
                return
            self._pid = pid
            self._waiting.clear()
            self._subs.clear()
            self._todo.clear()
            threading.Thread(target=self._listen, name="hanabi-waiter", daemon=True).start()

    def _listen(self) -> None:
        while True:
            pubsub = self._client.pubsub()
            try:
                with self._lock:
                    known = list(self._subs)
                    for sub in self._subs.values():
                        sub.confirmed.clear()
                    self._todo.clear()
                if known:
                    pubsub.subscribe(*(channel(g) for g in known))
                self._wake_all()  # anything may have changed while we were away
                self._serve(pubsub)
            except Exception as exc:  # keep listening whatever happens
                log.warning("long-poll listener lost Redis (%s); reconnecting", type(exc).__name__)
                time.sleep(0.5)
            finally:
                pubsub.close()

    def _serve(self, pubsub: redis.client.PubSub) -> None:
        prefix = len(CHANNEL) + 1
        last_sweep = time.monotonic()
        while True:
            self._run_todo(pubsub)
            if pubsub.subscribed:
                message = pubsub.get_message(timeout=TICK)
            else:
                message = None
                time.sleep(TICK)
            while message is not None:
                kind, name = message["type"], message["channel"]
                game_id = (name.decode() if isinstance(name, bytes) else str(name))[prefix:]
                if kind == "message":
                    self._wake(game_id)
                elif kind == "subscribe":
                    with self._lock:
                        sub = self._subs.get(game_id)
                    if sub is not None:
                        sub.confirmed.set()
                message = pubsub.get_message(timeout=0)
            now = time.monotonic()
            if now - last_sweep > 1.0:
                last_sweep = now
                self._sweep(now)

    def _run_todo(self, pubsub: redis.client.PubSub) -> None:
        while True:
            with self._lock:
                if not self._todo:
                    return
                action, game_id = self._todo.popleft()
                if action == "unsubscribe" and (game_id in self._waiting or game_id in self._subs):
                    continue  # wanted again meanwhile
            if action == "subscribe":
                pubsub.subscribe(channel(game_id))
            else:
                pubsub.unsubscribe(channel(game_id))

    def _sweep(self, now: float) -> None:
        """Drop subscriptions nobody has waited on for a while."""
        with self._lock:
            for game_id, sub in list(self._subs.items()):
                if game_id not in self._waiting and now - sub.last_used > LINGER:
                    del self._subs[game_id]
                    self._todo.append(("unsubscribe", game_id))

    def _wake(self, game_id: str) -> None:
        with self._lock:
            events = list(self._waiting.get(game_id, ()))
        for event in events:
            event.set()

    def _wake_all(self) -> None:
        with self._lock:
            events = [e for group in self._waiting.values() for e in group]
        for event in events:
            event.set()
