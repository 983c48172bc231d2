"""Schemas of card notes (a note written, a seat's notes, the notes in a view) and of a
view's last move."""

from __future__ import annotations

from marshmallow import fields, validate

from ...table.notes import NOTE_MAX
from ..field_messages import FieldMessage
from .basics import _CONTROL, FullMatch, JsonInteger, integer
from .plain import Schema  # marshmallow's, refusing in plain words


class NoteBodySchema(Schema):
    text = fields.String(
        required=True,
        validate=[
            validate.Length(0, NOTE_MAX),
            FullMatch(
                f"^[^{_CONTROL}]*$", error=FieldMessage("A note holds no control characters.")
            ),
        ],
        metadata={
            "description": f"At most {NOTE_MAX} characters; surrounding spaces are dropped. "
            "Empty (or only spaces): the note is deleted."
        },
    )


def notes_field(description: str, required: bool = False) -> fields.Dict:
    """A seat's notes: card order (as a string, JSON's keys) -> text."""
    return fields.Dict(
        keys=fields.String(),
        values=fields.String(),
        required=required,
        metadata={"description": description},
    )


class SeatNotesSchema(Schema):
    seat = integer(required=True, metadata={"description": "The author's seat."})
    notes = notes_field("The seat's notes: card order -> text.", required=True)


def view_notes_field() -> fields.List:
    return fields.List(
        notes_field("card order -> text"),
        required=True,
        metadata={
            "description": "Card notes by seat (card order -> text). While the game is on "
            "only the viewer's own are filled in (they are private to their author; a "
            "spectator's are all empty); once it is over, everyone's."
        },
    )


class LastActionSchema(Schema):
    """The last move, redacted as its events are."""

    type = fields.String(
        required=True,
        validate=validate.OneOf(("clue", "play", "misplay", "discard", "terminate")),
    )
    turn = integer(required=True)
    seat = integer(metadata={"description": "Who moved (absent: the table ended the game)."})
    target = integer(metadata={"description": "A clue: who was told."})
    color = fields.String(
        allow_none=True, metadata={"description": "A clue's colour (null: hidden, or a rank)."}
    )
    rank = JsonInteger(
        allow_none=True, metadata={"description": "A clue's rank, or the card's (null: hidden)."}
    )
    touched = fields.List(integer(), metadata={"description": "A clue: the cards it touched."})
    sound = fields.String(metadata={"description": "A clue heard, not told (Cow & Pig, Duck)."})
    card = integer(metadata={"description": "A play or discard: the card's order."})
    suit = fields.String(
        allow_none=True, metadata={"description": "The card's suit (null where hidden)."}
    )
    firework = fields.String(
        allow_none=True, metadata={"description": "A play: the firework it went on."}
    )
    inverted = fields.Boolean()
    reason = fields.String(metadata={"description": "An ending: why."})
