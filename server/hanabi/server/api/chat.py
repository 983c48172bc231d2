"""The routes of the lobby's and the replay rooms' chat, of mutes and of follows (see
:mod:`hanabi.server.table.chat` and :mod:`hanabi.server.table.friends`, docs/chat.md).

Reading a chat is a long-poll on the change hub (``?after=N&wait=S``), counted among the
waiting requests of the process and of the address like a game's: it holds a socket,
never a thread. A table's own chat is ``POST /games/{id}/chat`` (:mod:`.play`).
"""

from __future__ import annotations

import time

from flask import Response, current_app
from flask_restx import Resource

from ..ops.serving import yield_to_others
from .context import holding, limits, services
from .credentials import bearer_token, current_account, require_account
from .http import json_response, load_body, load_query
from .operations import operation, schema
from .schemas.chat import (
    ChatLineResultSchema,
    ChatPageSchema,
    ChatQuery,
    FollowsSchema,
    MutesSchema,
    ReportSchema,
)
from .schemas.requests import ChatSchema

LINE_RULES = (
    "A line is at most 300 bytes of UTF-8 (400 validation_error; a body past the server's "
    "HANABI_MAX_BODY is 413). 429 rate_limited past the account's rate "
    "(HANABI_LIMIT_CHAT_ACCOUNT, one budget for every chat) or the chat's "
    "(HANABI_LIMIT_CHAT_CHANNEL). An @name of an account mentions it: the line lists it "
    "and its webhook is called (event mention), unless it muted the author."
)
READ_RULES = (
    "The lines after ?after= (the chat keeps its newest HANABI_CHAT_KEEP), without those "
    "of accounts the reader muted or that enough readers reported. With ?wait=S and no "
    "newer line the request is held until one comes or S seconds pass (200 with no lines "
    "then); pass `last` as the next ?after=."
)


def _read(room_id: str | None) -> Response:
    """A chat's lines after ``?after=``, held up to ``?wait=`` for a first one."""
    svc = services()
    q = load_query(schema(ChatQuery))
    account = current_account()
    hub, _ = svc.chat.channel(room_id, bearer_token(), account)
    wait = min(q["wait"], current_app.config["HANABI_MAX_WAIT"])
    version = svc.chat.version(hub)  # read before the lines: no line slips by a wait
    page = svc.chat.read(hub, account, q["after"])
    if not page["lines"] and wait > 0 and page["last"] >= q["after"]:
        deadline = time.monotonic() + wait
        with holding(wait):
            while not page["lines"] and (left := deadline - time.monotonic()) > 0:
                newest = svc.chat.wait(hub, version, left)
                if newest is None or newest == version:
                    break  # waited it out (or the server is draining)
                version = newest
                page = svc.chat.read(hub, account, q["after"])
    response = json_response(page, headers={"Cache-Control": "no-store"})
    if wait > 0:
        response.call_on_close(yield_to_others)
    return response


def _say(room_id: str | None) -> Response:
    svc = services()
    body = load_body(schema(ChatSchema))
    account = current_account()
    hub, ttl_ms = svc.chat.channel(room_id, bearer_token(), account)
    if account is not None:
        lim = limits()
        lim.check("chat_channel", hub)
        lim.hit("chat_account", account.id)
        lim.hit("chat_channel", hub)
    line = svc.chat.say(hub, ttl_ms, account, body["text"])
    return json_response({"line": line}, 201)


def _report(room_id: str | None) -> Response:
    svc = services()
    body = load_body(schema(ReportSchema))
    account = current_account()
    hub, _ = svc.chat.channel(room_id, bearer_token(), account)
    if account is not None:
        limits().hit("friends", account.id)
    svc.chat.report(hub, account, body["seq"])
    return Response(status=204)


REPORT_RULE = (
    "The line is queued for the operators; once HANABI_CHAT_HIDE_REPORTS different accounts "
    "reported it, nobody reads it any more. Reporting it again changes nothing. 404 "
    "line_not_found when the chat keeps no such line."
)


class LobbyChat(Resource):
    @operation(
        id="readLobbyChat",
        summary="The lobby's chat: everyone signed in, newest lines kept",
        description=READ_RULES + " Accounts only (401 account_required).",
        query=ChatQuery,
        auth="required",
        responses={200: (ChatPageSchema, "The lines")},
        errors=(400, 401, 429, 503),
    )
    def get(self) -> Response:
        return _read(None)

    @operation(
        id="sayInLobbyChat",
        summary="Say something in the lobby's chat (accounts only)",
        description=LINE_RULES,
        body=ChatSchema,
        auth="required",
        responses={201: (ChatLineResultSchema, "The line")},
        errors=(400, 401, 413, 429),
    )
    def post(self) -> Response:
        return _say(None)


class LobbyChatReports(Resource):
    @operation(
        id="reportLobbyChatLine",
        summary="Report a line of the lobby's chat to the operators",
        description=REPORT_RULE,
        body=ReportSchema,
        auth="required",
        responses={204: (None, "Reported")},
        errors=(400, 401, 404, 413, 429),
    )
    def post(self) -> Response:
        return _report(None)


class RoomChat(Resource):
    @operation(
        id="readRoomChat",
        summary="A shared replay room's chat",
        description=READ_RULES + " Whoever may read the room reads its chat; its lines "
        "expire with the room.",
        query=ChatQuery,
        auth="optional",
        responses={200: (ChatPageSchema, "The lines")},
        errors=(400, 401, 403, 404, 429, 503),
    )
    def get(self, room_id: str) -> Response:
        return _read(room_id)

    @operation(
        id="sayInRoomChat",
        summary="Say something in a shared replay room's chat (accounts only)",
        description=LINE_RULES + " The account must be allowed to read the room.",
        body=ChatSchema,
        auth="required",
        responses={201: (ChatLineResultSchema, "The line")},
        errors=(400, 401, 403, 404, 413, 429),
    )
    def post(self, room_id: str) -> Response:
        return _say(room_id)


class RoomChatReports(Resource):
    @operation(
        id="reportRoomChatLine",
        summary="Report a line of a replay room's chat to the operators",
        description=REPORT_RULE,
        body=ReportSchema,
        auth="required",
        responses={204: (None, "Reported")},
        errors=(400, 401, 403, 404, 413, 429),
    )
    def post(self, room_id: str) -> Response:
        return _report(room_id)


class Mutes(Resource):
    @operation(
        id="listMutes",
        summary="The accounts whose chat lines the account does not read",
        auth="required",
        responses={200: (MutesSchema, "The muted accounts")},
        errors=(401,),
    )
    def get(self) -> Response:
        return json_response(services().chat.mutes(require_account()))


class Mute(Resource):
    @operation(
        id="mute",
        summary="Mute an account: its lines in every chat, and its mentions, are left out",
        description=(
            "Only for the account that mutes; the muted account is not told. Muting again "
            "changes nothing. 409 too_many_mutes past HANABI_MAX_MUTES; 400 own_account."
        ),
        auth="required",
        responses={204: (None, "Muted")},
        errors=(400, 401, 404, 409, 429),
    )
    def put(self, username: str) -> Response:
        account = require_account()
        limits().hit("friends", account.id)
        services().chat.mute(account, username)
        return Response(status=204)

    @operation(
        id="unmute",
        summary="Read an account's lines again",
        auth="required",
        responses={204: (None, "Unmuted")},
        errors=(400, 401, 404, 429),
    )
    def delete(self, username: str) -> Response:
        account = require_account()
        limits().hit("friends", account.id)
        services().chat.unmute(account, username)
        return Response(status=204)


class Follows(Resource):
    @operation(
        id="listFollows",
        summary="The accounts the account follows (its friends)",
        auth="required",
        responses={200: (FollowsSchema, "The followed accounts")},
        errors=(401,),
    )
    def get(self) -> Response:
        return json_response(services().friends.follows(require_account()))


class Follow(Resource):
    @operation(
        id="follow",
        summary="Follow an account: its open tables come first in your lobby",
        description=(
            "When it opens a table your webhook is called (event friend_table). Following "
            "is private: nobody is told, and no route lists an account's followers. "
            "Following again changes nothing. 409 too_many_follows past HANABI_MAX_FOLLOWS; "
            "400 own_account."
        ),
        auth="required",
        responses={204: (None, "Followed")},
        errors=(400, 401, 404, 409, 429),
    )
    def put(self, username: str) -> Response:
        account = require_account()
        limits().hit("friends", account.id)
        services().friends.follow(account, username)
        return Response(status=204)

    @operation(
        id="unfollow",
        summary="Stop following an account",
        auth="required",
        responses={204: (None, "No longer followed")},
        errors=(400, 401, 404, 429),
    )
    def delete(self, username: str) -> Response:
        account = require_account()
        limits().hit("friends", account.id)
        services().friends.unfollow(account, username)
        return Response(status=204)
