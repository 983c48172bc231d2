"""The index of games by status, which the listings (GET /games) read: part of
:class:`~hanabi.server.storage.store.Store`.

``hanabi:index:<status>`` and ``hanabi:index:all`` are sorted sets of members
``<created ms>:<id>``, ordered by member (newest first). They are updated after the
commit and are advisory: listings re-check each game's status and drop members whose game
expired. Each is one key (cluster-safe: no command touches two).

``hanabi:index:lobby`` is scored by each lobby's last change (ms) instead, so the lobby
listing reads only the lobbies changed within ``HANABI_LOBBY_LISTED_S`` (a range of
scores, last changed first): an abandoned lobby leaves the list without a scan, and every
lobby change drops the entries older than that, so the set holds the open lobbies only.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from .record import GameStatus

if TYPE_CHECKING:
    from .record import Record

INDEX = "hanabi:index:"


class GameIndex:
    """The index's reads and writes (the store mixes them in)."""

    redis: Any
    lobby_listed_ms: int  # see the module's docstring
    listing_changed: Callable[[], int]  # the store's: count and announce a change

    def index(self, record: Record, old_status: str | None, delete: bool = False) -> None:
        """Keep ``hanabi:index:<status>`` and ``hanabi:index:all`` in step with a commit,
        and announce that the listings changed."""
        member = f"{record.created:013d}:{record.id}"
        pipe = self.redis.pipeline(transaction=False)
        if old_status and (old_status != record.status or delete):
            pipe.zrem(INDEX + old_status, member)
        if delete:
            pipe.zrem(INDEX + "all", member)
        elif record.status is GameStatus.LOBBY:
            self._touch_lobby(pipe, record, member)
            pipe.zadd(INDEX + "all", {member: 0})
        else:
            pipe.zadd(INDEX + record.status, {member: 0})
            pipe.zadd(INDEX + "all", {member: 0})
        pipe.execute()
        self.listing_changed()

    def lobby_changed(self, record: Record) -> None:
        """A lobby changed (a seat taken or freed, a bot, a declaration, chat): to the top
        of the lobby listing, which shows it, so announce that the listings changed."""
        pipe = self.redis.pipeline(transaction=False)
        self._touch_lobby(pipe, record, f"{record.created:013d}:{record.id}")
        pipe.execute()
        self.listing_changed()

    def _touch_lobby(self, pipe: Any, record: Record, member: str) -> None:
        # GT: a late write from another process never moves a lobby back in time.
        pipe.zadd(INDEX + GameStatus.LOBBY, {member: record.updated}, gt=True)
        pipe.zremrangebyscore(
            INDEX + GameStatus.LOBBY, "-inf", f"({record.updated - self.lobby_listed_ms}"
        )

    def scan_index(self, status: str, cursor: str | None, count: int) -> list[str]:
        """Members of a status index, newest first, strictly after ``cursor``."""
        start = "(" + cursor if cursor else "+"
        return [
            m.decode()
            for m in self.redis.zrange(
                INDEX + status, start, "-", desc=True, bylex=True, offset=0, num=count
            )
        ]

    def scan_lobbies(self, since_ms: int, cursor: str | None, count: int) -> list[tuple[str, str]]:
        """Lobbies changed at ``since_ms`` or later, last changed first, strictly after
        ``cursor``: (member, the cursor after it: ``<last change ms>:<member>``). A cursor
        that does not read as one starts from the top."""
        top, after = "+inf", None
        score, _, member = (cursor or "").partition(":")
        if score.isascii() and score.isdigit() and len(score) <= 15 and member:
            top, after = score, (int(score), member)
        out: list[tuple[str, str]] = []
        offset = 0
        while True:
            rows = self.redis.zrange(
                INDEX + GameStatus.LOBBY, top, since_ms, desc=True, byscore=True, withscores=True,
                offset=offset, num=count,
            )  # fmt: skip
            for raw, value in rows:
                m, changed = raw.decode(), int(value)
                # Lobbies changed in the same ms as the cursor's sort by member, descending.
                if after is None or (changed, m) < after:
                    out.append((m, f"{changed}:{m}"))
            if len(out) >= count or len(rows) < count:
                return out[:count]
            offset += len(rows)

    def unindex(self, status: str, members: list[str]) -> None:
        if members:
            self.redis.zrem(INDEX + status, *members)
