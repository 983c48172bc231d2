"""The public routes of players: a profile with its statistics, a history of finished
games, and the rating model (see :mod:`hanabi.server.table.stats`,
:mod:`hanabi.server.table.ratings`)."""

from __future__ import annotations

from flask import Response, current_app
from flask_restx import Resource

from ..table import ratings, stats
from ..table.refusals import NotFound
from .credentials import accounts
from .http import json_response, load_query
from .operations import operation, schema
from .schemas.accounts import HistoryPageSchema, HistoryQuery, ProfileSchema, RatingModelSchema


def account_id_of(username: str) -> str:
    account_id = accounts().by_name(username)
    if account_id is None or accounts().public(account_id) is None:
        raise NotFound("player_not_found", f"There is no player {username!r}.")
    return account_id


class Profile(Resource):
    @operation(
        id="getProfile",
        summary="A player's public profile: rating and statistics per variant",
        responses={200: (ProfileSchema, "The profile")},
        errors=(404,),
    )
    def get(self, username: str) -> Response:
        account_id = account_id_of(username)
        public = accounts().public(account_id)
        assert public is not None
        return json_response(stats.profile(accounts().redis, account_id, public))


class History(Resource):
    @operation(
        id="getHistory",
        summary="A player's finished games, newest first, a page at a time",
        query=HistoryQuery,
        responses={200: (HistoryPageSchema, "A page of games")},
        errors=(400, 404),
    )
    def get(self, username: str) -> Response:
        q = load_query(schema(HistoryQuery))
        account_id = account_id_of(username)
        page = stats.history(accounts().redis, account_id, q["limit"], q.get("cursor"))
        return json_response(page)


class RatingModel(Resource):
    @operation(
        id="getRatingModel",
        summary="The rating model: start, K and hanabot's rating per variant and score",
        responses={200: (RatingModelSchema, "The model")},
    )
    def get(self) -> Response:
        return json_response(ratings.model(current_app.config["HANABI_RATING_K"]))
