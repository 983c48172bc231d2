"""The moves a seat sends (POST /games/{id}/actions, a replay room's hypothetical) and the
view's ``legal_actions``: one union of shapes, told apart by ``type``, so a client sends
back a legal action as it got it (it carries ``turn`` too).

A clue is one shape with ``color`` or ``rank`` (exactly one): two shapes sharing
``type: clue`` would make the union one no generator can tell apart by ``type``.
"""

from __future__ import annotations

from typing import Any

from marshmallow import ValidationError, fields, validate, validates_schema

from ..field_messages import FieldMessage
from .basics import (
    CARD_MAX,
    CLUE_COLORS,
    CLUE_RANKS,
    PLAYER_ACTIONS,
    SEAT_MAX,
    SUIT_IDS,
    TURN_MAX,
    bounded,
    integer,
)
from .plain import REQUIRED, UNKNOWN, Schema


class ActionRequest(Schema):
    turn = bounded(
        0, TURN_MAX, required=True, metadata={"description": "The turn the client believes it is."}
    )


class PlayRequestSchema(ActionRequest):
    type = fields.String(required=True, validate=validate.Equal("play"))
    card = bounded(0, CARD_MAX, required=True, metadata={"description": "Its order."})
    firework = fields.String(
        validate=validate.OneOf(SUIT_IDS),
        metadata={"description": "Wild plays: the firework (suit id) to play on."},
    )


class DiscardRequestSchema(ActionRequest):
    type = fields.String(required=True, validate=validate.Equal("discard"))
    card = bounded(0, CARD_MAX, required=True, metadata={"description": "Its order."})


class ClueRequestSchema(ActionRequest):
    type = fields.String(required=True, validate=validate.Equal("clue"))
    target = bounded(0, SEAT_MAX, required=True, metadata={"description": "A seat."})
    color = fields.String(
        validate=validate.OneOf(CLUE_COLORS),
        metadata={"description": "A colour clue: the colour (give color or rank, not both)."},
    )
    rank = integer(
        validate=validate.OneOf(CLUE_RANKS),
        metadata={"description": "A rank clue: the rank (give color or rank, not both)."},
    )

    @validates_schema
    def _color_or_rank(self, data: dict[str, Any], **kwargs: Any) -> None:
        """Exactly one of the two, refused in the words a missing or extra field gets."""
        if "color" not in data and "rank" not in data:
            raise ValidationError({"color": [REQUIRED]})
        if "color" in data and "rank" in data:
            raise ValidationError({"rank": [UNKNOWN]})


#: What the contract adds to ClueRequest's JSON Schema: exactly one of color and rank,
#: said the one way generators read without a union (turn, type, target and that one).
CLUE_REQUEST_EXTRA = {"minProperties": 4, "maxProperties": 4}

#: The body of POST /games/{id}/actions is exactly one of these shapes (by ``type``).
ACTION_REQUESTS: tuple[type[Schema], ...] = (
    PlayRequestSchema,
    DiscardRequestSchema,
    ClueRequestSchema,
)
_BY_TYPE = {"play": PlayRequestSchema, "discard": DiscardRequestSchema, "clue": ClueRequestSchema}


def action_request_schema(data: dict[str, Any]) -> type[Schema]:
    """Which shape a request body means, going by ``type``."""
    kind = data.get("type")
    if isinstance(kind, str) and kind in _BY_TYPE:
        return _BY_TYPE[kind]
    raise ValidationError(
        {"type": [FieldMessage("Use one of: {choices}.", choices=", ".join(PLAYER_ACTIONS))]}
    )
