"""The routes of seeds and leaderboards: a seed's results for those who finished it, the
best games per variant and table size, and a player's counts per variant (docs/seeds.md,
:mod:`hanabi.server.table.seeds`, :mod:`hanabi.server.table.leaderboards`)."""

from __future__ import annotations

from flask import Response
from flask_restx import Resource

from ..table.leaderboards import Kind
from .context import services
from .credentials import current_account
from .http import json_response, load_query
from .operations import operation, schema
from .schemas.seeds import (
    LeaderboardQuery,
    LeaderboardSchema,
    PageQuery,
    PlayerStatsSchema,
    SeedPageSchema,
)


class Seed(Resource):
    @operation(
        id="getSeed",
        summary="Every team's result on a seed, best first, a page at a time",
        description=(
            "Shown to an account that finished a game on this seed: 401 account_required "
            "without an account's credential, 403 seed_not_played if it never finished one "
            "(the same answer for a seed that was never played and for one in play "
            "anywhere, its own game included). Best first: higher score, then fewer turns, "
            "then earlier; spoiled results (`spoiled: true`) after all the others."
        ),
        query=PageQuery,
        auth="required",
        responses={200: (SeedPageSchema, "A page of results")},
        errors=(400, 401, 403),
    )
    def get(self, seed_name: str) -> Response:
        q = load_query(schema(PageQuery))
        account = current_account()
        account_id = None if account is None else account.id
        return json_response(
            services().seeds.page(seed_name, account_id, q["limit"], q.get("cursor"))
        )


class Leaderboards(Resource):
    @operation(
        id="getLeaderboard",
        summary="The best games of a variant and table size",
        description=(
            "Games count when nobody chose the deal (no named or custom seed, no deck), no "
            "seat is a bot and no rule option is on. Entries carry no seed name."
        ),
        query=LeaderboardQuery,
        responses={200: (LeaderboardSchema, "A page of the board")},
        errors=(400, 404),
    )
    def get(self) -> Response:
        q = load_query(schema(LeaderboardQuery))
        board = services().results.board(
            q["variant"], q["players"], Kind(q["kind"]), q["limit"], q.get("cursor")
        )
        return json_response(board)


class PlayerStats(Resource):
    @operation(
        id="getPlayerStats",
        summary="A player's games, max scores (win rate) and average per variant",
        responses={200: (PlayerStatsSchema, "The counts, over the games that count")},
        errors=(404,),
    )
    def get(self, username: str) -> Response:
        svc = services()
        return json_response(svc.results.player(svc.profiles, username))
