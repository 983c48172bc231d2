"""Tags on finished games (``#finesse``), by the accounts that sat at them (docs/history.md).

Only a finished game takes or shows tags: a game still on answers 409
``game_not_finished`` (its tags would be a channel between its seats and anyone else).
A tag is its author's: an account tags games it sat at (or imported), removes only its
own tags, holds at most :data:`PER_GAME` on a game and :data:`PER_ACCOUNT` in all. A tag
is a short word: letters, digits, ``-`` and ``_``, at most :data:`TAG_MAX` characters,
kept in lower case without its ``#``.
"""

from __future__ import annotations

import re
from typing import Any

from ..storage.history import HistoryStore
from ..storage.record import GameStatus
from ..storage.store import Store
from .accounts import Account
from .history import History
from .refusals import Conflict, Forbidden, Invalid, Unauthorized
from .seats import not_found

TAG_MAX = 24
PER_GAME = 10
PER_ACCOUNT = 1000
TAG = re.compile(r"[a-z0-9][a-z0-9_-]{0," + str(TAG_MAX - 1) + "}")


def check_tag(text: str) -> str:
    """The tag as stored (``#Finesse`` -> ``finesse``); 400 ``invalid_tag`` otherwise."""
    tag = text.removeprefix("#").lower()
    if not TAG.fullmatch(tag):
        raise Invalid(
            "invalid_tag",
            "A tag is a word of letters, digits, - and _, at most {most} characters: {text} "
            "is not.",
            most=TAG_MAX,
            text=repr(text[:40]),
        )
    return tag


class Tags:
    """Tagging finished games and reading their tags."""

    def __init__(self, store: HistoryStore, history: History, games: Store) -> None:
        self.store = store
        self.history = history
        self.games = games

    def _entry(self, game_id: str) -> dict[str, Any]:
        """The game's history entry: 409 while the game is on, 404 without a game."""
        entry = self.store.entry(game_id)
        if entry is not None:
            return entry
        record = self.games.load(game_id) if len(game_id) <= 64 else None
        if record is None:
            raise not_found(game_id[:64])
        if record.status is not GameStatus.FINISHED:
            raise Conflict(
                "game_not_finished", "The game is not over yet: only finished games have tags."
            )
        self.history.record(record)  # ended before the history was kept
        found = self.store.entry(game_id)
        assert found is not None
        return found

    def tags(self, game_id: str, account: Account | None) -> dict[str, Any]:
        """A finished game's tags, each with how many accounts put it and whether you did."""
        self._entry(game_id)
        pairs = self.store.tags_of([game_id])[0]
        shown: dict[str, dict[str, Any]] = {}
        for tag, who in pairs:
            item = shown.setdefault(tag, {"tag": tag, "count": 0, "mine": False})
            item["count"] += 1
            item["mine"] = item["mine"] or (account is not None and who == account.id)
        return {"game_id": game_id, "tags": list(shown.values())}

    def add(self, game_id: str, account: Account | None, text: str) -> dict[str, Any]:
        account_id = self._tagger(game_id, account)
        tag = check_tag(text)
        added = self.store.tag(game_id, account_id, tag, PER_GAME, PER_ACCOUNT)
        if added == -2:
            raise Conflict(
                "too_many_tags",
                "You have {most} tags on this game already: remove one first.",
                most=PER_GAME,
            )
        if added == -1:
            raise Conflict(
                "too_many_tags",
                "You have {most} tags on your games already: remove one first.",
                most=PER_ACCOUNT,
            )
        return self.tags(game_id, account)

    def remove(self, game_id: str, account: Account | None, text: str) -> dict[str, Any]:
        self._tagger(game_id, account)
        self.store.untag(game_id, account.id if account else "", check_tag(text))
        return self.tags(game_id, account)

    def _tagger(self, game_id: str, account: Account | None) -> str:
        """The entry and the account that may tag it: one that sat at it (or imported it)."""
        if account is None:
            raise Unauthorized(
                "account_required",
                "Tags are an account's: send an account's session token or API key as Bearer.",
            )
        entry = self._entry(game_id)
        if account.id not in entry.get("accounts", ()):
            raise Forbidden("not_a_player", "Only the accounts that played this game may tag it.")
        return account.id
