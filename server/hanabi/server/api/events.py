"""The event routes: the event log a page at a time, the server-sent event stream of a game
(:mod:`.stream`), and the one-time tickets that open a stream from a browser."""

from __future__ import annotations

from functools import partial

from flask import Response, current_app, request
from flask_restx import Resource

from ..storage.record import Record
from ..table.refusals import Forbidden, Invalid, Refused, Unauthorized
from ..table.seats import hash_token, seat_by_hash, seat_of
from ..table.tickets import TTL as TICKET_TTL
from ..table.viewers import Viewer, Viewers, seated
from .context import hit_per_address, limits, services
from .credentials import bearer_token, current_credential, viewer
from .http import json_response, load_optional_body, load_query
from .operations import operation, schema
from .ratelimits import LAPSE
from .schemas.events import (
    EventPageSchema,
    ServerSentEventSchema,
    TicketRequestSchema,
    TicketSchema,
)
from .schemas.queries import EventsQuery, StreamQuery
from .stream import GameStream
from .tables import spectator_pass


class Events(Resource):
    @operation(
        id="listEvents",
        summary="The public event log (the bearer's own draws hidden while the game is on)",
        description=(
            "A page at a time, oldest first: at most ?limit= events (default 200; the "
            "server caps it, 1000 unless configured) with a seq above ?after=. Pass `next` "
            "back as ?after= for the next page; it is null at the end of the log. Each "
            "viewer sees the draws its view shows (GET /games/{game_id}: a seat's own "
            "hidden while the game is on, a spectator's as its `spectating` allows; "
            "docs/watching.md)."
        ),
        query=EventsQuery,
        auth="optional",
        responses={200: (EventPageSchema, "Events after ?after=")},
        errors=(400, 401, 403, 404),
    )
    def get(self, game_id: str) -> Response:
        svc = services()
        q = load_query(schema(EventsQuery))
        token, account_id = viewer()
        record = svc.reads.load(game_id)
        who = svc.viewers.resolve(record, token, account_id)
        if who.seat is None:  # a password table's spectators show its pass (docs/lobby.md)
            spectator_pass(record, None)
        config = current_app.config
        limit = min(
            q.get("limit") or config["HANABI_EVENTS_PAGE"], config["HANABI_EVENTS_PAGE_MAX"]
        )
        return json_response(svc.reads.event_page(record, who, q["after"], limit))


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
            "POST /games/{game_id}/tickets) for a browser's EventSource; neither (or an "
            "account's credential holding no seat): a spectator, who sees what GET "
            "/games/{game_id} shows it (`spectating`; ?shadow= as there). A seat's "
            "credential always streams its own view. A stream that may no longer shadow "
            "ends with that refusal's code as its reason (`same_deal_elsewhere`: the "
            "account sat down to this deal at another table). 503 `too_many_waiters` "
            "when the server holds too many waiting requests."
        ),
        query=StreamQuery,
        auth="optional",
        responses={200: (ServerSentEventSchema, "The stream: one object per message")},
        media={200: "text/event-stream"},
        request_headers={"Last-Event-ID": "The seq of the last event the client has"},
        errors=(400, 401, 403, 404, 406, 409, 429),
    )
    def get(self, game_id: str) -> Response:
        svc = services()
        q = load_query(schema(StreamQuery))
        token, ticket = bearer_token(), q.get("ticket")
        if token is not None and ticket is not None:
            raise Unauthorized("invalid_auth", "Send a credential or a ticket, not both.")
        if request.accept_mimetypes and not request.accept_mimetypes["text/event-stream"]:
            raise Refused("not_acceptable", "This resource is text/event-stream.")
        after = last_event_id()
        if after is None:
            after = q.get("after")
        record = svc.reads.load(game_id)
        token_hash, credential = None, current_credential()
        _, account_id = viewer()
        shadow = q.get("shadow")
        if token is not None:
            token_hash = hash_token(token)
            if seat_of(record.players, token, spectate=account_id is not None) is None:
                token_hash = None  # an account's credential that watches
        elif ticket is not None:
            token_hash, credential, asked = svc.tickets.redeem_watching(game_id, ticket)
            shadow = asked if asked is not None else shadow
            account_id = None if credential is None else credential.account_id
            if not token_hash or (credential is not None and not holds_seat(record, token_hash)):
                token_hash = None  # a spectator's ticket, or an account's that watches
        resolve = partial(stream_viewer, svc.viewers, token_hash, account_id, shadow)
        if resolve(record).seat is None:  # a password table's spectators show its pass
            spectator_pass(record, None, q.get("pass_"))  # (docs/lobby.md)
        config = current_app.config
        stream = GameStream(
            svc.reads,
            record,
            resolve,
            after,
            keepalive=config["HANABI_KEEPALIVE"],
            max_seconds=config["HANABI_STREAM_MAX"],
            alive=None if credential is None else partial(svc.accounts.alive, credential),
        ).open(limits().hold_waiting(lapse=config["HANABI_KEEPALIVE"] + LAPSE))
        headers = {"Cache-Control": "no-cache", "X-Accel-Buffering": "no"}
        return Response(stream, mimetype="text/event-stream", headers=headers)


def stream_viewer(
    viewers: Viewers,
    token_hash: str | None,
    account_id: str | None,
    shadow: int | None,
    record: Record,
) -> Viewer:
    """Who a stream's viewer is at ``record``: the seat its token (or ticket) holds (403
    ``not_a_player`` once freed), else a spectator as :mod:`~..table.viewers` rules."""
    if token_hash is not None:
        return seated(seat_by_hash(record.players, token_hash))
    return viewers.spectator(record, account_id, shadow)


def holds_seat(record: Record, token_hash: str) -> bool:
    try:
        seat_by_hash(record.players, token_hash)
    except Forbidden:
        return False
    return True


def last_event_id() -> int | None:
    """The ``Last-Event-ID`` a reconnecting EventSource sends (a seq), if any."""
    header = request.headers.get("Last-Event-ID", "").strip()
    if not header:
        return None
    if not (header.isascii() and header.isdigit()) or len(header) > 12:
        raise Invalid("invalid_header", "Last-Event-ID must be an event's seq.")
    return int(header)


class Tickets(Resource):
    @operation(
        id="createStreamTicket",
        summary="A one-time ticket that opens the bearer's event stream (for EventSource)",
        description=(
            "A browser's EventSource cannot send an Authorization header, and a credential "
            f"never goes into a URL: this ticket stands for the bearer for {TICKET_TTL} s "
            "and one use, as GET /games/{game_id}/stream?ticket=. A credential that holds a "
            "seat here: that seat's stream (a `shadow` is ignored). An account's credential "
            "that holds no seat: a ticket that watches as that account (a spectator, "
            "docs/watching.md); without a credential, an anonymous spectator's. `shadow`: "
            "the seat the spectator shadows, checked now as ?shadow= is (400 shadow_seat, "
            "403 shadow_not_allowed, 409 same_deal_elsewhere). Any other token that holds "
            "no seat: 403 not_a_player."
        ),
        body=TicketRequestSchema,
        body_required=False,
        auth="optional",
        responses={201: (TicketSchema, "The ticket")},
        errors=(400, 401, 403, 404, 409, 413, 429),
    )
    def post(self, game_id: str) -> Response:
        svc = services()
        body = load_optional_body(schema(TicketRequestSchema))
        token, account_id = viewer()
        issued_to = current_credential()  # the ticket ends with it
        record = svc.reads.load(game_id)
        who = svc.viewers.resolve(record, token, account_id, body.get("shadow"))
        hit_per_address("ticket")
        if who.seat is not None:
            assert token is not None
            ticket, expires = svc.tickets.issue(game_id, hash_token(token), issued_to)
        else:  # a spectator's: an account's (its principal, to end with it), or nobody's
            hashed = "" if token is None or issued_to is None else hash_token(token)
            ticket, expires = svc.tickets.issue(game_id, hashed, issued_to, who.shadow)
        return json_response({"ticket": ticket, "expires": expires}, 201)
