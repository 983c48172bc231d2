"""The card notes routes: a seat writes a note on a card, and reads its own notes.

Notes are private to their author while the game is on (:mod:`hanabi.server.table.notes`):
these routes answer only the author's seat, and no other route shows them until the end.
"""

from __future__ import annotations

from flask import Response
from flask_restx import Resource

from ..table.notes import NOTE_MAX
from .context import limits, services
from .credentials import bearer_token
from .http import json_response, load_body
from .operations import operation, schema
from .schemas.notes import NoteBodySchema, SeatNotesSchema


def _answer(seat: int, notes: dict[int, str]) -> Response:
    body = {"seat": seat, "notes": {str(order): text for order, text in sorted(notes.items())}}
    return json_response(body)


class Notes(Resource):
    @operation(
        id="listNotes",
        summary="The bearer's own card notes in this game",
        description="Only the seat's own notes: another seat's are shown once the game is "
        "over (in its views, replay and export). A spectator has no notes (401, 403).",
        auth="required",
        responses={200: (SeatNotesSchema, "The seat's notes")},
        errors=(401, 403, 404),
    )
    def get(self, game_id: str) -> Response:
        svc = services()
        record, seat = svc.notes.seat_of(game_id, bearer_token())
        return _answer(seat, svc.notes.mine(record, seat))


class Note(Resource):
    @operation(
        id="writeNote",
        summary="Write (or with empty text, delete) the bearer's note on a card",
        description=(
            f"Any card dealt so far: in a hand (yours too), discarded or played. At most "
            f"{NOTE_MAX} characters; the same text twice is the same note. The note is the "
            "author's alone while the game is on (their view and stream carry it, as "
            "`notes`); everyone sees it once the game is over. 404 no_such_card past the "
            "deck; 409 card_not_drawn for a card still in the deck, too_many_notes past one "
            "note per card of the deck, game_not_started, game_finished; 429 rate_limited "
            "past the seat's rate (HANABI_LIMIT_NOTE_SEAT). Answers the seat's notes."
        ),
        body=NoteBodySchema,
        auth="required",
        responses={200: (SeatNotesSchema, "The seat's notes, this one written")},
        errors=(400, 401, 403, 404, 409, 413, 429),
    )
    def put(self, game_id: str, card_order: int) -> Response:
        svc = services()
        body = load_body(schema(NoteBodySchema))
        record, seat = svc.notes.seat_of(game_id, bearer_token())
        limits().hit("note_seat", f"{game_id}:{record.players[seat].token_hash or seat}")
        notes = svc.notes.write(record, seat, card_order, body["text"].strip())
        return _answer(seat, notes)
