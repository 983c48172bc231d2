"""The play routes: a move, a line of chat, a vote to end the game (and ``/terminate``,
the same vote for older clients). A move and a vote answer their events and the view."""

from __future__ import annotations

import orjson
from flask import Response
from flask_restx import Resource

from ..ops import metrics
from ..storage.record import GameStatus
from ..table.seats import require_seat
from ..table.services import Services
from ..table.writes import Outcome
from .context import limits, services
from .credentials import bearer_token
from .http import json_response, load_body
from .operations import operation, schema
from .schemas.actions import ACTION_REQUESTS, action_request_schema
from .schemas.events import ActionResultSchema, ChatResultSchema
from .schemas.requests import ChatSchema, VoteSchema


def _action_result(svc: Services, outcome: Outcome, status: int) -> Response:
    record = outcome.record
    over = record.status is GameStatus.FINISHED
    events = svc.reads.redact(outcome.events, outcome.seat, over, outcome.first_seq, record.variant)
    game = svc.reads.rendered(record, outcome.seat, outcome.game)
    body = b'{"events":' + orjson.dumps(events) + b',"game":' + game + b"}"
    return json_response(body, status, raw=True)


class Actions(Resource):
    @operation(
        id="act",
        summary="Play, discard or clue, as the bearer's seat",
        description=(
            "`turn` is the turn the client believes it is; another turn is refused "
            "(stale_turn), except that an identical action re-sent by the seat that took "
            "that turn answers 200 with the original events and the current view. A move "
            "the rules refuse is 409 with the engine's code; nothing is applied."
        ),
        body=ACTION_REQUESTS,
        auth="required",
        responses={
            201: (ActionResultSchema, "Applied: its events and the new view"),
            200: (ActionResultSchema, "Already applied (a retry): the original events"),
        },
        errors=(400, 401, 403, 404, 409, 413),
    )
    def post(self, game_id: str) -> Response:
        svc = services()
        body = load_body(lambda data: schema(action_request_schema(data)))
        outcome = svc.play.act(game_id, bearer_token(), body)
        if not outcome.replayed:
            metrics.action("person")
        return _action_result(svc, outcome, 200 if outcome.replayed else 201)


class Chat(Resource):
    @operation(
        id="chat",
        summary="Say something to the table (shown in the event log)",
        description=(
            "A line is at most 300 bytes of UTF-8 (400 validation_error). 429 rate_limited "
            "past the seat's rate (one budget per seat, whichever credential of it sends) or "
            "the table's; 409 chat_full once the game keeps all the lines or bytes of chat "
            "it may (HANABI_MAX_CHAT, HANABI_MAX_CHAT_BYTES); 409 game_finished after the end."
        ),
        body=ChatSchema,
        auth="required",
        responses={201: (ChatResultSchema, "The chat event")},
        errors=(400, 401, 403, 404, 409, 413, 429),
    )
    def post(self, game_id: str) -> Response:
        svc = services()
        body = load_body(schema(ChatSchema))
        token = bearer_token()
        record = svc.reads.load(game_id)
        seat = require_seat(record, token)  # only a seat's lines count, against it
        lim = limits()
        lim.check("chat_game", game_id)
        # The seat, not the credential: a seat bound to an account answers to its seat token
        # and to the account's, and both share one budget (keyed by the seat token's hash).
        lim.hit("chat_seat", f"{game_id}:{record.players[seat].token_hash or seat}")
        lim.hit("chat_game", game_id)
        outcome = svc.play.chat(game_id, token, body["text"])
        event = {**outcome.events[0], "seq": outcome.first_seq}
        return json_response({"event": event}, 201)


VOTE_RULE = (
    "The game ends (reason terminated, score 0) once at least half of the seated people "
    "have voted to end it (both at a table of two; bots don't vote). Others see how many "
    "voted, not who. A repeated vote changes nothing. 409 game_not_started, game_over."
)


class Votes(Resource):
    @operation(
        id="vote",
        summary="Vote to end the game, or take the vote back",
        body=VoteSchema,
        auth="required",
        responses={200: (ActionResultSchema, "The vote event (and the ending), and the view")},
        errors=(400, 401, 403, 404, 409, 413),
        description=VOTE_RULE,
    )
    def post(self, game_id: str) -> Response:
        svc = services()
        body = load_body(schema(VoteSchema))
        outcome = svc.votes.vote(game_id, bearer_token(), body["end"])
        return _action_result(svc, outcome, 200)


class Terminate(Resource):
    @operation(
        id="terminateGame",
        summary="Vote to end the game (the same as POST /votes with end true)",
        auth="required",
        responses={200: (ActionResultSchema, "The vote event (and the ending), and the view")},
        errors=(401, 403, 404, 409),
        description="Kept for older clients: one seat no longer ends everybody's game. "
        + VOTE_RULE,
    )
    def post(self, game_id: str) -> Response:
        svc = services()
        outcome = svc.votes.terminate(game_id, bearer_token())
        metrics.action("person")
        return _action_result(svc, outcome, 200)
