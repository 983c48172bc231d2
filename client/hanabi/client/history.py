"""History calls of the client library: finished games searched, tags, a variant's page and
importing a hanab.live game (docs/history.md). One part of :class:`hanabi.client.api.Client`,
whose calls it answers as its own."""

from __future__ import annotations

from typing import Any
from urllib.parse import quote

from .transport import Transport


class HistoryCalls:
    """``GET /history``, a game's tags, ``GET /history/variants/{v}``, ``POST /imports``."""

    def __init__(self, transport: Transport) -> None:
        self.transport = transport

    def search_history(self, **query: Any) -> dict[str, Any]:
        """A page of finished games, newest first: ``{"games", "next_cursor"}``. ``query``:
        player, variant, tag, min_score, max_score, since, until (RFC 3339), imported,
        limit, cursor."""
        params = {k: (str(v).lower() if isinstance(v, bool) else v) for k, v in query.items()}
        return self.transport._request("GET", "/history", params=params).json()

    def game_tags(self, game_id: str) -> dict[str, Any]:
        """A finished game's tags: ``{"game_id", "tags": [{"tag", "count", "mine"}]}``."""
        return self.transport._request("GET", f"/games/{game_id}/tags").json()

    def tag_game(self, game_id: str, tag: str, *, remove: bool = False) -> dict[str, Any]:
        """Put (or with ``remove``, take off) your tag on a finished game you played."""
        method = "DELETE" if remove else "PUT"
        path = f"/games/{game_id}/tags/{quote(tag, safe='')}"
        return self.transport._request(method, path).json()

    def variant_page(
        self, variant: str, *, limit: int | None = None, cursor: str | None = None
    ) -> dict[str, Any]:
        """A variant's best games, mean and the seeds nobody maxed."""
        path = f"/history/variants/{quote(variant, safe='')}"
        return self.transport._request(
            "GET", path, params={"limit": limit, "cursor": cursor}
        ).json()

    def import_game(self, document: dict[str, Any]) -> dict[str, Any]:
        """Import a hanab.live JSON export as a finished game: ``{"game_id", "score", ...}``."""
        return self.transport._request("POST", "/imports", json=document, idempotent=False).json()
