"""The routes of a table's lobby life (issue 48, docs/lobby.md): a spectator's pass of a
password table, a pause by vote, and the next game with the same seats. Also the checks
the other routes make of a password table: guesses counted, spectators' passes shown."""

from __future__ import annotations

from typing import Any

from flask import Response, request
from flask_restx import Resource

from ..storage.record import Record
from ..table.passwords import PASS_HEADER, grant_pass, require_pass
from .context import limits, services
from .credentials import bearer_token
from .http import json_response, load_body, load_optional_body
from .operations import game_url, operation, schema
from .schemas.requests import SeatGrantSchema
from .schemas.tables import (
    PassRequestSchema,
    PassSchema,
    PauseRequestSchema,
    RematchAnswerSchema,
    RematchRequestSchema,
)
from .schemas.views import GameViewSchema


def count_guess(game_id: str, password: str | None) -> None:
    """Count a request that sends a table's password against its address and its table,
    before any hash is computed: 429 ``rate_limited`` past either (see docs/lobby.md)."""
    if password is None:
        return
    lim = limits()
    address = lim.address()
    lim.check("password", address)
    lim.check("password_game", game_id)
    lim.hit("password", address)
    lim.hit("password_game", game_id)


def spectator_pass(record: Record, seat: int | None, shown: str | None = None) -> None:
    """401/403 for a viewer holding no seat at a table locked to spectators, unless the
    request shows the table's pass (the ``X-Table-Pass`` header, or ``shown``)."""
    require_pass(record, seat, shown or request.headers.get(PASS_HEADER))


def spectator_stored(game_id: str, raw: tuple[int, bytes, bytes]) -> None:
    """:func:`spectator_pass` for a game as read (version, players, state): a live game's
    state is parsed only when it may hold a lock, so watching an open table costs no
    parse (a spectator's 304 never parsed the state before locks either)."""
    blob = raw[2]
    if blob[:1] == b"J" and b'"password":{' not in blob:
        return
    spectator_pass(Record.load(game_id, *raw), None)


def seat_grant(svc: Any, outcome: Any) -> Response:
    """201 with a seat taken (a join, a rematch's seat): the game, the seat, its token."""
    record = outcome.record
    data = {
        "id": record.id,
        "seat": outcome.seat,
        "token": outcome.token,
        "game": svc.reads.render(record, outcome.seat),
    }
    return json_response(data, 201, {"Location": game_url(record.id)})


class Passes(Resource):
    @operation(
        id="createPass",
        summary="A spectator's pass of a password table (the password in exchange)",
        description=(
            "At a table whose `lock.spectators` is true, a viewer holding no seat sends "
            "this pass as the `X-Table-Pass` header of GET /games/{game_id}, its events, "
            "export and replay (and as `?pass=` on its stream): 401 password_required "
            "without it, 403 wrong_pass for another. 403 wrong_password, 409 not_locked at "
            "a table with no password. Every request that sends a password counts against "
            "the address and the table (429 rate_limited)."
        ),
        body=PassRequestSchema,
        auth="none",
        responses={201: (PassSchema, "The pass")},
        errors=(400, 403, 404, 409, 429),
    )
    def post(self, game_id: str) -> Response:
        svc = services()
        body = load_body(schema(PassRequestSchema))
        record = svc.reads.load(game_id)
        count_guess(game_id, body["password"])
        return json_response(
            {"pass": grant_pass(record, body["password"]), "header": PASS_HEADER}, 201
        )


class Pause(Resource):
    @operation(
        id="votePause",
        summary="Vote to pause the game, or to go on",
        description=(
            'A seated person votes `{"paused": true}` to pause and `false` to go on; asking '
            "for the state the table is in takes a pending vote back. The table changes "
            "once as many people voted as end a game early (`pause.needed`). While paused "
            "nobody moves (409 game_paused) and the idle limit and a turn-based table's move "
            "clock stand still. Unrated tables without a chess clock only (409 "
            "pause_not_allowed); in play only (409 game_not_started, game_over)."
        ),
        body=PauseRequestSchema,
        auth="required",
        responses={200: (GameViewSchema, "Your view after the vote")},
        errors=(400, 401, 403, 404, 409),
    )
    def post(self, game_id: str) -> Response:
        svc = services()
        body = load_body(schema(PauseRequestSchema))
        outcome = svc.pauses.vote(game_id, bearer_token(), body["paused"])
        return json_response(svc.reads.rendered(outcome.record, outcome.seat), raw=True)


class Rematch(Resource):
    @operation(
        id="openRematch",
        summary="Open the next game with the same seats (the finished game's host)",
        description=(
            "A new table with this game's variant, options, clocks, rating and password and "
            "a new deal: the host sits there (a new token), the bots too, and every other "
            "person's seat is kept for them until they answer (POST "
            "/games/{game_id}/rematch/answer). `shuffle`: the seats in a random order. "
            "This game's view then shows `rematch.next`. 409 game_not_finished, "
            "rematch_open (once opened); 403 not_host."
        ),
        body=RematchRequestSchema,
        body_required=False,
        auth="required",
        responses={201: (SeatGrantSchema, "The next game, the host's seat and token")},
        headers={201: {"Location": "The next game's URL"}},
        errors=(400, 401, 403, 404, 409),
    )
    def post(self, game_id: str) -> Response:
        svc = services()
        body = load_optional_body(schema(RematchRequestSchema))
        return seat_grant(svc, svc.rematches.open(game_id, bearer_token(), body["shuffle"]))


class KeptSeat(Resource):
    @operation(
        id="openKeptSeat",
        summary="Open the seat kept for someone at the next game (its host, before the deal)",
        description=(
            "For a player of the last game who does not answer: their seat opens to anyone, "
            "as if they declined (a `decline` event). 404 no_kept_seat for a name no seat "
            "is kept for; 403 not_host; 409 game_started."
        ),
        auth="required",
        responses={200: (GameViewSchema, "The host's view")},
        errors=(401, 403, 404, 409),
    )
    def delete(self, game_id: str, name: str) -> Response:
        svc = services()
        outcome = svc.rematches.release(game_id, bearer_token(), name)
        return json_response(svc.reads.rendered(outcome.record, outcome.seat), raw=True)


class RematchAnswer(Resource):
    @operation(
        id="answerRematch",
        summary="Take your seat at the next game, or decline it (with this game's token)",
        description=(
            "With the seat token (or account) of this finished game: `join` seats you at "
            "the next game at your place in its order (201, a new token); `false` declines "
            "and your seat there opens to anyone (204). 404 no_rematch before the host "
            "opened one; 409 not_invited once answered, game_started once dealt."
        ),
        body=RematchAnswerSchema,
        auth="required",
        responses={
            201: (SeatGrantSchema, "Your seat at the next game and its token"),
            204: (None, "Declined: the seat is open"),
        },
        headers={201: {"Location": "The next game's URL"}},
        errors=(400, 401, 403, 404, 409),
    )
    def post(self, game_id: str) -> Response:
        svc = services()
        body = load_body(schema(RematchAnswerSchema))
        outcome = svc.rematches.answer(game_id, bearer_token(), body["join"])
        if not body["join"]:
            return Response(status=204)
        return seat_grant(svc, outcome)
