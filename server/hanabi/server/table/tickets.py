"""One-time stream tickets: how a browser's ``EventSource`` (which cannot send headers)
opens a seat's event stream without putting the seat's token in a URL.

``POST /games/{id}/tickets`` (with the seat's credential, or a spectator's: an account's,
or none, with the seat it shadows) returns a random ticket that
stands for that token for :data:`TTL` seconds and one use: ``GET /games/{id}/stream?ticket=``.
Redis keeps only the ticket's hash, holding the hash of the seat's token
(:mod:`hanabi.server.storage.tickets`); redeeming it takes it, so a ticket works once. A URL
that leaks (a proxy log, the browser's history) holds nothing that still works.

A ticket issued to an account's session or API key also names that credential
(:class:`~hanabi.server.table.accounts.Credential`): once the session ends (a logout, a password
change) or the key is revoked, the ticket is refused, and the stream it opened closes
(:mod:`hanabi.server.api.stream`).
"""

from __future__ import annotations

import secrets

from ..ops.times import iso, now_ms
from ..storage.tickets import TicketStore
from .accounts import Accounts, Credential
from .refusals import Unauthorized
from .seats import hash_token

#: Seconds a ticket is valid.
TTL = 60


class StreamTickets:
    """Issuing and redeeming tickets. ``accounts``: whether a ticket's credential stands."""

    def __init__(self, store: TicketStore, accounts: Accounts) -> None:
        self.store = store
        self.accounts = accounts

    def issue(
        self,
        game_id: str,
        token_hash: str,
        credential: Credential | None = None,
        shadow: int | None = None,
    ) -> tuple[str, str]:
        """A new ticket for the seat whose token hashes to ``token_hash`` (issued to
        ``credential``, if an account's): (ticket, expiry as RFC 3339 UTC). A spectator's
        ticket: ``token_hash`` empty (anonymous) or an account's that holds no seat, and
        ``shadow`` the seat it shadows, if any."""
        ticket = secrets.token_urlsafe(24)  # 192 random bits
        # A token hash is base64url: neither "#" nor a space can occur in it.
        held = token_hash if shadow is None else f"{token_hash}#{shadow}"
        value = held if credential is None else f"{held} {credential.dump()}"
        self.store.put(game_id, hash_token(ticket), value, TTL)
        return ticket, iso(now_ms() + TTL * 1000, timespec="seconds")

    def redeem(self, game_id: str, ticket: str) -> tuple[str, Credential | None]:
        """What a ticket stands for: the seat's token hash, and the account credential it
        was issued to (if any). 401 ``invalid_ticket`` if it is unknown, expired or used,
        or its credential ended since; the ticket is gone afterwards either way."""
        token_hash, credential, _ = self.redeem_watching(game_id, ticket)
        return token_hash, credential

    def redeem_watching(
        self, game_id: str, ticket: str
    ) -> tuple[str, Credential | None, int | None]:
        """:meth:`redeem`, and the seat a spectator's ticket shadows (None: none); the
        token hash is empty for an anonymous spectator's ticket."""
        found = None
        if ticket and len(ticket) <= 100:
            found = self.store.take(game_id, hash_token(ticket))
        if found is not None:
            held, _, dumped = found.partition(" ")
            token_hash, _, shadow = held.partition("#")
            credential = Credential.load(dumped) if dumped else None
            if credential is None or self.accounts.alive(credential):
                return token_hash, credential, int(shadow) if shadow else None
        raise Unauthorized("invalid_ticket", "This ticket is unknown, used or expired.")
