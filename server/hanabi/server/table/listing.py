"""The listing of games (``GET /games``): pages of summaries, and waiting until it changes.

Games are listed newest first; lobbies by their last change, and only those changed within
``HANABI_LOBBY_LISTED_S`` with a person seated (the others are abandoned: reachable by id
until they expire, but not listed). The index is advisory (:mod:`hanabi.server.storage.listings`):
each game is read again, and entries whose game expired or moved on are dropped.
"""

from __future__ import annotations

from typing import Any

from ..ops.times import now_ms
from ..storage.changes import ChangeHub
from ..storage.keys import LISTING
from ..storage.record import GameStatus, Record, SeatKind
from ..storage.store import Store
from . import rendering


class Listing:
    """The listings, on the store and this process's change hub."""

    def __init__(self, store: Store, changes: ChangeHub, lobby_listed_s: float) -> None:
        self.store = store
        self.changes = changes
        self.lobby_listed_s = lobby_listed_s

    def version(self) -> int:
        """The listings' change count: read before a page, so no change slips by a wait."""
        return self.store.listing_version()

    def wait(self, version: int, seconds: float) -> int | None:
        """Hold until the listings are past ``version`` or ``seconds`` pass (the newest
        count known; ``version`` on a timeout)."""
        return self.changes.wait(LISTING, version, seconds)

    def list_games(
        self,
        status: str | None,
        limit: int,
        cursor: str | None,
        follows: set[str] | None = None,
    ) -> dict[str, Any]:
        """A page of summaries, newest first; lobbies by last change, and only those
        changed within ``HANABI_LOBBY_LISTED_S`` with a person seated (the others are
        abandoned: reachable by id until they expire, but not listed). ``follows``: the
        account ids the reader follows; a game where one is seated names them
        (``friends``) and comes first in its page (:mod:`.friends`)."""
        since = now_ms() - self.lobby_listed_s * 1000
        key = status or "all"

        def scan(after: str | None, count: int) -> list[tuple[str, str]]:
            if status == GameStatus.LOBBY:
                return self.store.scan_lobbies(since, after, count)
            return [(m, m) for m in self.store.scan_index(key, after, count)]

        games: list[dict[str, Any]] = []
        last = cursor
        exhausted = False
        for _ in range(5):
            rows = scan(last, limit - len(games))
            if not rows:
                exhausted = True
                break
            ids = [member.split(":", 1)[1] for member, _ in rows]
            stale = []
            for (member, _), record in zip(rows, self.store.load_many(ids)):
                if record is None or (status is not None and record.status != status):
                    stale.append(member)
                elif record.status is not GameStatus.LOBBY or listed(record, since):
                    games.append(with_friends(rendering.summary(record), record, follows))
            self.store.unindex(key, stale)
            last = rows[-1][1]
            if len(games) >= limit:
                break
        next_cursor = last if games and len(games) >= limit and not exhausted else None
        if follows:  # friends' tables first, each part in its own order
            games = [g for g in games if "friends" in g] + [g for g in games if "friends" not in g]
        return {"games": games, "next_cursor": next_cursor}


def listed(lobby: Record, since_ms: int) -> bool:
    """Whether a lobby is still open to join as the listing sees it: changed since
    ``since_ms``, with a person seated (a table of bots alone could never be started)."""
    return lobby.updated >= since_ms and any(p.kind is SeatKind.PERSON for p in lobby.players)


def with_friends(
    summary: dict[str, Any], record: Record, follows: set[str] | None
) -> dict[str, Any]:
    """``summary`` naming the followed accounts seated at ``record`` (by their seats'
    accounts: a guest who took a friend's name is no friend)."""
    if not follows:
        return summary
    friends = [p.name for p in record.players if p.account is not None and p.account in follows]
    return {**summary, "friends": friends} if friends else summary
