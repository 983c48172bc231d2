"""Schemas of the history search, tags, a variant's page and imports (docs/history.md)."""

from __future__ import annotations

from marshmallow import EXCLUDE, fields, validate

from ...table.tags import TAG_MAX
from ..field_messages import FieldMessage
from .basics import integer, nullable_integer, nullable_string, query_integer
from .plain import Schema  # marshmallow's, refusing in plain words
from .queries import QueryString

CURSOR = "Pass as ?cursor= for the next page (null: the last page)."


class HistoryQuery(QueryString):
    player = fields.String(
        validate=validate.Length(1, 64), metadata={"description": "A seat's name (any case)."}
    )
    variant = fields.String(
        validate=validate.Length(1, 100),
        metadata={"description": "A hanab.live variant id or name, or this service's id."},
    )
    tag = fields.String(
        validate=validate.Length(1, TAG_MAX + 1), metadata={"description": "With or without #."}
    )
    min_score = query_integer(0, 100)
    max_score = query_integer(0, 100)
    since = fields.DateTime(metadata={"description": "Ended at or after (RFC 3339)."})
    until = fields.DateTime(metadata={"description": "Ended at or before (RFC 3339)."})
    imported = fields.Boolean(
        metadata={"description": "true: only imported games; false: only games played here."}
    )
    limit = query_integer(1, 100, load_default=20)
    cursor = fields.String(
        validate=validate.Regexp(
            r"^[0-9]{1,15}[.][A-Za-z0-9_-]{1,64}$",
            error=FieldMessage("Pass the next_cursor a page gave."),
        ),
        metadata={"description": "The next_cursor of the page before."},
    )


class SearchEntrySchema(Schema):
    game_id = fields.String(required=True)
    variant = fields.String(required=True)
    variant_id = nullable_integer(metadata={"description": "hanab.live's id (null: none)."})
    players = fields.List(fields.String(), required=True)
    bots = integer(required=True, metadata={"description": "How many seats were bots."})
    score = integer(required=True)
    max_score = integer(required=True)
    turns = integer(required=True)
    reason = nullable_string(metadata={"description": "How the game ended."})
    date = fields.String(required=True, metadata={"description": "When the game ended."})
    imported = fields.Boolean(
        required=True, metadata={"description": "Read from a hanab.live export: counts nowhere."}
    )
    tags = fields.List(fields.String(), required=True)
    replay = fields.String(required=True, metadata={"description": "The game's replay."})


class SearchPageSchema(Schema):
    games = fields.List(fields.Nested(SearchEntrySchema), required=True)
    next_cursor = nullable_string(metadata={"description": CURSOR})


class VariantHistoryQuery(QueryString):
    limit = query_integer(1, 100, load_default=20)
    cursor = fields.String(
        validate=validate.Regexp(
            r"^[0-9]{1,9}$", error=FieldMessage("Pass the next_cursor a page gave.")
        ),
        metadata={"description": "The next_cursor of the page before (missing max scores)."},
    )


class VariantHistorySchema(Schema):
    variant = fields.String(required=True)
    variant_id = nullable_integer(metadata={"description": "hanab.live's id (null: none)."})
    max_score = integer(required=True)
    games = integer(required=True, metadata={"description": "Games that count (see docs)."})
    mean = fields.Float(
        required=True, allow_none=True, metadata={"description": "Their mean score."}
    )
    best = fields.List(fields.Nested(SearchEntrySchema), required=True)
    seeds_played = integer(required=True)
    missing_max_scores = fields.List(
        fields.String(),
        required=True,
        metadata={"description": "Seeds dealt in this variant that no team maxed (a page)."},
    )
    missing_total = integer(required=True)
    next_cursor = nullable_string(metadata={"description": CURSOR})


class TagSchema(Schema):
    tag = fields.String(required=True)
    count = integer(required=True, metadata={"description": "Accounts that put it."})
    mine = fields.Boolean(required=True, metadata={"description": "Whether you put it."})


class GameTagsSchema(Schema):
    game_id = fields.String(required=True)
    tags = fields.List(fields.Nested(TagSchema), required=True)


class ImportBodySchema(Schema):
    """hanab.live's JSON export (and ours): what the engine reads; other fields are ignored."""

    class Meta:
        unknown = EXCLUDE

    players = fields.List(fields.String(), required=True, validate=validate.Length(2, 6))
    deck = fields.List(fields.Dict(), required=True, validate=validate.Length(1, 100))
    actions = fields.List(fields.Dict(), required=True, validate=validate.Length(0, 1000))
    options = fields.Dict(load_default=dict)
    notes = fields.List(
        fields.Raw(),
        validate=validate.Length(0, 6),
        metadata={"description": "Per seat, a list of each card's note (hanab.live's)."},
    )
    seed = fields.Raw(metadata={"description": "hanab.live's seed name (kept as a label)."})


class ImportedSchema(Schema):
    game_id = fields.String(required=True)
    score = integer(required=True)
    turns = integer(required=True)
    replay = fields.String(required=True)
