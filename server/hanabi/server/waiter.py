"""Long-poll wake-ups: one Redis pub/sub listener thread per process.

Commits publish ``<game id> <version>`` on :data:`~hanabi.server.store.CHANNEL`; the
listener wakes the requests of this process waiting on that game. A waiter always re-reads
the version itself, so a missed message only costs a periodic re-check, never a wrong answer.
"""

from __future__ import annotations

import logging
import os
import threading
import time
from collections import defaultdict

import redis

from .store import CHANNEL

log = logging.getLogger("hanabi.server")

#: A waiter re-checks the stored version at least this often (seconds), in case a
#: notification was lost while the listener reconnected.
RECHECK = 2.0


class Waiter:
    def __init__(self, client: redis.Redis) -> None:
        self._client = client
        self._lock = threading.Lock()
        self._waiting: dict[str, set[threading.Event]] = defaultdict(set)
        self._pid: int | None = None
        self._ready = threading.Event()

    def _ensure_listener(self) -> None:
        """Start the listener in this process (after a fork the parent's thread is gone)."""
        pid = os.getpid()
        if self._pid == pid:
            return
        with self._lock:
            if self._pid == pid:
                return
            self._pid = pid
            self._ready = threading.Event()
            thread = threading.Thread(target=self._listen, name="hanabi-waiter", daemon=True)
            thread.start()
        self._ready.wait(1.0)

    def _listen(self) -> None:
        while True:
            try:
                pubsub = self._client.pubsub(ignore_subscribe_messages=True)
                pubsub.subscribe(CHANNEL)
                self._ready.set()
                self._wake_all()  # anything may have changed while we were away
                for message in pubsub.listen():
                    data = message.get("data")
                    if isinstance(data, bytes):
                        self._wake(data.split(b" ", 1)[0].decode())
            except Exception as exc:  # keep listening whatever happens
                log.warning("long-poll listener lost Redis (%s); reconnecting", type(exc).__name__)
                self._ready.set()
                time.sleep(0.5)

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

    def register(self, game_id: str) -> threading.Event:
        self._ensure_listener()
        event = threading.Event()
        with self._lock:
            self._waiting[game_id].add(event)
        return event

    def unregister(self, game_id: str, event: threading.Event) -> None:
        with self._lock:
            group = self._waiting.get(game_id)
            if group is not None:
                group.discard(event)
                if not group:
                    del self._waiting[game_id]
