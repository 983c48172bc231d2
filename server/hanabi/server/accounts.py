"""Accounts, sessions and API keys in Redis.

Every key of one account shares the hash tag ``{acct:<id>}`` (one Cluster slot); the
global lookups are single keys, so nothing here needs a script across slots:

``hanabi:user:<name>``  the account id (SET NX: names are unique); after a deletion,
    :data:`DELETED` and the time for ``HANABI_NAME_HOLD_DAYS``: the name stays taken (a
    new account under it would start afresh at 1500, shedding a bad rating)
``{acct:<id>}:a``   hash: username, pw (argon2id), bot, created, rating, rated_games
``{acct:<id>}:s``   hash: session token hash -> expiry ms (the authority on sessions)
``{acct:<id>}:k``   hash: key id -> JSON {name, created, hash} (the authority on keys)
``{acct:<id>}:st``  hash: statistics (see :mod:`hanabi.server.stats`)
``{acct:<id>}:h``   sorted set of finished games ``<ended ms>:<game id>`` (history)
``{acct:<id>}:hg``  hash: game id -> history entry; also the ledger of applied games
``{acct:<id>}:rg``  set: rated games it is seated in, dealt and not settled (settle.py)
``hanabi:session:<hash>``  the account id (expires with the session)
``hanabi:apikey:<hash>``   ``<account id>:<key id>``
``hanabi:login:*``  failed logins in the current windows (:mod:`.login_limits`)

Usernames are stored and looked up in one form (:func:`normal_name`): NFKC, then lower
case, which must then be 3-20 of ``a-z``, ``0-9``, ``_`` and ``-`` (the whole string):
"Alice" and "ＡＬＩＣＥ" are "alice".

Credentials: a session token is ``hs.`` and an API key ``hk.`` followed by 192 random
bits; only their SHA-256 is stored (they are random, so a slow hash adds nothing). The
``.`` never occurs in a seat token (URL-safe base64), so the two kinds never collide.
Passwords are hashed with argon2id; a login for an unknown name verifies against a dummy
hash made with the same parameters, so it costs the same time as a wrong password.

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
import orjson
import redis

from .login_limits import LoginThrottle
from .problems import ApiError
from .serving import offload
from .store import iso, now_ms

SESSION_PREFIX = "hs."
KEY_PREFIX = "hk."
#: What a resolved account credential becomes in the game service: a "token" no client
#: can send (``:`` is refused in bearer tokens), hashed and matched like a seat token.
PRINCIPAL_PREFIX = "acct:"
#: A username once normalised (:func:`normal_name`); always matched against the whole
#: string (``fullmatch``: with ``match``, ``$`` also accepts a final newline).
USERNAME = re.compile(r"[a-z0-9_-]{3,20}")
USERNAME_RULE = (
    "A username is 3 to 20 characters: lower-case letters a-z, digits, '_' or '-' "
    "(capitals are made lower-case: 'Alice' is 'alice')."
)
#: What the name key of a deleted account holds while the name is held (then the time).
DELETED = "~deleted:"
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


def akey(account_id: str, part: str) -> str:
    return "{acct:" + account_id + "}:" + part


def digest(secret: str) -> str:
    return hashlib.sha256(secret.encode()).hexdigest()


def normal_name(username: str) -> str:
    """The one form a username is stored and looked up in: NFKC, then lower case."""
    return unicodedata.normalize("NFKC", username).lower()


def invalid_credentials() -> ApiError:
    return ApiError(401, "invalid_credentials", "Unknown username or wrong password.")


class Accounts:
    """Accounts on the service's Redis. ``config``: the app's settings (hash cost, session
    lifetime, login throttling)."""

    def __init__(self, client: redis.Redis, config: dict[str, Any]) -> None:
        self.redis = client
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
        self.throttle = LoginThrottle(client, config)

    # -- accounts ----------------------------------------------------------------------

    def register(self, username: str, password: str, bot: bool) -> Account:
        username = normal_name(username)
        if not USERNAME.fullmatch(username):
            raise ApiError(400, "invalid_username", USERNAME_RULE)
        check_password(password)
        pw = self.slow(self.hasher.hash, password)
        account_id = "".join(secrets.choice(ID_ALPHABET) for _ in range(16))
        # The account first, then the name: a process that dies in between leaves an
        # account nobody can name (harmless), never a name taken by no account.
        self.redis.hset(
            akey(account_id, "a"),
            mapping={
                "username": username,
                "pw": pw,
                "bot": int(bot),
                "created": now_ms(),
                "rating": 1500,
                "rated_games": 0,
            },
        )
        if not self.redis.set(user_key(username), account_id, nx=True):
            self.redis.delete(akey(account_id, "a"))
            raise self._taken(username)
        return Account(account_id, username, bot)

    def _taken(self, username: str) -> ApiError:
        """409 for a name held by an account, or by one deleted lately (then until when)."""
        held = self.redis.get(user_key(username))
        if held is not None and held.decode().startswith(DELETED):
            left = max(0, self.redis.ttl(user_key(username)))
            until = datetime.fromtimestamp(now_ms() / 1000 + left, UTC).strftime("%Y-%m-%d")
            return ApiError(
                409,
                "username_taken",
                f"The username {username!r} belonged to an account deleted recently: it "
                f"stays taken until {until}.",
            )
        return ApiError(409, "username_taken", f"The username {username!r} is taken.")

    def get(self, account_id: str) -> dict[str, Any] | None:
        raw = self.redis.hgetall(akey(account_id, "a"))
        if not raw or b"username" not in raw:
            return None
        return {k.decode(): v.decode() for k, v in raw.items()}

    def by_name(self, username: str) -> str | None:
        """The id of the account named ``username`` (any case or compatibility form)."""
        found = self.redis.get(user_key(username))
        if found is None or found.startswith(DELETED.encode()):
            return None
        return found.decode()

    def public(self, account_id: str) -> dict[str, Any] | None:
        data = self.get(account_id)
        if data is None:
            return None
        return {
            "username": data["username"],
            "bot": data["bot"] == "1",
            "rating": round(float(data["rating"]), 1),
            "rated_games": int(data["rated_games"]),
        }

    def me(self, account: Account) -> dict[str, Any]:
        data = self.get(account.id)
        if data is None:
            raise ApiError(401, "invalid_credentials", "This account no longer exists.")
        created = int(data["created"])
        return {**(self.public(account.id) or {}), "id": account.id, "created": iso(created)}

    def check_password(self, account: Account, password: str, address: str) -> None:
        """401 unless ``password`` is the account's (throttled like a login)."""
        self._verify(account.username, password, address)

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
        self.redis.hset(akey(account.id, "a"), "pw", self.slow(self.hasher.hash, new))
        sessions = [h.decode() for h in self.redis.hkeys(akey(account.id, "s"))]
        self._end_sessions(account.id, [h for h in sessions if h != keep])
        if not keep_keys:
            self._revoke_keys(account.id)

    def delete(
        self,
        account: Account,
        password: str,
        address: str,
        before: Callable[[str], object] | None = None,
    ) -> None:
        """The account and everything it holds; games keep the names as played, and the
        name stays taken for ``HANABI_NAME_HOLD_DAYS``. ``before`` (the account id) runs
        once the password is verified, while the account still exists: the game service
        ends and settles its rated games there (leaving.py)."""
        self._verify(account.username, password, address)
        if before is not None:
            before(account.id)
        sessions = [h.decode() for h in self.redis.hkeys(akey(account.id, "s"))]
        self._end_sessions(account.id, sessions)
        self._revoke_keys(account.id)
        # The name is held, not freed: a new account under it would start afresh. Then
        # the account's own slot in one step (a process dying in between leaves an account
        # nobody can name or use: harmless).
        name = user_key(account.username)
        if self.redis.get(name) == account.id.encode():
            self.redis.set(name, f"{DELETED}{now_ms()}", ex=max(1, self.name_hold_s))
        self.redis.delete(*(akey(account.id, p) for p in ("a", "s", "k", "st", "h", "hg", "rg")))

    # -- sessions ----------------------------------------------------------------------

    def login(self, username: str, password: str, address: str) -> dict[str, Any]:
        account_id = self._verify(username, password, address)
        token = SESSION_PREFIX + secrets.token_urlsafe(24)
        hashed = digest(token)
        expires = now_ms() + self.session_ms
        self._prune_sessions(account_id)
        pipe = self.redis.pipeline(transaction=False)
        pipe.hset(akey(account_id, "s"), hashed, expires)
        pipe.set("hanabi:session:" + hashed, account_id, px=self.session_ms)
        pipe.execute()
        return {"token": token, "expires": iso(expires)}

    def logout(self, token: str) -> None:
        hashed = digest(token)
        account_id = self.redis.get("hanabi:session:" + hashed)
        if account_id is not None:
            self._end_sessions(account_id.decode(), [hashed])

    def logout_everywhere(self, account: Account) -> None:
        """End every session of ``account`` (API keys stay: they are revoked one by one)."""
        sessions = [h.decode() for h in self.redis.hkeys(akey(account.id, "s"))]
        self._end_sessions(account.id, sessions)

    def _end_sessions(self, account_id: str, hashes: list[str]) -> None:
        if not hashes:
            return
        # One key per DEL: the global session keys sit in different Cluster slots.
        pipe = self.redis.pipeline(transaction=False)
        pipe.hdel(akey(account_id, "s"), *hashes)
        for hashed in hashes:
            pipe.delete("hanabi:session:" + hashed)
        pipe.execute()

    def _prune_sessions(self, account_id: str) -> None:
        """Forget expired sessions, and the oldest past :data:`MAX_SESSIONS`."""
        now = now_ms()
        held = {h.decode(): int(v) for h, v in self.redis.hgetall(akey(account_id, "s")).items()}
        old = [h for h, exp in held.items() if exp <= now]
        live = sorted((exp, h) for h, exp in held.items() if exp > now)
        old += [h for _, h in live[: max(0, len(live) - MAX_SESSIONS + 1)]]
        self._end_sessions(account_id, old)

    def _verify(self, username: str, password: str, address: str) -> str:
        """The account id if ``password`` is right; 401 (the same, and in the same time,
        for an unknown name) or 429 when too many logins failed lately. The attempt is
        counted before the password is checked (:mod:`.login_limits`)."""
        name = normal_name(username)
        reservation = self.throttle.reserve(name, address)
        try:
            account_id = self.by_name(name) if USERNAME.fullmatch(name) else None
            stored = None if account_id is None else self.redis.hget(akey(account_id, "a"), "pw")
            ok = self.slow(self._check, self.dummy if stored is None else stored.decode(), password)
        except BaseException:
            reservation.cancel()  # no password was judged
            raise
        if not ok or account_id is None or stored is None:
            raise invalid_credentials()  # the attempt stays counted
        reservation.succeeded()
        if self.hasher.check_needs_rehash(stored.decode()):
            self.redis.hset(akey(account_id, "a"), "pw", self.slow(self.hasher.hash, password))
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
            raise ApiError(
                503,
                "login_busy",
                "Too many logins at once; retry in a moment.",
                headers={"Retry-After": "2"},
            )
        try:
            return offload(fn, *args)
        finally:
            self.hashing.release()

    # -- API keys ----------------------------------------------------------------------

    def create_key(self, account: Account, name: str) -> dict[str, Any]:
        if self.redis.hlen(akey(account.id, "k")) >= MAX_KEYS:
            raise ApiError(409, "too_many_keys", f"An account holds at most {MAX_KEYS} keys.")
        key = KEY_PREFIX + secrets.token_urlsafe(24)
        key_id = secrets.token_hex(6)
        hashed = digest(key)
        entry = {"name": name, "created": iso(now_ms()), "hash": hashed}
        self.redis.hset(akey(account.id, "k"), key_id, orjson.dumps(entry))
        self.redis.set("hanabi:apikey:" + hashed, f"{account.id}:{key_id}")
        return {"id": key_id, "name": name, "created": entry["created"], "key": key}

    def list_keys(self, account: Account) -> list[dict[str, Any]]:
        rows = self.redis.hgetall(akey(account.id, "k"))
        keys = []
        for key_id, raw in rows.items():
            entry = orjson.loads(raw)
            keys.append({"id": key_id.decode(), "name": entry["name"], "created": entry["created"]})
        return sorted(keys, key=lambda k: (k["created"], k["id"]))

    def _revoke_keys(self, account_id: str) -> None:
        """Every API key of the account, at once (the global lookups one key per DEL)."""
        keys = self.redis.hgetall(akey(account_id, "k"))
        if not keys:
            return
        pipe = self.redis.pipeline(transaction=False)
        pipe.hdel(akey(account_id, "k"), *keys)
        for raw in keys.values():
            pipe.delete("hanabi:apikey:" + orjson.loads(raw)["hash"])
        pipe.execute()

    def delete_key(self, account: Account, key_id: str) -> None:
        raw = self.redis.hget(akey(account.id, "k"), key_id)
        if raw is None:
            raise ApiError(404, "key_not_found", f"This account has no key {key_id!r}.")
        self.redis.hdel(akey(account.id, "k"), key_id)
        self.redis.delete("hanabi:apikey:" + orjson.loads(raw)["hash"])

    # -- credentials -------------------------------------------------------------------

    def resolve(self, token: str) -> tuple[Account, Credential] | None:
        """The account a session token or API key stands for, and what the credential
        stands on; None when ``token`` is neither kind. 401 when it is one but unknown,
        revoked or expired. A session's expiry slides: each use (at most once an hour)
        moves it to a full lifetime from now."""
        if token.startswith(SESSION_PREFIX):
            hashed = digest(token)
            account_id = self.redis.get("hanabi:session:" + hashed)
            if account_id is None:
                raise expired()
            aid = account_id.decode()
            pipe = self.redis.pipeline(transaction=False)
            pipe.hget(akey(aid, "s"), hashed)
            pipe.hmget(akey(aid, "a"), "username", "bot")
            expiry, (username, bot) = pipe.execute()
            now = now_ms()
            if expiry is None or int(expiry) <= now or username is None:
                raise expired()
            if int(expiry) - now < self.session_ms - 3600 * 1000:
                pipe = self.redis.pipeline(transaction=False)
                pipe.hset(akey(aid, "s"), hashed, now + self.session_ms)
                pipe.pexpire("hanabi:session:" + hashed, self.session_ms)
                pipe.execute()
            credential = Credential(aid, CredentialKind.SESSION, hashed)
            return Account(aid, username.decode(), bot == b"1"), credential
        if token.startswith(KEY_PREFIX):
            hashed = digest(token)
            found = self.redis.get("hanabi:apikey:" + hashed)
            if found is None:
                raise revoked()
            aid, _, key_id = found.decode().partition(":")
            pipe = self.redis.pipeline(transaction=False)
            pipe.hget(akey(aid, "k"), key_id)
            pipe.hmget(akey(aid, "a"), "username", "bot")
            entry, (username, bot) = pipe.execute()
            if entry is None or username is None:
                raise revoked()
            if not hmac.compare_digest(orjson.loads(entry)["hash"], hashed):
                raise revoked()  # pragma: no cover - a key id reused after a deletion
            credential = Credential(aid, CredentialKind.KEY, key_id)
            return Account(aid, username.decode(), bot == b"1"), credential
        return None

    def alive(self, credential: Credential) -> bool:
        """Whether ``credential`` still stands: its session neither ended nor expired, or its
        key not revoked (an account's deletion ends both). One read of the account's slot,
        so a stream may ask at every wake."""
        if credential.kind is CredentialKind.SESSION:
            expiry = self.redis.hget(akey(credential.account_id, "s"), credential.ref)
            return expiry is not None and int(expiry) > now_ms()
        return bool(self.redis.hexists(akey(credential.account_id, "k"), credential.ref))


def user_key(username: str) -> str:
    return "hanabi:user:" + normal_name(username)


def check_password(password: str) -> None:
    if not PASSWORD_MIN <= len(password) <= PASSWORD_MAX:
        raise ApiError(
            400, "weak_password", f"A password is {PASSWORD_MIN} to {PASSWORD_MAX} characters."
        )


def expired() -> ApiError:
    return ApiError(401, "session_expired", "This session ended or expired; log in again.")


def revoked() -> ApiError:
    return ApiError(401, "invalid_api_key", "This API key is unknown or was revoked.")
