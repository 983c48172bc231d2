"""The view keys of a table's lobby life (issue 48): its pause (:mod:`.pause`) and its next
game (:mod:`.rematch`). Kept apart from their writes, which import the write loop, so that
drawing a view (:mod:`.rendering`) does not import the write path.
"""

from __future__ import annotations

from typing import Any

from ..storage.record import Record
from .vote_count import votes_needed


def pausable(record: Record) -> bool:
    """An unrated table with no chess clock (an idle limit or a move clock may stop)."""
    return not record.rated and not (record.timing or {}).get("timer")


def pause_view(record: Record, seat: int | None) -> dict[str, Any]:
    """The ``pause`` key of a view: paused or not, the votes to change it, the viewer's."""
    pause = record.pause or {}
    votes = pause.get("votes") or []
    return {
        "paused": record.paused,
        "votes": len(votes),
        "needed": votes_needed(record),
        "mine": None if seat is None else seat in votes,
        "allowed": pausable(record),
    }


def invited(record: Record) -> list[dict[str, Any]]:
    """The invitations of a next game not answered yet (none for any other table)."""
    return list((record.rematch or {}).get("invited") or [])


def rematch_view(record: Record) -> dict[str, Any] | None:
    """The ``rematch`` key of a view: the next game's id for a finished game that has
    one; for a next game, the game it follows, who is still invited and the shuffle."""
    rematch = record.rematch
    if not rematch:
        return None
    if "next" in rematch:
        return {"next": rematch["next"]}
    return {
        "previous": rematch.get("from"),
        "invited": [entry["name"] for entry in invited(record)],
        "shuffle": bool(rematch.get("shuffle")),
    }
