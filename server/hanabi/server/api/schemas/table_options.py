"""The engine's table options a new game may set (hanab.live's, see docs/variants.md),
each off by default so that a game that sets none plays the standard rules."""

from __future__ import annotations

from typing import Any

from marshmallow import ValidationError, validates_schema

from ..field_messages import FieldMessage
from .basics import JsonBoolean
from .plain import Schema  # marshmallow's, refusing in plain words


def _option(description: str) -> JsonBoolean:
    return JsonBoolean(load_default=False, metadata={"description": description})


class TableOptionsSchema(Schema):
    """hanab.live's table options (``options`` of a create); a rated game takes none."""

    one_extra_card = _option("Every hand holds one card more (not with one_less_card).")
    one_less_card = _option("Every hand holds one card fewer (not with one_extra_card).")
    deck_plays = _option("The seat to move may play the deck's last card blind.")
    all_or_nothing = _option("Play on after the deck runs out; any score but the maximum counts 0.")
    card_cycle = _option("A clue giver's oldest unclued card moves to their newest slot.")
    end_at_max_possible = _option(
        "End the game as soon as the score reaches the highest still possible, as "
        "hanab.live does (off: play to the end of the deck, the standard rules)."
    )

    @validates_schema
    def _one_hand_size(self, data: dict[str, Any], **kwargs: Any) -> None:
        if data.get("one_extra_card") and data.get("one_less_card"):
            raise ValidationError(
                FieldMessage("A hand holds one card more or one fewer, not both."), "one_less_card"
            )
