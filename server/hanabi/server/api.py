"""The HTTP resources: flask-restx namespaces over :class:`~hanabi.server.games.Service`.

Each method carries its contract in :func:`operation` (schemas, status codes, auth); the
OpenAPI document is generated from exactly that (:mod:`hanabi.server.spec`).
"""

from __future__ import annotations

import hashlib
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from functools import partial
from typing import Any

import orjson
from flask import Response, current_app, request
from flask_restx import Namespace, Resource

from hanabi.bots import DEFAULT_STRATEGY, STRATEGIES
from hanabi.game import VARIANTS

from . import metrics, redis_errors, tickets
from . import schemas as s
from .credentials import accounts, bearer_token, current_account, current_credential, still_valid
from .games import Outcome, Service, hash_token, not_found
from .http import (
    if_none_match,
    json_response,
    load_body,
    load_optional_body,
    load_query,
)
from .problems import ApiError
from .ratelimits import LAPSE, Limits
from .serving import yield_to_others
from .store import LISTING, Record, parse_players
from .stream import GameStream

PREFIX = "/api/v1"


@dataclass
class Operation:
    """One documented operation: what it takes and every status it answers with."""

    id: str
    summary: str
    responses: dict[int, tuple[type[s.Schema] | None, str]]
    body: type[s.Schema] | tuple[type[s.Schema], ...] | None = None  # a tuple: oneOf
    body_required: bool = True
    query: type[s.Schema] | None = None
    auth: str = "none"  # none | optional | required
    errors: tuple[int, ...] = ()
    headers: dict[int, dict[str, str]] = field(default_factory=dict)  # response headers
    request_headers: dict[str, str] = field(default_factory=dict)  # optional request headers
    media: dict[int, str] = field(default_factory=dict)  # status -> type, if not JSON
    description: str = ""


def operation(**kwargs: Any) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    def attach(fn: Callable[..., Any]) -> Callable[..., Any]:
        fn.operation = Operation(**kwargs)  # type: ignore[attr-defined]
        return fn

    return attach


def service() -> Service:
    return current_app.extensions["hanabi"]


def limits() -> Limits:
    return current_app.extensions["hanabi_limits"]


def hit_per_address(name: str) -> None:
    """Count one request of kind ``name`` against the client's address (429 past it)."""
    lim = limits()
    lim.hit(name, lim.address())


@contextmanager
def holding(wait: float) -> Iterator[None]:
    """Count this request as a waiting one while the block runs: against this process's
    cap (503 ``too_many_waiters``) and its address's (429 ``too_many_waiting``)."""
    release = service().hold()
    try:
        held = limits().hold_waiting(lapse=wait + LAPSE)
    except ApiError:
        release()
        raise
    try:
        yield
    finally:
        release()
        if held is not None:
            held(0)
    still_valid()  # the account credential may have ended while the request waited


def game_url(game_id: str) -> str:
    return f"{PREFIX}/games/{game_id}"


_SCHEMAS: dict[type[s.Schema], s.Schema] = {}


def schema(cls: type[s.Schema]) -> s.Schema:
    if cls not in _SCHEMAS:
        _SCHEMAS[cls] = cls()
    return _SCHEMAS[cls]


def _action_result(svc: Service, outcome: Outcome, status: int) -> Response:
    record = outcome.record
    over = record.status == "finished"
    events = svc.redact(outcome.events, outcome.seat, over, outcome.first_seq)
    game = svc.rendered(record, outcome.seat, outcome.game)
    body = b'{"events":' + orjson.dumps(events) + b',"game":' + game + b"}"
    return json_response(body, status, raw=True)


# -- system ----------------------------------------------------------------------------

system = Namespace("system", description="Health and game catalogue", path="/")


@system.route("/health")
class Health(Resource):
    @operation(
        id="getHealth",
        summary="Whether the service and its storage answer",
        responses={200: (s.HealthSchema, "Redis answers")},
        errors=(503,),
    )
    def get(self) -> Response:
        ping_storage()
        return json_response({"status": "ok"})


def ping_storage() -> None:
    try:
        service().store.ping()
    except redis_errors.ERRORS:
        metrics.redis_error("request")
        raise ApiError(503, "storage_unavailable", "Game storage does not answer.") from None


@system.route("/ready")
class Ready(Resource):
    @operation(
        id="getReady",
        summary="Whether this node takes new clients: storage answers and it is not draining",
        description=(
            "For load balancers; GET /health is the liveness check. 503 `draining` from the "
            "moment the process got SIGTERM until it exits (HANABI_DRAIN_S), 503 "
            "`storage_unavailable` while Redis does not answer."
        ),
        responses={200: (s.HealthSchema, "Ready")},
        errors=(503,),
    )
    def get(self) -> Response:
        if service().changes.draining:
            raise ApiError(
                503, "draining", "This server is shutting down; use another one.",
                headers={"Retry-After": "5"},
            )  # fmt: skip
        ping_storage()
        return json_response({"status": "ok"})


_VARIANTS_BODY = orjson.dumps({"variants": [v.to_dict() for v in VARIANTS.values()]})


@system.route("/variants")
class Variants(Resource):
    @operation(
        id="listVariants",
        summary="Every variant this service plays",
        responses={200: (s.VariantListSchema, "The variants")},
    )
    def get(self) -> Response:
        return json_response(_VARIANTS_BODY, raw=True)


_STRATEGIES_BODY = orjson.dumps(
    {
        "strategies": [
            {
                "name": name,
                "description": cls.description,
                "default": name == DEFAULT_STRATEGY,
                "fallback": cls.fallback,
            }
            for name, cls in STRATEGIES.items()
        ]
    }
)


@system.route("/strategies")
class Strategies(Resource):
    @operation(
        id="listStrategies",
        summary="The bot strategies a host may seat, and whom each plays well with",
        description=(
            "For a lobby's bot picker: `default` is the one a bot seat gets when it names "
            "none; `fallback` is what a strategy with a private code plays at a table where "
            "not every other seat plays it."
        ),
        responses={200: (s.StrategyListSchema, "The strategies")},
    )
    def get(self) -> Response:
        return json_response(_STRATEGIES_BODY, raw=True)


# -- games -----------------------------------------------------------------------------

games = Namespace("games", description="Lobbies, seats, play and replays", path="/games")


@games.route("")
class Games(Resource):
    @operation(
        id="listGames",
        summary="Games by status, newest first, a page at a time",
        description=(
            "Sends an ETag of the page. With If-None-Match naming it: 304, or with ?wait=N, "
            "the request is held until the listing changes (200) or N seconds pass (304). "
            "A lobby (`status=lobby`) is live this way: opening a table, taking or freeing "
            "a seat, a bot, a start, an end or a deletion wakes it. Moves of games in play "
            "do not wake a wait (their `turn` and `score` are fresh on every read). "
            "Lobbies are listed last changed first, and only while open: changed within the "
            "server's HANABI_LOBBY_LISTED_S (10 minutes) with a person seated. An abandoned "
            "lobby leaves the list (a held wait then answers when it ends) but its id works "
            "until the lobby expires."
        ),
        query=s.ListGamesQuery,
        responses={
            200: (s.GamePageSchema, "A page of game summaries"),
            304: (None, "Unchanged (If-None-Match)"),
        },
        headers={200: {"ETag": "Tag of this page"}, 304: {"ETag": "The current tag"}},
        request_headers={"If-None-Match": "The ETag of the page the client has"},
        errors=(400, 429),
    )
    def get(self) -> Response:
        svc = service()
        q = load_query(schema(s.ListGamesQuery))
        limit = min(q["limit"], current_app.config["HANABI_PAGE_MAX"])
        wait = min(q["wait"], current_app.config["HANABI_MAX_WAIT"])

        def page() -> tuple[bytes, str]:
            body = orjson.dumps(svc.list_games(q.get("status"), limit, q.get("cursor")))
            return body, '"' + hashlib.blake2b(body, digest_size=8).hexdigest() + '"'

        version = svc.store.listing_version()  # read before the page: no change slips by
        body, etag = page()
        if if_none_match(etag) and wait > 0:
            deadline = time.monotonic() + wait
            with holding(wait):
                while if_none_match(etag) and (left := deadline - time.monotonic()) > 0:
                    newest = svc.wait_for_change(LISTING, version, left)
                    if newest is None or newest == version:
                        # Waited it out (or the server is draining). A lobby leaves the
                        # list with no change as it ages (HANABI_LOBBY_LISTED_S): look again
                        # (only there: a move shows on a read but answers no wait).
                        if q.get("status") == "lobby":
                            body, etag = page()
                        break
                    version = newest
                    body, etag = page()
        if if_none_match(etag):
            return Response(status=304, headers={"ETag": etag})
        response = json_response(
            body, raw=True, headers={"ETag": etag, "Cache-Control": "no-cache"}
        )
        if wait > 0:
            response.call_on_close(yield_to_others)
        return response

    @operation(
        id="createGame",
        summary="Open a table; the creator is the host at seat 0",
        body=s.CreateGameSchema,
        auth="optional",
        description=(
            "With an account's credential (session token or API key) seat 0 is bound to the "
            "account: its name is the username (any `name` is ignored) and the credential "
            "acts for the seat as well as the seat token. A guest sends a `name` (401 "
            "name_required without one). `options.rated` needs an account (see the rating "
            "model) old enough, with enough finished unrated games (409 account_too_new, "
            "not_enough_games), and the standard rules (409 option_not_rated for "
            "empty_clues or strikeout_keeps_score)."
        ),
        responses={201: (s.SeatGrantSchema, "The game, the host's seat and token")},
        headers={201: {"Location": "The game's URL"}},
        errors=(400, 401, 403, 409, 413, 429),
    )
    def post(self) -> Response:
        svc = service()
        body = load_body(schema(s.CreateGameSchema))
        hit_per_address("create")
        outcome = svc.create(body, current_account())
        record = outcome.record
        data = {"id": record.id, "seat": 0, "token": outcome.token, "game": svc.render(record, 0)}
        return json_response(data, 201, {"Location": game_url(record.id)})


@games.route("/<string:game_id>")
@games.param("game_id", "The game's id")
class GameResource(Resource):
    @operation(
        id="getGame",
        summary="The game as the bearer's seat sees it (a spectator without a token)",
        description=(
            "Sends an ETag that changes whenever anything this viewer can see changes. "
            "With If-None-Match naming the current ETag: 304, or with ?wait=N, the request "
            "is held until the game changes (200) or N seconds pass (304)."
        ),
        query=s.WaitQuery,
        auth="optional",
        responses={
            200: (s.GameViewSchema, "The view"),
            304: (None, "Unchanged (If-None-Match)"),
        },
        headers={200: {"ETag": "Version tag of this view"}, 304: {"ETag": "The current tag"}},
        request_headers={"If-None-Match": "The ETag of the view the client has"},
        errors=(400, 401, 403, 404, 429),
    )
    def get(self, game_id: str) -> Response:
        svc = service()
        q = load_query(schema(s.WaitQuery))
        token = bearer_token()
        wait = min(q["wait"], current_app.config["HANABI_MAX_WAIT"])
        # A long-poll may start from the version this process already knows (its waiters'
        # subscription keeps it current): a client that polls again right after a change
        # then costs no Redis read. A plain read always reads.
        raw = svc.known_raw(game_id) if wait > 0 else None
        if raw is None:
            raw = svc.load_raw(game_id)
        if raw is None:
            raise not_found(game_id)
        version = raw[0]
        seat = svc.seat_of(parse_players(raw[1]), token)
        etag = svc.etag(version, seat)
        if if_none_match(etag):
            if wait > 0:
                with holding(wait):
                    newest = svc.wait_for_change(game_id, version, wait)
                if newest != version:
                    raw = None if newest is None else svc.load_raw(game_id, newest)
                    if raw is None:
                        raise not_found(game_id)
                    version = raw[0]
                    seat = svc.seat_of(parse_players(raw[1]), token)
                    etag = svc.etag(version, seat)
            if if_none_match(etag):
                return Response(status=304, headers={"ETag": etag})
        body = svc.cached_view(game_id, version, seat)
        if body is None:
            body = svc.rendered(Record.load(game_id, *raw), seat)
        response = json_response(
            body, raw=True, headers={"ETag": etag, "Cache-Control": "no-cache"}
        )
        if wait > 0:
            response.call_on_close(yield_to_others)
        return response


@games.route("/<string:game_id>/players")
@games.param("game_id", "The game's id")
class Players(Resource):
    @operation(
        id="joinGame",
        summary="Take the next free seat of a table that has not started",
        body=s.JoinSchema,
        auth="optional",
        description=(
            "Like a create: an account's credential binds the seat to the account; a guest "
            "sends a `name`. A rated table seats accounts only (401 account_required, 403 "
            "bot_account), one seat each (409 already_seated), old enough and with enough "
            "finished unrated games (409 account_too_new, not_enough_games). A program that plays the seat with a bot strategy says which in "
            "`plays` (see PATCH /games/{game_id}/players/{seat}; 409 rated_no_bots at a "
            "rated table)."
        ),
        responses={201: (s.SeatGrantSchema, "The seat and its token")},
        headers={201: {"Location": "The game's URL"}},
        errors=(400, 401, 403, 404, 409, 413, 429),
    )
    def post(self, game_id: str) -> Response:
        svc = service()
        body = load_body(schema(s.JoinSchema))
        hit_per_address("join")
        outcome = svc.join(game_id, body.get("name"), current_account(), body["plays"])
        record = outcome.record
        data = {
            "id": record.id,
            "seat": outcome.seat,
            "token": outcome.token,
            "game": svc.render(record, outcome.seat),
        }
        return json_response(data, 201, {"Location": game_url(record.id)})


@games.route("/<string:game_id>/players/<int:seat>")
@games.param("game_id", "The game's id")
@games.param("seat", "The seat (from 0)")
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
        service().leave(game_id, bearer_token(), seat)
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
        body=s.SeatUpdateSchema,
        auth="required",
        responses={200: (s.GameViewSchema, "Your view of the table")},
        errors=(400, 401, 403, 404, 409, 413),
    )
    def patch(self, game_id: str, seat: int) -> Response:
        svc = service()
        body = load_body(schema(s.SeatUpdateSchema))
        outcome = svc.declare(game_id, bearer_token(), seat, body["plays"])
        return json_response(svc.render(outcome.record, outcome.seat))


@games.route("/<string:game_id>/bots")
@games.param("game_id", "The game's id")
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
        body=s.BotSeatSchema,
        auth="required",
        responses={201: (s.BotSeatResultSchema, "The bot's seat and the host's view")},
        errors=(400, 401, 403, 404, 409, 413, 429),
    )
    def post(self, game_id: str) -> Response:
        svc = service()
        body = load_body(schema(s.BotSeatSchema))
        hit_per_address("join")
        outcome = svc.add_bot(game_id, bearer_token(), body["strategy"], body.get("name"))
        seat = len(outcome.record.players) - 1
        data = {"seat": seat, "game": svc.render(outcome.record, outcome.seat)}
        return json_response(data, 201)


@games.route("/<string:game_id>/start")
@games.param("game_id", "The game's id")
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
        ),
        body=s.StartSchema,
        body_required=False,
        auth="required",
        responses={200: (s.GameViewSchema, "The host's view (a spectator's, with watch)")},
        errors=(400, 401, 403, 404, 409, 413),
    )
    def post(self, game_id: str) -> Response:
        svc = service()
        body = load_optional_body(schema(s.StartSchema))
        outcome = svc.start(game_id, bearer_token(), body["watch"])
        return json_response(svc.render(outcome.record, outcome.seat, outcome.game))


@games.route("/<string:game_id>/actions")
@games.param("game_id", "The game's id")
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
        body=s.ACTION_REQUESTS,
        auth="required",
        responses={
            201: (s.ActionResultSchema, "Applied: its events and the new view"),
            200: (s.ActionResultSchema, "Already applied (a retry): the original events"),
        },
        errors=(400, 401, 403, 404, 409, 413),
    )
    def post(self, game_id: str) -> Response:
        svc = service()
        body = load_body(lambda data: schema(s.action_request_schema(data)))
        outcome = svc.act(game_id, bearer_token(), body)
        if not outcome.replayed:
            metrics.action("person")
        return _action_result(svc, outcome, 200 if outcome.replayed else 201)


@games.route("/<string:game_id>/events")
@games.param("game_id", "The game's id")
class Events(Resource):
    @operation(
        id="listEvents",
        summary="The public event log (the bearer's own draws hidden while the game is on)",
        description=(
            "A page at a time, oldest first: at most ?limit= events (default 200; the "
            "server caps it, 1000 unless configured) with a seq above ?after=. Pass `next` "
            "back as ?after= for the next page; it is null at the end of the log."
        ),
        query=s.EventsQuery,
        auth="optional",
        responses={200: (s.EventPageSchema, "Events after ?after=")},
        errors=(400, 401, 403, 404),
    )
    def get(self, game_id: str) -> Response:
        svc = service()
        q = load_query(schema(s.EventsQuery))
        token = bearer_token()
        record = svc.load(game_id)
        seat = svc.seat_of(record.players, token)
        config = current_app.config
        limit = min(
            q.get("limit") or config["HANABI_EVENTS_PAGE"], config["HANABI_EVENTS_PAGE_MAX"]
        )
        return json_response(svc.event_page(record, seat, q["after"], limit))


@games.route("/<string:game_id>/stream")
@games.param("game_id", "The game's id")
class Stream(Resource):
    @operation(
        id="streamGame",
        summary="Server-sent events: the game's events and the viewer's view after each change",
        description=(
            "A `text/event-stream` that stays open. First `retry:`; then, with "
            "`Last-Event-ID` or `?after=N`, every event after N (`id:` its seq, `event:` its "
            "type, `data:` the same JSON as GET /games/{game_id}/events); then `event: view` "
            "with the viewer's whole view (the same JSON as GET /games/{game_id}; its `id:` is "
            "the last seq it includes). After every change: its events, then one `view`. A "
            "comment line every 15 s of quiet keeps proxies from closing it. `event: end` "
            '(data `{"reason": "finished" | "gone" | "not_a_player" | "revoked"}`) comes '
            "before the server closes it for good (`revoked`: the account session or API key "
            "it was opened with ended); any other close is to be resumed with "
            "`Last-Event-ID`. Auth: `Authorization: Bearer`, or `?ticket=` (one-time, from "
            "POST /games/{game_id}/tickets) for a browser's EventSource; neither: a "
            "spectator. 503 `too_many_waiters` when the server holds too many waiting "
            "requests."
        ),
        query=s.StreamQuery,
        auth="optional",
        responses={200: (s.ServerSentEventSchema, "The stream: one object per message")},
        media={200: "text/event-stream"},
        request_headers={"Last-Event-ID": "The seq of the last event the client has"},
        errors=(400, 401, 403, 404, 406, 429),
    )
    def get(self, game_id: str) -> Response:
        svc = service()
        q = load_query(schema(s.StreamQuery))
        token, ticket = bearer_token(), q.get("ticket")
        if token is not None and ticket is not None:
            raise ApiError(401, "invalid_auth", "Send a bearer token or a ticket, not both.")
        if request.accept_mimetypes and not request.accept_mimetypes["text/event-stream"]:
            raise ApiError(406, "not_acceptable", "This resource is text/event-stream.")
        after = last_event_id()
        if after is None:
            after = q.get("after")
        record = svc.load(game_id)
        token_hash, credential, registry = None, current_credential(), accounts()
        if token is not None:
            token_hash = hash_token(token)
        elif ticket is not None:
            redeemed = tickets.redeem(svc.store.redis, game_id, ticket)
            ended = redeemed and redeemed.credential and not registry.alive(redeemed.credential)
            if redeemed is None or ended:
                raise ApiError(401, "invalid_ticket", "This ticket is unknown, used or expired.")
            token_hash, credential = redeemed
        if token_hash is not None:
            svc.seat_by_hash(record.players, token_hash)  # 403 before the stream starts
        config = current_app.config
        stream = GameStream(
            svc,
            record,
            token_hash,
            after,
            keepalive=config["HANABI_KEEPALIVE"],
            max_seconds=config["HANABI_STREAM_MAX"],
            alive=None if credential is None else partial(registry.alive, credential),
        ).open(limits().hold_waiting(lapse=config["HANABI_KEEPALIVE"] + LAPSE))
        headers = {"Cache-Control": "no-cache", "X-Accel-Buffering": "no"}
        return Response(stream, mimetype="text/event-stream", headers=headers)


def last_event_id() -> int | None:
    """The ``Last-Event-ID`` a reconnecting EventSource sends (a seq), if any."""
    header = request.headers.get("Last-Event-ID", "").strip()
    if not header:
        return None
    if not header.isdigit() or len(header) > 12:
        raise ApiError(400, "invalid_header", "Last-Event-ID must be an event's seq.")
    return int(header)


@games.route("/<string:game_id>/tickets")
@games.param("game_id", "The game's id")
class Tickets(Resource):
    @operation(
        id="createStreamTicket",
        summary="A one-time ticket that opens the bearer's event stream (for EventSource)",
        description=(
            "A browser's EventSource cannot send an Authorization header, and a token never "
            f"goes into a URL: this ticket stands for the bearer's seat for {tickets.TTL} s "
            "and one use, as GET /games/{game_id}/stream?ticket=."
        ),
        auth="required",
        responses={201: (s.TicketSchema, "The ticket")},
        errors=(401, 403, 404, 429),
    )
    def post(self, game_id: str) -> Response:
        svc = service()
        token = bearer_token()
        svc.require_seat(svc.load(game_id), token)
        assert token is not None
        hit_per_address("ticket")
        issued_to = current_credential()  # the ticket ends with it
        ticket, expires = tickets.issue(svc.store.redis, game_id, hash_token(token), issued_to)
        return json_response({"ticket": ticket, "expires": expires}, 201)


@games.route("/<string:game_id>/chat")
@games.param("game_id", "The game's id")
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
        body=s.ChatSchema,
        auth="required",
        responses={201: (s.ChatResultSchema, "The chat event")},
        errors=(400, 401, 403, 404, 409, 413, 429),
    )
    def post(self, game_id: str) -> Response:
        svc = service()
        body = load_body(schema(s.ChatSchema))
        token = bearer_token()
        record = svc.load(game_id)
        seat = svc.require_seat(record, token)  # only a seat's lines count, against it
        lim = limits()
        lim.check("chat_game", game_id)
        # The seat, not the credential: a seat bound to an account answers to its seat token
        # and to the account's, and both share one budget (keyed by the seat token's hash).
        lim.hit("chat_seat", f"{game_id}:{record.players[seat].token or seat}")
        lim.hit("chat_game", game_id)
        outcome = svc.chat(game_id, token, body["text"])
        event = {**outcome.events[0], "seq": outcome.first_seq}
        return json_response({"event": event}, 201)


VOTE_RULE = (
    "The game ends (reason terminated, score 0) once at least half of the seated people "
    "have voted to end it (both at a table of two; bots don't vote). Others see how many "
    "voted, not who. A repeated vote changes nothing. 409 game_not_started, game_over."
)


@games.route("/<string:game_id>/votes")
@games.param("game_id", "The game's id")
class Votes(Resource):
    @operation(
        id="vote",
        summary="Vote to end the game, or take the vote back",
        body=s.VoteSchema,
        auth="required",
        responses={200: (s.ActionResultSchema, "The vote event (and the ending), and the view")},
        errors=(400, 401, 403, 404, 409, 413),
        description=VOTE_RULE,
    )
    def post(self, game_id: str) -> Response:
        svc = service()
        body = load_body(schema(s.VoteSchema))
        outcome = svc.vote(game_id, bearer_token(), body["end"])
        return _action_result(svc, outcome, 200)


@games.route("/<string:game_id>/terminate")
@games.param("game_id", "The game's id")
class Terminate(Resource):
    @operation(
        id="terminateGame",
        summary="Vote to end the game (the same as POST /votes with end true)",
        auth="required",
        responses={200: (s.ActionResultSchema, "The vote event (and the ending), and the view")},
        errors=(401, 403, 404, 409),
        description="Kept for older clients: one seat no longer ends everybody's game. "
        + VOTE_RULE,
    )
    def post(self, game_id: str) -> Response:
        svc = service()
        outcome = svc.terminate(game_id, bearer_token())
        metrics.action("person")
        return _action_result(svc, outcome, 200)


@games.route("/<string:game_id>/export")
@games.param("game_id", "The game's id")
class Export(Resource):
    @operation(
        id="exportGame",
        summary="A finished game as hanab.live JSON",
        responses={200: (s.HanabLiveGameSchema, "The game")},
        errors=(404, 409),
    )
    def get(self, game_id: str) -> Response:
        svc = service()
        return json_response(svc.export(svc.load(game_id)))


@games.route("/<string:game_id>/replay")
@games.param("game_id", "The game's id")
class Replay(Resource):
    @operation(
        id="replayGame",
        summary="Everything about a finished game as it stood at ?turn=",
        query=s.ReplayQuery,
        responses={200: (s.GameViewSchema, "The full view at that turn")},
        errors=(400, 404, 409),
        description="404 no_such_turn past the last turn; 409 while the game is on.",
    )
    def get(self, game_id: str) -> Response:
        svc = service()
        q = load_query(schema(s.ReplayQuery))
        return json_response(svc.replay(svc.load(game_id), q.get("turn")))
