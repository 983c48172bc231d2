"""Card notes: a player's own words on cards (hanab.live's notes).

A seat writes a short note on any card dealt so far (in a hand, its own or another's, in
the discards or on the fireworks). While the game is on a note is its author's alone: it
shows in the author's view and stream and nowhere else (no other view, no event, no
listing, no export). Once the game is over everyone sees everyone's notes: in the views,
the replay and the hanab.live export.

Bounded: a note is at most :data:`NOTE_MAX` characters (the request schema), a seat holds
at most one note per card of the deck (409 ``too_many_notes``), and writing is rate
limited per seat like chat (the API's ``note_seat`` rate).
"""

from __future__ import annotations

import hashlib
from typing import Any

from ..storage.notes import NoGame, NoteStore, TooManyNotes, parse
from ..storage.record import GameStatus, Record
from .private import Own
from .reads import Reads
from .refusals import Conflict, Forbidden, NotFound
from .seats import not_found, require_seat

#: The longest note, in characters (as hanab.live's own notes are short).
NOTE_MAX = 100


class Notes:
    """Writing and reading card notes, for the seat that asks."""

    def __init__(self, store: NoteStore, reads: Reads) -> None:
        self.store = store
        self.reads = reads

    def seat_of(self, game_id: str, token: str | None) -> tuple[Record, int]:
        """The game and the bearer's seat: 401 without a credential, 403 for a spectator's
        or another table's token (a spectator has no notes)."""
        record = self.reads.load(game_id)
        return record, require_seat(record, token)

    def write(self, record: Record, seat: int, order: int, text: str) -> dict[int, str]:
        """Set the seat's note on card ``order`` (empty ``text``: delete it); the seat's
        notes after."""
        if record.status is GameStatus.LOBBY:
            raise Conflict("game_not_started", "The cards are not dealt yet.")
        if record.status is GameStatus.FINISHED:
            raise Conflict("game_finished", "The game is over; its notes are closed.")
        game = self.reads.live_game(record)
        deck = len(game.deck)
        if not 0 <= order < deck:
            raise NotFound("no_such_card", "The deck has cards 0 to {last}.", last=deck - 1)
        if order >= game.next_draw:
            raise Conflict(
                "card_not_drawn",
                "Card {order} is still in the deck: nobody has seen it yet.",
                order=order,
            )
        try:
            return self.store.write(record.id, seat, order, text, deck)
        except TooManyNotes:
            raise Conflict(
                "too_many_notes", "A seat holds at most {count} notes (one per card).", count=deck
            ) from None
        except NoGame:
            raise not_found(record.id) from None

    def mine(self, record: Record, seat: int) -> dict[int, str]:
        return self.store.of_seat(record.id, seat)

    # -- in views (see :mod:`.private`) ----------------------------------------------

    def view_keys(
        self,
        game_id: str,
        status: GameStatus,
        seats: int,
        viewer: int | None,
        own: Own | None = None,
    ) -> dict[str, Any]:
        """``notes``: by seat, ``{card order: text}``. While the game is on only the
        viewer's own are filled in (a spectator's list is all empty); once it is over,
        everyone's. ``own``: the viewer's notes, if already read."""
        out: list[dict[str, str]] = [{} for _ in range(seats)]
        if status is GameStatus.FINISHED:
            out = [_jsonable(n) for n in self.store.of_seats(game_id, seats)]
        elif status is GameStatus.PLAYING and viewer is not None and viewer < seats:
            raw = self.store.raw(game_id, viewer) if own is None else own.raw
            out[viewer] = _jsonable(parse(raw))
        return {"notes": out}

    def own(self, game_id: str, viewer: int) -> Own:
        return Own(self.store.raw(game_id, viewer))

    def tag(self, own: Own) -> str:
        return "" if own.raw is None else hashlib.blake2b(own.raw, digest_size=6).hexdigest()

    def export(self, record: Record) -> list[list[str]] | None:
        """Everyone's notes in hanab.live's export shape: per seat, a list of strings
        indexed by card order, trailing empty strings dropped; None when nobody wrote any
        (hanab.live then leaves ``notes`` out). Only for a finished game."""
        if record.status is not GameStatus.FINISHED:
            raise Forbidden("forbidden", "Notes are shown once the game is over.")
        by_seat = self.store.of_seats(record.id, len(record.players))
        out = []
        for notes in by_seat:
            size = max(notes, default=-1) + 1
            out.append([notes.get(order, "") for order in range(size)])
        return out if any(out) else None


def _jsonable(notes: dict[int, str]) -> dict[str, str]:
    return {str(order): text for order, text in sorted(notes.items())}
