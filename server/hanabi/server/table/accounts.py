"""Accounts, sessions and API keys: the rules (the keys are :mod:`hanabi.server.storage.accounts`).

Usernames are stored and looked up in one form (:func:`normal_name`): NFKC, then lower
case, which must then be 3-20 of ``a-z``, ``0-9``, ``_`` and ``-`` (the whole string):
"Alice" and "ＡＬＩＣＥ" are "alice". A deleted account's name stays taken for
``HANABI_NAME_HOLD_DAYS`` (a new account under it would start afresh at 1500, shedding a
bad rating).

Credentials: a session token is ``hs.`` and an API key ``hk.`` followed by 192 random
bits; only their SHA-256 is stored (they are random, so a slow hash adds nothing). The
``.`` never occurs in a seat token (URL-safe base64), so the two kinds never collide.
Passwords are hashed with argon2id; a login for an unknown name verifies against a dummy
hash made with the same parameters, so it costs the same time as a wrong password. Failed
logins are counted before the check (:mod:`.login_limits`).

A credential ends with what it stands on (:class:`Credential`): a session's streams and
tickets end with the session, a key's with the key. Logging out, a password change and a
deletion remove the session or key records at once, so every request, ticket or stream
check that follows (a stream checks at each wake, at least once a keep-alive) sees it gone.
"""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets
import string
import threading
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from enum import Enum
from typing import Any

import argon2

from ..ops.serving import offload
from ..ops.times import iso, now_ms
from ..storage.accounts import DELETED, AccountStore
from ..storage.login_counters import LoginCounters
from .login_limits import LoginThrottle
from .refusals import Conflict, Invalid, NotFound, Refused, Unauthorized, Unavailable
from .wording import N_

SESSION_PREFIX = "hs."
KEY_PREFIX = "hk."
#: What a resolved account credential becomes in the game service: a "token" no client
#: can send (``:`` is refused in bearer tokens), hashed and matched like a seat token.
PRINCIPAL_PREFIX = "acct:"
#: A username once normalised (:func:`normal_name`); always matched against the whole
#: string (``fullmatch``: with ``match``, ``$`` also accepts a final newline).
USERNAME = re.compile(r"[a-z0-9_-]{3,20}")
USERNAME_RULE = N_(
    "A username is 3 to 20 characters: lower-case letters a-z, digits, '_' or '-' "
    "(capitals are made lower-case: 'Alice' is 'alice')."
)
PASSWORD_MIN = 8
PASSWORD_MAX = 256
MAX_KEYS = 20
MAX_SESSIONS = 50
ID_ALPHABET = string.ascii_lowercase + string.digits
DAY_MS = 24 * 3600 * 1000


@dataclass(frozen=True)
class Account:
    id: str
    username: str
    bot: bool

    @property
    def principal(self) -> str:
        return PRINCIPAL_PREFIX + self.id


class CredentialKind(Enum):
    SESSION = "s"
    KEY = "k"


@dataclass(frozen=True)
class Credential:
    """What an account credential stands on: a session (``ref``: its token's hash) or an
    API key (``ref``: its id). A ticket or a stream opened with it ends when it does."""

    account_id: str
    kind: CredentialKind
    ref: str

    def dump(self) -> str:
        return f"{self.kind.value}:{self.account_id}:{self.ref}"

    @classmethod
    def load(cls, text: str) -> Credential:
        kind, account_id, ref = text.split(":", 2)
        return cls(account_id, CredentialKind(kind), ref)


def digest(secret: str) -> str:
    return hashlib.sha256(secret.encode()).hexdigest()


def normal_name(username: str) -> str:
    """The one form a username is stored and looked up in: NFKC, then lower case."""
    return unicodedata.normalize("NFKC", username).lower()


def invalid_credentials() -> Refused:
    return Unauthorized("invalid_credentials", "Unknown username or wrong password.")


class Accounts:
    """The accounts of the service. ``config``: the app's settings (hash cost, session
    lifetime, login throttling); ``leaving``: what deleting an account does to its games
    first (:meth:`hanabi.server.table.leaving.Leaving.end_rated_games`)."""

    def __init__(
        self,
        store: AccountStore,
        counters: LoginCounters,
        config: dict[str, Any],
        leaving: Callable[[str], object] | None = None,
    ) -> None:
        self.store = store
        self.leaving = leaving
        self.hasher = argon2.PasswordHasher(
            time_cost=config["HANABI_ARGON2_TIME"],
            memory_cost=config["HANABI_ARGON2_MEMORY"],
            parallelism=config["HANABI_ARGON2_PARALLELISM"],
        )
        # Verified when the username is unknown, so that costs what a wrong password does.
        self.dummy = self.hasher.hash(secrets.token_urlsafe(16))
        # At most this many hashes at once per process (each takes memory_cost KiB): a
        # login flood queues here, then gets 503, instead of exhausting memory.
        self.hashing = threading.BoundedSemaphore(config["HANABI_HASH_CONCURRENCY"])
        self.session_ms = config["HANABI_SESSION_DAYS"] * DAY_MS
        self.name_hold_s = config["HANABI_NAME_HOLD_DAYS"] * DAY_MS // 1000
        self.throttle = LoginThrottle(counters, config)

    # -- accounts ----------------------------------------------------------------------

    def register(self, username: str, password: str, bot: bool) -> Account:
        username = normal_name(username)
        if not USERNAME.fullmatch(username):
            raise Invalid("invalid_username", USERNAME_RULE)
        check_password(password)
        pw = self.slow(self.hasher.hash, password)
        account_id = "".join(secrets.choice(ID_ALPHABET) for _ in range(16))
        # The account first, then the name: a process that dies in between leaves an
        # account nobody can name (harmless), never a name taken by no account.
        self.store.create(
            account_id,
            {
                "username": username,
                "pw": pw,
                "bot": int(bot),
                "created": now_ms(),
                "rating": 1500,
                "rated_games": 0,
            },
        )
        if not self.store.claim_name(username, account_id):
            self.store.forget(account_id)
            raise self._taken(username)
        return Account(account_id, username, bot)

    def _taken(self, username: str) -> Refused:
        """409 for a name held by an account, or by one deleted lately (then until when)."""
        held = self.store.name_holder(username)
        if held is not None and held.startswith(DELETED):
            left = max(0, self.store.name_ttl(username))
            until = datetime.fromtimestamp(now_ms() / 1000 + left, UTC).strftime("%Y-%m-%d")
            return Conflict(
                "username_taken",
                "The username {name} belonged to an account deleted recently: it stays taken "
                "until {until}.",
                name=repr(username),
                until=until,
            )
        return Conflict("username_taken", "The username {name} is taken.", name=repr(username))

    def by_name(self, username: str) -> str | None:
        """The id of the account named ``username`` (any case or compatibility form)."""
        found = self.store.name_holder(normal_name(username))
        if found is None or found.startswith(DELETED):
            return None
        return found

    def public(self, account_id: str) -> dict[str, Any] | None:
        data = self.store.fields(account_id)
        if data is None:
            return None
        return {
            "username": data["username"],
            "bot": data["bot"] == "1",
            "rating": round(float(data["rating"]), 1),
            "rated_games": int(data["rated_games"]),
        }

    def me(self, account: Account) -> dict[str, Any]:
        data = self.store.fields(account.id)
        if data is None:
            raise Unauthorized("invalid_credentials", "This account no longer exists.")
        created = int(data["created"])
        return {**(self.public(account.id) or {}), "id": account.id, "created": iso(created)}

    def change_password(
        self,
        account: Account,
        old: str,
        new: str,
        address: str,
        keep: str | None,
        keep_keys: bool = False,
    ) -> None:
        """Set a new password; every session but ``keep`` (a session token hash) ends, and
        every API key unless ``keep_keys``."""
        self._verify(account.username, old, address)
        check_password(new)
        self.store.set_password_hash(account.id, self.slow(self.hasher.hash, new))
        sessions = self.store.session_hashes(account.id)
        self.store.end_sessions(account.id, [h for h in sessions if h != keep])
        if not keep_keys:
            self.store.remove_keys(account.id)

    def delete(self, account: Account, password: str, address: str) -> None:
        """The account and everything it holds; games keep the names as played, and the
        name stays taken for ``HANABI_NAME_HOLD_DAYS``. Once the password is verified, and
        while the account still exists, its rated games in progress end and are settled
        (``leaving``)."""
        self._verify(account.username, password, address)
        if self.leaving is not None:
            self.leaving(account.id)
        self.store.end_sessions(account.id, self.store.session_hashes(account.id))
        self.store.remove_keys(account.id)
        # The name is held, not freed: a new account under it would start afresh. Then
        # the account's own slot in one step (a process dying in between leaves an account
        # nobody can name or use: harmless).
        name = normal_name(account.username)
        self.store.hold_name(name, account.id, str(now_ms()), self.name_hold_s)
        self.store.delete(account.id)

    # -- sessions ----------------------------------------------------------------------

    def login(self, username: str, password: str, address: str) -> dict[str, Any]:
        account_id = self._verify(username, password, address)
        token = SESSION_PREFIX + secrets.token_urlsafe(24)
        hashed = digest(token)
        expires = now_ms() + self.session_ms
        self._prune_sessions(account_id)
        self.store.add_session(account_id, hashed, expires, self.session_ms)
        return {"token": token, "expires": iso(expires)}

    def logout(self, token: str) -> None:
        hashed = digest(token)
        account_id = self.store.session_account(hashed)
        if account_id is not None:
            self.store.end_sessions(account_id, [hashed])

    def logout_everywhere(self, account: Account) -> None:
        """End every session of ``account`` (API keys stay: they are revoked one by one)."""
        self.store.end_sessions(account.id, self.store.session_hashes(account.id))

    def _prune_sessions(self, account_id: str) -> None:
        """Forget expired sessions, and the oldest past :data:`MAX_SESSIONS`."""
        now = now_ms()
        held = self.store.sessions(account_id)
        old = [h for h, exp in held.items() if exp <= now]
        live = sorted((exp, h) for h, exp in held.items() if exp > now)
        old += [h for _, h in live[: max(0, len(live) - MAX_SESSIONS + 1)]]
        self.store.end_sessions(account_id, old)

    def _verify(self, username: str, password: str, address: str) -> str:
        """The account id if ``password`` is right; 401 (the same, and in the same time,
        for an unknown name) or 429 when too many logins failed lately. The attempt is
        counted before the password is checked (:mod:`.login_limits`)."""
        name = normal_name(username)
        reservation = self.throttle.reserve(name, address)
        try:
            account_id = self.by_name(name) if USERNAME.fullmatch(name) else None
            stored = None if account_id is None else self.store.password_hash(account_id)
            ok = self.slow(self._check, self.dummy if stored is None else stored, password)
        except BaseException:
            reservation.cancel()  # no password was judged
            raise
        if not ok or account_id is None or stored is None:
            raise invalid_credentials()  # the attempt stays counted
        reservation.succeeded()
        if self.hasher.check_needs_rehash(stored):
            self.store.set_password_hash(account_id, self.slow(self.hasher.hash, password))
        return account_id

    def _check(self, stored: str, password: str) -> bool:
        try:
            return self.hasher.verify(stored, password)
        except (argon2.exceptions.VerificationError, argon2.exceptions.InvalidHashError):
            return False

    def slow(self, fn: Callable[..., Any], *args: Any) -> Any:
        """Run a password hash or check: in an OS thread under gevent (the event loop keeps
        serving), at most ``HANABI_HASH_CONCURRENCY`` at once; 503 after 5 s of queueing."""
        if not self.hashing.acquire(timeout=5):
            raise Unavailable(
                "login_busy", "Too many logins at once; retry in a moment.", retry_after=2
            )
        try:
            return offload(fn, *args)
        finally:
            self.hashing.release()

    # -- API keys ----------------------------------------------------------------------

    def create_key(self, account: Account, name: str) -> dict[str, Any]:
        if self.store.key_count(account.id) >= MAX_KEYS:
            raise Conflict("too_many_keys", "An account holds at most {n} keys.", n=MAX_KEYS)
        key = KEY_PREFIX + secrets.token_urlsafe(24)
        key_id = secrets.token_hex(6)
        entry = {"name": name, "created": iso(now_ms()), "hash": digest(key)}
        self.store.add_key(account.id, key_id, entry)
        return {"id": key_id, "name": name, "created": entry["created"], "key": key}

    def list_keys(self, account: Account) -> list[dict[str, Any]]:
        keys = [
            {"id": key_id, "name": entry["name"], "created": entry["created"]}
            for key_id, entry in self.store.keys(account.id).items()
        ]
        return sorted(keys, key=lambda k: (k["created"], k["id"]))

    def delete_key(self, account: Account, key_id: str) -> None:
        entry = self.store.key_entry(account.id, key_id)
        if entry is None:
            raise NotFound("key_not_found", "This account has no key {key}.", key=repr(key_id))
        self.store.remove_key(account.id, key_id, entry["hash"])

    # -- credentials -------------------------------------------------------------------

    def resolve(self, token: str) -> tuple[Account, Credential] | None:
        """The account a session token or API key stands for, and what the credential
        stands on; None when ``token`` is neither kind. 401 when it is one but unknown,
        revoked or expired. A session's expiry slides: each use (at most once an hour)
        moves it to a full lifetime from now."""
        if token.startswith(SESSION_PREFIX):
            hashed = digest(token)
            aid = self.store.session_account(hashed)
            if aid is None:
                raise expired()
            expiry, username, bot = self.store.session_and_account(aid, hashed)
            now = now_ms()
            if expiry is None or expiry <= now or username is None:
                raise expired()
            if expiry - now < self.session_ms - 3600 * 1000:
                self.store.extend_session(aid, hashed, now + self.session_ms, self.session_ms)
            credential = Credential(aid, CredentialKind.SESSION, hashed)
            return Account(aid, username.decode(), bot == b"1"), credential
        if token.startswith(KEY_PREFIX):
            hashed = digest(token)
            owner = self.store.key_owner(hashed)
            if owner is None:
                raise revoked()
            aid, key_id = owner
            entry, username, bot = self.store.key_and_account(aid, key_id)
            if entry is None or username is None:
                raise revoked()
            if not hmac.compare_digest(entry["hash"], hashed):
                raise revoked()  # pragma: no cover - a key id reused after a deletion
            credential = Credential(aid, CredentialKind.KEY, key_id)
            return Account(aid, username.decode(), bot == b"1"), credential
        return None

    def alive(self, credential: Credential) -> bool:
        """Whether ``credential`` still stands: its session neither ended nor expired, or its
        key not revoked (an account's deletion ends both). One read of the account's slot,
        so a stream may ask at every wake."""
        if credential.kind is CredentialKind.SESSION:
            expiry = self.store.session_expiry(credential.account_id, credential.ref)
            return expiry is not None and expiry > now_ms()
        return self.store.has_key(credential.account_id, credential.ref)


def check_password(password: str) -> None:
    if not PASSWORD_MIN <= len(password) <= PASSWORD_MAX:
        raise Invalid(
            "weak_password",
            "A password is {low} to {high} characters.",
            low=PASSWORD_MIN,
            high=PASSWORD_MAX,
        )


def expired() -> Refused:
    return Unauthorized("session_expired", "This session ended or expired; log in again.")


def revoked() -> Refused:
    return Unauthorized("invalid_api_key", "This API key is unknown or was revoked.")
