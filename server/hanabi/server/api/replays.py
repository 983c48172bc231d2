"""The shared replay routes: making a room from a finished game, reading and following it,
joining it, and the leader's changes (position and highlights, leadership, hypotheticals).
The rules are :mod:`hanabi.server.table.replays`; the stream :mod:`.room_stream`."""

from __future__ import annotations

from functools import partial

import orjson
from flask import Response, current_app, request
from flask_restx import Resource

from ..storage.replays import StoredRoom
from ..table.hypotheticals import Audience
from ..table.refusals import Refused, Unauthorized
from ..table.seats import hash_token
from ..table.tickets import TTL as TICKET_TTL
from .context import hit_per_address, limits, services
from .credentials import bearer_token, current_account, current_credential, viewer
from .http import json_response, load_body, load_optional_body, load_query
from .operations import PREFIX, operation, schema
from .ratelimits import LAPSE
from .room_stream import RoomStream
from .schemas.actions import ACTION_REQUESTS, action_request_schema
from .schemas.events import TicketSchema
from .schemas.queries import RoomStreamQuery
from .schemas.replays import (
    BranchSchema,
    CreateRoomSchema,
    FollowerGrantSchema,
    JoinRoomSchema,
    PassLeadSchema,
    PositionSchema,
    RoomEventSchema,
    RoomGrantSchema,
    RoomSchema,
)

SEED_ROOM = (
    " A finished game is public: anyone with the room's id, anonymous included, except an "
    "account that holds a seat in a game still going on dealt the same deal (409 "
    "same_deal_elsewhere; a stream it opened ends with that reason once it sits down to "
    "it). An account not seated at the game spoils its seed for itself (docs/seeds.md)."
)

LEADER_AUTH = (
    "Auth: the room's leader token (the `token` of POST /replays, or of POST "
    "/replays/{room_id}/followers once the lead was passed to that follower); 403 "
    "not_leader for any other. 429 rate_limited past the room's rate of changes "
    "(HANABI_LIMIT_REPLAY_LEAD)."
)


def room_body(room: StoredRoom, audience: Audience) -> Response:
    return json_response(services().replays.rendered(room, audience), raw=True)


def leader_change(room_id: str) -> str | None:
    """The bearer (a leader's token, checked by the change) after the room's rate check."""
    limits().check("replay_lead", room_id)
    return bearer_token()


def counted(room_id: str, room: StoredRoom) -> Response:
    """A leader's change went through: count it, answer the leader's view of the room."""
    limits().hit("replay_lead", room_id)
    return room_body(room, Audience.LEADER)


class Rooms(Resource):
    @operation(
        id="createReplayRoom",
        summary="Share a finished game's replay: a room its creator leads",
        body=CreateRoomSchema,
        auth="required",
        description=(
            "Only a finished game (409 game_not_finished while it is on or in its lobby, "
            "404 game_not_found): a room shows every card. Auth: an account's session "
            "token or API key (any finished game), or a seat token of that game (a guest "
            "who played it). An account (or a guest's seat) has at most HANABI_REPLAY_ROOMS "
            "open rooms (409 too_many_rooms); a room lives HANABI_REPLAY_TTL seconds from "
            "its creation. The answer's `token` is the leader's, shown once; the room's "
            "link is its id. 429 rate_limited past HANABI_LIMIT_REPLAY per address. An "
            "account playing the same deal at another table: 409 same_deal_elsewhere; one "
            "not seated at the game spoils its seed for itself (docs/seeds.md)."
        ),
        responses={201: (RoomGrantSchema, "The room, the leader's member id and token")},
        headers={201: {"Location": "The room's URL"}},
        errors=(400, 401, 403, 404, 409, 413, 429),
    )
    def post(self) -> Response:
        svc = services()
        body = load_body(schema(CreateRoomSchema))
        token, account = bearer_token(), current_account()
        hit_per_address("replay")
        room_id, member, member_token, room = svc.replays.create(body["game_id"], token, account)
        data = {
            "id": room_id,
            "member": member,
            "token": member_token,
            "room": orjson.loads(svc.replays.rendered(room, Audience.LEADER)),
        }
        return json_response(data, 201, {"Location": f"{PREFIX}/replays/{room_id}"})


class RoomResource(Resource):
    @operation(
        id="getReplayRoom",
        summary="A shared replay room: the leader's position, highlights and hypothetical",
        auth="optional",
        description=(
            "Anyone with the room's id reads it. With the leader's token: the leader's "
            "view (cards drawn in a hypothetical shown even when hidden from followers)."
            + SEED_ROOM
        ),
        responses={200: (RoomSchema, "The room")},
        errors=(401, 403, 404, 409),
    )
    def get(self, room_id: str) -> Response:
        svc = services()
        room = svc.replays.load(room_id)
        token, account_id = viewer()
        svc.replays.admit(room, token, account_id)
        return room_body(room, svc.replays.audience(room, token))


class Followers(Resource):
    @operation(
        id="joinReplayRoom",
        summary="Join a room as a follower (to be given the lead later)",
        body=JoinRoomSchema,
        body_required=False,
        auth="optional",
        description=(
            "Reading and streaming a room need no joining; a follower who joins is counted "
            "and gets a member id and token, so the leader can pass the lead to them. "
            "`name`: how the room shows them (an account's credential: its username). At "
            "most HANABI_REPLAY_FOLLOWERS per room (409 room_full); 429 rate_limited past "
            "HANABI_LIMIT_REPLAY per address." + SEED_ROOM
        ),
        responses={201: (FollowerGrantSchema, "The member id and token, and the room")},
        errors=(400, 401, 403, 404, 409, 413, 429),
    )
    def post(self, room_id: str) -> Response:
        svc = services()
        body = load_optional_body(schema(JoinRoomSchema))
        token, account_id = viewer()
        svc.replays.admit(svc.replays.load(room_id), token, account_id)
        account = current_account()
        name = account.username if account is not None else body.get("name") or "follower"
        hit_per_address("replay")
        member, member_token, room = svc.replays.join(room_id, name)
        data = {
            "member": member,
            "token": member_token,
            "room": orjson.loads(svc.replays.rendered(room, Audience.FOLLOWERS)),
        }
        return json_response(data, 201)


class Position(Resource):
    @operation(
        id="setReplayPosition",
        summary="The leader moves the room to a turn and points at cards",
        body=PositionSchema,
        auth="required",
        description=(
            "`turn`: the real game's turn to show (404 no_such_turn past its last); inside a "
            "hypothetical the turn stays the branch's and only `highlight` moves. " + LEADER_AUTH
        ),
        responses={200: (RoomSchema, "The room as its leader sees it")},
        errors=(400, 401, 403, 404, 413, 429),
    )
    def put(self, room_id: str) -> Response:
        body = load_body(schema(PositionSchema))
        token = leader_change(room_id)
        room = services().replays.set_position(room_id, token, body["turn"], body["highlight"])
        return counted(room_id, room)


class Leader(Resource):
    @operation(
        id="passReplayLead",
        summary="The leader passes the lead to a follower who joined",
        body=PassLeadSchema,
        auth="required",
        description="404 no_such_follower for an id no follower holds. " + LEADER_AUTH,
        responses={200: (RoomSchema, "The room as its new leader sees it")},
        errors=(400, 401, 403, 404, 413, 429),
    )
    def put(self, room_id: str) -> Response:
        body = load_body(schema(PassLeadSchema))
        token = leader_change(room_id)
        room = services().replays.pass_lead(room_id, token, body["follower"])
        return counted(room_id, room)


class Hypothetical(Resource):
    @operation(
        id="branchReplay",
        summary="The leader starts a hypothetical from a turn of the real game",
        body=BranchSchema,
        auth="required",
        description=(
            "Replaces any hypothetical under way; the room shows the branch's board. "
            "`reveal_draws` false hides the cards drawn in it from followers. Stored with "
            "the room, never with the game. " + LEADER_AUTH
        ),
        responses={200: (RoomSchema, "The room as its leader sees it")},
        errors=(400, 401, 403, 404, 413, 429),
    )
    def post(self, room_id: str) -> Response:
        body = load_body(schema(BranchSchema))
        token = leader_change(room_id)
        replays = services().replays
        room = replays.branch(room_id, token, body["turn"], body["reveal_draws"])
        return counted(room_id, room)

    @operation(
        id="leaveHypothetical",
        summary="The leader goes back from the hypothetical to the real game",
        auth="required",
        description="409 no_hypothetical when none is under way. " + LEADER_AUTH,
        responses={200: (RoomSchema, "The room as its leader sees it")},
        errors=(401, 403, 404, 409, 429),
    )
    def delete(self, room_id: str) -> Response:
        token = leader_change(room_id)
        return counted(room_id, services().replays.back(room_id, token))


class HypotheticalActions(Resource):
    @operation(
        id="moveInHypothetical",
        summary="The leader makes the next move of the hypothetical, for the seat to move",
        body=ACTION_REQUESTS,
        auth="required",
        description=(
            "The body is a game action's (`turn`: the hypothetical's turn, 409 stale_turn "
            "otherwise). The engine decides: a move the rules refuse is a 409 with the "
            "engine's code (no_clue_tokens, card_not_in_hand...). 409 no_hypothetical "
            "without one; 409 hypothetical_full past HANABI_REPLAY_MOVES moves. " + LEADER_AUTH
        ),
        responses={200: (RoomSchema, "The room as its leader sees it")},
        errors=(400, 401, 403, 404, 409, 413, 429),
    )
    def post(self, room_id: str) -> Response:
        body = load_body(lambda data: schema(action_request_schema(data)))
        token = leader_change(room_id)
        return counted(room_id, services().replays.move(room_id, token, body))


class RoomStreamResource(Resource):
    @operation(
        id="streamReplayRoom",
        summary="Server-sent events: the room's state after every change of its leader",
        auth="optional",
        description=(
            "A `text/event-stream` that stays open: `retry:`, then `event: room` (`id:` the "
            "room's version, `data:` the room as GET /replays/{room_id} returns it), one "
            "more after every change, a comment line every 15 s of quiet, and `event: end` "
            '(data `{"reason": "gone"}`) when the room expires. A stream opened as an '
            "account (not a member's token) ends with reason `revoked` once the account's "
            "session or API key ends, and `same_deal_elsewhere` once the account sits down "
            "to the game's deal at another table. Anyone with the id may "
            "follow; with the leader's bearer token the states are the leader's. Auth: "
            "`Authorization: Bearer`, or `?ticket=` (one-time, from POST "
            "/replays/{room_id}/tickets) for a browser's EventSource. 503 "
            "too_many_waiters when the server holds too many waiting requests." + SEED_ROOM
        ),
        query=RoomStreamQuery,
        responses={200: (RoomEventSchema, "The stream: one object per message")},
        media={200: "text/event-stream"},
        errors=(401, 403, 404, 406, 409, 429),
    )
    def get(self, room_id: str) -> Response:
        svc = services()
        ticket = load_query(schema(RoomStreamQuery)).get("ticket")
        if request.accept_mimetypes and not request.accept_mimetypes["text/event-stream"]:
            raise Refused("not_acceptable", "This resource is text/event-stream.")
        token, account_id = viewer()
        if token is not None and ticket is not None:
            raise Unauthorized("invalid_auth", "Send a credential or a ticket, not both.")
        room = svc.replays.load(room_id)
        token_hash: str | None
        if ticket is not None:
            token_hash, credential = svc.replays.redeem(room_id, ticket)  # admitted then
        else:
            svc.replays.admit(room, token, account_id)
            token_hash = None if token is None else hash_token(token)
            credential = current_credential()
        config = current_app.config
        stream = RoomStream(
            svc.replays,
            room,
            token_hash,
            keepalive=config["HANABI_KEEPALIVE"],
            max_seconds=config["HANABI_STREAM_MAX"],
            admitted=partial(
                svc.replays.still_admitted, token_hash=token_hash, credential=credential
            ),
        ).open(limits().hold_waiting(lapse=config["HANABI_KEEPALIVE"] + LAPSE))
        headers = {"Cache-Control": "no-cache", "X-Accel-Buffering": "no"}
        return Response(stream, mimetype="text/event-stream", headers=headers)


class RoomTickets(Resource):
    @operation(
        id="createRoomStreamTicket",
        summary="A one-time ticket that opens a room's stream as the bearer (for EventSource)",
        auth="required",
        description=(
            "A browser's EventSource cannot send an Authorization header, and a token never "
            f"goes into a URL: this ticket stands for the bearer (a member token, a seat "
            f"token of the game or an account's credential, admitted now as GET "
            f"/replays/{{room_id}} admits it) for {TICKET_TTL} s and one use, as GET "
            "/replays/{room_id}/stream?ticket=. 401 auth_required without a bearer. 429 "
            "rate_limited past HANABI_LIMIT_TICKET per address." + SEED_ROOM
        ),
        responses={201: (TicketSchema, "The ticket")},
        errors=(401, 403, 404, 409, 429),
    )
    def post(self, room_id: str) -> Response:
        svc = services()
        token = bearer_token()
        room = svc.replays.load(room_id)
        hit_per_address("ticket")
        ticket, expires = svc.replays.ticket(room, token, current_credential())
        return json_response({"ticket": ticket, "expires": expires}, 201)
