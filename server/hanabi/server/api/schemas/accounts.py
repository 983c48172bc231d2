"""Marshmallow schemas of accounts, sessions, keys, profiles and the rating model."""

from __future__ import annotations

from typing import Any

from marshmallow import ValidationError, fields, validate

from ...table.accounts import USERNAME, USERNAME_RULE, normal_name
from ..field_messages import FieldMessage
from .basics import JsonInteger, query_integer
from .plain import Schema  # marshmallow's, refusing in plain words
from .queries import QueryString
from .turns import WebhookSchema
from .views import RatingChangeSchema

#: What the contract says a username is: the ASCII form (the service also takes any form
#: whose NFKC normalisation is one, e.g. full-width letters).
USERNAME_PATTERN = r"^[A-Za-z0-9_-]{3,20}$"


class Username(fields.String):
    """A new username, loaded as it is stored (:func:`~hanabi.server.table.accounts.normal_name`:
    NFKC, then lower case) and refused unless that whole form is 3-20 of a-z, 0-9, _, -."""

    def _deserialize(self, value: Any, attr: Any, data: Any, **kwargs: Any) -> str:
        name = normal_name(super()._deserialize(value, attr, data, **kwargs))
        if USERNAME.fullmatch(name) is None:
            raise ValidationError(FieldMessage(USERNAME_RULE))
        return name


class RegisterSchema(Schema):
    username = Username(
        required=True,
        metadata={
            "pattern": USERNAME_PATTERN,
            "description": (
                "Stored NFKC-normalised and in lower case ('Alice' is 'alice'), which must "
                "then be 3-20 of a-z, 0-9, '_' and '-'; unique."
            ),
        },
    )
    password = fields.String(required=True, validate=validate.Length(8, 256), load_only=True)
    bot = fields.Boolean(
        load_default=False, metadata={"description": "An account a program plays: never rated."}
    )


class LoginSchema(Schema):
    username = fields.String(required=True, validate=validate.Length(1, 64))
    password = fields.String(required=True, validate=validate.Length(1, 256), load_only=True)


class PasswordChangeSchema(Schema):
    old_password = fields.String(required=True, validate=validate.Length(1, 256))
    password = fields.String(required=True, validate=validate.Length(8, 256))
    keep_api_keys = fields.Boolean(
        load_default=False,
        metadata={"description": "Keep the account's API keys (by default they are revoked)."},
    )


class PasswordSchema(Schema):
    password = fields.String(required=True, validate=validate.Length(1, 256))


class AccountSchema(Schema):
    id = fields.String(required=True)
    username = fields.String(required=True)
    bot = fields.Boolean(required=True)
    rating = fields.Float(required=True)
    rated_games = JsonInteger(required=True)
    created = fields.DateTime(required=True)


class MeSchema(AccountSchema):
    """The account as its owner sees it: with its webhook (without the secret), so that a
    settings page need not ask for a webhook that may not exist (a 404)."""

    webhook = fields.Nested(
        WebhookSchema,
        required=True,
        allow_none=True,
        metadata={"description": "The account's webhook (GET /accounts/me/webhook), or null."},
    )


class SessionSchema(Schema):
    token = fields.String(
        required=True, metadata={"description": "Send as 'Authorization: Bearer'; shown once."}
    )
    expires = fields.DateTime(
        required=True, metadata={"description": "Moves on with every use (sliding expiry)."}
    )


class KeyRequestSchema(Schema):
    name = fields.String(required=True, validate=validate.Length(1, 40))


class KeySchema(Schema):
    id = fields.String(required=True)
    name = fields.String(required=True)
    created = fields.DateTime(required=True)


class NewKeySchema(KeySchema):
    key = fields.String(required=True, metadata={"description": "The secret; shown only here."})


class KeyListSchema(Schema):
    keys = fields.List(fields.Nested(KeySchema), required=True)


class VariantStatsSchema(Schema):
    games = JsonInteger(required=True)
    best = fields.Dict(
        keys=fields.String(),
        values=JsonInteger(),
        required=True,
        metadata={"description": "Best score by player count."},
    )
    average = fields.Float(
        allow_none=True,
        required=True,
        metadata={"description": "Average score of the games not ended at 0."},
    )
    strikeout_rate = fields.Float(required=True)
    rated_games = JsonInteger(required=True)
    rating_change = fields.Float(
        required=True, metadata={"description": "The sum of this variant's rating changes."}
    )


class ProfileSchema(Schema):
    username = fields.String(required=True)
    bot = fields.Boolean(required=True)
    rating = fields.Float(required=True)
    rated_games = JsonInteger(required=True)
    stats = fields.Dict(
        keys=fields.String(), values=fields.Nested(VariantStatsSchema), required=True
    )


class HistoryEntrySchema(Schema):
    id = fields.String(required=True)
    variant = fields.String(required=True)
    players = fields.List(fields.String(), required=True)
    seat = JsonInteger(required=True)
    score = JsonInteger(required=True)
    reason = fields.String(allow_none=True, required=True)
    ended = fields.DateTime(required=True)
    rated = fields.Boolean(required=True)
    rating_change = fields.Nested(RatingChangeSchema, allow_none=True, required=True)


class HistoryPageSchema(Schema):
    games = fields.List(fields.Nested(HistoryEntrySchema), required=True)
    next_cursor = fields.String(allow_none=True, required=True)


class HistoryQuery(QueryString):
    limit = query_integer(1, 100, load_default=20)
    cursor = fields.String(validate=validate.Length(1, 100))


class VariantModelSchema(Schema):
    rated = fields.Boolean(required=True)
    hanabot = fields.List(
        JsonInteger(),
        required=True,
        metadata={"description": "Hanabot's rating for score 0, 1, ..., the maximum."},
    )
    max_score = JsonInteger(required=True)
    expected_score = fields.Float(
        allow_none=True,
        required=True,
        metadata={
            "description": "Hanabot's expected score in this variant: the house bot's mean "
            "score in self-play at 3 players (see measured); null where it is not rated."
        },
    )


class MeasuredSchema(Schema):
    date = fields.String(required=True)
    machine = fields.String(required=True)
    players = JsonInteger(required=True)
    seeds = JsonInteger(required=True)
    house_bot = fields.String(required=True)
    by = fields.String(required=True)


class RatingModelSchema(Schema):
    start = fields.Float(required=True)
    k = fields.Float(required=True)
    measured = fields.Nested(
        MeasuredSchema,
        required=True,
        metadata={"description": "How the expected scores were measured."},
    )
    variants = fields.Dict(
        keys=fields.String(), values=fields.Nested(VariantModelSchema), required=True
    )
