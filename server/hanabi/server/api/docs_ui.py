"""The interactive API docs at ``/api/v1/docs``: Swagger UI 5 (it renders OpenAPI 3.1),
its files from the flask-swagger-ui package (no CDN), on a page of our own.

flask-swagger-ui's page starts Swagger UI from an inline script that also quotes the
request's URL back, so it could only run under ``script-src 'unsafe-inline'``. This page
loads the same files and starts Swagger UI from :data:`START`, a script served beside them,
so the docs run under ``script-src 'self'`` like the web client, and without
'unsafe-inline' for styles either (see :data:`CSP`).
"""

from __future__ import annotations

import json
from base64 import b64encode
from hashlib import sha256
from pathlib import Path

import flask_swagger_ui
from flask import Blueprint, Response, send_from_directory

from .headers import secure
from .operations import PREFIX
from .spec import TITLE

#: The interactive docs.
DOCS = PREFIX + "/docs"
#: Swagger UI's files, as the package ships them.
DIST = Path(flask_swagger_ui.__file__).with_name("dist")

#: The one ``<style>`` element Swagger UI writes: the colours of its logo, an SVG in the
#: top bar (found with a ``securitypolicyviolation`` listener; tests/server/
#: test_docs_browser.py fails on any violation, so a new Swagger UI that writes another
#: one is noticed).
LOGO_STYLE = ".logo_small_svg__cls-2{fill:#fff}.logo_small_svg__cls-3{fill:#85ea2d}"

#: Scripts and style sheets from this server only, nothing inline but the logo's style (by
#: its hash: no 'unsafe-inline'). Swagger UI's icons are ``data:`` SVG images in its style
#: sheet; "Try it out" calls this API (``connect-src 'self'``).
CSP = "; ".join(
    (
        "default-src 'none'",
        "script-src 'self'",
        f"style-src 'self' 'sha256-{b64encode(sha256(LOGO_STYLE.encode()).digest()).decode()}'",
        "img-src 'self' data:",
        "connect-src 'self'",
        "base-uri 'none'",
        "form-action 'self'",
        "frame-ancestors 'none'",
        "object-src 'none'",
    )
)

#: Swagger UI's settings: this API's document, no online validator badge.
CONFIG = {
    "url": PREFIX + "/openapi.yaml",
    "dom_id": "#swagger-ui",
    "deepLinking": True,
    "validatorUrl": None,
    "layout": "StandaloneLayout",
}
START_NAME = "start-hanabi-docs.js"
START = f"""// Starts Swagger UI on this API's document (see hanabi.server.api.docs_ui).
window.addEventListener("load", () => {{
  window.ui = SwaggerUIBundle({{
    ...{json.dumps(CONFIG)},
    presets: [SwaggerUIBundle.presets.apis, SwaggerUIStandalonePreset],
    plugins: [SwaggerUIBundle.plugins.DownloadUrl],
  }});
}});
"""
PAGE = f"""<!DOCTYPE html>
<html lang="en">
<head>
  <meta charset="UTF-8">
  <title>{TITLE}</title>
  <link rel="stylesheet" type="text/css" href="{DOCS}/index.css">
  <link rel="stylesheet" type="text/css" href="{DOCS}/swagger-ui.css">
  <link rel="icon" type="image/png" href="{DOCS}/favicon-32x32.png" sizes="32x32">
</head>
<body>
  <div id="swagger-ui"></div>
  <script src="{DOCS}/swagger-ui-bundle.js"></script>
  <script src="{DOCS}/swagger-ui-standalone-preset.js"></script>
  <script src="{DOCS}/{START_NAME}"></script>
</body>
</html>
"""

blueprint = Blueprint("docs", __name__)


@blueprint.get(DOCS)
@blueprint.get(DOCS + "/")
def page() -> Response:
    """The docs page."""
    return secure(Response(PAGE, mimetype="text/html"), CSP)


@blueprint.get(DOCS + "/<path:name>")
def asset(name: str) -> Response:
    """Swagger UI's files and the script that starts it (404 for anything else)."""
    if name == "index.html":
        return page()
    if name == START_NAME:
        return secure(Response(START, mimetype="text/javascript"), CSP)
    return secure(send_from_directory(DIST, name), CSP)
