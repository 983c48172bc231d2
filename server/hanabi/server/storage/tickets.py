"""One-time stream tickets in Redis: ``{game:<id>}:k:<ticket hash>`` (in the game's hash
slot) holds what a ticket stands for, for its lifetime. Taking it is one ``GETDEL``, so a
ticket works once even when two nodes receive it at the same moment. What a ticket stands
for, and when it is refused, is :mod:`hanabi.server.table.tickets`.
"""

from __future__ import annotations

import redis

from .keys import ticket_key


class TicketStore:
    """The tickets of every game."""

    def __init__(self, client: redis.Redis) -> None:
        self.redis = client

    def put(self, game_id: str, ticket_hash: str, value: str, ttl_s: int) -> None:
        self.redis.set(ticket_key(game_id, ticket_hash), value, ex=ttl_s)

    def take(self, game_id: str, ticket_hash: str) -> str | None:
        """What the ticket holds, or None if it is unknown, expired or used; it is gone
        afterwards either way."""
        found = self.redis.getdel(ticket_key(game_id, ticket_hash))
        return None if found is None else found.decode()
