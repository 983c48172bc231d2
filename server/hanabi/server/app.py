"""The application factory."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from flask import Flask, Response, render_template
from flask_cors import CORS
from flask_restx import Api
from flask_restx.apidoc import apidoc

from . import problems
from .account_setup import init_accounts
from .api import NAMESPACES, PREFIX
from .bots import start_worker
from .config import load_config
from .games import Service
from .store import Store


class ProblemApi(Api):
    """flask-restx with its error formatting replaced: every error is a problem+json."""

    def handle_error(self, e: Exception) -> Response:  # type: ignore[override]
        return problems.to_response(e)


def create_app(config: Mapping[str, Any] | None = None) -> Flask:
    """A WSGI app; ``config`` overrides the environment (see :mod:`hanabi.server.config`)."""
    settings = load_config(config)
    app = Flask("hanabi.server")
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
    service = Service(Store(settings["REDIS_URL"], ttls), settings)
    app.extensions["hanabi"] = service
    init_accounts(app, service)  # accounts, and settling finished games (a sweeper thread)
    # Bot turns are played by threads in every process (see hanabi.server.bots).
    app.extensions["hanabi_bots"] = start_worker(
        service, settings["HANABI_BOT_WORKER"], settings["HANABI_BOT_LEASE"]
    )

    api = ProblemApi(prefix=PREFIX, doc=False, title="Hanabi", version="1.0", catch_all_404s=True)
    api.init_app(app, add_specs=False)  # our OpenAPI 3.1 document replaces swagger.json
    for namespace in NAMESPACES:
        api.add_namespace(namespace)

    origins = [o.strip() for o in settings["HANABI_CORS_ORIGINS"].split(",") if o.strip()]
    CORS(
        app,
        resources={PREFIX + "/*": {"origins": origins or []}},
        expose_headers=["ETag", "Location"],
        allow_headers=["Authorization", "Content-Type", "If-None-Match", "Last-Event-ID"],
        methods=["GET", "POST", "PATCH", "DELETE", "OPTIONS"],
        max_age=600,
    )
    problems.install(app)

    @app.get(PREFIX + "/openapi.yaml")
    def openapi_yaml() -> Response:
        from .spec import spec_yaml

        return Response(spec_yaml(), mimetype="application/yaml")

    if "restx_doc" not in app.blueprints:  # flask-restx registers its UI assets itself
        app.register_blueprint(apidoc, url_prefix=PREFIX + "/docs")

    @app.get(PREFIX + "/docs")
    def docs() -> str:
        return render_template(
            "swagger-ui.html", title="Hanabi API", specs_url=PREFIX + "/openapi.yaml"
        )

    return app
