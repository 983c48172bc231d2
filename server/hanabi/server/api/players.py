"""The public routes of players: a profile with its statistics, a history of finished
games, and the rating model (see :mod:`hanabi.server.table.stats`,
:mod:`hanabi.server.table.ratings`)."""

from __future__ import annotations

from flask import Response, current_app
from flask_restx import Resource

from ..table import ratings
from .context import services
from .http import json_response, load_query
from .operations import operation, schema
from .schemas.accounts import HistoryPageSchema, HistoryQuery, ProfileSchema, RatingModelSchema


class Profile(Resource):
    @operation(
        id="getProfile",
        summary="A player's public profile: rating and statistics per variant",
        responses={200: (ProfileSchema, "The profile")},
        errors=(404,),
    )
    def get(self, username: str) -> Response:
        return json_response(services().profiles.profile(username))


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
        page = services().profiles.history(username, q["limit"], q.get("cursor"))
        return json_response(page)


class RatingModel(Resource):
    @operation(
        id="getRatingModel",
        summary="The rating model: start, K and hanabot's rating per variant and score",
        responses={200: (RatingModelSchema, "The model")},
    )
    def get(self) -> Response:
        return json_response(ratings.model(current_app.config["HANABI_RATING_K"]))
