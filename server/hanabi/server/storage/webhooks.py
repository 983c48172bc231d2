"""Webhooks in Redis: each account's hook, its delivery log, and the queue of deliveries.

Per account, in its slot (:mod:`.accounts`):

``{acct:<id>}:wh``  hash: ``url``, ``secret`` (the HMAC key: it must be readable to sign,
                    so it is stored as it is), ``created`` (ms)
``{acct:<id>}:wl``  list: the last deliveries tried, newest first (JSON), trimmed

The queue is global and lives in one slot (``{hanabi:webhooks}``), so claiming is one
script on one node:

``{hanabi:webhooks}:due``   sorted set: delivery id -> when it is due (ms)
``{hanabi:webhooks}:jobs``  hash: delivery id -> JSON {account, event, body, attempt}
``{hanabi:webhooks}:a:<account>``  set: the account's deliveries waiting (its share)

A worker claims a due delivery by moving its score to now + lease (:data:`CLAIM_LUA`);
one whose worker died comes due again when the lease runs out (at least once, never
lost). The queue is bounded (:data:`MAX_QUEUED`): past it a new delivery is refused; so
is one past the account's share (:data:`MAX_PER_ACCOUNT`), so that one account whose hook
never answers (or that moves fast in many games) cannot fill the queue for everyone.
"""

from __future__ import annotations

from typing import Any

import orjson
import redis

from .accounts import akey

DUE = "{hanabi:webhooks}:due"
JOBS = "{hanabi:webhooks}:jobs"
#: Deliveries waiting at most, across the service (each a few hundred bytes).
MAX_QUEUED = 100_000
#: Deliveries waiting at most for one account.
MAX_PER_ACCOUNT = 500
#: An account's set of waiting deliveries is dropped after this long without a new one
#: (nothing waits that long: the backoff gives up sooner), should a finish have been lost.
SHARE_TTL = 86_400

# KEYS: due, jobs.  ARGV: now ms, lease ms.  {id, job JSON} of the first due delivery,
# claimed (re-scored to now + lease), or nil.
CLAIM_LUA = """
local due = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', ARGV[1], 'LIMIT', 0, 1)
if #due == 0 then return false end
local job = redis.call('HGET', KEYS[2], due[1])
if not job then
  redis.call('ZREM', KEYS[1], due[1])
  return false
end
redis.call('ZADD', KEYS[1], tonumber(ARGV[1]) + tonumber(ARGV[2]), due[1])
return {due[1], job}
"""

# KEYS: due, jobs, the account's share.  ARGV: id, due ms, job JSON, max queued, max for
# the account, the share's TTL.  1 queued, 0 the queue (or the account's share) is full.
ENQUEUE_LUA = """
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[4]) then return 0 end
if redis.call('SISMEMBER', KEYS[3], ARGV[1]) == 0
   and redis.call('SCARD', KEYS[3]) >= tonumber(ARGV[5]) then return 0 end
redis.call('HSET', KEYS[2], ARGV[1], ARGV[3])
redis.call('ZADD', KEYS[1], ARGV[2], ARGV[1])
redis.call('SADD', KEYS[3], ARGV[1])
redis.call('EXPIRE', KEYS[3], ARGV[6])
return 1
"""


def hook_key(account_id: str) -> str:
    return akey(account_id, "wh")


def log_key(account_id: str) -> str:
    return akey(account_id, "wl")


def share_key(account_id: str) -> str:
    """The account's waiting deliveries: in the queue's slot, so one script counts them."""
    return f"{{hanabi:webhooks}}:a:{account_id}"


class WebhookStore:
    """The webhooks' keys (see the module's docstring)."""

    def __init__(self, client: redis.Redis, log_size: int) -> None:
        self.redis = client
        self.log_size = log_size
        self._claim = client.register_script(CLAIM_LUA)
        self._enqueue = client.register_script(ENQUEUE_LUA)

    # -- the account's hook ------------------------------------------------------------

    def put(self, account_id: str, url: str, secret: str, created: int) -> None:
        # One HSET: the three fields change together (a delivery signs with the new secret).
        self.redis.hset(hook_key(account_id), mapping={"url": url, "secret": secret,
                                                       "created": created})  # fmt: skip

    def get(self, account_id: str) -> dict[str, str] | None:
        raw = self.redis.hgetall(hook_key(account_id))
        return {k.decode(): v.decode() for k, v in raw.items()} or None

    def delete(self, account_id: str) -> bool:
        return bool(self.redis.delete(hook_key(account_id)))

    # -- the delivery log --------------------------------------------------------------

    def log(self, account_id: str, entry: dict[str, Any]) -> None:
        pipe = self.redis.pipeline(transaction=False)
        pipe.lpush(log_key(account_id), orjson.dumps(entry))
        pipe.ltrim(log_key(account_id), 0, self.log_size - 1)
        pipe.execute()

    def deliveries(self, account_id: str, limit: int) -> list[dict[str, Any]]:
        return [orjson.loads(r) for r in self.redis.lrange(log_key(account_id), 0, limit - 1)]

    # -- the queue ---------------------------------------------------------------------

    def enqueue(
        self, delivery_id: str, due_ms: int, job: dict[str, Any], bounded: bool = True
    ) -> bool:
        """Queue a delivery due at ``due_ms``; False if the queue is full (a retry of a
        delivery already queued is not ``bounded``: it takes no more room)."""
        most, share = (MAX_QUEUED, MAX_PER_ACCOUNT) if bounded else (2**53, 2**53)
        args = [delivery_id, due_ms, orjson.dumps(job), most, share, SHARE_TTL]
        return bool(self._enqueue(keys=[DUE, JOBS, share_key(job["account"])], args=args))

    def claim(self, now: int, lease_ms: int) -> tuple[str, dict[str, Any]] | None:
        """The first delivery due by ``now``, claimed for ``lease_ms``; None if none is."""
        found = self._claim(keys=[DUE, JOBS], args=[now, lease_ms])
        if not found:
            return None
        delivery_id, job = found
        return delivery_id.decode(), orjson.loads(job)

    def finish(self, delivery_id: str, account_id: str) -> None:
        """A delivery done with (delivered, or out of attempts)."""
        pipe = self.redis.pipeline(transaction=False)
        pipe.zrem(DUE, delivery_id)
        pipe.hdel(JOBS, delivery_id)
        pipe.srem(share_key(account_id), delivery_id)
        pipe.execute()

    def queued(self) -> int:
        return int(self.redis.zcard(DUE))
