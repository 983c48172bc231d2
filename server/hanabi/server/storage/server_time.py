"""Redis's clock as this process sees it, so that views and deadline claims agree with the
commit script, which keeps every clock in Redis time (:mod:`.scripts`)."""

from __future__ import annotations

import time

import redis

from . import redis_errors


class ServerTime:
    """Redis's clock as this process sees it: the local clock plus an offset measured with
    ``TIME`` now and then, so views and deadline claims agree with the commit script."""

    REFRESH = 30.0  # seconds between measurements

    def __init__(self, client: redis.Redis) -> None:
        self.redis = client
        self.offset = 0.0
        self.checked = float("-inf")

    def now_ms(self) -> int:
        local = time.monotonic()
        if local - self.checked > self.REFRESH:
            try:
                before = time.time()
                seconds, micros = self.redis.time()
                after = time.time()
                self.offset = seconds * 1000 + micros / 1000 - (before + after) * 500
                self.checked = local
            except redis_errors.ERRORS:
                pass  # the last offset will do until Redis answers
        return int(time.time() * 1000 + self.offset)
