"""Schemas of the system routes: a problem (every error), health, the catalogue of variants
and bot strategies."""

from __future__ import annotations

from marshmallow import fields, validate

from .basics import JsonBoolean, integer, nullable_string
from .plain import Schema  # marshmallow's, refusing in plain words


class ProblemSchema(Schema):
    """RFC 9457 problem details, with a stable machine-readable ``code``."""

    type = fields.String(required=True, metadata={"description": "A URI naming the problem."})
    title = fields.String(required=True)
    status = integer(required=True)
    detail = fields.String(required=True)
    code = fields.String(required=True, metadata={"description": "Stable code for programs."})
    errors = fields.Dict(
        keys=fields.String(),
        values=fields.Raw(),
        metadata={"description": "Per-field messages of a request that failed validation."},
    )


class HealthSchema(Schema):
    status = fields.String(required=True, validate=validate.Equal("ok"))


class SuitSchema(Schema):
    id = fields.String(required=True)
    name = fields.String(required=True)
    abbreviation = fields.String(required=True)
    color = nullable_string(metadata={"description": "The suit's own clue colour, if any."})
    touched_by = fields.List(
        fields.String(), required=True, metadata={"description": "Clue colours touching it."}
    )
    all_colors = JsonBoolean(required=True)
    no_colors = JsonBoolean(required=True)
    all_ranks = JsonBoolean(required=True)
    no_ranks = JsonBoolean(required=True)
    one_of_each = JsonBoolean(required=True)
    wild = JsonBoolean(required=True)


class VariantSchema(Schema):
    id = fields.String(required=True)
    name = fields.String(required=True)
    hanablive_name = nullable_string()
    suits = fields.List(fields.Nested(SuitSchema), required=True)
    clue_colors = fields.List(fields.String(), required=True)
    clue_ranks = fields.List(integer(), required=True)
    fireworks = fields.List(fields.String(), required=True)
    card_count = integer(required=True)
    max_score = integer(required=True)


class StrategySchema(Schema):
    name = fields.String(
        required=True, metadata={"description": "What POST /games/{game_id}/bots takes."}
    )
    description = fields.String(
        required=True,
        metadata={"description": "What it plays and whom to seat it with, in a sentence."},
    )
    default = fields.Boolean(
        required=True, metadata={"description": "The strategy of a bot seat that names none."}
    )
    fallback = nullable_string(
        metadata={
            "description": (
                "The strategy it plays unless every other seat plays this one (a private code, "
                "like hat; an API client's seat plays it when it said so, players[].plays); "
                "null: it plays itself at any table."
            )
        }
    )


class StrategyListSchema(Schema):
    strategies = fields.List(fields.Nested(StrategySchema), required=True)
