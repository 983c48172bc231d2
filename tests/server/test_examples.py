"""Every example in openapi.yaml is valid against its schema (JSON Schema with the OpenAPI
3.1 dialect, $refs resolved in the document), every JSON request body has one (or Swagger
UI makes one up, which the server refused for POST /games), and the server accepts each
request-body example as it is, sent in order with the credentials it needs."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
import yaml
from account_helpers import FAST
from api_helpers import API, bearer
from flask import Flask
from flask.testing import FlaskClient
from openapi_schema_validator import OAS31Validator
from referencing import Registry
from referencing.jsonschema import DRAFT202012

from hanabi.game import VARIANTS
from hanabi.server import create_app
from hanabi.server.api.spec import spec_yaml
from hanabi.server.ops.redis_process import RedisProcess

DOC_URI = "urn:hanabi:openapi"
#: Keys whose values map names to objects (so a key there named "example" is a name).
NAME_MAPS = {"properties", "patternProperties", "$defs", "schemas", "paths", "responses",
             "content", "headers", "securitySchemes", "examples"}  # fmt: skip


def document() -> dict[str, Any]:
    return yaml.safe_load(spec_yaml())


def _escape(key: str) -> str:
    return key.replace("~", "~0").replace("/", "~1")


def find_examples(doc: dict[str, Any]) -> list[tuple[str, Any, str]]:
    """(where, example, JSON pointer of its schema) for every example in the document:
    ``example``/``examples`` of a media type, parameter or header (against its
    ``schema``), and of any schema (against that schema; ``examples`` is a list there)."""
    found: list[tuple[str, Any, str]] = []

    def walk(node: Any, pointer: str, names: bool = False) -> None:
        if isinstance(node, list):
            for i, item in enumerate(node):
                walk(item, f"{pointer}/{i}")
            return
        if not isinstance(node, dict):
            return
        if names:  # a map of names: its values are the objects
            for key, value in node.items():
                walk(value, f"{pointer}/{_escape(key)}")
            return
        if "schema" in node:  # a media type, parameter or header object
            schema = f"{pointer}/schema"
            if "example" in node:
                found.append((f"{pointer}/example", node["example"], schema))
            for name, example in node.get("examples", {}).items():
                assert "$ref" not in example, "examples by $ref: resolve them here too"
                found.append((f"{pointer}/examples/{name}", example["value"], schema))
        elif pointer.startswith("/components/schemas/") or "/schema" in pointer:
            if "example" in node:
                found.append((f"{pointer}/example", node["example"], pointer))
            for i, example in enumerate(node.get("examples", [])):
                found.append((f"{pointer}/examples/{i}", example, pointer))
        for key, value in node.items():
            if key in ("example", "examples"):
                continue
            walk(value, f"{pointer}/{_escape(key)}", names=key in NAME_MAPS)

    walk(doc, "")
    return found


def schema_errors(doc: dict[str, Any], value: Any, pointer: str) -> list[str]:
    registry = Registry().with_resource(DOC_URI, DRAFT202012.create_resource(doc))
    validator = OAS31Validator(
        {"$ref": f"{DOC_URI}#{pointer}"},
        registry=registry,
        format_checker=OAS31Validator.FORMAT_CHECKER,
    )
    return [
        f"{'/'.join(map(str, e.absolute_path))}: {e.message}" for e in validator.iter_errors(value)
    ]


def json_bodies(doc: dict[str, Any]) -> Iterator[tuple[str, str, str, dict[str, Any]]]:
    """(operation id, method, path, media type object) of every JSON request body."""
    for path, item in doc["paths"].items():
        for method, op in item.items():
            body = op.get("requestBody", {}) if isinstance(op, dict) else {}
            media = body.get("content", {}).get("application/json")
            if media is not None:
                yield op["operationId"], method, path, media


def test_the_walk_finds_examples_wherever_openapi_puts_them() -> None:
    """The walk itself, on a small document: a schema's, a property's, a parameter's, a
    header's and a media type's examples, and a property named "example" is no example."""
    doc = {
        "components": {
            "schemas": {
                "A": {
                    "type": "object",
                    "properties": {"example": {"type": "integer", "examples": [1]}},
                    "examples": [{"example": 2}],
                }
            }
        },
        "paths": {
            "/x/{id}": {
                "get": {
                    "parameters": [{"name": "id", "schema": {"type": "string"}, "example": "a"}],
                    "requestBody": {
                        "content": {
                            "application/json": {
                                "schema": {"$ref": "#/components/schemas/A"},
                                "examples": {"one": {"value": {"example": "no"}}},
                            }
                        }
                    },
                    "responses": {
                        "200": {
                            "description": "",
                            "headers": {"H": {"schema": {"type": "integer"}, "example": 3}},
                        }
                    },
                }
            }
        },
    }
    found = {where: (value, schema) for where, value, schema in find_examples(doc)}
    assert found == {
        "/components/schemas/A/properties/example/examples/0": (1, "/components/schemas/A/properties/example"),
        "/components/schemas/A/examples/0": ({"example": 2}, "/components/schemas/A"),
        "/paths/~1x~1{id}/get/parameters/0/example": ("a", "/paths/~1x~1{id}/get/parameters/0/schema"),
        "/paths/~1x~1{id}/get/requestBody/content/application~1json/examples/one": (
            {"example": "no"}, "/paths/~1x~1{id}/get/requestBody/content/application~1json/schema"),
        "/paths/~1x~1{id}/get/responses/200/headers/H/example": (3, "/paths/~1x~1{id}/get/responses/200/headers/H/schema"),
    }  # fmt: skip
    assert schema_errors(doc, {"example": 2}, "/components/schemas/A") == []
    assert schema_errors(doc, {"example": "no"}, "/components/schemas/A")  # not an integer


def test_every_json_request_body_has_an_example() -> None:
    """Without one, Swagger UI's "Try it out" makes a body up from the schema (for POST
    /games: a seed and a one-card deck, a 1-second timer), which the server refuses."""
    missing = [op for op, _, _, media in json_bodies(document()) if not media.get("examples")]
    assert not missing, missing


def test_every_example_in_openapi_yaml_is_valid_against_its_schema() -> None:
    doc = document()
    found = find_examples(doc)
    assert len(found) >= 20  # the request bodies' and the problem's
    invalid = {
        where: errors
        for where, value, schema in found
        if (errors := schema_errors(doc, value, schema))
    }
    assert not invalid, invalid


def test_an_invalid_example_would_be_caught() -> None:
    """The check has teeth: Swagger UI's own body for POST /games fails it."""
    doc = document()
    made_up = {
        "name": "yyzy", "variant": "no_variant", "max_players": 5,
        "options": {"idle_limit": 5, "timer": {"base": 1, "per_turn": 300}},
        "seed": "string", "deck": [{"suit": "black", "rank": 1}], "colour": "red",
    }  # fmt: skip
    assert schema_errors(doc, made_up, "/components/schemas/CreateGame")  # colour: unknown
    # ... also where the walk finds the request body's schema (a path with braces in it)
    where = next(
        schema
        for at, _, schema in find_examples(doc)
        if at.startswith("/paths/~1api~1v1~1games/post/")
    )
    assert where.endswith("/requestBody/content/application~1json/schema")
    assert schema_errors(doc, made_up, where) and not schema_errors(doc, {"name": "ann"}, where)
    join = next(schema for at, _, schema in find_examples(doc) if "~1players/post/" in at)
    assert "{game_id}" in join and schema_errors(doc, {"name": 5}, join)


# -- each request-body example, sent to the server --------------------------------------


@pytest.fixture(scope="module")
def examples_app() -> Iterator[Flask]:
    """A server on a Redis of its own: the account examples register "alice"."""
    with RedisProcess() as redis:
        app = create_app({"REDIS_URL": redis.url, **FAST, "HANABI_BOT_WORKER": 0})
        app.testing = True
        yield app


class Sender:
    """Sends examples, keeping what they answered (ids, tokens) for those that follow."""

    def __init__(self, client: FlaskClient, doc: dict[str, Any]) -> None:
        self.client = client
        self.bodies = {op: (method, path, media) for op, method, path, media in json_bodies(doc)}
        self.doc = doc
        self.sent: set[tuple[str, str]] = set()

    def example(self, op: str, name: str) -> Any:
        return self.bodies[op][2]["examples"][name]["value"]

    def send(
        self, op: str, name: str, token: str | None = None, fill: Any = None, **params: Any
    ) -> Any:
        """``fill``: the fields of the example that name what only the run knows (an id)."""
        method, path, _ = self.bodies[op]
        url = path.format(**params)
        body = {**self.example(op, name), **(fill or {})}
        response = self.client.open(url, method=method.upper(), json=body, headers=bearer(token))
        documented = self.doc["paths"][path][method]["responses"]
        assert str(response.status_code) in documented, (op, name, response.get_json())
        assert 200 <= response.status_code < 300, (op, name, response.get_json())
        self.sent.add((op, name))
        return response.get_json(silent=True)


def _deck(placed: dict[int, tuple[str, int]]) -> list[dict[str, Any]]:
    """No Variant's 50 cards with the given cards at the given deck positions (orders)."""
    variant = VARIANTS["no_variant"]
    cards = [variant.card(c) for c, copies in enumerate(variant.copies) for _ in range(copies)]
    for card in placed.values():
        cards.remove(card)
    for position in sorted(placed):
        cards.insert(position, placed[position])
    return [{"suit": suit, "rank": rank} for suit, rank in cards]


def test_every_request_body_example_is_accepted_by_the_server(examples_app: Flask) -> None:
    client = examples_app.test_client()
    doc = document()
    out = Sender(client, doc)
    # Tables: each create example opens one; people and programs join the first.
    tables = {
        name: out.send("createGame", name) for name in out.bodies["createGame"][2]["examples"]
    }
    guest, timed, seeded = tables["guest"], tables["timed"], tables["seeded"]
    out.send("createPass", "watch", game_id=tables["locked"]["id"])
    for name in ("person", "program"):  # the guest's table seats 3
        out.send("joinGame", name, game_id=guest["id"])
    for name in ("bot", "person"):
        out.send("declareStrategy", name, guest["token"], game_id=guest["id"], seat=0)
    out.send("addBot", "default", timed["token"], game_id=timed["id"])  # the timed one seats 2
    out.send("addBot", "named", seeded["token"], game_id=seeded["id"])
    # The actions' examples are one game of two from the deal: seat 1 holds a red card
    # (deck orders 5 to 9), seat 0 a 1 when turn 3 comes (orders 1 to 4 stay in its hand).
    deck = _deck({6: ("red", 2), 1: ("yellow", 1)})
    game = client.post(f"{API}/games", json={"name": "ann", "max_players": 2, "deck": deck})
    game_id, tokens = game.get_json()["id"], [game.get_json()["token"]]
    joined = client.post(f"{API}/games/{game_id}/players", json={"name": "ben"})
    tokens.append(joined.get_json()["token"])
    out.send("startGame", "play", tokens[0], game_id=game_id)
    acts = sorted(out.bodies["act"][2]["examples"], key=lambda n: out.example("act", n)["turn"])
    for name in acts:
        body = out.example("act", name)
        out.send("act", name, tokens[body["turn"] % 2], game_id=game_id)
    out.send("createStreamTicket", "shadow", game_id=game_id)  # a spectator's
    out.send("chat", "line", tokens[1], game_id=game_id)
    out.send("writeNote", "note", tokens[0], game_id=game_id, card_order=1)
    out.send("votePause", "pause", tokens[0], game_id=game_id)
    out.send("votePause", "go_on", tokens[0], game_id=game_id)
    out.send("vote", "end", tokens[0], game_id=game_id)
    out.send("vote", "take_back", tokens[0], game_id=game_id)
    # A shared replay of that game, once it is over.
    for token in tokens:
        client.post(f"{API}/games/{game_id}/votes", json={"end": True}, headers=bearer(token))
    room = out.send("createReplayRoom", "share", tokens[0], fill={"game_id": game_id})
    lead, room_id = room["token"], room["id"]
    follower = out.send("joinReplayRoom", "follower", room_id=room_id)
    out.send("setReplayPosition", "turn", lead, room_id=room_id)
    out.send("branchReplay", "hidden", lead, room_id=room_id)
    out.send("moveInHypothetical", "rank_clue", lead, room_id=room_id)
    out.send(
        "passReplayLead", "follower", lead, fill={"follower": follower["member"]}, room_id=room_id
    )
    # The next game with the same seats.
    out.send("openRematch", "same", tokens[0], game_id=game_id)
    out.send("answerRematch", "join", tokens[1], game_id=game_id)
    # One account's life.
    out.send("register", "person")
    session = out.send("login", "person")["token"]
    out.send("createApiKey", "bot", session)
    out.send("sayInLobbyChat", "mention", session)
    out.send("reportLobbyChatLine", "line", session)
    out.send("sayInRoomChat", "line", session, room_id=room_id)
    out.send("reportRoomChatLine", "line", session, room_id=room_id)
    out.send("setWebhook", "hook", session)
    out.send("importGame", "hanablive", session)
    out.send("changePassword", "change", session)
    out.send("deleteMe", "delete", session)
    every = {(op, name) for op, (_, _, media) in out.bodies.items() for name in media["examples"]}
    assert out.sent == every, every - out.sent
