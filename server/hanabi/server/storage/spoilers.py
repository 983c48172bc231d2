"""Spoilers in Redis: the seeds whose cards each account saw before it finished a game on
them (docs/seeds.md, "Spoilers").

Every key is the account's, in its ``{acct:<id>}`` slot, so each command and the one
script touch a single Cluster slot:

``{acct:<id>}:sp``  sorted set seed name -> when the account first saw its cards (ms); kept
    to a cap, the oldest dropped first
``{acct:<id>}:spx`` the time (ms) of the newest spoiler dropped to keep that cap: from then
    on the account may have forgotten spoilers, so every result of its after that time
    counts as spoiled (a cap must not be a way to forget)
``{acct:<id>}:sd``  (:mod:`.seeds`) the seeds the account finished: seeing those spoils
    nothing
"""

from __future__ import annotations

import redis

from .accounts import akey

# KEYS: spoilers zset, overflow mark, finished seeds (one slot). ARGV: seed, now ms, cap.
# Records the first sight only (ZADD NX); a seed the account finished is no spoiler.
# Over the cap, the oldest go and the overflow mark keeps the newest time dropped.
SAW_LUA = """
if redis.call('ZSCORE', KEYS[3], ARGV[1]) then return 0 end
local added = redis.call('ZADD', KEYS[1], 'NX', ARGV[2], ARGV[1])
local extra = redis.call('ZCARD', KEYS[1]) - tonumber(ARGV[3])
if extra > 0 then
  local gone = redis.call('ZRANGE', KEYS[1], 0, extra - 1, 'WITHSCORES')
  redis.call('ZREMRANGEBYRANK', KEYS[1], 0, extra - 1)
  local newest = tonumber(gone[#gone])
  local mark = tonumber(redis.call('GET', KEYS[2]) or '0')
  if newest > mark then redis.call('SET', KEYS[2], newest) end
end
return added
"""


def spoiler_keys(account_id: str) -> list[str]:
    return [akey(account_id, "sp"), akey(account_id, "spx"), akey(account_id, "sd")]


class SpoilerStore:
    """The keys above. ``cap``: spoilers kept per account."""

    def __init__(self, client: redis.Redis, cap: int) -> None:
        self.redis = client
        self.cap = cap
        self._saw = client.register_script(SAW_LUA)

    def saw(self, account_id: str, name: str, now_ms: int) -> bool:
        """Record that the account saw seed ``name``'s cards at ``now_ms`` (the first time
        only; nothing when it finished the seed). Whether it was new."""
        return bool(self._saw(keys=spoiler_keys(account_id), args=[name, now_ms, self.cap]))

    def since(self, account_id: str, name: str) -> tuple[int | None, int]:
        """When the account first saw seed ``name``'s cards (None: never, as far as kept),
        and the overflow mark (0: nothing dropped). One round trip."""
        pipe = self.redis.pipeline(transaction=False)
        pipe.zscore(akey(account_id, "sp"), name)
        pipe.get(akey(account_id, "spx"))
        seen, mark = pipe.execute()
        return (None if seen is None else int(seen)), int(mark or 0)

    def spoiled(self, account_id: str, prefix: str) -> set[str]:
        """The account's spoiled seeds starting with ``prefix`` (``p2v0s``)."""
        found = self.redis.zrange(akey(account_id, "sp"), 0, -1)
        return {n for n in (raw.decode() for raw in found) if n.startswith(prefix)}
