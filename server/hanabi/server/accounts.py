"""Accounts, sessions and API keys in Redis.

Every key of one account shares the hash tag ``{acct:<id>}`` (one Cluster slot); the
global lookups are single keys, so nothing here needs a script across slots:

``hanabi:user:<casefolded name>``  the account id (SET NX: names are unique, any case)
``{acct:<id>}:a``   hash: username, pw (argon2id), bot, created, rating, rated_games
``{acct:<id>}:s``   hash: session token hash -> expiry ms (the authority on sessions)
``{acct:<id>}:k``   hash: key id -> JSON {name, created, hash} (the authority on keys)
``{acct:<id>}:st``  hash: statistics (see :mod:`hanabi.server.stats`)
``{acct:<id>}:h``   sorted set of finished games ``<ended ms>:<game id>`` (history)
``{acct:<id>}:hg``  hash: game id -> history entry; also the ledger of applied games
``{acct:<id>}:rg``  set: rated games it is seated in, dealt and not settled (settle.py)
``hanabi:session:<hash>``  the account id (expires with the session)
``hanabi:apikey:<hash>``   ``<account id>:<key id>``
``hanabi:login:user:<casefolded name>`` and ``hanabi:login:addr:<address>``: failed
logins in the current window.

Credentials: a session token is ``hs.`` and an API key ``hk.`` followed by 192 random
bits; only their SHA-256 is stored (they are random, so a slow hash adds nothing). The
``.`` never occurs in a seat token (URL-safe base64), so the two kinds never collide.
Passwords are hashed with argon2id; a login for an unknown name verifies against a dummy
hash made with the same parameters, so it costs the same time as a wrong password.
"""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets
import string
import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import argon2
import orjson
import redis

from .problems import ApiError
from .serving import offload
from .store import iso, now_ms

SESSION_PREFIX = "hs."
KEY_PREFIX = "hk."
#: What a resolved account credential becomes in the game service: a "token" no client
#: can send (``:`` is refused in bearer tokens), hashed and matched like a seat token.
PRINCIPAL_PREFIX = "acct:"
USERNAME = re.compile(r"^[A-Za-z0-9_-]{3,20}$")
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


def akey(account_id: str, part: str) -> str:
    return "{acct:" + account_id + "}:" + part


def digest(secret: str) -> str:
    return hashlib.sha256(secret.encode()).hexdigest()


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
        self.fail_window = config["HANABI_LOGIN_WINDOW"]
        self.fail_user = config["HANABI_LOGIN_FAILS_USER"]
        self.fail_addr = config["HANABI_LOGIN_FAILS_ADDR"]

    # -- accounts ----------------------------------------------------------------------

    def register(self, username: str, password: str, bot: bool) -> Account:
        if not USERNAME.match(username):
            raise ApiError(
                400, "invalid_username", "A username is 3-20 letters, digits, '_' or '-'."
            )
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
            raise ApiError(409, "username_taken", f"The username {username!r} is taken.")
        return Account(account_id, username, bot)

    def get(self, account_id: str) -> dict[str, Any] | None:
        raw = self.redis.hgetall(akey(account_id, "a"))
        if not raw or b"username" not in raw:
            return None
        return {k.decode(): v.decode() for k, v in raw.items()}

    def by_name(self, username: str) -> str | None:
        found = self.redis.get(user_key(username))
        return None if found is None else found.decode()

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
        self, account: Account, old: str, new: str, address: str, keep: str | None
    ) -> None:
        """Set a new password; every session but ``keep`` (a session token hash) ends."""
        self._verify(account.username, old, address)
        check_password(new)
        self.redis.hset(akey(account.id, "a"), "pw", self.slow(self.hasher.hash, new))
        sessions = [h.decode() for h in self.redis.hkeys(akey(account.id, "s"))]
        self._end_sessions(account.id, [h for h in sessions if h != keep])

    def delete(
        self,
        account: Account,
        password: str,
        address: str,
        before: Callable[[str], object] | None = None,
    ) -> None:
        """The account and everything it holds; games keep the names as played. ``before``
        (the account id) runs once the password is verified, while the account still
        exists: the game service ends and settles its rated games there (leaving.py)."""
        self._verify(account.username, password, address)
        if before is not None:
            before(account.id)
        sessions = [h.decode() for h in self.redis.hkeys(akey(account.id, "s"))]
        keys = [orjson.loads(v)["hash"] for v in self.redis.hvals(akey(account.id, "k"))]
        pipe = self.redis.pipeline(transaction=False)
        for hashed in sessions:
            pipe.delete("hanabi:session:" + hashed)
        for hashed in keys:
            pipe.delete("hanabi:apikey:" + hashed)
        pipe.execute()
        # Last, the account's own slot in one step, then the name (free for a new account).
        self.redis.delete(*(akey(account.id, p) for p in ("a", "s", "k", "st", "h", "hg", "rg")))
        name = user_key(account.username)
        if self.redis.get(name) == account.id.encode():
            self.redis.delete(name)

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
        for an unknown name) or 429 when too many logins failed lately."""
        name_key = "hanabi:login:user:" + username.casefold()
        addr_key = "hanabi:login:addr:" + address
        pipe = self.redis.pipeline(transaction=False)
        pipe.get(name_key)
        pipe.get(addr_key)
        pipe.pttl(name_key)
        pipe.pttl(addr_key)
        by_name, by_addr, name_ttl, addr_ttl = pipe.execute()
        waits = []
        if by_name is not None and int(by_name) >= self.fail_user:
            waits.append(name_ttl)
        if by_addr is not None and int(by_addr) >= self.fail_addr:
            waits.append(addr_ttl)
        if waits:
            seconds = max(1, (max(waits) + 999) // 1000)
            raise ApiError(
                429,
                "too_many_failed_logins",
                "Too many failed logins for this account or from this address; wait.",
                headers={"Retry-After": str(seconds)},
            )
        account_id = self.by_name(username) if USERNAME.match(username) else None
        stored = None if account_id is None else self.redis.hget(akey(account_id, "a"), "pw")
        ok = self.slow(self._check, self.dummy if stored is None else stored.decode(), password)
        ok = ok and stored is not None
        if not ok or account_id is None or stored is None:
            pipe = self.redis.pipeline(transaction=False)
            for key in (name_key, addr_key):
                pipe.incr(key)
                pipe.expire(key, self.fail_window, nx=True)
            pipe.execute()
            raise invalid_credentials()
        self.redis.delete(name_key)
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

    def delete_key(self, account: Account, key_id: str) -> None:
        raw = self.redis.hget(akey(account.id, "k"), key_id)
        if raw is None:
            raise ApiError(404, "key_not_found", f"This account has no key {key_id!r}.")
        self.redis.hdel(akey(account.id, "k"), key_id)
        self.redis.delete("hanabi:apikey:" + orjson.loads(raw)["hash"])

    # -- credentials -------------------------------------------------------------------

    def resolve(self, token: str) -> tuple[Account, str | None] | None:
        """The account a session token or API key stands for, and the session's hash (None
        for a key); None when ``token`` is neither kind. 401 when it is one but unknown,
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
            return Account(aid, username.decode(), bot == b"1"), hashed
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
            return Account(aid, username.decode(), bot == b"1"), None
        return None


def user_key(username: str) -> str:
    return "hanabi:user:" + username.casefold()


def check_password(password: str) -> None:
    if not PASSWORD_MIN <= len(password) <= PASSWORD_MAX:
        raise ApiError(
            400, "weak_password", f"A password is {PASSWORD_MIN} to {PASSWORD_MAX} characters."
        )


def expired() -> ApiError:
    return ApiError(401, "session_expired", "This session ended or expired; log in again.")


def revoked() -> ApiError:
    return ApiError(401, "invalid_api_key", "This API key is unknown or was revoked.")
