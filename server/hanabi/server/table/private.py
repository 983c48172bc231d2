"""What a view shows one viewer that no commit changes: keys added to every copy of a view
served, outside the per-version cache (a seat's card notes, :mod:`.notes`)."""

from __future__ import annotations

from typing import Any, Protocol

from ..storage.record import GameStatus


class PrivateKeys(Protocol):
    def view_keys(
        self, game_id: str, status: GameStatus, seats: int, viewer: int | None
    ) -> dict[str, Any]:
        """The keys to add to the view of ``viewer`` (None: a spectator)."""
        ...

    def tag(self, game_id: str, viewer: int | None) -> str:
        """A short tag that changes whenever those keys do (for the view's ETag)."""
        ...
