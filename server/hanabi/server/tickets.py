"""One-time stream tickets: how a browser's ``EventSource`` (which cannot send headers)
opens a seat's event stream without putting the seat's token in a URL.

``POST /games/{id}/tickets`` (with the seat's bearer token) returns a random ticket that
stands for that token for :data:`TTL` seconds and one use: ``GET /games/{id}/stream?ticket=``.
Redis keeps only the ticket's hash, under ``{game:<id>}:k:<hash>`` (the game's hash slot),
holding the hash of the seat's token; redeeming it is one ``GETDEL``, so a ticket works once
even when two nodes receive it at the same moment. A URL that leaks (a proxy log, the
browser's history) holds nothing that still works.

A ticket issued to an account's session or API key also names that credential
(:class:`~hanabi.server.accounts.Credential`): once the session ends (a logout, a password
change) or the key is revoked, the ticket is refused, and the stream it opened closes
(:mod:`hanabi.server.stream`).
"""

from __future__ import annotations

import secrets
from datetime import UTC, datetime, timedelta
from typing import NamedTuple

import redis

from .accounts import Credential
from .games import hash_token

#: Seconds a ticket is valid.
TTL = 60


def _key(game_id: str, ticket: str) -> str:
    return "{game:" + game_id + "}:k:" + hash_token(ticket)


class Redeemed(NamedTuple):
    token_hash: str
    credential: Credential | None  # the account credential it was issued to, if any


def issue(
    client: redis.Redis, game_id: str, token_hash: str, credential: Credential | None = None
) -> tuple[str, str]:
    """A new ticket for the seat whose token hashes to ``token_hash`` (issued to
    ``credential``, if an account's): (ticket, expiry as RFC 3339 UTC)."""
    ticket = secrets.token_urlsafe(24)  # 192 random bits
    # A token hash is base64url: a space cannot occur in it.
    value = token_hash if credential is None else f"{token_hash} {credential.dump()}"
    client.set(_key(game_id, ticket), value, ex=TTL)
    expires = datetime.now(UTC) + timedelta(seconds=TTL)
    return ticket, expires.isoformat(timespec="seconds").replace("+00:00", "Z")


def redeem(client: redis.Redis, game_id: str, ticket: str) -> Redeemed | None:
    """What a ticket stands for, or None if it is unknown, expired or used; the ticket is
    gone afterwards either way. (Whether its credential still stands is the caller's.)"""
    if not ticket or len(ticket) > 100:
        return None
    found = client.getdel(_key(game_id, ticket))
    if found is None:
        return None
    token_hash, _, credential = found.decode().partition(" ")
    return Redeemed(token_hash, Credential.load(credential) if credential else None)
