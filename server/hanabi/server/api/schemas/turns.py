"""Schemas of turn-based play: the games awaiting an account's move, its webhook and the
webhook's delivery log (docs/turns.md)."""

from __future__ import annotations

from marshmallow import fields, validate

from .basics import integer, nullable_integer, nullable_string, query_integer
from .plain import Schema
from .queries import QueryString
from .views import HIDDEN_IN_HOLE, score_hidden_field

#: A failed try's ``error_code`` (``DeliveryError`` of :mod:`hanabi.server.table.webhooks`).
ERROR_CODES = ("timeout", "connection_failed", "tls_failed", "bad_answer", "unresolved",
               "address_refused")  # fmt: skip


class TurnsQuery(QueryString):
    limit = query_integer(
        1,
        200,
        load_default=50,
        metadata={"description": "How many games (the most urgent first); at most 200."},
    )


class DeliveriesQuery(QueryString):
    limit = query_integer(
        1,
        200,
        load_default=20,
        metadata={"description": "How many deliveries, newest first (the server keeps 50)."},
    )


class TurnSchema(Schema):
    game_id = fields.String(required=True)
    variant = fields.String(required=True)
    players = fields.List(fields.String(), required=True, metadata={"description": "By seat."})
    seat = integer(required=True, metadata={"description": "The seat to move: yours."})
    turn = integer(required=True)
    score = nullable_integer(metadata={"description": HIDDEN_IN_HOLE})
    score_hidden = score_hidden_field()
    move_clock = nullable_integer(
        metadata={"description": "Seconds per move of a turn-based table; null: not one."}
    )
    deadline = nullable_string(
        metadata={"description": "When your clock runs out (RFC 3339, UTC); null: none."}
    )
    since = fields.String(required=True, metadata={"description": "When your move began."})
    link = fields.String(required=True, metadata={"description": "The game in the API."})
    web = fields.String(required=True, metadata={"description": "The game in the web client."})


class TurnListSchema(Schema):
    games = fields.List(fields.Nested(TurnSchema), required=True)
    total = integer(required=True, metadata={"description": "Games awaiting your move in all."})


class WebhookRequestSchema(Schema):
    url = fields.String(
        required=True,
        validate=validate.Length(1, 500),
        metadata={
            "description": "An https:// URL of a public host (private, loopback and "
            "link-local addresses are refused unless the server sets "
            "HANABI_WEBHOOK_PRIVATE=on, which also allows http://).",
            "example": "https://example.org/hanabi-hook",
        },
    )


class WebhookSchema(Schema):
    url = fields.String(required=True)
    created = fields.String(required=True)


class NewWebhookSchema(WebhookSchema):
    secret = fields.String(
        required=True,
        metadata={
            "description": "The HMAC-SHA256 key of X-Hanabi-Signature, shown this once; "
            "PUT again for a new one."
        },
    )


class DeliverySchema(Schema):
    id = fields.String(required=True, metadata={"description": "The X-Hanabi-Delivery header."})
    event = fields.String(
        required=True,
        validate=validate.OneOf(("your_turn", "game_over", "mention", "friend_table")),
    )
    game_id = nullable_string()
    attempt = integer(required=True)
    status = nullable_integer(metadata={"description": "The receiver's HTTP status."})
    error = nullable_string(
        metadata={"description": "Why no status, in a sentence in the request's language."}
    )
    error_code = fields.String(
        allow_none=True,
        validate=validate.OneOf(ERROR_CODES),
        metadata={"description": "Why no status, as a code (null when there is a status)."},
    )
    outcome = fields.String(
        required=True, validate=validate.OneOf(("delivered", "retrying", "failed", "refused"))
    )
    at = fields.String(required=True)
    ms = integer(required=True, metadata={"description": "How long the try took."})
    next_try = fields.String(metadata={"description": "When it is tried again (retrying)."})


class DeliveryListSchema(Schema):
    deliveries = fields.List(fields.Nested(DeliverySchema), required=True)
