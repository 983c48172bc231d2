"""``GET /metrics``: the counts and gauges of :mod:`hanabi.server.ops.scrape`, for a scraper.

``HANABI_METRICS=off`` counts nothing and serves no ``/metrics``. ``/metrics`` is never
public: it wants ``Authorization: Bearer <HANABI_METRICS_TOKEN>``, and without that setting
it is closed (403 ``metrics_closed``). The counts tell how busy the service is, how many
games are waiting and which routes fail: a scraper's business, not every visitor's. A
token, not a second listening address: every address gunicorn binds reaches the same app,
and behind a reverse proxy on the same host every request comes from 127.0.0.1.
"""

from __future__ import annotations

import hmac

from flask import Flask, Response, request

from ..ops import metrics
from ..ops.config import enabled
from ..ops.scrape import CONTENT_TYPE, ReadGauges, RedisGauges, exposition
from ..table.refusals import Forbidden, Unauthorized


def check_token(expected: str) -> None:
    """403 if no token is configured; 401 without a bearer token, 403 with a wrong one
    (compared in constant time)."""
    if not expected:
        raise Forbidden(
            "metrics_closed",
            "GET /metrics is closed: set HANABI_METRICS_TOKEN on the server and send it as "
            "'Authorization: Bearer <token>'.",
        )
    header = request.headers.get("Authorization", "")
    scheme, _, given = header.strip().partition(" ")
    if scheme.lower() != "bearer" or not given.strip():
        raise Unauthorized("auth_required", "GET /metrics wants 'Authorization: Bearer <token>'.")
    if not hmac.compare_digest(given.strip().encode(), expected.encode()):
        raise Forbidden("forbidden", "This token does not open /metrics.")


def install(app: Flask, read_gauges: ReadGauges) -> bool:
    """Count this app's requests and serve ``GET /metrics``, unless ``HANABI_METRICS`` is off.
    Returns whether metrics are on."""
    if not enabled(app.config["HANABI_METRICS"]):
        return False
    metrics.get()
    redis_gauges = RedisGauges(read_gauges)
    token = app.config["HANABI_METRICS_TOKEN"]

    @app.get("/metrics")
    def serve_metrics() -> Response:
        check_token(token)
        return Response(exposition(redis_gauges), headers={"Content-Type": CONTENT_TYPE})

    return True
