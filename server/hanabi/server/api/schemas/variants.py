"""Schemas of the variant catalogue: a search's query, one variant as the catalogue
describes it (:meth:`hanabi.game.Variant.describe` plus ``aliases``), and a page of them."""

from __future__ import annotations

from typing import Any

from marshmallow import ValidationError, fields, validate

from ...table.variants import (
    CATALOGUE,
    PAGE_DEFAULT,
    PAGE_MAX,
    QUERY_MAX,
    RULE_FILTERS,
    UNKNOWN_VARIANT,
    canonical_id,
)
from ..field_messages import FieldMessage
from .basics import (
    OFFSET_MAX,
    JsonBoolean,
    QueryInteger,
    integer,
    nullable_integer,
    nullable_string,
    query_integer,
)
from .plain import Schema  # marshmallow's, refusing in plain words
from .queries import QueryString
from .system import SuitSchema, VariantSchema


class VariantField(fields.String):
    """A variant as a request names it (hanab.live name in any letter case, hanab.live
    number as a string, or this service's id), loaded as the identifier the
    game stores (:func:`~hanabi.server.table.variants.canonical_id`)."""

    def _deserialize(self, value: Any, attr: Any, data: Any, **kwargs: Any) -> str:
        text = super()._deserialize(value, attr, data, **kwargs)
        try:
            return canonical_id(text)
        except KeyError:
            raise ValidationError(
                FieldMessage(UNKNOWN_VARIANT, key=repr(str(text)[:QUERY_MAX]))
            ) from None


def variant_field(**kw: Any) -> VariantField:
    # No enum: a name in any letter case or a number is accepted too (canonical_id says
    # which), and thousands of names would make a generator's enum of them.
    return VariantField(
        metadata={
            "description": "A variant: its hanab.live name (any letter case), its hanab.live "
            'number (a string: "1344"), or this service\'s id (GET /variants). Games '
            "store the hanab.live name, or this service's id when given one (no_variant, rainbow...)."
        },
        **kw,
    )


class VariantsQuery(QueryString):
    q = fields.String(
        validate=validate.Length(max=QUERY_MAX),
        metadata={
            "description": "A piece of the hanab.live name or of an old id, any letter case "
            "(`pink` finds 'Pink (6 Suits)' and 'Light Pink & ...'); empty: no filter."
        },
    )
    suits = QueryInteger(
        validate=validate.OneOf(CATALOGUE.suit_counts),
        metadata={"description": "Only variants with this many suits."},
    )
    rule = fields.String(
        validate=validate.OneOf(RULE_FILTERS),
        metadata={
            "description": "Only variants with this special rule on (a key of `rules`, such "
            "as up_or_down, throw_it_in_a_hole, critical_rank) or a suit of this kind "
            "(rainbow: every colour clue touches it; pink: every rank clue; white: no "
            "colour clue; brown: no rank clue; omni, null, dark: one of each rank, prism, "
            "inverted, reversed)."
        },
    )
    limit = query_integer(
        1,
        PAGE_MAX,
        load_default=PAGE_DEFAULT,
        metadata={"description": f"Page size: default {PAGE_DEFAULT}, at most {PAGE_MAX}."},
    )
    offset = query_integer(
        0,
        OFFSET_MAX,
        load_default=0,
        metadata={"description": "How many matches to skip (past the last: an empty page)."},
    )


class SuitDescriptionSchema(SuitSchema):
    display_name = fields.String(required=True)
    hanablive_id = nullable_string(metadata={"description": "hanab.live's short suit id."})
    prism = JsonBoolean(
        required=True, metadata={"description": "Touched by the colour of its rank's place."}
    )
    reversed = JsonBoolean(required=True, metadata={"description": "Played 5 down to 1."})
    inverted = JsonBoolean(
        required=True, metadata={"description": "Playing it discards it, and the reverse."}
    )
    pip = nullable_string(metadata={"description": "hanab.live's symbol of the suit."})
    fill = nullable_string(metadata={"description": "hanab.live's colour (CSS)."})
    fill_colorblind = nullable_string()
    fill_colors = fields.List(
        fields.String(),
        required=True,
        metadata={"description": "The colours of a multi-colour suit's gradient (CSS)."},
    )


class VariantDescriptionSchema(VariantSchema):
    """A variant as the catalogue describes it."""

    hanablive_id = nullable_integer(
        metadata={"description": "hanab.live's number for it; null for this service's own."}
    )
    suits = fields.List(fields.Nested(SuitDescriptionSchema), required=True)
    clue_color_names = fields.List(
        fields.String(), required=True, metadata={"description": "clue_colors as people say them."}
    )
    card_ranks = fields.List(
        integer(), required=True, metadata={"description": "Ranks of the cards (7: START)."}
    )
    rules = fields.Dict(
        keys=fields.String(),
        values=fields.Raw(),
        required=True,
        metadata={"description": "The special rules that are on (empty: the standard game)."},
    )
    deck_size = integer(required=True)
    clue_touches = fields.Dict(
        keys=fields.String(),
        values=fields.Dict(
            keys=fields.String(),
            values=fields.Dict(keys=fields.String(), values=fields.List(integer())),
        ),
        required=True,
        metadata={
            "description": "The cards each clue touches, by the variant's touch rules: "
            "`colors` (a clue colour) and `ranks` (a clue rank, as a string), each mapping "
            "a suit id to the ranks of that suit it touches (a clue that touches nothing "
            "by a rule, as colour-blind, maps nothing)."
        },
    )
    aliases = fields.List(
        fields.String(),
        required=True,
        metadata={
            "description": "This service's old ids for the same game (no_variant for 'No "
            "Variant'). A game created under one keeps its old suit names (White, not Purple)."
        },
    )


class VariantPageSchema(Schema):
    variants = fields.List(fields.Nested(VariantDescriptionSchema), required=True)
    total = integer(required=True, metadata={"description": "How many variants match."})
    offset = integer(required=True)
    limit = integer(required=True)
    next = nullable_string(
        metadata={"description": "The URL of the next page; null on the last one."}
    )
