"""The API on a Flask app: the namespaces of routes, every error as problem+json, CORS,
the check of request bodies, the OpenAPI document and its docs, the web client's pages and
the headers that guard every response (called once by :mod:`hanabi.server.app`)."""

from __future__ import annotations

from typing import Any

from flask import Flask, Response
from flask_cors import CORS
from flask_restx import Api

from ..ops import gunicorn_errors
from . import docs_ui, headers, problems, web_pages
from .http import PathNumber, refuse_non_json
from .namespaces import NAMESPACES
from .operations import PREFIX
from .spec import TITLE


class ProblemApi(Api):
    """flask-restx with its error formatting replaced: every error is a problem+json."""

    def handle_error(self, e: Exception) -> Response:  # type: ignore[override]
        return problems.to_response(e)


def install(app: Flask, settings: dict[str, Any]) -> None:
    """Serve the API, its docs and the web client from ``app``."""
    api = ProblemApi(prefix=PREFIX, doc=False, title=TITLE, version="1.0", catch_all_404s=True)
    app.url_map.converters["int"] = PathNumber  # before any route takes a number
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
            "X-Table-Pass",  # a password table's spectator pass (docs/lobby.md)
        ],
        methods=["GET", "POST", "PATCH", "DELETE", "OPTIONS"],
        max_age=600,
    )
    problems.install(app)
    app.before_request(refuse_non_json)
    gunicorn_errors.install()

    @app.get(PREFIX + "/openapi.yaml")
    def openapi_yaml() -> Response:
        from .spec import spec_yaml

        return Response(spec_yaml(), mimetype="application/yaml")

    # Swagger UI 5 (it renders OpenAPI 3.1; flask-restx bundles 4.x, which cannot), its
    # assets served from the package: no CDN. No online validator badge either.
    app.register_blueprint(docs_ui.blueprint)
    # The browser client: "/", "/games/<id>", "/players/<name>" and its files at /web/.
    app.register_blueprint(web_pages.blueprint)
    # nosniff on every response, and a policy on every page (headers.py).
    headers.install(app)
