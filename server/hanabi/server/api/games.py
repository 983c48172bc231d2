"""The games routes: the listing (a lobby's live list), opening a table, a game as its
viewer sees it (long-polled with ETags), and a finished game's export and replay."""

from __future__ import annotations

import hashlib
import time

import orjson
from flask import Response, current_app
from flask_restx import Resource

from ..ops.serving import yield_to_others
from ..storage.record import GameStatus, Record
from ..table.seats import not_found, seat_of
from .context import hit_per_address, holding, services
from .credentials import bearer_token, current_account, viewer
from .http import if_none_match, json_response, load_body, load_query
from .operations import game_url, operation, schema
from .schemas.queries import ListGamesQuery, PastQuery, ReplayQuery, WaitQuery
from .schemas.requests import CreateGameSchema, SeatGrantSchema
from .schemas.views import GamePageSchema, GameViewSchema, HanabLiveGameSchema
from .tables import spectator_pass, spectator_stored


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
            "until the lobby expires. An account's credential puts the games where accounts "
            "it follows are seated first in each page, naming them (`friends`)."
        ),
        query=ListGamesQuery,
        responses={
            200: (GamePageSchema, "A page of game summaries"),
            304: (None, "Unchanged (If-None-Match)"),
        },
        headers={200: {"ETag": "Tag of this page"}, 304: {"ETag": "The current tag"}},
        request_headers={"If-None-Match": "The ETag of the page the client has"},
        auth="optional",
        errors=(400, 401, 429),
    )
    def get(self) -> Response:
        svc = services()
        q = load_query(schema(ListGamesQuery))
        limit = min(q["limit"], current_app.config["HANABI_PAGE_MAX"])
        wait = min(q["wait"], current_app.config["HANABI_MAX_WAIT"])
        follows = svc.friends.followed_ids(current_account())  # their tables first

        def page() -> tuple[bytes, str]:
            found = svc.listing.list_games(q.get("status"), limit, q.get("cursor"), follows)
            body = orjson.dumps(found)
            return body, '"' + hashlib.blake2b(body, digest_size=8).hexdigest() + '"'

        version = svc.listing.version()  # read before the page: no change slips by
        body, etag = page()
        if if_none_match(etag) and wait > 0:
            deadline = time.monotonic() + wait
            with holding(wait):
                while if_none_match(etag) and (left := deadline - time.monotonic()) > 0:
                    newest = svc.listing.wait(version, left)
                    if newest is None or newest == version:
                        # Waited it out (or the server is draining). A lobby leaves the
                        # list with no change as it ages (HANABI_LOBBY_LISTED_S): look again
                        # (only there: a move shows on a read but answers no wait).
                        if q.get("status") == GameStatus.LOBBY:
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
        body=CreateGameSchema,
        auth="optional",
        description=(
            "With an account's credential (session token or API key) seat 0 is bound to the "
            "account: its name is the username (any `name` is ignored) and the credential "
            "acts for the seat as well as the seat token. A guest sends a `name` (401 "
            "name_required without one). `options.rated` needs an account (see the rating "
            "model) old enough, with enough finished unrated games (409 account_too_new, "
            "not_enough_games), and the standard rules (409 option_not_rated for "
            "empty_clues or strikeout_keeps_score)."
            " A rated table is dealt a fresh seed sealed for it while it runs: a table asking "
            "for that seed by name is 409 deal_unavailable; an account may not hold two live "
            "seats on one deal (a seed, or a custom seed or deck): 409 same_deal_elsewhere. "
            "Neither names the seed (docs/seeds.md). An account's new table calls the "
            "webhooks of the accounts that follow it (event friend_table, docs/chat.md). `password`: a password table "
            "(docs/lobby.md)."
        ),
        responses={201: (SeatGrantSchema, "The game, the host's seat and token")},
        headers={201: {"Location": "The game's URL"}},
        errors=(400, 401, 403, 409, 413, 429),
    )
    def post(self) -> Response:
        svc = services()
        body = load_body(schema(CreateGameSchema))
        hit_per_address("create")
        host = current_account()
        outcome = svc.lobby.create(body, host)
        record = outcome.record
        svc.friends.table_opened(record, host)
        data = {
            "id": record.id,
            "seat": 0,
            "token": outcome.token,
            "game": svc.reads.render(record, 0),
        }
        return json_response(data, 201, {"Location": game_url(record.id)})


class GameResource(Resource):
    @operation(
        id="getGame",
        summary="The game as the bearer's seat sees it (a spectator without a seat)",
        description=(
            "Sends an ETag that changes whenever anything this viewer can see changes. "
            "With If-None-Match naming the current ETag: 304, or with ?wait=N, the request "
            "is held until the game changes (200) or N seconds pass (304). A credential that "
            "holds a seat here (the seat's token, or the seated account's session or API "
            "key) always gets that seat's own view. Anyone else is a spectator (anonymous, "
            "or an account not seated, which may send its credential to be known): its "
            "view's `spectating` says what it sees: `full` (every card: a finished game, "
            "or a table of bots only), `hands` (every hand's cards while an unrated game "
            "with options.spectators_see_hands is on), `public` (public information only: "
            "a rated table, one that hides hands, or an account playing the same deal at "
            "another table) or `shadow` (?shadow=). An account shown cards of a game dealt "
            "a seed name spoils that seed for itself (docs/seeds.md, docs/watching.md). A password table locked to "
            "spectators asks a viewer holding no seat for its pass (`X-Table-Pass`: POST "
            "/games/{game_id}/passes): 401 password_required, 403 wrong_pass."
        ),
        query=WaitQuery,
        auth="optional",
        responses={
            200: (GameViewSchema, "The view"),
            304: (None, "Unchanged (If-None-Match)"),
        },
        headers={200: {"ETag": "Version tag of this view"}, 304: {"ETag": "The current tag"}},
        request_headers={"If-None-Match": "The ETag of the view the client has"},
        errors=(400, 401, 403, 404, 409, 429),
    )
    def get(self, game_id: str) -> Response:
        svc = services()
        q = load_query(schema(WaitQuery))
        token, account_id = viewer()
        shadow = q.get("shadow")
        wait = min(q["wait"], current_app.config["HANABI_MAX_WAIT"])
        # A long-poll may start from the version this process already knows (its waiters'
        # subscription keeps it current): a client that polls again right after a change
        # then costs no Redis read. A plain read always reads.
        raw = svc.reads.known_raw(game_id) if wait > 0 else None
        if raw is None:
            raw = svc.reads.load_raw(game_id)
        if raw is None:
            raise not_found(game_id)
        version = raw[0]
        who = svc.viewers.resolve_stored(game_id, raw, token, account_id, shadow)
        if who.seat is None:  # a password table's spectators show its pass (docs/lobby.md)
            spectator_stored(game_id, raw)
        own = svc.reads.own_private(game_id, who.seat)  # a seat's notes: in its ETag and view
        etag = svc.reads.etag(version, who, own)
        if if_none_match(etag):
            if wait > 0:
                with holding(wait):
                    newest = svc.reads.wait_for_change(game_id, version, wait)
                if newest != version:
                    raw = None if newest is None else svc.reads.load_raw(game_id, newest)
                    if raw is None:
                        raise not_found(game_id)
                    version = raw[0]
                    who = svc.viewers.resolve_stored(game_id, raw, token, account_id, shadow)
                    if who.seat is None:
                        spectator_stored(game_id, raw)
                    own = svc.reads.own_private(game_id, who.seat)
                    etag = svc.reads.etag(version, who, own)
            if if_none_match(etag):
                return Response(status=304, headers={"ETag": etag})
        body = svc.reads.view_of(game_id, raw, who, own)
        response = json_response(
            body, raw=True, headers={"ETag": etag, "Cache-Control": "no-cache"}
        )
        if wait > 0:
            response.call_on_close(yield_to_others)
        return response


PUBLIC = (
    " Finished games are public: anyone may read this, anonymous included, except an "
    "account that holds a seat in a game still going on dealt the same deal (409 "
    "same_deal_elsewhere). An account not seated here that reads a game dealt a seed name "
    "spoils that seed for itself (docs/seeds.md)."
)


def viewed(game_id: str) -> Record:
    """The game a route shows every card of (once finished), if the bearer may see them."""
    svc = services()
    token, account_id = viewer()
    record = svc.reads.load(game_id)
    # a password table's spectators show its pass (docs/lobby.md)
    spectator_pass(record, seat_of(record.players, token, spectate=account_id is not None))
    svc.viewers.cards(record, token, account_id)
    return record


class Export(Resource):
    @operation(
        id="exportGame",
        summary="A finished game as hanab.live JSON",
        description="409 game_not_finished while the game is on." + PUBLIC,
        auth="optional",
        responses={200: (HanabLiveGameSchema, "The game")},
        errors=(401, 403, 404, 409),
    )
    def get(self, game_id: str) -> Response:
        svc = services()
        record = viewed(game_id)
        data = svc.reads.export(record)
        notes = svc.notes.export(record)  # hanab.live's shape; left out when there are none
        return json_response(data if notes is None else {**data, "notes": notes})


class Replay(Resource):
    @operation(
        id="replayGame",
        summary="Everything about a finished game as it stood at ?turn=",
        query=ReplayQuery,
        auth="optional",
        responses={200: (GameViewSchema, "The full view at that turn")},
        errors=(400, 401, 403, 404, 409),
        description="404 no_such_turn past the last turn; 409 while the game is on." + PUBLIC,
    )
    def get(self, game_id: str) -> Response:
        svc = services()
        q = load_query(schema(ReplayQuery))
        return json_response(svc.reads.replay(viewed(game_id), q.get("turn")))


class Past(Resource):
    @operation(
        id="seatPast",
        summary="The game as the bearer's seat saw it at ?turn= (an in-game replay)",
        description=(
            "While the game is on (or once it is over), a seat steps back through its own "
            "past: the view it had after ?turn= moves, with its own cards then hidden and "
            "what it knew of them then, as its stream showed it at the time. Nothing in it "
            "can be sent: `legal_actions` is empty, and the clocks, notes and votes are "
            "the present's (GET /games/{game_id}). For a seat's token only (401 without "
            "one, 403 for a spectator's: a spectator's past is the event log). 404 "
            "no_such_turn past the current turn; 409 game_not_started before the deal."
        ),
        query=PastQuery,
        auth="required",
        responses={200: (GameViewSchema, "The seat's view at that turn")},
        errors=(400, 401, 403, 404, 409),
    )
    def get(self, game_id: str) -> Response:
        svc = services()
        q = load_query(schema(PastQuery))
        record = svc.reads.load(game_id)
        return json_response(svc.reads.seat_past(record, bearer_token(), q.get("turn")))
