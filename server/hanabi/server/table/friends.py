"""Friends: an account follows others (at most ``HANABI_MAX_FOLLOWS``), sees their open
tables first in the lobby, and hears when one of them opens a table (docs/chat.md).

Following is one-sided and public to nobody but the follower: the followed account is not
told who follows it, and no route lists an account's followers. The notification of a new
table goes to the followers' webhooks (event ``friend_table``, docs/turns.md), at most
``HANABI_FOLLOWERS_NOTIFIED`` of them per table, queued, never sent from the request; a
browser shows its own notification when a friend's new table appears in the live lobby
listing it already follows (each lobby summary names the friends seated at it).
"""

from __future__ import annotations

from typing import Any

from ..storage.chat import ChatStore
from ..storage.record import Record
from .accounts import Account, Accounts
from .refusals import Conflict, Invalid, NotFound
from .webhooks import WebhookEvent, Webhooks


class Friends:
    """Follows, the lobby's friends-first order, and the new-table notifications."""

    def __init__(
        self, store: ChatStore, accounts: Accounts, webhooks: Webhooks, config: dict[str, Any]
    ) -> None:
        self.store = store
        self.accounts = accounts
        self.webhooks = webhooks
        self.config = config

    def follows(self, account: Account) -> dict[str, Any]:
        """The names of the accounts ``account`` follows (deleted ones are forgotten)."""
        names = []
        for other in self.store.members(account.id, "fo"):
            data = self.accounts.public(other)
            if data is None:
                self.store.remove(account.id, "fo", other)
            else:
                names.append(data["username"])
        return {"follows": sorted(names), "limit": int(self.config["HANABI_MAX_FOLLOWS"])}

    def follow(self, account: Account, username: str) -> bool:
        """Follow ``username``; False when ``account`` already did (nothing changes)."""
        other = self._other(account, username)
        if self.store.has(account.id, "fo", other):
            return False
        limit = int(self.config["HANABI_MAX_FOLLOWS"])
        if self.store.count(account.id, "fo") >= limit:
            raise Conflict(
                "too_many_follows", "You follow {limit} accounts, all you may.", limit=limit
            )
        self.store.add(account.id, "fo", other)
        self.store.add(other, "fr", account.id)  # the other slot: see storage/chat.py
        return True

    def unfollow(self, account: Account, username: str) -> None:
        other = self._other(account, username)
        if not self.store.remove(account.id, "fo", other):
            raise NotFound("not_followed", "You do not follow {name}.", name=repr(username))
        self.store.remove(other, "fr", account.id)

    def _other(self, account: Account, username: str) -> str:
        other = self.accounts.by_name(username)
        if other is None:
            raise NotFound("player_not_found", "There is no player {name}.", name=repr(username))
        if other == account.id:
            raise Invalid("own_account", "You cannot follow yourself.")
        return other

    # -- the lobby ---------------------------------------------------------------------

    def followed_ids(self, account: Account | None) -> set[str] | None:
        """The ids of the accounts ``account`` follows, for the lobby listing's friends
        first (:meth:`hanabi.server.table.listing.Listing.list_games`); None for a guest."""
        return None if account is None else self.store.members(account.id, "fo")

    def table_opened(self, record: Record, host: Account | None) -> int:
        """A table ``host`` (an account) just opened: its followers' webhooks are called
        (event friend_table); how many were queued. A guest's table tells no one."""
        if host is None:
            return 0
        followers = self.store.some(host.id, "fr", int(self.config["HANABI_FOLLOWERS_NOTIFIED"]))
        body = {
            "game_id": record.id,
            "host": host.username,
            "variant": record.variant,
            "players": [p.name for p in record.players],
            "max_players": record.max_players,
            "link": f"/api/v1/games/{record.id}",
            "web": f"/games/{record.id}",
        }
        sent = 0
        for follower in followers:
            if self.store.has(follower, "fo", host.id):  # a follow ended half-way is no follow
                self.webhooks.notify(follower, WebhookEvent.FRIEND_TABLE, body)
                sent += 1
        return sent
