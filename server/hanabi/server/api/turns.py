"""The routes of turn-based play: the games awaiting the account's move, and its signed
webhook with its delivery log (see :mod:`hanabi.server.table.turns` and
:mod:`hanabi.server.table.webhooks`)."""

from __future__ import annotations

from flask import Response, current_app
from flask_restx import Resource

from ..table.turns import Turns
from ..table.webhooks import ERROR_WORDS, Webhooks
from . import language
from .context import hit_per_address
from .credentials import require_account
from .http import json_response, load_body, load_query
from .operations import operation, schema
from .schemas.turns import (
    DeliveriesQuery,
    DeliveryListSchema,
    NewWebhookSchema,
    TurnListSchema,
    TurnsQuery,
    WebhookRequestSchema,
    WebhookSchema,
)


def turns() -> Turns:
    return current_app.extensions["hanabi"].turns


def webhooks() -> Webhooks:
    return current_app.extensions["hanabi"].webhooks


class MyTurns(Resource):
    @operation(
        id="listMyTurns",
        summary="The games where it is the account's move, across every table",
        description=(
            "Games in progress where the seat to move is the account's, the most urgent "
            "(earliest deadline) first, then those without a deadline: turn-based tables "
            "(options.move_clock) and live ones alike. Public facts only (names, turn, "
            "score, deadline), never a card."
        ),
        query=TurnsQuery,
        auth="required",
        responses={200: (TurnListSchema, "The games awaiting your move")},
        errors=(400, 401),
    )
    def get(self) -> Response:
        account = require_account()
        query = load_query(schema(TurnsQuery))
        return json_response(turns().listing(account.id, query["limit"]))


class Webhook(Resource):
    @operation(
        id="setWebhook",
        summary="Set the account's webhook: the secret is returned this once",
        description=(
            "The URL is POSTed a JSON body when it becomes the account's move (event "
            "your_turn) and when a game it plays in ends (game_over); also when a chat line "
            "mentions it (mention) and when an account it follows opens a table "
            "(friend_table), docs/chat.md. Signed with "
            "X-Hanabi-Signature: sha256=<hex HMAC-SHA256 of the body with the secret>, with "
            "X-Hanabi-Timestamp and X-Hanabi-Delivery. A call must be answered within "
            "HANABI_WEBHOOK_TIMEOUT (10 s, connecting, TLS and the answer's headers together). "
            "Failures (no answer in time, 5xx, 429) are retried with exponential backoff, a "
            "bounded number of times. Setting it again replaces the URL and the secret. A URL "
            "that is not https, or whose host does not resolve to public addresses only (every "
            "IANA special-purpose block is refused), is refused with one sentence whatever the "
            "host resolved to (400 webhook_url_refused). 429 rate_limited past "
            "HANABI_LIMIT_WEBHOOK per address."
        ),
        body=WebhookRequestSchema,
        auth="required",
        responses={200: (NewWebhookSchema, "The webhook, with its secret")},
        errors=(400, 401, 413, 429),
    )
    def put(self) -> Response:
        account = require_account()
        body = load_body(schema(WebhookRequestSchema))
        hit_per_address("webhook")  # each one resolves its host: not a free DNS lookup
        return json_response(webhooks().put(account.id, body["url"]))

    @operation(
        id="getWebhook",
        summary="The account's webhook (without its secret)",
        auth="required",
        responses={200: (WebhookSchema, "The webhook")},
        errors=(401, 404),
    )
    def get(self) -> Response:
        return json_response(webhooks().get(require_account().id))

    @operation(
        id="deleteWebhook",
        summary="Remove the account's webhook (calls not yet delivered are dropped)",
        auth="required",
        responses={204: (None, "Removed")},
        errors=(401, 404),
    )
    def delete(self) -> Response:
        webhooks().delete(require_account().id)
        return Response(status=204)


class Deliveries(Resource):
    @operation(
        id="listWebhookDeliveries",
        summary="The webhook's last deliveries, newest first, with the receiver's status",
        query=DeliveriesQuery,
        auth="required",
        description=(
            "Each try: its attempt, the receiver's status, or why there is none (error_code: "
            "timeout when the call was not over within HANABI_WEBHOOK_TIMEOUT, connecting, TLS "
            "and the answer's headers together; error: that in a sentence, in the request's "
            "language), its outcome and, when retrying, its next try."
        ),
        responses={200: (DeliveryListSchema, "The delivery log")},
        headers={200: {"Content-Language": "The language of the errors' sentences"}},
        errors=(400, 401),
    )
    def get(self) -> Response:
        account = require_account()
        query = load_query(schema(DeliveriesQuery))
        body = webhooks().deliveries(account.id, query["limit"])
        tag = language.current()
        for delivery in body["deliveries"]:  # each failure's sentence in the reader's words
            words = ERROR_WORDS.get(delivery.get("error_code"))
            if words is not None:
                delivery["error"] = language.say(words, tag)
        return language.label(json_response(body), tag)
