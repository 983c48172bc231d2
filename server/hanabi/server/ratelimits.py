"""Abuse limits: rates per client address, per seat and per game, and a cap on the
waiting requests (held long-polls and streams) of one address, all kept in Redis so they
hold across every node of a deployment (and on a Redis Cluster: every counter is one key).

Rates use the ``limits`` library (the engine of flask-limiter) with its moving-window
strategy on Redis. They are checked inside the resources, after the request is understood
and before anything changes, because their keys are not all in the request line: a chat
line counts against its seat and its game. Over a limit the answer is 429
``rate_limited`` (problem+json) with ``Retry-After``, and nothing was done.

Which address: the connection's, unless the connection comes from a proxy named in
``HANABI_TRUSTED_PROXIES``; then ``X-Forwarded-For`` is read from the right, skipping
trusted proxies, so a client cannot pick its own address by sending the header.

``HANABI_LIMITS=off`` turns the per-address limits off (benchmarks, a trusted private
deployment); the per-seat and per-game limits stay on whatever it says.
"""

from __future__ import annotations

import math
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import redis
from flask import request
from limits import RateLimitItem, parse
from limits.storage import RedisClusterStorage, RedisStorage
from limits.strategies import MovingWindowRateLimiter

from .addresses import forwarded_client, trusted_networks
from .problems import ApiError, plural

#: name -> (its setting, counted per what). The settings (defaults in config.py) are
#: rates like "20/minute".
RATES: dict[str, tuple[str, str]] = {
    "create": ("HANABI_LIMIT_CREATE", "address"),
    "join": ("HANABI_LIMIT_JOIN", "address"),
    "ticket": ("HANABI_LIMIT_TICKET", "address"),
    "register": ("HANABI_LIMIT_REGISTER", "address"),
    "login": ("HANABI_LIMIT_LOGIN", "address"),
    "chat_seat": ("HANABI_LIMIT_CHAT_SEAT", "seat"),
    "chat_game": ("HANABI_LIMIT_CHAT_GAME", "game"),
}

#: Seconds past its expected end that a waiting request still counts against its address,
#: should its node die without saying it ended.
LAPSE = 15

_WHOSE = {"address": "from this address", "seat": "from this seat", "game": "at this table"}

#: Keeps one address's waiting requests (an entry each, scored by when it lapses if its
#: node dies without releasing it): drop lapsed entries, refuse past the cap, else add.
# KEYS: the address's set.  ARGV: now ms, lapse ms, member, cap.  1: admitted, 0: full.
HOLD_LUA = """
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', ARGV[1])
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[4]) then return 0 end
redis.call('ZADD', KEYS[1], ARGV[2], ARGV[3])
redis.call('PEXPIREAT', KEYS[1], ARGV[2])
return 1
"""


def client_address(trusted: list[Any]) -> str:
    """The address the request came from (see :mod:`hanabi.server.addresses`)."""
    remote = request.remote_addr or "unknown"
    return forwarded_client(remote, request.headers.get("X-Forwarded-For", ""), trusted)


@dataclass
class Limits:
    """The limits of one app (built from its settings by :func:`from_config`)."""

    limiter: MovingWindowRateLimiter
    rates: dict[str, RateLimitItem]
    per_address: bool
    client: redis.Redis
    waiting_cap: int
    trusted: list[Any]

    def address(self) -> str:
        return client_address(self.trusted)

    def hit(self, name: str, key: str) -> None:
        """Count one ``name`` event for ``key``: 429 past the rate (nothing counted then)."""
        if RATES[name][1] == "address" and not self.per_address:
            return
        item = self.rates[name]
        if not self.limiter.hit(item, name, key):
            self._refuse(name, key)

    def check(self, name: str, key: str) -> None:
        """Like :meth:`hit`, without counting: to check every limit of a request before
        any of them counts it."""
        if RATES[name][1] == "address" and not self.per_address:
            return
        if not self.limiter.test(self.rates[name], name, key):
            self._refuse(name, key)

    def _refuse(self, name: str, key: str) -> None:
        item = self.rates[name]
        stats = self.limiter.get_window_stats(item, name, key)
        retry = max(1, math.ceil(stats.reset_time - time.time()))
        raise ApiError(
            429,
            "rate_limited",
            f"Too many requests of this kind {_WHOSE[RATES[name][1]]} (at most "
            f"{plural(item.amount, 'request')} in {plural(item.get_expiry(), 'second')}); "
            f"try again in {plural(retry, 'second')}.",
            headers={"Retry-After": str(retry)},
        )

    def hold_waiting(self, lapse: float) -> Callable[[float], None] | None:
        """Count one more waiting request of this address until the returned function is
        called with 0 (release) or a number of seconds (still waiting: lapse that much
        later); 429 past ``HANABI_MAX_WAITING_PER_ADDRESS``. None when per-address limits
        are off."""
        if not self.per_address:
            return None
        key = "hanabi:waiting:{" + self.address() + "}"
        member = secrets.token_hex(8)
        if not self._hold(key, lapse, member):
            raise ApiError(
                429,
                "too_many_waiting",
                f"This address already holds {plural(self.waiting_cap, 'waiting request')} "
                "(long-polls and streams); close some first.",
                headers={"Retry-After": "5"},
            )

        def update(still: float) -> None:
            if still > 0:
                self.client.zadd(key, {member: _ms() + int(still * 1000)}, xx=True)
            else:
                self.client.zrem(key, member)

        return update

    def _hold(self, key: str, lapse: float, member: str) -> bool:
        now = _ms()
        args = [now, now + int(lapse * 1000), member, self.waiting_cap]
        return bool(self._hold_script(keys=[key], args=args))

    def __post_init__(self) -> None:
        self._hold_script = self.client.register_script(HOLD_LUA)


def _ms() -> int:
    return int(time.time() * 1000)


def from_config(config: dict[str, Any], client: redis.Redis, cluster: bool) -> Limits:
    """The app's limits, on the same Redis (or Cluster) as its games."""
    url = config["REDIS_URL"]
    if cluster:
        node = url.split("://", 1)[1].split("/")[0]
        storage: Any = RedisClusterStorage("redis+cluster://" + node, key_prefix="hanabi:limits")
    else:
        storage = RedisStorage(url, key_prefix="hanabi:limits")
    rates = {name: parse(str(config[setting])) for name, (setting, _) in RATES.items()}
    return Limits(
        limiter=MovingWindowRateLimiter(storage),
        rates=rates,
        per_address=str(config["HANABI_LIMITS"]).lower() not in ("off", "0", "false", "no"),
        client=client,
        waiting_cap=int(config["HANABI_MAX_WAITING_PER_ADDRESS"]),
        trusted=trusted_networks(str(config["HANABI_TRUSTED_PROXIES"])),
    )
