"""Hostile numbers: every integer a request may carry (a path, a query string, a body, a
list in a body, a header) has a range the contract states, and anything else answers a
4xx problem+json, never a 500: numbers past 64 bits, 1e20, -1, NaN, Infinity, digits of
other scripts ("²", "٣", "১"), 4,301 digits (past Python's int() limit), lists, objects,
wrong types. A table of values against every route that takes a number, then a short
property-based run on the bodies; one app and one set of games for the whole file."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import yaml
from api_helpers import API, Table, assert_problem, bearer, make_table
from flask import Flask
from flask.testing import FlaskClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from marshmallow import fields, validate

from hanabi.server.api.operations import schema
from hanabi.server.api.schemas.plain import Schema
from hanabi.server.api.spec import routes

SPEC_FILE = Path(__file__).resolve().parents[2] / "openapi.yaml"

PROBLEM = "application/problem+json"
HUGE = "1" * 4301  # one digit past what int() reads
#: Numbers and not-numbers as raw JSON text (the standard library writes what orjson
#: would refuse to: integers past 64 bits; NaN and Infinity are not JSON at all).
BODY_VALUES = (
    "-1", "1e20", "-1e20", "18446744073709551616", "1e400", HUGE, "1.5", "NaN", "Infinity",
    '"²"', '"٣"', '"১"', f'"{HUGE}"', '"1"', "true", "null", "[1]", "[[1]]", '{"a": 1}',
)  # fmt: skip
#: The same in a query string or a path segment.
TEXT_VALUES = (
    "-1", "1e20", "18446744073709551616", HUGE, "1.5", "nan", "NaN", "inf", "Infinity",
    "²", "٣", "১", "1_0", " 1", "0x10", "", "[1]", "1,2",
)  # fmt: skip

#: The few of them that are right where they go: hanab.live's variant 1, 1.5 seconds of
#: waiting, a list of one card order.
VALID = {("variant", '"1"'), ("wait", "1.5"), ("highlight", "[1]")}


@pytest.fixture(scope="module")
def world(app: Flask) -> Iterator[dict[str, Any]]:
    """A live table, a finished game and a replay room on it (with a hypothetical), made
    once for the whole file."""
    client = app.test_client()
    live = make_table(client, 2, seed="fuzz-live")
    done = make_table(client, 2, seed="fuzz-done")
    done.end()
    room = client.post(f"{API}/replays", json={"game_id": done.id}, headers=bearer(done.tokens[0]))
    assert room.status_code == 201, room.get_json()
    grant = room.get_json()
    branched = client.post(
        f"{API}/replays/{grant['id']}/hypothetical",
        json={"turn": 0, "reveal_draws": False},
        headers=bearer(grant["token"]),
    )
    assert branched.status_code == 200, branched.get_json()
    yield {"live": live, "done": done, "room": grant["id"], "leader": grant["token"]}


def _refused(response: Any, statuses: tuple[int, ...] = (400,)) -> None:
    text = response.get_data(as_text=True)[:300]
    assert response.status_code in statuses, (response.status_code, text)
    assert response.content_type == PROBLEM, text
    body = json.loads(text if len(text) < 300 else response.get_data(as_text=True))
    assert body["code"] and body["detail"], body


def _raw(client: FlaskClient, method: str, url: str, body: str, token: str | None) -> Any:
    headers = {**bearer(token), "Content-Type": "application/json"}
    return client.open(url, method=method, data=body.encode(), headers=headers)


# -- the four ---------------------------------------------------------------------


def test_the_reported_500s_are_400s(client: FlaskClient, world: dict[str, Any]) -> None:
    for variant in ("²", HUGE):
        refused = assert_problem(
            client.post(f"{API}/games", json={"name": "a", "variant": variant}),
            400,
            "validation_error",
        )
        assert "variant" in refused["errors"]
    offset = client.get(f"{API}/variants?offset=18446744073709551616")
    refused = assert_problem(offset, 400, "invalid_query")
    assert refused["errors"]["offset"] == ["Use a whole number from 0 to 100000."]
    room, leader = world["room"], world["leader"]
    highlight = _raw(
        client, "PUT", f"{API}/replays/{room}/position", '{"turn": 0, "highlight": [1e20]}', leader
    )
    refused = assert_problem(highlight, 400, "validation_error")
    assert refused["errors"] == {"highlight": {"0": ["Use a whole number from 0 to 199."]}}
    said = {
        lang: client.get(
            f"{API}/variants?offset=18446744073709551616", headers={"Accept-Language": lang}
        ).get_json()["detail"]
        for lang in ("en", "ru", "zh")
    }
    assert len(set(said.values())) == 3 and all("100000" in d for d in said.values())


# -- the contract bounds every number -----------------------------------------------------


def _numbers(s: Schema, path: str = "") -> Iterator[tuple[str, fields.Field]]:
    for name, f in s.fields.items():
        while isinstance(f, fields.List):
            f, name = f.inner, name + "[]"
        if isinstance(f, fields.Nested):
            yield from _numbers(f.schema, f"{path}{name}.")
        elif isinstance(f, fields.Number):
            yield path + name, f


def test_every_number_a_request_carries_has_both_ends() -> None:
    unbounded = []
    for path, params, ops in routes():
        for name, param in params.items():
            if param["type"] == "integer" and "maximum" not in param:
                unbounded.append(f"{path} {name}")
        for method, op in ops.items():
            bodies = op.body if isinstance(op.body, tuple) else (op.body,) if op.body else ()
            for cls in (*bodies, *((op.query,) if op.query else ())):
                for name, f in _numbers(schema(cls)):
                    kinds = {type(v) for v in f.validators}
                    ranges = [v for v in f.validators if isinstance(v, validate.Range)]
                    ends = any(r.min is not None and r.max is not None for r in ranges)
                    if not (ends or validate.OneOf in kinds):
                        unbounded.append(f"{method} {path} {cls.__name__}.{name}")
    assert unbounded == []


def _resolve(doc: dict[str, Any], node: Any) -> Any:
    while isinstance(node, dict) and "$ref" in node:
        node = doc["components"]["schemas"][node["$ref"].rsplit("/", 1)[1]]
    return node


def _integers(doc: dict[str, Any], node: Any, where: str, seen: set[str]) -> Iterator[str]:
    """Every integer or number the JSON Schema ``node`` admits without both bounds."""
    if isinstance(node, dict) and "$ref" in node:
        if node["$ref"] in seen:
            return
        seen = seen | {node["$ref"]}
    node = _resolve(doc, node)
    if not isinstance(node, dict):
        return
    number = node.get("type") in ("integer", "number") and "enum" not in node
    if number and ("minimum" not in node or "maximum" not in node):
        yield where
    for key in ("oneOf", "anyOf", "allOf"):
        for i, each in enumerate(node.get(key, ())):
            yield from _integers(doc, each, f"{where}/{key}{i}", seen)
    for name, prop in node.get("properties", {}).items():
        yield from _integers(doc, prop, f"{where}.{name}", seen)
    if "items" in node:
        yield from _integers(doc, node["items"], f"{where}[]", seen)


def test_openapi_states_the_range_of_every_number_a_request_carries() -> None:
    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)  # libyaml: 20 times faster
    doc = yaml.load(SPEC_FILE.read_text(), Loader=loader)  # generated: test_contract.py
    open_ends = []
    for path, item in doc["paths"].items():
        for method, op in item.items():
            if not isinstance(op, dict):
                continue
            for param in [*item.get("parameters", ()), *op.get("parameters", ())]:
                param = (
                    doc["components"]
                    .get("parameters", {})
                    .get(str(param.get("$ref", "")).rsplit("/", 1)[-1], param)
                )
                where = f"{method} {path} {param.get('name')}"
                open_ends += _integers(doc, param.get("schema", {}), where, set())
            for media in op.get("requestBody", {}).get("content", {}).values():
                open_ends += _integers(doc, media["schema"], f"{method} {path} body", set())
    assert open_ends == []


# -- a table of hostile values against every route that takes a number ---------------------


def _query_targets(w: dict[str, Any]) -> list[tuple[str, str, str | None]]:
    """(URL with {} where the value goes, parameter, token)."""
    live, done = w["live"], w["done"]
    return [
        (f"{API}/variants?suits={{}}", "suits", None),
        (f"{API}/variants?limit={{}}", "limit", None),
        (f"{API}/variants?offset={{}}", "offset", None),
        (f"{API}/games?limit={{}}", "limit", None),
        (f"{API}/games?wait={{}}", "wait", None),
        (f"{live.url}?wait={{}}", "wait", live.tokens[0]),
        (f"{live.url}/events?after={{}}", "after", None),
        (f"{live.url}/events?limit={{}}", "limit", None),
        (f"{done.url}/stream?after={{}}", "after", None),
        (f"{done.url}/replay?turn={{}}", "turn", None),
        (f"{API}/players/nobody/games?limit={{}}", "limit", None),
        (f"{API}/seeds/p2v0s1?limit={{}}", "limit", None),
        (f"{API}/seeds/p2v0s1?cursor={{}}", "cursor", None),
        (f"{API}/leaderboards?limit={{}}", "limit", None),
        (f"{API}/leaderboards?players={{}}", "players", None),
        (f"{API}/leaderboards?cursor={{}}", "cursor", None),
    ]


def test_hostile_query_numbers(client: FlaskClient, world: dict[str, Any]) -> None:
    for url, name, token in _query_targets(world):
        for value in TEXT_VALUES:
            if (name, value) in VALID:
                continue
            response = client.get(url.format(_quote(value)), headers=bearer(token))
            # 401 only where the page needs an account (a seed's, which no one here has)
            _refused(response, (400, 401) if "/seeds/" in url else (400,))
    for url in (f"{API}/accounts/me/turns?limit=", f"{API}/accounts/me/webhook/deliveries?limit="):
        for value in TEXT_VALUES:
            _refused(client.get(url + _quote(value)), (400, 401))


def test_hostile_headers_and_path_numbers(client: FlaskClient, world: dict[str, Any]) -> None:
    live = world["live"]
    for value in ("²", "٣", "1" * 13, "-1", "1e20", "x"):
        stream = client.get(f"{world['done'].url}/stream", headers={"Last-Event-ID": value})
        _refused(stream)
    for value in TEXT_VALUES:
        if not value.strip():
            continue
        seat = f"{live.url}/players/{_quote(value)}"
        _refused(client.delete(seat, headers=bearer(live.tokens[0])), (404, 405))
        _refused(client.patch(seat, json={"plays": None}), (404, 405))
        note = client.put(
            f"{live.url}/notes/{_quote(value)}", json={"text": "x"}, headers=bearer(live.tokens[0])
        )
        _refused(note, (404, 405))
        _refused(client.get(f"{API}/variants/{_quote(value)}"), (404,))
    for name in ("p99v0s1", "p2v²s1", f"p2v{HUGE}s1", "p2v0s18446744073709551616", "p2v0s-1"):
        _refused(client.get(f"{API}/seeds/{_quote(name)}"), (400, 401, 404))


def _quote(text: str) -> str:
    from urllib.parse import quote

    return quote(text, safe="")


def _body_targets(w: dict[str, Any]) -> list[tuple[str, str, dict[str, Any], str, str | None]]:
    """(method, URL, a valid body, the field to spoil (a.b for nested), token)."""
    live: Table = w["live"]
    room, leader = f"{API}/replays/{w['room']}", w["leader"]
    play = {"turn": 0, "type": "play", "card": 0}
    clue = {"turn": 0, "type": "clue", "target": 1, "rank": 1}
    create = {"name": "fuzz", "options": {"timer": {"base": 60, "per_turn": 5}}}
    out = [("POST", f"{API}/games", create, f, None) for f in ("variant", "max_players")]
    out += [
        ("POST", f"{API}/games", create, f"options.{f}", None)
        for f in ("idle_limit", "move_clock", "timer.base", "timer.per_turn")
    ]
    out.append(
        ("POST", f"{API}/games", {"name": "fuzz", "deck": [{"suit": "red"}]}, "deck.0.rank", None)
    )
    out.append(("POST", f"{API}/games", {"name": "fuzz"}, "deck", None))
    for url, token in (
        (f"{live.url}/actions", live.tokens[0]),
        (f"{room}/hypothetical/actions", leader),
    ):
        out += [("POST", url, play, f, token) for f in ("turn", "card")]
        out += [("POST", url, clue, f, token) for f in ("target", "rank")]
    out += [("PUT", f"{room}/position", {"turn": 0}, f, leader) for f in ("turn", "highlight")]
    out.append(("PUT", f"{room}/position", {"turn": 0, "highlight": [0]}, "highlight.0", leader))
    out.append(("POST", f"{room}/hypothetical", {"reveal_draws": True}, "turn", leader))
    return out


def _spoiled(body: dict[str, Any], field: str, raw: str) -> str:
    """``body`` as JSON text with ``field`` (dotted; a number is a list index) set to the
    raw JSON ``raw``."""
    marker = "__fuzz__"
    data = json.loads(json.dumps(body))
    *parents, last = field.split(".")
    node: Any = data
    for part in parents:
        node = node[int(part)] if isinstance(node, list) else node.setdefault(part, {})
    if isinstance(node, list):
        node[int(last)] = marker
    else:
        node[last] = marker
    return json.dumps(data).replace(f'"{marker}"', raw)


def test_hostile_body_numbers(client: FlaskClient, world: dict[str, Any]) -> None:
    for method, url, body, field, token in _body_targets(world):
        for raw in BODY_VALUES:
            if (field, raw) in VALID:
                continue
            response = _raw(client, method, url, _spoiled(body, field, raw), token)
            _refused(response)


# -- and a short property-based run on the bodies -------------------------------------------

_json = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=True, allow_infinity=True)
    | st.text(max_size=20),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner, max_size=3)
    ),
    max_leaves=6,
)


def test_any_json_in_a_number_is_answered(client: FlaskClient, world: dict[str, Any]) -> None:
    """Whatever JSON stands where a body takes a number: a 2xx, or a 4xx problem+json.
    (Not on POST /games, where a valid value would open a table each time, nor on a new
    branch: the table of values covers them.)"""
    targets = [t for t in _body_targets(world) if t[1].endswith(("/actions", "/position"))]

    @given(target=st.sampled_from(targets), value=_json | st.integers(min_value=2**60))
    @settings(
        max_examples=60,
        deadline=None,
        suppress_health_check=list(HealthCheck),
        derandomize=True,
        database=None,
    )
    def run(target: tuple[str, str, dict[str, Any], str, str | None], value: Any) -> None:
        method, url, body, field, token = target
        response = _raw(client, method, url, _spoiled(body, field, json.dumps(value)), token)
        assert response.status_code < 500, response.get_data(as_text=True)[:300]
        if response.status_code >= 400:
            assert response.content_type == PROBLEM

    run()
