"""What a view shows one viewer that no commit changes: keys added to every copy of a view
served, outside the per-version cache (a seat's card notes, :mod:`.notes`)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Protocol

from ..storage.record import GameStatus


@dataclass(frozen=True)
class Own:
    """A seat's own private data of a game as read once (``raw``: as stored, None: none),
    so that a request's ETag and body come from one read."""

    raw: bytes | None


class PrivateKeys(Protocol):
    def own(self, game_id: str, viewer: int) -> Own:
        """Read what ``viewer`` alone sees."""
        ...

    def tag(self, own: Own) -> str:
        """A short tag that changes whenever it does (for the view's ETag); "" for none."""
        ...

    def view_keys(
        self, game_id: str, status: GameStatus, seats: int, viewer: int | None, own: Own | None
    ) -> dict[str, Any]:
        """The keys to add to the view of ``viewer`` (None: a spectator); ``own``: the
        viewer's, if already read."""
        ...
