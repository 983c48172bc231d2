"""Webhooks in Redis: each account's hook, its delivery log, and the queue of deliveries.

Per account, in its slot (:mod:`.accounts`):

``{acct:<id>}:wh``  hash: ``url``, ``secret`` (the HMAC key: it must be readable to sign,
                    so it is stored as it is), ``created`` (ms)
``{acct:<id>}:wl``  list: the last deliveries tried, newest first (JSON), trimmed

The queue is global and lives in one slot (``{hanabi:webhooks}``), so claiming is one
script on one node:

``{hanabi:webhooks}:due``   sorted set: delivery id -> when it is due (ms)
``{hanabi:webhooks}:jobs``  hash: delivery id -> JSON {account, event, body, attempt}
``{hanabi:webhooks}:a:<account>``  set: the account's deliveries waiting (its share of
                    the queue)
``{hanabi:webhooks}:busy``  hash: account -> JSON {held: {id: lease end ms}, parked:
                    {id: when it was due}}: the account's deliveries under way, and those
                    set aside until one of them is done (its share of the workers)

A worker claims a due delivery by moving its score to now + lease (:data:`CLAIM_LUA`);
one whose worker died comes due again when the lease runs out (at least once, never
lost). An account has a share of the workers: at most ``share`` of its deliveries are
under way at once, across the service. A due delivery past its account's share is
*parked*: re-scored to when the account's first lease runs out, and put back in its
place in line as soon as one of the account's deliveries is settled
(:data:`SETTLE_LUA`), so a receiver that holds every call to its deadline holds ``share``
workers, never the pool, and everyone else's calls are claimed past its queue. The queue
is bounded (:data:`MAX_QUEUED`): past it a new delivery is refused; so is one past the
account's share of it (:data:`MAX_PER_ACCOUNT`), so that one account whose hook never
answers (or that moves fast in many games) cannot fill the queue for everyone.
"""

from __future__ import annotations

from typing import Any

import orjson
import redis

from ..ops.times import now_ms
from .accounts import akey

DUE = "{hanabi:webhooks}:due"
JOBS = "{hanabi:webhooks}:jobs"
BUSY = "{hanabi:webhooks}:busy"
#: Deliveries waiting at most, across the service (each a few hundred bytes).
MAX_QUEUED = 100_000
#: Deliveries waiting at most for one account.
MAX_PER_ACCOUNT = 500
#: An account's set of waiting deliveries is dropped after this long without a new one
#: (nothing waits that long: the backoff gives up sooner), should a finish have been lost.
SHARE_TTL = 86_400

#: Due deliveries a claim looks at in one script (parking those past their share).
SCAN = 100
#: Scripts one claim runs at most before it says nothing is claimable now.
SCANS = 10

# The account's state in busy, read with expired leases dropped (the workers that held
# them died: their deliveries are due again): held, parked, how many held, the first
# lease end.
BUSY_LUA = """
local function busy_state(busy, account, now)
  local raw = redis.call('HGET', busy, account)
  local state = raw and cjson.decode(raw) or {}
  local held, parked, count, first = state.held or {}, state.parked or {}, 0, nil
  for id, till in pairs(held) do
    if till <= now then
      held[id] = nil
    else
      count = count + 1
      if not first or till < first then first = till end
    end
  end
  return {held = held, parked = parked, count = count, first = first}
end
local function save_state(busy, account, state)
  if next(state.held) == nil and next(state.parked) == nil then
    redis.call('HDEL', busy, account)
  else
    redis.call('HSET', busy, account, cjson.encode({held = state.held, parked = state.parked}))
  end
end
"""

# KEYS: due, jobs, busy.  ARGV: now ms, lease ms, the account's share, how many to look
# at.  {id, job JSON} of the first due delivery whose account is under its share,
# claimed (re-scored to now + lease); {'', ''} when none of those looked at was, but more
# are due; nil when nothing is.
CLAIM_LUA = (
    BUSY_LUA
    + """
local now, lease = tonumber(ARGV[1]), tonumber(ARGV[2])
local share, scan = tonumber(ARGV[3]), tonumber(ARGV[4])
local due = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', now, 'WITHSCORES', 'LIMIT', 0, scan)
local states, order, claimed = {}, {}, false
for i = 1, #due, 2 do
  local id, score = due[i], tonumber(due[i + 1])
  local job = redis.call('HGET', KEYS[2], id)
  if not job then
    redis.call('ZREM', KEYS[1], id)
  else
    local account = cjson.decode(job)['account']
    local state = states[account]
    if not state then
      state = busy_state(KEYS[3], account, now)
      states[account] = state
      order[#order + 1] = account
    end
    if state.count < share then
      state.held[id] = now + lease
      state.parked[id] = nil
      redis.call('ZADD', KEYS[1], now + lease, id)
      claimed = {id, job}
      break
    end
    state.parked[id] = state.parked[id] or score  -- its place in line
    redis.call('ZADD', KEYS[1], state.first, id)
  end
end
for _, account in ipairs(order) do save_state(KEYS[3], account, states[account]) end
if claimed then return claimed end
if #due == 2 * scan then return {'', ''} end
return false
"""
)

# KEYS: due, jobs, busy, the account's share.  ARGV: id, account, now ms, the account's
# share, when it is tried again (ms; '' when it is done with), its job JSON.  The delivery
# done with (or put back for its retry), its place freed, and as many of the account's
# parked deliveries as there are free places put back in line.
SETTLE_LUA = (
    BUSY_LUA
    + """
local id, account = ARGV[1], ARGV[2]
local now, share = tonumber(ARGV[3]), tonumber(ARGV[4])
if ARGV[5] == '' then
  redis.call('ZREM', KEYS[1], id)
  redis.call('HDEL', KEYS[2], id)
  redis.call('SREM', KEYS[4], id)
else
  redis.call('HSET', KEYS[2], id, ARGV[6])
  redis.call('ZADD', KEYS[1], tonumber(ARGV[5]), id)
end
local state = busy_state(KEYS[3], account, now)
if state.held[id] then
  state.held[id] = nil
  state.count = state.count - 1
end
state.parked[id] = nil
local free = share - state.count
while free > 0 do
  local first, at = nil, nil
  for parked, score in pairs(state.parked) do
    if not at or score < at then first, at = parked, score end
  end
  if not first then break end
  state.parked[first] = nil
  if redis.call('ZSCORE', KEYS[1], first) then
    redis.call('ZADD', KEYS[1], at, first)
    free = free - 1
  end
end
save_state(KEYS[3], account, state)
return 1
"""
)

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

    def __init__(self, client: redis.Redis, log_size: int, share: int = 1) -> None:
        self.redis = client
        self.log_size = log_size
        #: An account's deliveries under way at once, across the service.
        self.share = max(1, share)
        self._claim = client.register_script(CLAIM_LUA)
        self._settle = client.register_script(SETTLE_LUA)
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
        """The first delivery due by ``now`` whose account is under its share, claimed for
        ``lease_ms``; None if none is (those past their account's share are parked)."""
        for _ in range(SCANS):
            found = self._claim(keys=[DUE, JOBS, BUSY], args=[now, lease_ms, self.share, SCAN])
            if not found:
                return None
            delivery_id, job = found
            if delivery_id:
                return delivery_id.decode(), orjson.loads(job)
        return None

    def finish(self, delivery_id: str, account_id: str, now: int | None = None) -> None:
        """A delivery done with (delivered, or out of attempts): its place is freed."""
        self._settle_one(delivery_id, account_id, now, "", b"")

    def retry(self, delivery_id: str, due_ms: int, job: dict[str, Any], now: int) -> None:
        """A claimed delivery put back, due at ``due_ms`` (a retry of a delivery already
        queued takes no more room): its place is freed."""
        self._settle_one(delivery_id, job["account"], now, due_ms, orjson.dumps(job))

    def _settle_one(self, delivery_id: str, account_id: str, now: int | None,
                    due: int | str, job: bytes) -> None:  # fmt: skip
        now = now if now is not None else now_ms()
        self._settle(keys=[DUE, JOBS, BUSY, share_key(account_id)],
                     args=[delivery_id, account_id, now, self.share, due, job])  # fmt: skip

    def queued(self) -> int:
        return int(self.redis.zcard(DUE))
