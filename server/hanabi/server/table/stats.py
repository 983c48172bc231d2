"""Public profiles: an account's rating and statistics per variant, and its history of
finished games, as settling writes them (:mod:`hanabi.server.table.settle`; the counters
are laid out in :mod:`hanabi.server.storage.accounts`).

The account's ``unrated_games`` counts its finished unrated games (what makes it eligible
for rated games, :mod:`hanabi.server.table.rated`); accounts from before that field have it
counted once from the statistics by the first game they finish since.
"""

from __future__ import annotations

from typing import Any

from ..storage.accounts import AccountStore
from .accounts import Accounts
from .refusals import NotFound


def variant_stats(raw: dict[bytes, bytes]) -> dict[str, dict[str, Any]]:
    """The statistics hash as ``{variant: {games, best, average, strikeout_rate, ...}}``."""
    counters: dict[str, dict[str, str]] = {}
    for field, value in raw.items():
        variant, _, name = field.decode().partition(":")
        counters.setdefault(variant, {})[name] = value.decode()
    out = {}
    for variant, c in sorted(counters.items()):
        games = int(c.get("games", 0))
        scored = int(c.get("scored", 0))
        best = {n.removeprefix("best:"): int(v) for n, v in c.items() if n.startswith("best:")}
        out[variant] = {
            "games": games,
            "best": dict(sorted(best.items())),
            "average": round(int(c.get("score_sum", 0)) / scored, 2) if scored else None,
            "strikeout_rate": round(int(c.get("strikeouts", 0)) / games, 4) if games else 0.0,
            "rated_games": int(c.get("rated", 0)),
            "rating_change": round(float(c.get("change", 0)), 2),
        }
    return out


class Profiles:
    """What anyone may see of a player."""

    def __init__(self, accounts: Accounts, store: AccountStore) -> None:
        self.accounts = accounts
        self.store = store

    def account_id_of(self, username: str) -> str:
        """The id of the player named ``username``; 404 ``player_not_found``."""
        account_id = self.accounts.by_name(username)
        if account_id is None or self.accounts.public(account_id) is None:
            raise NotFound("player_not_found", "There is no player {name}.", name=repr(username))
        return account_id

    def profile(self, username: str) -> dict[str, Any]:
        """The public account and its statistics per variant."""
        account_id = self.account_id_of(username)
        public = self.accounts.public(account_id)
        assert public is not None
        return {**public, "stats": variant_stats(self.store.stats(account_id))}

    def history(self, username: str, limit: int, cursor: str | None) -> dict[str, Any]:
        """Finished games, newest first, ``limit`` at a time after ``cursor``."""
        account_id = self.account_id_of(username)
        entries, next_cursor = self.store.history(account_id, limit, cursor)
        games = [
            {**entry, "rating_change": entry.get("rating_change") or None} for entry in entries
        ]
        return {"games": games, "next_cursor": next_cursor}
