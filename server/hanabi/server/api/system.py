"""The system routes: whether the service and its storage answer, whether this node takes
new clients, and the bot strategies (the variants are in :mod:`.variants`)."""

from __future__ import annotations

import functools

import orjson
from flask import Response
from flask_restx import Resource

from hanabi.bots import DEFAULT_STRATEGY, STRATEGIES

from ..ops import metrics
from ..storage import redis_errors
from ..table.refusals import Unavailable
from . import language
from .context import services
from .http import json_response
from .operations import operation
from .schemas.system import HealthSchema, StrategyListSchema


class Health(Resource):
    @operation(
        id="getHealth",
        summary="Whether the service and its storage answer",
        responses={200: (HealthSchema, "Redis answers")},
        errors=(503,),
    )
    def get(self) -> Response:
        ping_storage()
        return json_response({"status": "ok"})


def ping_storage() -> None:
    try:
        services().store.ping()
    except redis_errors.ERRORS:
        metrics.redis_error("request")
        raise Unavailable("storage_unavailable", "Game storage does not answer.") from None


class Ready(Resource):
    @operation(
        id="getReady",
        summary="Whether this node takes new clients: storage answers and it is not draining",
        description=(
            "For load balancers; GET /health is the liveness check. 503 `draining` from the "
            "moment the process got SIGTERM until it exits (HANABI_DRAIN_S), 503 "
            "`storage_unavailable` while Redis does not answer."
        ),
        responses={200: (HealthSchema, "Ready")},
        errors=(503,),
    )
    def get(self) -> Response:
        if services().changes.draining:
            raise Unavailable(
                "draining", "This server is shutting down; use another one.", retry_after=5
            )
        ping_storage()
        return json_response({"status": "ok"})


@functools.cache
def _strategies_body(tag: str) -> bytes:
    """The strategies, their descriptions in the language ``tag`` (docs/i18n.md)."""
    return orjson.dumps(
        {
            "strategies": [
                {
                    "name": name,
                    "description": language.say(cls.description, tag),
                    "default": name == DEFAULT_STRATEGY,
                    "fallback": cls.fallback,
                }
                for name, cls in STRATEGIES.items()
            ]
        }
    )


class Strategies(Resource):
    @operation(
        id="listStrategies",
        summary="The bot strategies a host may seat, and whom each plays well with",
        description=(
            "For a lobby's bot picker: `default` is the one a bot seat gets when it names "
            "none; `fallback` is what a strategy with a private code plays at a table where "
            "not every other seat plays it. The descriptions speak the request's "
            "Accept-Language."
        ),
        responses={200: (StrategyListSchema, "The strategies")},
    )
    def get(self) -> Response:
        tag = language.current()
        return language.label(json_response(_strategies_body(tag), raw=True), tag)
