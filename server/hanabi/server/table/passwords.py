"""Password tables: a table that is listed like any other but asks a password to join and,
if its host says so, to watch (issue 48).

The password itself is never kept, shown or logged: the record keeps a random salt and the
password's scrypt hash (``hashlib.scrypt``, a slow, memory-hard key derivation from the
standard library, so that a stolen Redis dump does not give the passwords away cheaply),
compared in constant time. A view and a listing say only *that* a table is locked
(``lock``). Guesses are rate-limited by the API (``api/ratelimits.RATES``: ``password``
per address, ``password_game`` per table), counted before the hash is computed.

A spectator of a table locked to spectators proves the password once
(``POST /games/{id}/passes``) and gets a *pass*: an HMAC of the game's id keyed by the
stored hash, which only the server can make. It is shown on every spectator request (the
``X-Table-Pass`` header, or ``?pass=`` on the event stream, which a browser's EventSource
opens without headers) and checked in constant time, with no hashing: watching costs no
scrypt per poll. A new password (none in this version) would end every pass.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import secrets
from typing import Any

from ..storage.record import Record
from .refusals import Conflict, Forbidden, Unauthorized

#: scrypt's cost: 2**14 blocks of 128 * 8 bytes (16 MiB), about 50 ms a hash on one core.
#: Kept per table, so a later version may raise it without breaking older tables.
SCRYPT = {"n": 2**14, "r": 8, "p": 1}
SALT_BYTES = 16
HASH_BYTES = 32
#: The header a spectator's pass comes in.
PASS_HEADER = "X-Table-Pass"


def _b64(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")


def _unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def _derive(password: str, salt: bytes, cost: dict[str, Any]) -> bytes:
    n, r, p = int(cost["n"]), int(cost["r"]), int(cost["p"])
    return hashlib.scrypt(
        password.encode(), salt=salt, n=n, r=r, p=p, maxmem=256 * n * r + 2**20, dklen=HASH_BYTES
    )


def lock_of(password: str, spectators: bool) -> dict[str, Any]:
    """What a new locked table keeps: a fresh salt, the scrypt hash and its cost, and
    whether spectators need the password too."""
    salt = secrets.token_bytes(SALT_BYTES)
    return {
        "salt": _b64(salt),
        "hash": _b64(_derive(password, salt, SCRYPT)),
        **SCRYPT,
        "spectators": spectators,
    }


def matches(lock: dict[str, Any], password: str) -> bool:
    """Whether ``password`` is the table's, compared in constant time."""
    derived = _derive(password, _unb64(lock["salt"]), lock)
    return hmac.compare_digest(derived, _unb64(lock["hash"]))


def lock_view(record: Record) -> dict[str, bool] | None:
    """The ``lock`` key of a view and a listing: null, or whether spectators need the
    password too. Nothing else of the lock ever leaves the server."""
    if record.password is None:
        return None
    return {"spectators": bool(record.password.get("spectators"))}


def pass_of(record: Record) -> str:
    """The spectator pass of a locked table: an HMAC of its id keyed by the stored hash."""
    assert record.password is not None
    key = _unb64(record.password["hash"])
    return _b64(hmac.new(key, b"spectate:" + record.id.encode(), hashlib.sha256).digest())


def password_required() -> Unauthorized:
    return Unauthorized(
        "password_required", "This table is locked: send its password (ask its host)."
    )


def wrong_password() -> Forbidden:
    return Forbidden("wrong_password", "That is not this table's password.")


class Verified:
    """One request's password, hashed at most once per lock however often the write loop
    decides again (a retry after a lost race must not cost another scrypt)."""

    def __init__(self, password: str | None) -> None:
        self.password = password
        self._known: dict[str, bool] = {}

    def check(self, record: Record) -> None:
        """401 ``password_required`` or 403 ``wrong_password`` unless the request holds the
        locked table's password (an open table asks nothing)."""
        lock = record.password
        if lock is None:
            return
        if not self.password:
            raise password_required()
        known = self._known.get(lock["hash"])
        if known is None:
            known = self._known[lock["hash"]] = matches(lock, self.password)
        if not known:
            raise wrong_password()


def require_pass(record: Record, seat: int | None, shown: str | None) -> None:
    """A viewer who holds no seat at a table locked to spectators shows its pass: 401
    ``password_required`` without one, 403 ``wrong_pass`` for another (compared in
    constant time). Seats, and anyone at an open table, show nothing."""
    lock = record.password
    if seat is not None or lock is None or not lock.get("spectators"):
        return
    if not shown:
        raise Unauthorized(
            "password_required",
            "Spectators of this table need its password: get a pass with "
            "POST /games/{game}/passes and send it as {header}.",
            game=record.id,
            header=PASS_HEADER,
        )
    if not hmac.compare_digest(shown.encode(), pass_of(record).encode()):
        raise Forbidden("wrong_pass", "This pass is not this table's (or its password changed).")


def grant_pass(record: Record, password: str) -> str:
    """The spectator pass for ``password`` (403 ``wrong_password``); 409 ``not_locked``
    at a table that asks no password."""
    if record.password is None:
        raise Conflict("not_locked", "This table asks no password: watch it as it is.")
    Verified(password).check(record)
    return pass_of(record)
