"""Schemas of seed pages, leaderboards and players' counts (docs/seeds.md)."""

from __future__ import annotations

from marshmallow import fields, validate

from hanabi.game import MAX_PLAYERS, MIN_PLAYERS

from ..field_messages import FieldMessage
from .basics import integer, nullable_integer, nullable_string, query_integer
from .plain import Schema  # marshmallow's, refusing in plain words
from .queries import QueryString

CURSOR = "Pass as ?cursor= for the next page (null: the last page)."


class PageQuery(QueryString):
    limit = query_integer(1, 100, load_default=20)
    cursor = fields.String(
        validate=validate.Regexp(
            r"^[0-9]{1,9}$", error=FieldMessage("Pass the next_cursor a page gave.")
        ),
        metadata={"description": "The next_cursor of the page before."},
    )


class LeaderboardQuery(PageQuery):
    variant = fields.String(
        load_default="0",
        validate=validate.Length(1, 100),
        metadata={"description": "A hanab.live variant id or name, or this service's id."},
    )
    players = query_integer(MIN_PLAYERS, MAX_PLAYERS, load_default=2)
    kind = fields.String(
        load_default="score",
        validate=validate.OneOf(("score", "turns")),
        metadata={
            "description": "score: best scores, then fewest turns; turns: fewest turns among "
            "the games at the variant's max score."
        },
    )


class BoardEntrySchema(Schema):
    rank = integer(required=True)
    game_id = fields.String(required=True)
    players = fields.List(fields.String(), required=True)
    bots = integer(required=True, metadata={"description": "How many seats were bots."})
    score = integer(required=True)
    max_score = integer(required=True)
    turns = integer(required=True)
    date = fields.String(required=True, metadata={"description": "When the game ended."})
    replay = fields.String(required=True, metadata={"description": "The game's replay."})


class SeedResultSchema(BoardEntrySchema):
    seed = fields.String(required=True)
    spoiled = fields.Boolean(
        required=True,
        metadata={
            "description": "A seated account had seen this seed's cards (a replay, an "
            "export, a shared room, spectating with hands) before the game ended: ranked "
            "after every result not spoiled, and on no leaderboard (docs/seeds.md)."
        },
    )


class SeedPageSchema(Schema):
    seed = fields.String(required=True)
    players = integer(required=True)
    variant_id = integer(required=True)
    variant = fields.String(required=True)
    total = integer(required=True, metadata={"description": "Results kept on this seed."})
    results = fields.List(fields.Nested(SeedResultSchema), required=True)
    next_cursor = nullable_string(metadata={"description": CURSOR})


class LeaderboardSchema(Schema):
    variant = fields.String(required=True)
    variant_id = nullable_integer(metadata={"description": "hanab.live's id (null: none)."})
    players = integer(required=True)
    kind = fields.String(required=True)
    total = integer(required=True)
    entries = fields.List(fields.Nested(BoardEntrySchema), required=True)
    next_cursor = nullable_string(metadata={"description": CURSOR})


class VariantCountsSchema(Schema):
    variant = fields.String(required=True)
    variant_id = nullable_integer()
    games = integer(required=True)
    max_scores = integer(required=True)
    win_rate = fields.Float(required=True, metadata={"description": "max_scores / games"})
    average = fields.Float(required=True)


class PlayerStatsSchema(Schema):
    username = fields.String(required=True)
    variants = fields.List(fields.Nested(VariantCountsSchema), required=True)
