"""The routes of history search, tags, a variant's page and imports (docs/history.md,
:mod:`hanabi.server.table.history`, :mod:`hanabi.server.table.tags`,
:mod:`hanabi.server.table.imports`)."""

from __future__ import annotations

from flask import Response
from flask_restx import Resource

from ..table.tags import PER_ACCOUNT, PER_GAME, TAG_MAX
from .context import hit_per_address, services
from .credentials import current_account
from .http import json_response, load_body, load_query
from .operations import game_url, operation, schema
from .schemas.history import (
    GameTagsSchema,
    HistoryQuery,
    ImportBodySchema,
    ImportedSchema,
    SearchPageSchema,
    VariantHistoryQuery,
    VariantHistorySchema,
)


class HistorySearch(Resource):
    @operation(
        id="searchHistory",
        summary="Finished games, newest first, searched by player, variant, score, tag, date",
        description=(
            "Finished games only (a game still on is in no search). Filters combine; a page "
            "looks at up to 2,000 games of the history's index and may come back short with "
            "a next_cursor to go on from. Imported games are marked `imported`."
        ),
        query=HistoryQuery,
        responses={200: (SearchPageSchema, "A page of finished games")},
        errors=(400, 404),
    )
    def get(self) -> Response:
        return json_response(services().history.search(load_query(schema(HistoryQuery))))


class VariantPage(Resource):
    @operation(
        id="getVariantPage",
        summary="A variant's best games, its games' mean and the seeds nobody maxed",
        description=(
            "Counts the games that count on the leaderboards (nobody chose the deal, no "
            "bots, no rule option; never imported games). `missing_max_scores`: named seeds "
            "dealt in this variant that no team has maxed, a page at a time (names only: a "
            "seed's results stay with those who finished it)."
        ),
        query=VariantHistoryQuery,
        responses={200: (VariantHistorySchema, "The variant's page")},
        errors=(400, 404),
    )
    def get(self, variant: str) -> Response:
        q = load_query(schema(VariantHistoryQuery))
        return json_response(services().history.variant_page(variant, q["limit"], q.get("cursor")))


class GameTags(Resource):
    @operation(
        id="listGameTags",
        summary="A finished game's tags",
        description="409 game_not_finished while the game is on: only finished games have tags.",
        auth="optional",
        responses={200: (GameTagsSchema, "The tags, each with its count and whether you put it")},
        errors=(401, 404, 409),
    )
    def get(self, game_id: str) -> Response:
        return json_response(services().tags.tags(game_id, current_account()))


class GameTag(Resource):
    @operation(
        id="tagGame",
        summary="Tag a finished game you played (or imported)",
        description=(
            f"An account's credential (401 account_required); an account that sat at the "
            f"game or imported it (403 not_a_player); a finished game (409 "
            f"game_not_finished). A tag is letters, digits, - and _, at most {TAG_MAX}, with "
            f"or without # (400 invalid_tag); at most {PER_GAME} of yours per game and "
            f"{PER_ACCOUNT} in all (409 too_many_tags). The same tag twice is one tag."
        ),
        auth="required",
        responses={200: (GameTagsSchema, "The game's tags after")},
        errors=(400, 401, 403, 404, 409),
    )
    def put(self, game_id: str, tag: str) -> Response:
        return json_response(services().tags.add(game_id, current_account(), tag))

    @operation(
        id="untagGame",
        summary="Remove your tag from a game",
        description="Only your own tag goes; removing a tag you did not put changes nothing.",
        auth="required",
        responses={200: (GameTagsSchema, "The game's tags after")},
        errors=(400, 401, 403, 404, 409),
    )
    def delete(self, game_id: str, tag: str) -> Response:
        return json_response(services().tags.remove(game_id, current_account(), tag))


class Imports(Resource):
    @operation(
        id="importGame",
        summary="Import a hanab.live game (its JSON export) as a finished game",
        description=(
            "The body is hanab.live's export (or ours, GET /games/{id}/export): players, "
            "deck, actions, options and optionally notes. Our engine replays it: 400 with "
            "the engine's code (invalid_import, unsupported_variant...) for a document the "
            "rules refuse, import_not_finished for a game that did not end. Needs an "
            "account (401 account_required); a deal of one of this server's named seeds is "
            "refused (403 seed_deal_import: its cards stay with those who finished it); "
            "rate-limited per address (HANABI_LIMIT_IMPORT); "
            "bounded by the server's body size (413). The game is finished, marked "
            "`imported`, and counts on no leaderboard, seed or rating."
        ),
        body=ImportBodySchema,
        auth="required",
        responses={201: (ImportedSchema, "The imported game")},
        headers={201: {"Location": "The game's URL"}},
        errors=(400, 401, 403, 413, 429),
    )
    def post(self) -> Response:
        svc = services()
        body = load_body(schema(ImportBodySchema))
        account = current_account()
        hit_per_address("import")
        record = svc.imports.run(body, account)
        data = {
            "game_id": record.id,
            "score": record.score,
            "turns": record.turn,
            "replay": game_url(record.id) + "/replay",
        }
        return json_response(data, 201, {"Location": game_url(record.id)})
