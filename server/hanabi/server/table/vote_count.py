"""Who votes to end a game and how many votes end it: the count a view shows
(:mod:`.rendering`) and the vote's write (:mod:`.votes`) both read it here. Kept apart
from the write so that drawing a view does not import the write path (the two imported
each other: ``import hanabi.server.table.writes`` alone failed on the cycle).
"""

from __future__ import annotations

from typing import Any

from ..storage.record import Record, SeatKind


def people(record: Record) -> int:
    """How many seats are held by people (the voters)."""
    return sum(1 for p in record.players if p.kind is SeatKind.PERSON)


def votes_needed(record: Record) -> int:
    """Votes that end the game: half of the seated people rounded up, at least two (both,
    at a table of two people); one when a person plays alone with bots."""
    n = people(record)
    return 1 if n <= 1 else max(2, (n + 1) // 2)


def votes_view(record: Record, seat: int | None) -> dict[str, Any]:
    """The ``votes`` key of a view: how many, how many are needed, and whether the viewer
    (a seat; None for a spectator) is one of them."""
    mine = None if seat is None else seat in record.votes
    return {"end": len(record.votes), "needed": votes_needed(record), "mine": mine}
