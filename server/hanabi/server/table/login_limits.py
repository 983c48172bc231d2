"""Counting failed logins, so that nobody may guess a password for long.

Every login (and every check of a password: a change, a deletion) first *reserves* an
attempt on three counters, each one Redis key counted by one small script (single-key, so
any Redis Cluster slot will do), and only then verifies the password. An attempt past a
limit is refused (429 ``too_many_failed_logins`` with ``Retry-After``) before any hash is
computed, however many logins arrive at once: the counter a request reads is the one it
just incremented, so 40 parallel guesses cannot all read "0 failures so far".

The counters (all settings in config.py):

- per account **and** address (``HANABI_LOGIN_FAILS_PAIR``, 10 per 15 minutes): what stops
  a stranger guessing from one place, without locking the owner (elsewhere) out;
- per account from anywhere (``HANABI_LOGIN_FAILS_USER``, 100 per 24 hours): bounds a
  guesser with many addresses. NIST SP 800-63B (5.2.2) asks for at most 100 failed
  attempts on one account before further limits; 100 a day is what a password of even a
  few words withstands for centuries, and reaching it takes 10 addresses or more;
- per address over every account (``HANABI_LOGIN_FAILS_ADDR``, 20 per 5 minutes): bounds
  one address trying one password on many accounts.

A right password gives its reservation back on the account and address counters and
clears the pair's (the owner proved themselves from there); a wrong one stays counted.
An attempt that ends for another reason (the hashing queue is full, Redis fails) gives
its reservation back. Windows are fixed: a counter starts its window at its first
attempt and is forgotten when the window ends.

An IPv6 client is counted by its /64 network: one host commonly holds a whole /64, so
counting single addresses would give it 2**64 fresh counters.
"""

from __future__ import annotations

import ipaddress
from dataclasses import dataclass, field
from enum import Enum
from typing import Any

from ..storage.login_counters import LoginCounters, counter_key
from .refusals import TooMany
from .wording import N_, Plural, Words


class Scope(Enum):
    """What a counter counts failed logins of."""

    PAIR = "pair"  # one account from one address
    ACCOUNT = "user"  # one account from anywhere
    ADDRESS = "addr"  # one address over every account


#: Each counter's settings: (attempts, window in seconds).
SETTINGS = {
    Scope.PAIR: ("HANABI_LOGIN_FAILS_PAIR", "HANABI_LOGIN_PAIR_WINDOW"),
    Scope.ACCOUNT: ("HANABI_LOGIN_FAILS_USER", "HANABI_LOGIN_USER_WINDOW"),
    Scope.ADDRESS: ("HANABI_LOGIN_FAILS_ADDR", "HANABI_LOGIN_ADDR_WINDOW"),
}

#: The sentence a refusal says, per counter.
WHY = {
    Scope.PAIR: N_("Too many failed logins for this account from this address"),
    Scope.ACCOUNT: N_("Too many failed logins for this account"),
    Scope.ADDRESS: N_("Too many failed logins from this address"),
}


@dataclass(frozen=True)
class Limit:
    scope: Scope
    attempts: int
    window_s: int


def counted_address(address: str) -> str:
    """The address a login counts against: an IPv6 address's /64, any other as is."""
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return address
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:  # ::ffff:a.b.c.d is the IPv4 client a.b.c.d
            return str(ip.ipv4_mapped)
        return str(ipaddress.ip_network(f"{ip}/64", strict=False))
    return str(ip)


@dataclass
class Reservation:
    """One login attempt, counted on every counter; say how it went."""

    throttle: LoginThrottle
    keys: dict[Scope, str] = field(default_factory=dict)

    def succeeded(self) -> None:
        """The right password: the pair's failures are forgotten, the others given back."""
        self.throttle.counters.forget(self.keys[Scope.PAIR])
        for scope in (Scope.ACCOUNT, Scope.ADDRESS):
            self.throttle.counters.give_back(self.keys[scope])

    def cancel(self) -> None:
        """No password was judged (the attempt failed for another reason): give it back."""
        for key in self.keys.values():
            self.throttle.counters.give_back(key)


class LoginThrottle:
    """The failed-login counters of one app (see the module's docstring)."""

    def __init__(self, counters: LoginCounters, config: dict[str, Any]) -> None:
        self.counters = counters
        # In this order: a stranger refused for the pair never counts on the account.
        self.limits = [
            Limit(scope, int(config[attempts]), int(config[window]))
            for scope, (attempts, window) in SETTINGS.items()
        ]

    @staticmethod
    def key(scope: Scope, name: str, address: str) -> str:
        """The counter of ``scope`` for a login as ``name`` (normalised) from ``address``."""
        address = counted_address(address)
        what = {Scope.PAIR: f"{name}|{address}", Scope.ACCOUNT: name, Scope.ADDRESS: address}
        return counter_key(scope.value, what[scope])

    def reserve(self, name: str, address: str) -> Reservation:
        """Count one attempt to log in as ``name`` from ``address`` on every counter; 429
        (and nothing counted) if any is already at its limit."""
        reservation = Reservation(self)
        for limit in self.limits:
            key = self.key(limit.scope, name, address)
            count, left_ms = self.counters.count(key, limit.window_s * 1000)
            reservation.keys[limit.scope] = key
            if count > limit.attempts:
                reservation.cancel()
                seconds = max(1, (left_ms + 999) // 1000)
                raise TooMany(
                    "too_many_failed_logins",
                    "{why} (at most {attempts} in {window}); try again in {retry}.",
                    why=Words(WHY[limit.scope]),
                    attempts=limit.attempts,
                    window=_duration(limit.window_s),
                    retry=_duration(seconds),
                    retry_after=seconds,
                )
        return reservation


def _duration(seconds: int) -> Plural:
    """``seconds`` in words, in the reader's language: "24 hours", "15 minutes", "437
    seconds"."""
    if seconds % 3600 == 0:
        return Plural(seconds // 3600, "{n} hour", "{n} hours")
    if seconds % 60 == 0 and seconds >= 120:
        return Plural(seconds // 60, "{n} minute", "{n} minutes")
    return Plural(seconds, "{n} second", "{n} seconds")
