"""What the client library's calls return: small frozen dataclasses around the JSON
the server sends (views and events stay plain dicts)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

View = dict[str, Any]
Event = dict[str, Any]


@dataclass(frozen=True)
class Seat:
    """A seat at a table: what creating or joining a game returns.

    ``token`` is shown once by the server; keep it to act, or to come back later.
    """

    game_id: str
    seat: int
    token: str
    game: View


@dataclass(frozen=True)
class BotSeat:
    """A bot the server plays, seated by the host: its seat, and the host's view after.

    A bot seat has no token: the server plays its turns itself.
    """

    game_id: str
    seat: int
    game: View


@dataclass(frozen=True)
class ActResult:
    """The answer to an action: the events it caused and the view after it.

    ``repeated`` is True when the server had already applied this very action (a retry
    after a lost answer) and sent the original result again.
    """

    events: list[Event]
    game: View
    repeated: bool = False


@dataclass(frozen=True)
class Poll:
    """One answer to a conditional view request.

    ``game`` is None when nothing changed since ``etag`` (HTTP 304).
    """

    game: View | None
    etag: str | None

    @property
    def changed(self) -> bool:
        return self.game is not None


@dataclass(frozen=True)
class EventPage:
    """Events after some ``seq``, and ``last_seq``: the newest event's seq on the server.

    ``next`` is the ``after`` of the next page, None when this page is the last
    (:meth:`Client.all_events` follows them).
    """

    events: list[Event]
    last_seq: int | None = None
    next: int | None = None


@dataclass(frozen=True)
class GamePage:
    """One page of game summaries; pass ``cursor`` back for the next page."""

    games: list[dict[str, Any]]
    cursor: str | None = None
    raw: dict[str, Any] = field(default_factory=dict, repr=False)
    etag: str | None = None  # the page's tag, for list_games(etag=..., wait=...)


def _seat(data: Mapping[str, Any]) -> Seat:
    game = data.get("game") or {}
    game_id = data.get("id") or game.get("id")
    return Seat(str(game_id), int(data["seat"]), str(data["token"]), dict(game))
