"""Watching without a seat: what the table shows a spectator (the view's ``spectating``),
said in a line under the table, and the seat a spectator shadows.

The server decides what a spectator sees (``full``: every card, at a table of bots or a
finished game; ``hands``: every hand, never the deck; ``public``: the board only, at a
rated table or one that hides the hands; ``shadow``: the table as one seat sees it). A
seat's own view says ``spectating: null`` and is never touched here.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from enum import StrEnum
from typing import Any

from .codes import GameStatus, game_status
from .i18n import _


class Spectating(StrEnum):
    """The values of a view's ``spectating``."""

    FULL = "full"
    HANDS = "hands"
    PUBLIC = "public"
    SHADOW = "shadow"


def shadow_seat(view: Mapping[str, Any]) -> int | None:
    """The seat (from 0) a spectator's view shadows, else None."""
    seat = view.get("shadow_seat")
    if view.get("spectating") == Spectating.SHADOW and isinstance(seat, int):
        return seat
    return None


def watching_line(view: Mapping[str, Any]) -> str | None:
    """How a spectator watches a game in play, in a sentence; None for a seat, a lobby, a
    finished game, or a server that does not say."""
    if view.get("you") is not None or game_status(view) != GameStatus.PLAYING:
        return None
    match view.get("spectating"):
        case Spectating.FULL:
            return _("Watching: every card shows, as only bots sit at this table.")
        case Spectating.HANDS:
            return _("Watching: every hand shows (never the deck).")
        case Spectating.SHADOW:
            names = [p.get("name", "") for p in view.get("players") or []]
            seat = shadow_seat(view)
            name = names[seat] if seat is not None and seat < len(names) else "?"
            return _(
                "Watching as {name} sees the table: their own cards as they know them.", name=name
            )
        case Spectating.PUBLIC:
            return _("Watching: this table hides the hands from spectators until the game is over.")
    return None


def seat_asked(text: str, names: Sequence[str]) -> int | None:
    """``--shadow``'s player as the table counts them: a number from 1, or a name (any
    case); the seat from 0, else None."""
    text = text.strip()
    if text.isdigit():
        seat = int(text) - 1
        return seat if 0 <= seat < len(names) else None
    lowered = [n.casefold() for n in names]
    return lowered.index(text.casefold()) if text.casefold() in lowered else None
