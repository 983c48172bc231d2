"""Abuse limits: rates per client address, per seat and per game, and a cap on the
waiting requests (held long-polls and streams) of one address, all kept in Redis so they
hold across every node of a deployment (and on a Redis Cluster: every counter is one key).

The counters are Redis's (:mod:`hanabi.server.storage.rate_counters`: moving windows, and
the waiting requests of each address). The limits are checked inside the resources, after
the request is understood and before anything changes, because their keys are not all in
the request line: a chat line counts against its seat and its game. Over a limit the answer is 429
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

from flask import request
from limits import RateLimitItem, parse

from ..ops.addresses import forwarded_client, trusted_networks
from ..ops.times import now_ms
from ..storage.rate_counters import RateCounters
from ..table.clocks import seconds
from ..table.refusals import TooMany
from ..table.wording import N_, Plural, Words

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
    "replay": ("HANABI_LIMIT_REPLAY", "address"),
    "replay_lead": ("HANABI_LIMIT_REPLAY_LEAD", "room"),
    "note_seat": ("HANABI_LIMIT_NOTE_SEAT", "seat"),
    "password": ("HANABI_LIMIT_PASSWORD", "address"),  # a table's password tried
    "password_game": ("HANABI_LIMIT_PASSWORD_GAME", "game"),
    "webhook": ("HANABI_LIMIT_WEBHOOK", "address"),
    "chat_account": ("HANABI_LIMIT_CHAT_ACCOUNT", "account"),
    "chat_channel": ("HANABI_LIMIT_CHAT_CHANNEL", "channel"),
    "friends": ("HANABI_LIMIT_FRIENDS", "account"),
    "import": ("HANABI_LIMIT_IMPORT", "address"),
}

#: Seconds past its expected end that a waiting request still counts against its address,
#: should its node die without saying it ended.
LAPSE = 15

_WHOSE = {
    "address": N_("from this address"),
    "seat": N_("from this seat"),
    "game": N_("at this table"),
    "room": N_("in this replay room"),
    "account": N_("from this account"),
    "channel": N_("in this chat"),
}


def client_address(trusted: list[Any]) -> str:
    """The address the request came from (see :mod:`hanabi.server.ops.addresses`)."""
    remote = request.remote_addr or "unknown"
    return forwarded_client(remote, request.headers.get("X-Forwarded-For", ""), trusted)


@dataclass
class Limits:
    """The limits of one app (built from its settings by :func:`from_config`)."""

    counters: RateCounters
    rates: dict[str, RateLimitItem]
    per_address: bool
    waiting_cap: int
    trusted: list[Any]

    def address(self) -> str:
        return client_address(self.trusted)

    def hit(self, name: str, key: str) -> None:
        """Count one ``name`` event for ``key``: 429 past the rate (nothing counted then)."""
        if RATES[name][1] == "address" and not self.per_address:
            return
        if not self.counters.hit(self.rates[name], name, key):
            self._refuse(name, key)

    def check(self, name: str, key: str) -> None:
        """Like :meth:`hit`, without counting: to check every limit of a request before
        any of them counts it."""
        if RATES[name][1] == "address" and not self.per_address:
            return
        if not self.counters.test(self.rates[name], name, key):
            self._refuse(name, key)

    def _refuse(self, name: str, key: str) -> None:
        item = self.rates[name]
        retry = max(1, math.ceil(self.counters.reset_at(item, name, key) - time.time()))
        raise TooMany(
            "rate_limited",
            "Too many requests of this kind {whose} (at most {requests} in {window}); "
            "try again in {retry}.",
            whose=Words(_WHOSE[RATES[name][1]]),
            requests=Plural(item.amount, "{n} request", "{n} requests"),
            window=seconds(item.get_expiry()),
            retry=seconds(retry),
            retry_after=retry,
        )

    def hold_waiting(self, lapse: float) -> Callable[[float], None] | None:
        """Count one more waiting request of this address until the returned function is
        called with 0 (release) or a number of seconds (still waiting: lapse that much
        later); 429 past ``HANABI_MAX_WAITING_PER_ADDRESS``. None when per-address limits
        are off."""
        if not self.per_address:
            return None
        address = self.address()
        member = secrets.token_hex(8)
        now = now_ms()
        if not self.counters.hold(address, member, now, now + int(lapse * 1000), self.waiting_cap):
            raise TooMany(
                "too_many_waiting",
                "This address already holds {requests} (long-polls and streams); close some first.",
                requests=Plural(self.waiting_cap, "{n} waiting request", "{n} waiting requests"),
                retry_after=5,
            )

        def update(still: float) -> None:
            if still > 0:
                self.counters.renew(address, member, now_ms() + int(still * 1000))
            else:
                self.counters.release(address, member)

        return update


def from_config(config: dict[str, Any], counters: RateCounters) -> Limits:
    """The app's limits, counted by ``counters`` (on the same Redis as its games)."""
    rates = {name: parse(str(config[setting])) for name, (setting, _) in RATES.items()}
    return Limits(
        counters=counters,
        rates=rates,
        per_address=str(config["HANABI_LIMITS"]).lower() not in ("off", "0", "false", "no"),
        waiting_cap=int(config["HANABI_MAX_WAITING_PER_ADDRESS"]),
        trusted=trusted_networks(str(config["HANABI_TRUSTED_PROXIES"])),
    )
