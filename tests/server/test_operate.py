"""Operating the service, in one process (the Flask test client): request ids, the request
log, /ready and the drain, /metrics and its token. Several processes: test_operate_processes."""

from __future__ import annotations

import json
import logging
import re
import socket
import time
from typing import Any

import pytest
from api_helpers import API, assert_problem, bearer, make_table
from flask import Flask
from prometheus_client import REGISTRY

from hanabi.server import create_app
from hanabi.server.ops import metrics
from hanabi.server.ops.drain import Connections
from hanabi.server.ops.logs import JsonFormatter
from hanabi.server.ops.redis_process import free_port

HEX_ID = re.compile(r"[0-9a-f]{32}")


def test_every_response_carries_a_request_id_the_client_s_if_sane(app: Flask) -> None:
    client = app.test_client()
    table = make_table(client, 2, seed="rid")
    made = client.get(f"{API}/health").headers["X-Request-ID"]
    assert HEX_ID.fullmatch(made)
    assert client.get(f"{API}/health").headers["X-Request-ID"] != made  # one per request
    kept = client.get(f"{API}/health", headers={"X-Request-ID": "lb-7f3a:42"})
    assert kept.headers["X-Request-ID"] == "lb-7f3a:42"
    for insane in ("two words", "x" * 129, "é", "a\tb"):
        replaced = client.get(f"{API}/health", headers={"X-Request-ID": insane})
        assert HEX_ID.fullmatch(replaced.headers["X-Request-ID"]), insane
    problem = client.get(f"{API}/games/nope", headers={"X-Request-ID": "p-1"})
    assert_problem(problem, 404, "game_not_found")
    assert problem.headers["X-Request-ID"] == "p-1"
    assert client.get("/no/such/path", headers={"X-Request-ID": "p-2"}).headers["X-Request-ID"] == (
        "p-2"
    )
    etag = table.get(0).headers["ETag"]
    unchanged = table.get(0, headers={"If-None-Match": etag, "X-Request-ID": "p-3"})
    assert unchanged.status_code == 304 and unchanged.headers["X-Request-ID"] == "p-3"
    cors = client.get(f"{API}/health", headers={"Origin": "https://example.org"})
    assert "X-Request-ID" in cors.headers["Access-Control-Expose-Headers"]


def test_a_stream_carries_its_request_id(redis_url: str) -> None:
    app = create_app({"REDIS_URL": redis_url, "HANABI_STREAM_MAX": 0.2, "HANABI_KEEPALIVE": 0.1})
    client = app.test_client()
    table = make_table(client, 2, seed="rid-stream")
    response = client.get(f"{table.url}/stream", headers={"X-Request-ID": "s-1"})
    assert response.status_code == 200 and response.headers["X-Request-ID"] == "s-1"
    assert b"event: view" in response.get_data()


def _lines(caplog: pytest.LogCaptureFixture) -> list[dict[str, Any]]:
    formatter = JsonFormatter()
    return [json.loads(formatter.format(r)) for r in caplog.records if r.name == "hanabi.requests"]


def test_the_request_log_is_one_json_line_per_request_with_id_route_and_game(
    app: Flask, caplog: pytest.LogCaptureFixture
) -> None:
    client = app.test_client()
    table = make_table(client, 2, seed="log")
    view = table.view(0)
    clue = next(a for a in view["legal_actions"] if a["type"] == "clue")
    caplog.set_level(logging.INFO, logger="hanabi.requests")
    acted = client.post(
        f"{table.url}/actions",
        json={"turn": 0, **clue},
        headers={**bearer(table.tokens[0]), "X-Request-ID": "act-1"},
    )
    assert acted.status_code == 201
    client.get(f"{API}/games/nope", headers={"X-Request-ID": "miss-1"})
    lines = _lines(caplog)
    act = next(line for line in lines if line.get("request_id") == "act-1")
    assert act["route"] == "/api/v1/games/{game_id}/actions" and act["game_id"] == table.id
    assert act["method"] == "POST" and act["status"] == 201 and act["level"] == "info"
    assert isinstance(act["duration_ms"], float) and act["duration_ms"] >= 0
    assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z", act["time"])
    miss = next(line for line in lines if line.get("request_id") == "miss-1")
    assert miss["status"] == 404 and miss["route"] == "/api/v1/games/{game_id}"
    text = "\n".join(json.dumps(line) for line in lines)
    assert table.tokens[0] not in text and "Bearer" not in text and '"hands"' not in text


def test_a_log_line_never_quotes_a_query_string_or_an_exception_message() -> None:
    formatter = JsonFormatter()
    record = logging.LogRecord(
        "gunicorn.error", logging.ERROR, __file__, 1, "Error handling request %s",
        ("/api/v1/games/abc/stream?ticket=secret-ticket-1",), None,
    )  # fmt: skip
    line = json.loads(formatter.format(record))
    assert line["message"] == "Error handling request /api/v1/games/abc/stream?…"
    try:
        raise ValueError(" ".join(["a card:", "red", "3"]))  # the stack shows this line
    except ValueError:
        import sys

        record = logging.LogRecord(
            "hanabi.server", logging.ERROR, __file__, 1, "unhandled %s", ("ValueError",),
            sys.exc_info(),
        )  # fmt: skip
    line = json.loads(formatter.format(record))
    assert line["exc_type"] == "ValueError" and "raise ValueError" in line["stack"]
    assert "red 3" not in json.dumps(line)


def test_the_request_log_can_be_turned_off(
    redis_url: str, caplog: pytest.LogCaptureFixture
) -> None:
    app = create_app({"REDIS_URL": redis_url, "HANABI_ACCESS_LOG": "off"})
    caplog.set_level(logging.INFO, logger="hanabi.requests")
    response = app.test_client().get(f"{API}/health")
    assert response.status_code == 200 and response.headers["X-Request-ID"]
    assert _lines(caplog) == []


def test_ready_answers_until_the_process_drains_then_waiters_are_let_go(redis_url: str) -> None:
    app = create_app({"REDIS_URL": redis_url, "HANABI_BOT_WORKER": 0})
    client = app.test_client()
    table = make_table(client, 2, seed="ready")
    ready = client.get(f"{API}/ready")
    assert ready.status_code == 200 and ready.get_json() == {"status": "ok"}
    app.extensions["hanabi_drain"]()
    refused = client.get(f"{API}/ready")
    assert_problem(refused, 503, "draining")
    assert refused.headers["Retry-After"] == "5"
    assert client.get(f"{API}/health").status_code == 200  # still alive: liveness is not readiness
    etag = table.get(1).headers["ETag"]
    started = time.monotonic()
    polled = table.get(1, headers={"If-None-Match": etag}, query_string={"wait": 20})
    assert polled.status_code == 304 and time.monotonic() - started < 1.0
    started = time.monotonic()
    stream = client.get(f"{table.url}/stream").get_data()
    assert time.monotonic() - started < 2.0
    assert stream.startswith(b"retry: ") and b"event: view" in stream
    assert re.search(rb": server draining\nretry: \d{4}\n\n$", stream), stream[-80:]
    assert b"event: end" not in stream  # not the end of the game: the client reconnects
    assert app.extensions["hanabi"].changes.waiting == 0


def test_ready_is_503_when_redis_does_not_answer() -> None:
    app = create_app({"REDIS_URL": f"redis://127.0.0.1:{free_port()}/0", "HANABI_BOT_WORKER": 0})
    assert_problem(app.test_client().get(f"{API}/ready"), 503, "storage_unavailable")


def _sample(name: str, **labels: str) -> float:
    metrics.flush()  # request counts are written once a second, and before a scrape
    return REGISTRY.get_sample_value(name, labels) or 0.0


def test_metrics_count_requests_by_route_template_actions_and_redis_errors(redis_url: str) -> None:
    app = create_app({"REDIS_URL": redis_url, "HANABI_METRICS_TOKEN": "scrape-me-3"})
    client = app.test_client()
    table = make_table(client, 2, seed="metrics")
    route = "/api/v1/games/{game_id}"
    before = _sample("hanabi_requests_total", route=route, method="GET", status="200")
    actions = _sample("hanabi_actions_total", by="person")
    view = table.view(0)
    clue = next(a for a in view["legal_actions"] if a["type"] == "clue")
    assert table.post("/actions", 0, {"turn": 0, **clue}).status_code == 201
    assert table.post("/actions", 0, {"turn": 0, **clue}).status_code == 200  # a retry
    text = client.get("/metrics", headers=bearer("scrape-me-3")).get_data(as_text=True)
    assert _sample("hanabi_requests_total", route=route, method="GET", status="200") == before + 1
    assert _sample("hanabi_actions_total", by="person") == actions + 1
    assert 'hanabi_request_seconds_bucket{le="0.005",route="/api/v1/games/{game_id}"}' in text
    assert table.id not in text  # never a raw path
    assert re.search(r'^hanabi_games\{status="playing"\} \d+', text, re.M)
    assert re.search(r'^hanabi_games\{status="lobby"\} \d+', text, re.M)
    assert re.search(r"^hanabi_bot_due \d+", text, re.M)
    assert "hanabi_waiters" in text

    dead = create_app({"REDIS_URL": f"redis://127.0.0.1:{free_port()}/0", "HANABI_BOT_WORKER": 0})
    errors = _sample("hanabi_redis_errors_total", source="request")
    assert_problem(dead.test_client().get(f"{API}/games/abc"), 503, "storage_unavailable")
    assert _sample("hanabi_redis_errors_total", source="request") == errors + 1


def test_metrics_want_the_token_when_one_is_set(redis_url: str) -> None:
    app = create_app({"REDIS_URL": redis_url, "HANABI_METRICS_TOKEN": "scrape-me-7"})
    client = app.test_client()
    assert_problem(client.get("/metrics"), 401, "auth_required")
    assert_problem(client.get("/metrics", headers=bearer("wrong")), 403, "forbidden")
    found = client.get("/metrics", headers=bearer("scrape-me-7"))
    assert found.status_code == 200 and found.content_type.startswith("text/plain")
    assert "hanabi_requests_total" in found.get_data(as_text=True)


def test_metrics_are_closed_without_a_token(app: Flask) -> None:
    """Not public by default: without HANABI_METRICS_TOKEN no request opens /metrics."""
    client = app.test_client()
    for headers in ({}, bearer("anything"), {"Authorization": "Bearer "}):
        body = assert_problem(client.get("/metrics", headers=headers), 403, "metrics_closed")
        assert "HANABI_METRICS_TOKEN" in body["detail"]
        assert "hanabi_requests_total" not in json.dumps(body)


def test_metrics_can_be_turned_off(redis_url: str) -> None:
    app = create_app({"REDIS_URL": redis_url, "HANABI_METRICS": "off"})
    assert_problem(app.test_client().get("/metrics"), 404, "not_found")


def test_the_drain_closes_idle_connections_but_not_one_a_request_is_arriving_on() -> None:
    """A keep-alive connection with bytes waiting is not idle: its request's headers may
    be in and its body still on the way, and a shut read side would cut that body."""
    listener = socket.create_server(("127.0.0.1", 0))
    clients = [socket.create_connection(listener.getsockname()) for _ in range(2)]
    served = [listener.accept()[0] for _ in clients]
    try:
        clients[0].sendall(b"POST /api/v1/games/x/actions HTTP/1.1\r\n")  # arriving
        time.sleep(0.05)
        connections = Connections()
        connections.open.update(served)
        assert connections.close_idle() == 2  # both still open: gunicorn closes them
        assert connections.closed == {served[1]}
        served[1].settimeout(1)
        assert served[1].recv(100) == b""  # the idle one reads the end of its input
        served[0].settimeout(0.2)
        assert served[0].recv(100).startswith(b"POST")
        clients[0].sendall(b"Content-Length: 2\r\n\r\n{}")  # the rest still arrives
        assert served[0].recv(100).endswith(b"{}")
    finally:
        for sock in clients + served + [listener]:
            sock.close()
