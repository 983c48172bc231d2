"""Every error is application/problem+json with a stable code; CORS; Redis down is 503."""

from __future__ import annotations

import logging
import time

import pytest
import redis
from api_helpers import API, Table, assert_problem, bearer, make_table
from flask.testing import FlaskClient

from hanabi.server import create_app
from hanabi.server.ops.redis_process import RedisClusterProcess, RedisProcess, free_port


def test_unknown_routes_are_404_problems(client: FlaskClient) -> None:
    for path in ("/nope", "/web/nope.js", f"{API}", f"{API}/nope", f"{API}/games/x/y/z"):
        assert_problem(client.get(path), 404, "not_found")
    assert_problem(client.get(f"{API}/games/nosuchgame"), 404, "game_not_found")
    assert_problem(client.get(f"{API}/games/nosuchgame/events"), 404, "game_not_found")


def test_wrong_method_is_405_with_allow(client: FlaskClient, table: Table) -> None:
    response = client.put(f"{API}/games")
    assert_problem(response, 405, "method_not_allowed")
    assert set(response.headers["Allow"].split(", ")) >= {"GET", "POST"}
    response = client.delete(f"{API}/health")
    assert_problem(response, 405, "method_not_allowed")
    assert "GET" in response.headers["Allow"]
    response = client.get(f"{table.url}/actions")
    assert_problem(response, 405, "method_not_allowed")
    assert "POST" in response.headers["Allow"]


def test_malformed_and_oversized_bodies(client: FlaskClient, table: Table) -> None:
    for data in ("{", "not json", "", "[1, 2]", "null"):
        response = client.post(
            f"{API}/games", data=data, headers={"Content-Type": "application/json"}
        )
        assert response.status_code == 400
        assert response.content_type == "application/problem+json"
        assert response.get_json(force=True)["code"] in ("malformed_json", "validation_error")
    big = '{"name": "' + "x" * 70_000 + '"}'
    response = client.post(f"{API}/games", data=big, content_type="application/json")
    assert_problem(response, 413, "body_too_large")
    response = client.post(
        f"{table.url}/chat",
        data=big,
        content_type="application/json",
        headers=bearer(table.tokens[0]),
    )
    assert_problem(response, 413, "body_too_large")


def test_a_body_cut_short_is_a_503_to_send_again(client: FlaskClient, table: Table) -> None:
    """A body that ends before its Content-Length (the connection was cut, e.g. by a
    server that shuts down) did nothing, and says so in a way clients retry."""
    view = table.view(0)
    sent = b'{"turn": %d, "type": "discard", "card": 0}' % view["turn"]
    response = client.post(
        f"{table.url}/actions",
        data=sent[:12],
        headers={"Content-Type": "application/json", **bearer(table.tokens[0])},
        environ_overrides={"CONTENT_LENGTH": str(len(sent)), "wsgi.input_terminated": True},
    )
    body = assert_problem(response, 503, "body_cut")
    assert response.headers["Retry-After"] == "1" and "send it again" in body["detail"]
    assert table.view(0)["turn"] == view["turn"]  # nothing was done


def test_cors_exposes_etag_and_location(client: FlaskClient, table: Table) -> None:
    response = client.get(table.url, headers={"Origin": "https://ui.example"})
    assert response.headers["Access-Control-Allow-Origin"] in ("*", "https://ui.example")
    exposed = {
        h.strip().lower() for h in response.headers["Access-Control-Expose-Headers"].split(",")
    }
    assert {"etag", "location"} <= exposed
    preflight = client.options(
        f"{API}/games",
        headers={
            "Origin": "https://ui.example",
            "Access-Control-Request-Method": "POST",
            "Access-Control-Request-Headers": "Authorization, Content-Type",
        },
    )
    assert preflight.status_code == 200
    assert "authorization" in preflight.headers["Access-Control-Allow-Headers"].lower()


def test_cors_origins_are_configurable(redis_url: str) -> None:
    app = create_app({"REDIS_URL": redis_url, "HANABI_CORS_ORIGINS": "https://good.example"})
    client = app.test_client()
    good = client.get(f"{API}/health", headers={"Origin": "https://good.example"})
    assert good.headers["Access-Control-Allow-Origin"] == "https://good.example"
    bad = client.get(f"{API}/health", headers={"Origin": "https://evil.example"})
    assert "Access-Control-Allow-Origin" not in bad.headers


def test_redis_down_is_503(redis_url: str) -> None:
    app = create_app({"REDIS_URL": f"redis://127.0.0.1:{free_port()}/0"})
    client = app.test_client()
    assert_problem(client.get(f"{API}/health"), 503, "storage_unavailable")
    response = client.post(f"{API}/games", json={"name": "a"})
    assert_problem(response, 503, "storage_unavailable")
    assert response.headers["Retry-After"]
    assert_problem(client.get(f"{API}/games/abc"), 503, "storage_unavailable")
    # things that need no storage still answer
    assert client.get(f"{API}/variants").status_code == 200


def test_a_full_redis_refuses_writes_with_503() -> None:
    """Under ``noeviction`` a Redis at its maxmemory refuses every write (OOM): the move
    is not made, and the API says so with 503, as docs/deploy.md promises; reads go on."""
    proc = RedisProcess(extra_args=["--maxmemory-policy", "noeviction"]).start()
    app = create_app({"REDIS_URL": proc.url, "HANABI_BOT_WORKER": 0, "HANABI_SETTLE_SWEEP": 0})
    admin = redis.Redis.from_url(proc.url)
    try:
        client = app.test_client()
        table = make_table(client)
        before = table.view(0)
        admin.config_set("maxmemory", 1)
        clue = next(a for a in before["legal_actions"] if a["type"] == "clue")
        response = table.post("/actions", 0, {"turn": 0, **clue})
        assert_problem(response, 503, "storage_unavailable")
        assert response.headers["Retry-After"]
        assert_problem(client.post(f"{API}/games", json={"name": "b"}), 503, "storage_unavailable")
        assert table.view(0)["turn"] == 0  # nothing half-applied, and reads still answer
        admin.config_set("maxmemory", 0)
        assert table.post("/actions", 0, {"turn": 0, **clue}).status_code == 201
    finally:
        admin.close()
        proc.stop()


def test_a_redis_cluster_gone_away_is_503(caplog: pytest.LogCaptureFixture) -> None:
    """With no node of the cluster left, redis-py raises RedisClusterException, which is
    not a RedisError: it too is 503, and the background threads only warn and go on."""
    cluster = RedisClusterProcess().start()
    app = create_app({"REDIS_URL": cluster.url, "HANABI_SETTLE_SWEEP": 0.1})
    try:
        client = app.test_client()
        created = client.post(f"{API}/games", json={"name": "a"})
        assert created.status_code == 201
        game = created.get_json()["id"]
        assert client.get(f"{API}/health").status_code == 200
        caplog.set_level(logging.WARNING, logger="hanabi")
        cluster.stop()
        assert_problem(client.get(f"{API}/health"), 503, "storage_unavailable")
        assert_problem(client.get(f"{API}/ready"), 503, "storage_unavailable")
        response = client.get(f"{API}/games/{game}")
        assert_problem(response, 503, "storage_unavailable")
        assert response.headers["Retry-After"]
        assert_problem(client.post(f"{API}/games", json={"name": "b"}), 503, "storage_unavailable")
        deadline = time.monotonic() + 10
        while "settle sweep: Redis unavailable" not in caplog.text:
            assert time.monotonic() < deadline, caplog.text
            time.sleep(0.05)
        assert [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR] == []
    finally:
        app.extensions["hanabi_sweeper"].stop.set()
        app.extensions["hanabi_bots"].stop()
        cluster.stop()
