"""The failed-login counters in Redis: ``hanabi:login:<scope>:<what>``, one key each,
counted by one small script each (single-key: any Redis Cluster slot will do). What they
count and when a login is refused is :mod:`hanabi.server.table.login_limits`.
"""

from __future__ import annotations

import redis

#: Count one attempt on a counter: INCR, and start its window when it has none. One key.
# KEYS: the counter.  ARGV: the window, ms.  Returns {count, ms left in the window}.
RESERVE_LUA = """
local n = redis.call('INCR', KEYS[1])
local left = redis.call('PTTL', KEYS[1])
if left < 0 then
  redis.call('PEXPIRE', KEYS[1], ARGV[1])
  left = tonumber(ARGV[1])
end
return {n, left}
"""

#: Give an attempt back: DECR, unless the window ended meanwhile (the key is gone then, and
#: a DECR would make a counter at -1 with no window). One key.
RELEASE_LUA = """
if redis.call('EXISTS', KEYS[1]) == 1 then return redis.call('DECR', KEYS[1]) end
return 0
"""


def counter_key(scope: str, what: str) -> str:
    """The counter of one scope (``pair``, ``user``, ``addr``) for ``what`` it counts."""
    return f"hanabi:login:{scope}:{what}"


class LoginCounters:
    """Fixed-window counters: a counter starts its window at its first attempt and is
    forgotten when the window ends."""

    def __init__(self, client: redis.Redis) -> None:
        self.redis = client
        self._reserve = client.register_script(RESERVE_LUA)
        self._release = client.register_script(RELEASE_LUA)

    def count(self, key: str, window_ms: int) -> tuple[int, int]:
        """Count one attempt: (the count now, ms left in the counter's window)."""
        count, left_ms = self._reserve(keys=[key], args=[window_ms])
        return int(count), int(left_ms)

    def give_back(self, key: str) -> None:
        self._release(keys=[key])

    def forget(self, key: str) -> None:
        self.redis.delete(key)
