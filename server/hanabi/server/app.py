"""The application factory."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from flask import Flask, Response
from flask_cors import CORS
from flask_restx import Api

from .account_setup import init_accounts
from .api import docs_ui, headers, problems, ratelimits, web_pages
from .api import metrics as metrics_route
from .api.games import PREFIX
from .api.http import refuse_non_json
from .api.namespaces import NAMESPACES
from .api.spec import TITLE
from .ops import drain, gunicorn_errors, observe
from .ops.config import enabled, load_config
from .storage import redis_memory
from .storage.store import Store
from .table.bots import start_worker
from .table.games import Service

#: The interactive docs (Swagger UI).
DOCS = docs_ui.DOCS


class ProblemApi(Api):
    """flask-restx with its error formatting replaced: every error is a problem+json."""

    def handle_error(self, e: Exception) -> Response:  # type: ignore[override]
        return problems.to_response(e)


def create_app(config: Mapping[str, Any] | None = None) -> Flask:
    """A WSGI app; ``config`` overrides the environment (see :mod:`hanabi.server.ops.config`)."""
    settings = load_config(config)
    app = Flask("hanabi.server", static_folder=None)
    # "/games//bots" is a missing game id, not a redirect to "/games/bots" (a redirect
    # of a POST would fail as an internal error): every path is taken as it comes.
    app.url_map.merge_slashes = False
    app.config.update(settings)
    app.config.update(
        MAX_CONTENT_LENGTH=settings["HANABI_MAX_BODY"],
        RESTX_ERROR_404_HELP=False,
        ERROR_INCLUDE_MESSAGE=False,
        PROPAGATE_EXCEPTIONS=False,
        JSON_SORT_KEYS=False,
    )
    ttls = {
        "lobby": settings["HANABI_LOBBY_TTL"],
        "playing": settings["HANABI_PLAYING_TTL"],
        "finished": settings["HANABI_FINISHED_TTL"],
    }
    store = Store(settings["REDIS_URL"], ttls, settings["HANABI_LOBBY_LISTED_S"])
    service = Service(store, settings)
    redis_memory.warn_if_evicting(service.store.redis)  # games must never be evicted
    app.extensions["hanabi"] = service
    app.extensions["hanabi_limits"] = ratelimits.from_config(
        settings, service.store.redis, service.store.cluster
    )
    init_accounts(app, service)  # accounts, and settling finished games (a sweeper thread)
    # Bot turns are played by threads in every process (see hanabi.server.table.bots).
    app.extensions["hanabi_bots"] = bots = start_worker(
        service, settings["HANABI_BOT_WORKER"], settings["HANABI_BOT_LEASE"]
    )
    # Operations: request ids, the JSON request log, GET /metrics, the drain on SIGTERM.
    counted = metrics_route.install(app, service.store.gauges)
    observe.install(app, count=counted, access_log=enabled(settings["HANABI_ACCESS_LOG"]))
    drain.attach(app, service, bots)

    api = ProblemApi(prefix=PREFIX, doc=False, title=TITLE, version="1.0", catch_all_404s=True)
    api.init_app(app, add_specs=False)  # our OpenAPI 3.1 document replaces swagger.json
    for namespace in NAMESPACES:
        api.add_namespace(namespace)

    origins = [o.strip() for o in settings["HANABI_CORS_ORIGINS"].split(",") if o.strip()]
    CORS(
        app,
        resources={PREFIX + "/*": {"origins": origins or []}},
        expose_headers=["ETag", "Location", "X-Request-ID"],
        allow_headers=[
            "Authorization",
            "Content-Type",
            "If-None-Match",
            "Last-Event-ID",
            "X-Request-ID",
        ],
        methods=["GET", "POST", "PATCH", "DELETE", "OPTIONS"],
        max_age=600,
    )
    problems.install(app)
    app.before_request(refuse_non_json)
    gunicorn_errors.install()

    @app.get(PREFIX + "/openapi.yaml")
    def openapi_yaml() -> Response:
        from .api.spec import spec_yaml

        return Response(spec_yaml(), mimetype="application/yaml")

    # Swagger UI 5 (it renders OpenAPI 3.1; flask-restx bundles 4.x, which cannot), its
    # assets served from the package: no CDN. No online validator badge either.
    app.register_blueprint(docs_ui.blueprint)
    # The browser client: "/", "/games/<id>", "/players/<name>" and its files at /web/.
    app.register_blueprint(web_pages.blueprint)
    # nosniff on every response, and a policy on every page (headers.py).
    headers.install(app)

    return app
