"""Accounts in Redis: the keys of accounts, sessions, API keys, statistics and histories.

Every key of one account shares the hash tag ``{acct:<id>}`` (one Cluster slot); the
global lookups are single keys, so nothing here needs a script across slots:

``hanabi:user:<name>``  the account id (SET NX: names are unique); after a deletion,
    :data:`DELETED` and the time, for as long as the name is held
``{acct:<id>}:a``   hash: username, pw (argon2id), bot, created, rating, rated_games,
    unrated_games
``{acct:<id>}:s``   hash: session token hash -> expiry ms (the authority on sessions)
``{acct:<id>}:k``   hash: key id -> JSON {name, created, hash} (the authority on keys)
``{acct:<id>}:st``  hash: statistics, counters per variant ``v``: ``v:games``,
    ``v:best:<players>``, ``v:scored`` and ``v:score_sum`` (games not ended at 0),
    ``v:strikeouts``, ``v:rated`` and ``v:change`` (the sum of rating changes)
``{acct:<id>}:h``   sorted set of finished games ``<ended ms, 13 digits>:<game id>``, all
    scored 0, read by lex range like the game index (the history)
``{acct:<id>}:hg``  hash: game id -> history entry; also the ledger of applied games
``{acct:<id>}:rg``  set: rated games it is seated in, dealt and not settled
``hanabi:session:<hash>``  the account id (expires with the session)
``hanabi:apikey:<hash>``   ``<account id>:<key id>``

The rules (names, passwords, hashing, what a credential stands on) are the table's
(:mod:`hanabi.server.table.accounts`); this module only reads and writes the keys. Names
come here already in their one stored form; tokens as their hashes.
"""

from __future__ import annotations

from typing import Any

import orjson
import redis

#: What the name key of a deleted account holds while the name is held (then the time).
DELETED = "~deleted:"
#: The parts of an account's slot (see the module's docstring).
# tn, ti, wh, wl: turns.py, webhooks.py; sd, so, ps: seeds.py; sp, spx: spoilers.py;
# mu, fo, fr: chat.py
PARTS = (
    *("a", "s", "k", "st", "h", "hg", "rg", "tn", "ti", "wh", "wl", "sd", "so", "ps"),
    *("sp", "spx", "mu", "fo", "fr"),
)


def akey(account_id: str, part: str) -> str:
    return "{acct:" + account_id + "}:" + part


def user_key(name: str) -> str:
    """The key of a username (in its stored form)."""
    return "hanabi:user:" + name


def session_key(token_hash: str) -> str:
    return "hanabi:session:" + token_hash


def api_key_key(key_hash: str) -> str:
    return "hanabi:apikey:" + key_hash


class AccountStore:
    """The account keys on the service's Redis."""

    def __init__(self, client: redis.Redis) -> None:
        self.redis = client

    # -- accounts ----------------------------------------------------------------------

    def create(self, account_id: str, fields: dict[str, Any]) -> None:
        self.redis.hset(akey(account_id, "a"), mapping=fields)

    def claim_name(self, name: str, account_id: str) -> bool:
        """Bind ``name`` to the account unless it is taken (SET NX)."""
        return bool(self.redis.set(user_key(name), account_id, nx=True))

    def forget(self, account_id: str) -> None:
        """Drop an account whose name could not be claimed."""
        self.redis.delete(akey(account_id, "a"))

    def name_holder(self, name: str) -> str | None:
        """What the name key holds: an account id, :data:`DELETED` and a time, or None."""
        held = self.redis.get(user_key(name))
        return None if held is None else held.decode()

    def name_ttl(self, name: str) -> int:
        """Seconds until a held name is free (negative: no expiry, or no key)."""
        return int(self.redis.ttl(user_key(name)))

    def fields(self, account_id: str) -> dict[str, str] | None:
        """The account's hash, decoded; None if it has none (or no username)."""
        raw = self.redis.hgetall(akey(account_id, "a"))
        if not raw or b"username" not in raw:
            return None
        return {k.decode(): v.decode() for k, v in raw.items()}

    def password_hash(self, account_id: str) -> str | None:
        stored = self.redis.hget(akey(account_id, "a"), "pw")
        return None if stored is None else stored.decode()

    def set_password_hash(self, account_id: str, hashed: str) -> None:
        self.redis.hset(akey(account_id, "a"), "pw", hashed)

    def rating(self, account_id: str) -> float | None:
        raw = self.redis.hget(akey(account_id, "a"), "rating")
        return None if raw is None else float(raw)

    def hold_name(self, name: str, account_id: str, until: str, seconds: int) -> None:
        """Keep a deleted account's name taken for ``seconds`` (if it is still its own)."""
        if self.redis.get(user_key(name)) == account_id.encode():
            self.redis.set(user_key(name), DELETED + until, ex=max(1, seconds))

    def delete(self, account_id: str) -> None:
        """Every key of the account's own slot, in one step."""
        self.redis.delete(*(akey(account_id, part) for part in PARTS))

    def eligibility(self, account_ids: list[str]) -> list[tuple[bytes | None, ...]]:
        """Per account: (username, created, unrated_games) as stored (None where absent),
        in one round trip."""
        pipe = self.redis.pipeline(transaction=False)
        for account_id in account_ids:
            pipe.hmget(akey(account_id, "a"), "username", "created", "unrated_games")
        return [tuple(row) for row in pipe.execute()]

    # -- sessions ----------------------------------------------------------------------

    def session_hashes(self, account_id: str) -> list[str]:
        return [h.decode() for h in self.redis.hkeys(akey(account_id, "s"))]

    def sessions(self, account_id: str) -> dict[str, int]:
        """Session token hash -> expiry (ms)."""
        held = self.redis.hgetall(akey(account_id, "s"))
        return {h.decode(): int(v) for h, v in held.items()}

    def add_session(self, account_id: str, token_hash: str, expires: int, ttl_ms: int) -> None:
        pipe = self.redis.pipeline(transaction=False)
        pipe.hset(akey(account_id, "s"), token_hash, expires)
        pipe.set(session_key(token_hash), account_id, px=ttl_ms)
        pipe.execute()

    def session_account(self, token_hash: str) -> str | None:
        found = self.redis.get(session_key(token_hash))
        return None if found is None else found.decode()

    def end_sessions(self, account_id: str, hashes: list[str]) -> None:
        if not hashes:
            return
        # One key per DEL: the global session keys sit in different Cluster slots.
        pipe = self.redis.pipeline(transaction=False)
        pipe.hdel(akey(account_id, "s"), *hashes)
        for hashed in hashes:
            pipe.delete(session_key(hashed))
        pipe.execute()

    def session_and_account(
        self, account_id: str, token_hash: str
    ) -> tuple[int | None, bytes | None, bytes | None]:
        """(the session's expiry ms, the account's username, its bot flag), one round trip."""
        pipe = self.redis.pipeline(transaction=False)
        pipe.hget(akey(account_id, "s"), token_hash)
        pipe.hmget(akey(account_id, "a"), "username", "bot")
        expiry, (username, bot) = pipe.execute()
        return (None if expiry is None else int(expiry)), username, bot

    def extend_session(self, account_id: str, token_hash: str, expires: int, ttl_ms: int) -> None:
        pipe = self.redis.pipeline(transaction=False)
        pipe.hset(akey(account_id, "s"), token_hash, expires)
        pipe.pexpire(session_key(token_hash), ttl_ms)
        pipe.execute()

    def session_expiry(self, account_id: str, token_hash: str) -> int | None:
        expiry = self.redis.hget(akey(account_id, "s"), token_hash)
        return None if expiry is None else int(expiry)

    # -- API keys ----------------------------------------------------------------------

    def key_count(self, account_id: str) -> int:
        return int(self.redis.hlen(akey(account_id, "k")))

    def add_key(self, account_id: str, key_id: str, entry: dict[str, Any]) -> None:
        self.redis.hset(akey(account_id, "k"), key_id, orjson.dumps(entry))
        self.redis.set(api_key_key(entry["hash"]), f"{account_id}:{key_id}")

    def keys(self, account_id: str) -> dict[str, dict[str, Any]]:
        """Key id -> its entry {name, created, hash}."""
        rows = self.redis.hgetall(akey(account_id, "k"))
        return {key_id.decode(): orjson.loads(raw) for key_id, raw in rows.items()}

    def key_entry(self, account_id: str, key_id: str) -> dict[str, Any] | None:
        raw = self.redis.hget(akey(account_id, "k"), key_id)
        return None if raw is None else orjson.loads(raw)

    def remove_key(self, account_id: str, key_id: str, key_hash: str) -> None:
        self.redis.hdel(akey(account_id, "k"), key_id)
        self.redis.delete(api_key_key(key_hash))

    def remove_keys(self, account_id: str) -> None:
        """Every API key of the account, at once (the global lookups one key per DEL)."""
        keys = self.redis.hgetall(akey(account_id, "k"))
        if not keys:
            return
        pipe = self.redis.pipeline(transaction=False)
        pipe.hdel(akey(account_id, "k"), *keys)
        for raw in keys.values():
            pipe.delete(api_key_key(orjson.loads(raw)["hash"]))
        pipe.execute()

    def key_owner(self, key_hash: str) -> tuple[str, str] | None:
        """(account id, key id) of an API key, by its hash."""
        found = self.redis.get(api_key_key(key_hash))
        if found is None:
            return None
        account_id, _, key_id = found.decode().partition(":")
        return account_id, key_id

    def key_and_account(
        self, account_id: str, key_id: str
    ) -> tuple[dict[str, Any] | None, bytes | None, bytes | None]:
        """(the key's entry, the account's username, its bot flag), one round trip."""
        pipe = self.redis.pipeline(transaction=False)
        pipe.hget(akey(account_id, "k"), key_id)
        pipe.hmget(akey(account_id, "a"), "username", "bot")
        entry, (username, bot) = pipe.execute()
        return (None if entry is None else orjson.loads(entry)), username, bot

    def has_key(self, account_id: str, key_id: str) -> bool:
        return bool(self.redis.hexists(akey(account_id, "k"), key_id))

    # -- statistics and history --------------------------------------------------------

    def stats(self, account_id: str) -> dict[bytes, bytes]:
        """The statistics hash, as stored."""
        return self.redis.hgetall(akey(account_id, "st"))

    def unrated_games(self, account_id: str) -> int:
        """How many unrated games the account finished (any way they ended). Accounts from
        before the ``unrated_games`` field have it counted from the statistics (``games``
        minus ``rated`` over the variants), as the first game they finish since does."""
        counted = self.redis.hget(akey(account_id, "a"), "unrated_games")
        if counted is not None:
            return int(counted)
        total = 0
        for field, value in self.stats(account_id).items():
            if field.endswith(b":games"):
                total += int(value)
            elif field.endswith(b":rated"):
                total -= int(value)
        return total

    def history(
        self, account_id: str, limit: int, cursor: str | None
    ) -> tuple[list[dict[str, Any]], str | None]:
        """Up to ``limit`` history entries, newest first, after ``cursor``; and the cursor of
        the next page (None at the end)."""
        start = "(" + cursor if cursor else "+"
        members = [
            m.decode()
            for m in self.redis.zrange(
                akey(account_id, "h"), start, "-", desc=True, bylex=True, offset=0, num=limit + 1
            )
        ]
        page = members[:limit]
        ids = [m.split(":", 1)[1] for m in page]
        raw = self.redis.hmget(akey(account_id, "hg"), ids) if ids else []
        entries = [orjson.loads(entry) for entry in raw if entry is not None]
        return entries, (page[-1] if len(members) > limit else None)
