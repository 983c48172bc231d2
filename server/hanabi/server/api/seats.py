"""The seat routes: joining a table, leaving it (or freeing a seat, as the host), saying
which bot strategy a program plays, seating a bot, dealing."""

from __future__ import annotations

from flask import Response
from flask_restx import Resource

from ..table.viewers import seated
from .context import hit_per_address, services
from .credentials import bearer_token, current_account, viewer
from .http import json_response, load_body, load_optional_body
from .operations import operation, schema
from .schemas.requests import (
    BotSeatResultSchema,
    BotSeatSchema,
    JoinSchema,
    SeatGrantSchema,
    SeatUpdateSchema,
    StartSchema,
)
from .schemas.views import GameViewSchema
from .tables import count_guess, seat_grant


class Players(Resource):
    @operation(
        id="joinGame",
        summary="Take the next free seat of a table that has not started",
        body=JoinSchema,
        auth="optional",
        description=(
            "Like a create: an account's credential binds the seat to the account; a guest "
            "sends a `name`. Once the game has started nobody joins: 409 seat_held when the "
            "name is a seat's there (names matched as the table matches them: NFKC, any "
            "case, so `Alice` and `Ａｌｉｃｅ` find `alice`; that seat comes back with its "
            "token or its account's credential), else 409 game_started (no seat named "
            "so: watch the game instead). A rated table seats accounts only (401 "
            "account_required, 403 bot_account), one seat each (409 already_seated), old enough and with enough "
            "finished unrated games (409 account_too_new, not_enough_games). A program that "
            "plays the seat with a bot strategy says which in "
            "`plays` (see PATCH /games/{game_id}/players/{seat}; 409 rated_no_bots at a "
            "rated table)."
            " An account holding a live seat at another table dealt the same deal (a seed "
            "name, or a custom seed or deck) is refused: 409 same_deal_elsewhere. A password table (its `lock` not null) needs its "
            "`password`: 401 password_required, 403 wrong_password; every join that sends one "
            "counts against the address and the table (429 rate_limited)."
        ),
        responses={201: (SeatGrantSchema, "The seat and its token")},
        headers={201: {"Location": "The game's URL"}},
        errors=(400, 401, 403, 404, 409, 413, 429),
    )
    def post(self, game_id: str) -> Response:
        svc = services()
        body = load_body(schema(JoinSchema))
        hit_per_address("join")
        count_guess(game_id, body.get("password"))  # a password table's guesses (lobby.md)
        outcome = svc.lobby.join(
            game_id, body.get("name"), current_account(), body["plays"], body.get("password")
        )
        return seat_grant(svc, outcome)


class Seat(Resource):
    @operation(
        id="leaveGame",
        summary="Leave (or, as the host, free a seat) before the start",
        description=(
            "Later seats move up one (a bot seat too: the host frees it like any other). "
            "When no person is left at the table the game is gone."
        ),
        auth="required",
        responses={204: (None, "The seat is free")},
        errors=(401, 403, 404, 409),
    )
    def delete(self, game_id: str, seat: int) -> Response:
        services().lobby.leave(game_id, bearer_token(), seat)
        return Response(status=204)

    @operation(
        id="declareStrategy",
        summary="Say which bot strategy the program in your seat plays (before the start)",
        description=(
            "For a program that plays a seat through the API (`hanabi-client bot` does it "
            "on its own): the table's `players[].plays` shows it, and the bots at the table "
            "read it like a server bot's strategy, so that two API hat bots play hat together "
            "(a hat bot plays hat only when every other seat plays hat). Your own seat only "
            "(403 not_your_seat), in the lobby only (409 game_started), not at a rated table "
            "(409 rated_no_bots); `null` takes it back. Saying it again changes nothing."
        ),
        body=SeatUpdateSchema,
        auth="required",
        responses={200: (GameViewSchema, "Your view of the table")},
        errors=(400, 401, 403, 404, 409, 413),
    )
    def patch(self, game_id: str, seat: int) -> Response:
        svc = services()
        body = load_body(schema(SeatUpdateSchema))
        outcome = svc.lobby.declare(game_id, bearer_token(), seat, body["plays"])
        return json_response(svc.reads.render(outcome.record, outcome.seat))


class Bots(Resource):
    @operation(
        id="addBot",
        summary="Seat a bot at the next free seat (host only, before the start)",
        description=(
            "The server plays the bot's turns itself as soon as they are due; no client "
            "needs to poll. The host frees a bot seat like any other, with "
            "DELETE /games/{game_id}/players/{seat}. Refused like a join when the table is "
            "full or started; 400 for an unknown strategy (the message lists them)."
        ),
        body=BotSeatSchema,
        auth="required",
        responses={201: (BotSeatResultSchema, "The bot's seat and the host's view")},
        errors=(400, 401, 403, 404, 409, 413, 429),
    )
    def post(self, game_id: str) -> Response:
        svc = services()
        body = load_body(schema(BotSeatSchema))
        hit_per_address("join")
        outcome = svc.lobby.add_bot(game_id, bearer_token(), body["strategy"], body.get("name"))
        seat = len(outcome.record.players) - 1
        data = {"seat": seat, "game": svc.reads.render(outcome.record, outcome.seat)}
        return json_response(data, 201)


class Start(Resource):
    @operation(
        id="startGame",
        summary="Deal and start (host only, at least 2 seated)",
        description=(
            'The body is optional. `{"watch": true}`: the host gives up their seat at the '
            "deal and follows the game as a spectator (their token then holds no seat); "
            "at least 2 other seats must be taken. At a table of bots only, spectators see "
            "every card and every draw. A rated table checks its accounts again (409 "
            "account_deleted: the host frees that seat; account_too_new, not_enough_games)."
            " 409 same_deal_elsewhere when a seated account holds a live seat at another "
            "table dealt the same deal; 409 deal_unavailable for a seed sealed for a rated "
            "game in play (a rated table's own deal is a fresh seed, sealed until it ends)."
        ),
        body=StartSchema,
        body_required=False,
        auth="required",
        responses={200: (GameViewSchema, "The host's view (a spectator's, with watch)")},
        errors=(400, 401, 403, 404, 409, 413),
    )
    def post(self, game_id: str) -> Response:
        svc = services()
        body = load_optional_body(schema(StartSchema))
        token, account_id = viewer()
        outcome = svc.lobby.start(game_id, token, body["watch"])
        record, seat = outcome.record, outcome.seat
        # a host who watches is a spectator (at a table of bots only: every card, live)
        who = seated(seat) if seat is not None else svc.viewers.spectator(record, account_id)
        return json_response(svc.reads.render(record, who, outcome.game))
