"""One-time stream tickets: how a browser's ``EventSource`` (which cannot send headers)
opens a seat's event stream without putting the seat's token in a URL.

``POST /games/{id}/tickets`` (with the seat's bearer token) returns a random ticket that
stands for that token for :data:`TTL` seconds and one use: ``GET /games/{id}/stream?ticket=``.
Redis keeps only the ticket's hash, under ``{game:<id>}:k:<hash>`` (the game's hash slot),
holding the hash of the seat's token; redeeming it is one ``GETDEL``, so a ticket works once
even when two nodes receive it at the same moment. A URL that leaks (a proxy log, the
browser's history) holds nothing that still works.
"""

from __future__ import annotations

import secrets
from datetime import UTC, datetime, timedelta

import redis

from .games import hash_token

#: Seconds a ticket is valid.
TTL = 60


def _key(game_id: str, ticket: str) -> str:
    return "{game:" + game_id + "}:k:" + hash_token(ticket)


def issue(client: redis.Redis, game_id: str, token_hash: str) -> tuple[str, str]:
    """A new ticket for the seat whose token hashes to ``token_hash``: (ticket, expiry as
    RFC 3339 UTC)."""
    ticket = secrets.token_urlsafe(24)  # 192 random bits
    client.set(_key(game_id, ticket), token_hash, ex=TTL)
    expires = datetime.now(UTC) + timedelta(seconds=TTL)
    return ticket, expires.isoformat(timespec="seconds").replace("+00:00", "Z")


def redeem(client: redis.Redis, game_id: str, ticket: str) -> str | None:
    """The token hash a ticket stands for, or None if it is unknown, expired or used; the
    ticket is gone afterwards either way."""
    if not ticket or len(ticket) > 100:
        return None
    found = client.getdel(_key(game_id, ticket))
    return None if found is None else found.decode()
