"""Strict input: JSON types as JSON means them, the allowed values in the contract, JSON
bodies only (415 otherwise), and gunicorn's own refusals as problem+json."""

from __future__ import annotations

import http.client

import pytest
import yaml
from api_helpers import API, Table, assert_problem, bearer, make_table
from flask.testing import FlaskClient
from process_helpers import _stop, gunicorn

from hanabi.bots import STRATEGIES
from hanabi.game import VARIANTS, catalogue
from hanabi.server.api.spec import spec_yaml
from hanabi.server.ops.redis_process import free_port


@pytest.mark.parametrize(
    "body",
    [
        {"name": "a", "options": {"empty_clues": "yes"}},
        {"name": "a", "options": {"strikeout_keeps_score": 1}},
        {"name": "a", "options": {"empty_clues": "true"}},
        {"name": "a", "max_players": "3"},
        {"name": "a", "max_players": True},
        {"name": 5},
        {"name": "a", "seed": 12},
        {"name": "a", "deck": [{"suit": "", "rank": 1}]},
        {"name": "a", "deck": [{"suit": "red", "rank": "1"}]},
        {"name": "a", "variant": ""},
    ],
)
def test_wrong_types_and_values_are_refused(client: FlaskClient, body: dict) -> None:
    response = client.post(f"{API}/games", json=body)
    assert_problem(response, 400, "validation_error")


def test_strict_types_on_start_and_actions(client: FlaskClient) -> None:
    table = make_table(client, 2, start=False)
    assert_problem(table.post("/start", 0, {"watch": "yes"}), 400, "validation_error")
    table.start()
    for body in (
        {"turn": "0", "type": "discard", "card": 0},
        {"turn": 0, "type": "discard", "card": "0"},
        {"turn": 0, "type": "clue", "target": 1, "color": "chartreuse"},
        {"turn": 0, "type": "clue", "target": 1, "rank": 7},
        {"turn": 0, "type": "play", "card": 0, "firework": "nope"},
    ):
        assert_problem(table.post("/actions", 0, body), 400, "validation_error")


def test_spec_lists_allowed_values_and_a_distinct_title() -> None:
    spec = yaml.safe_load(spec_yaml())
    assert spec["info"]["title"] == "Hanabi Game Service API"
    schemas = spec["components"]["schemas"]
    suits = {s.id for v in VARIANTS.values() for s in v.suits}
    suits |= {s.id + end for s in catalogue.suits() for end in ("", "_reversed")}
    assert set(schemas["DeckCard"]["properties"]["suit"]["enum"]) == suits
    # A variant is any text (a name in any letter case, a number, an id): no enum of
    # thousands, which generators would turn into a type of thousands of members.
    variant = schemas["CreateGame"]["properties"]["variant"]
    assert variant["type"] == "string" and "enum" not in variant
    assert "GET /variants" in variant["description"]
    assert set(schemas["BotSeat"]["properties"]["strategy"]["enum"]) == set(STRATEGIES)
    assert "enum" in schemas["ClueRequest"]["properties"]["color"]
    assert "enum" in schemas["ClueRequest"]["properties"]["rank"]
    assert "enum" in schemas["PlayRequest"]["properties"]["firework"]
    assert schemas["Options"]["properties"]["empty_clues"]["type"] == "boolean"
    create = spec["paths"]["/api/v1/games"]["post"]["responses"]
    assert create["415"]["content"]["application/problem+json"]


@pytest.mark.parametrize(
    "content_type",
    ["text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x", ""],
)
def test_a_body_that_is_not_json_is_415(client: FlaskClient, content_type: str) -> None:
    data = '{"name": "mallory"}'
    headers = {"Content-Type": content_type} if content_type else {}
    response = client.post(f"{API}/games", data=data, headers=headers)
    body = assert_problem(response, 415, "unsupported_media_type")
    assert "application/json" in body["detail"]
    listed = client.get(f"{API}/games?limit=100").get_json()["games"]
    assert not any(g["players"][0]["name"] == "mallory" for g in listed)


def test_json_content_types_and_bodyless_posts_are_fine(client: FlaskClient) -> None:
    response = client.post(
        f"{API}/games", data='{"name": "a"}', content_type="application/json; charset=utf-8"
    )
    assert response.status_code == 201
    table = make_table(client, 2, start=False)
    # /start takes an optional body: no body, no Content-Type
    response = client.post(f"{table.url}/start", headers=bearer(table.tokens[0]))
    assert response.status_code == 200, response.get_json()
    response = client.post(
        f"{table.url}/chat",
        data='{"text": "hi"}',
        headers={**bearer(table.tokens[1]), "Content-Type": "text/plain"},
    )
    assert_problem(response, 415, "unsupported_media_type")
    # an empty body may come with any type (curl -X POST -d '' sends a form type)
    response = client.post(
        f"{table.url}/terminate",
        data="",
        headers={**bearer(table.tokens[1]), "Content-Type": "application/x-www-form-urlencoded"},
    )
    assert response.status_code == 200, response.get_json()
    response = client.post(
        f"{table.url}/terminate",
        data="x",
        headers={**bearer(table.tokens[1]), "Content-Type": "text/plain"},
    )
    assert_problem(response, 415, "unsupported_media_type")


def test_chat_length_is_capped(client: FlaskClient, table: Table) -> None:
    assert table.post("/chat", 0, {"text": "x" * 300}).status_code == 201
    assert_problem(table.post("/chat", 0, {"text": "x" * 301}), 400, "validation_error")


def test_patterns_match_the_whole_value(client: FlaskClient, table: Table) -> None:
    """Python's ``$`` also matches before a final newline; the contract's (ECMA-262) does
    not, and neither does the service: a name or a line ending in a newline is refused."""
    assert_problem(client.post(f"{API}/games", json={"name": "bob\n"}), 400, "validation_error")
    lobby = make_table(client, 2, start=False)
    join = client.post(f"{lobby.url}/players", json={"name": "cat\n"})
    assert_problem(join, 400, "validation_error")
    assert_problem(lobby.post("/bots", 0, {"name": "robo\n"}), 400, "validation_error")
    assert_problem(table.post("/chat", 0, {"text": "hi\n"}), 400, "validation_error")


def test_a_chat_line_is_at_most_300_bytes_not_characters(client: FlaskClient, table: Table) -> None:
    assert table.post("/chat", 0, {"text": "好" * 100}).status_code == 201  # 300 bytes
    refused = assert_problem(table.post("/chat", 0, {"text": "好" * 101}), 400, "validation_error")
    assert "at most 300 bytes" in refused["detail"]
    emoji = "\U0001f3b4" * 75 + "!"  # 76 characters, 301 bytes
    assert_problem(table.post("/chat", 0, {"text": emoji}), 400, "validation_error")
    events = client.get(f"{table.url}/events").get_json()["events"]
    said = [e["text"] for e in events if e["type"] == "chat"]
    assert "好" * 100 in said and "好" * 101 not in said


def _raw_get(port: int, path: str) -> tuple[int, str, bytes]:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    conn.request("GET", path)
    response = conn.getresponse()
    return response.status, response.getheader("Content-Type", ""), response.read()


def test_gunicorn_limits_answer_problem_json(redis_url: str) -> None:
    port = free_port()
    proc = gunicorn(port, {"REDIS_URL": redis_url, "HANABI_BOT_WORKER": "0"})
    try:
        # past gunicorn's default limit (4094) but within ours: the API answers
        status, kind, _ = _raw_get(port, f"{API}/games?cursor=" + "%E2%82%AC" * 600)
        assert (status, kind) == (400, "application/problem+json")
        status, kind, raw = _raw_get(port, f"{API}/games/" + "x" * 9000)
        assert (status, kind) == (414, "application/problem+json")
        assert b'"code":"uri_too_long"' in raw
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        conn.request("GET", f"{API}/games/" + "x" * 9000)
        assert conn.getresponse().getheader("X-Content-Type-Options") == "nosniff"
    finally:
        _stop(proc)
