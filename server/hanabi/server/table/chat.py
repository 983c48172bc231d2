"""Chat where people are: the lobby's chat, for everyone signed in, and each shared
replay room's (docs/chat.md). A table's own chat, before the start and during play, is
the game's event log (:meth:`hanabi.server.table.play.Play.chat`), not this.

Every channel keeps its newest ``HANABI_CHAT_KEEP`` lines (:mod:`hanabi.server.storage.chat`),
each line at most the table chat's 300 bytes, from accounts only (a line names its author,
and a mute needs someone to mute); the API's edge limits each account's lines and each
channel's (``chat_account``, ``chat_channel``). Moderation is by the readers themselves:

- **a mute** is one account's: the lines of the accounts it muted are left out of every
  channel it reads, and their mentions of it notify it no more (``HANABI_MAX_MUTES``);
- **a report** queues the line for the operators (``hanabi:chat:reports``) and, once
  ``HANABI_CHAT_HIDE_REPORTS`` different accounts reported it, hides it from everyone.

A ``@name`` in a line mentions that account: the line lists it in ``mentions``, the web
page of the mentioned account shows a notification, and the account's webhook is called
(event ``mention``, docs/turns.md), unless it muted the author. A reader waits for new
lines on the change hub, as for a game: a socket, not a thread.
"""

from __future__ import annotations

import re
from typing import Any

from ..ops.times import iso, now_ms
from ..storage.changes import ChangeHub
from ..storage.chat import LOBBY, ChatStore, room_hub
from .accounts import Account, Accounts
from .refusals import Conflict, Invalid, NotFound, Unauthorized
from .replays import Replays
from .webhooks import WebhookEvent, Webhooks

#: ``@name``: a username's characters after an "@" that does not end a word (an e-mail's).
MENTION = re.compile(r"(?<![\w@])@([A-Za-z0-9_-]{3,20})")


def sign_in_to_chat() -> Unauthorized:
    return Unauthorized("account_required", "Sign in to an account to chat here.")


class Chat:
    """The lobby's and the replay rooms' chat channels, and accounts' mutes."""

    def __init__(
        self,
        store: ChatStore,
        accounts: Accounts,
        replays: Replays,
        webhooks: Webhooks,
        changes: ChangeHub,
        config: dict[str, Any],
    ) -> None:
        self.store = store
        self.accounts = accounts
        self.replays = replays
        self.webhooks = webhooks
        self.changes = changes
        self.config = config

    # -- channels ----------------------------------------------------------------------

    def channel(
        self, room_id: str | None, token: str | None, account: Account | None
    ) -> tuple[str, int]:
        """The hub id of the lobby's chat (``room_id`` None: accounts only) or of a room
        the bearer is admitted to (404 room_not_found, the room's own refusals), and how
        long its lines live (ms; 0: no expiry)."""
        if room_id is None:
            if account is None:
                raise sign_in_to_chat()
            return LOBBY, 0
        room = self.replays.load(room_id)
        self.replays.admit(room, token, None if account is None else account.id)
        return room_hub(room_id), max(1, int(room.state["expires"]) - now_ms())

    def read(self, hub: str, account: Account | None, after: int) -> dict[str, Any]:
        """The channel's lines after ``after`` as ``account`` sees them (its mutes and the
        reported lines left out), and ``last``: the seq to ask after next."""
        stored = self.store.read(hub)
        muted = self.store.members(account.id, "mu") if account is not None else set()
        lines = [
            public(line)
            for line in stored.lines
            if line["seq"] > after and line["seq"] not in stored.hidden and line["a"] not in muted
        ]
        return {"lines": lines, "last": stored.version}

    def version(self, hub: str) -> int:
        return self.store.version(hub)

    def wait(self, hub: str, version: int, seconds: float) -> int | None:
        """Hold until the channel is past ``version`` (a new line) or ``seconds`` pass:
        on the change hub, so a wait costs a socket."""
        return self.changes.wait(hub, version, seconds)

    def say(self, hub: str, ttl_ms: int, account: Account | None, text: str) -> dict[str, Any]:
        """Add ``account``'s line; mentioned accounts are notified. The line as shown."""
        if account is None:
            raise sign_in_to_chat()
        text = text.strip()
        mentioned = self._mentions(text, account)
        line = {
            "a": account.id,
            "name": account.username,
            "text": text,
            "at": iso(now_ms()),
            "mentions": [name for name, _ in mentioned],
        }
        keep = int(self.config["HANABI_CHAT_KEEP"])
        seq = self.store.say(hub, line, keep, ttl_ms)
        shown = public({**line, "seq": seq})
        for _, account_id in mentioned:
            if not self.store.has(account_id, "mu", account.id):
                self.webhooks.notify(account_id, WebhookEvent.MENTION, mention_body(hub, shown))
        return shown

    def _mentions(self, text: str, author: Account) -> list[tuple[str, str]]:
        """The accounts ``@named`` in ``text`` (name, id), each once, the author and names
        of no account left out, at most ``HANABI_CHAT_MENTIONS``."""
        found: list[tuple[str, str]] = []
        for raw in MENTION.findall(text):
            if len(found) >= int(self.config["HANABI_CHAT_MENTIONS"]):
                break
            account_id = self.accounts.by_name(raw)
            if account_id is None or account_id == author.id:
                continue
            if all(account_id != known for _, known in found):
                found.append((raw.lower(), account_id))
        return found

    def report(self, hub: str, account: Account | None, seq: int) -> None:
        """``account`` reports line ``seq`` (404 line_not_found when the channel keeps no
        such line); reporting it again changes nothing."""
        if account is None:
            raise sign_in_to_chat()
        stored = self.store.read(hub)
        line = next((line for line in stored.lines if line["seq"] == seq), None)
        if line is None:
            raise NotFound("line_not_found", "This chat keeps no line {seq}.", seq=seq)
        entry = {"channel": hub, "seq": seq, "author": line["name"], "text": line["text"],
                 "by": account.username, "at": iso(now_ms())}  # fmt: skip
        hide_at = int(self.config["HANABI_CHAT_HIDE_REPORTS"])
        self.store.report(hub, seq, account.id, hide_at, entry)

    # -- mutes -------------------------------------------------------------------------

    def mutes(self, account: Account) -> dict[str, Any]:
        """The names of the accounts ``account`` muted (deleted ones are forgotten)."""
        return {"mutes": sorted(self._names(account.id, "mu"))}

    def mute(self, account: Account, username: str) -> bool:
        """Mute ``username`` for ``account``; False when it was already muted."""
        other = self._other(account, username, "You cannot mute yourself.")
        if self.store.has(account.id, "mu", other):
            return False
        limit = int(self.config["HANABI_MAX_MUTES"])
        if self.store.count(account.id, "mu") >= limit:
            raise Conflict(
                "too_many_mutes", "You have muted {limit} accounts, all you may.", limit=limit
            )
        return self.store.add(account.id, "mu", other)

    def unmute(self, account: Account, username: str) -> None:
        other = self._other(account, username, "You cannot mute yourself.")
        if not self.store.remove(account.id, "mu", other):
            raise NotFound("not_muted", "You have not muted {name}.", name=repr(username))

    def _other(self, account: Account, username: str, own: str) -> str:
        """The id of the account named ``username`` (404 player_not_found); 400
        own_account when it is ``account`` itself (the sentence ``own``)."""
        other = self.accounts.by_name(username)
        if other is None:
            raise NotFound("player_not_found", "There is no player {name}.", name=repr(username))
        if other == account.id:
            raise Invalid("own_account", own)
        return other

    def _names(self, account_id: str, part: str) -> list[str]:
        """The usernames of an account's muted or followed accounts; deleted ones are
        dropped from the set as they are met."""
        names = []
        for other in self.store.members(account_id, part):
            public_data = self.accounts.public(other)
            if public_data is None:
                self.store.remove(account_id, part, other)
            else:
                names.append(public_data["username"])
        return names


def public(line: dict[str, Any]) -> dict[str, Any]:
    """A stored line as readers see it: its author's name, never its account id."""
    return {key: line[key] for key in ("seq", "name", "text", "at", "mentions")}


def mention_body(hub: str, line: dict[str, Any]) -> dict[str, Any]:
    """The webhook body of a mention: where, by whom, the line (public words only)."""
    if hub == LOBBY:
        where: dict[str, Any] = {"channel": "lobby", "link": "/api/v1/chat/lobby", "web": "/"}
    else:
        room_id = hub[len(room_hub("")) :]
        where = {"channel": "replay", "room_id": room_id,
                 "link": f"/api/v1/replays/{room_id}/chat", "web": f"/replays/{room_id}"}  # fmt: skip
    return {**where, "seq": line["seq"], "from": line["name"], "text": line["text"],
            "at": line["at"]}  # fmt: skip
