"""A refused body or query string says what to do in plain words ("Use 8 to 256
characters."), not marshmallow's programmer's messages ("Length must be between 8 and
256."), in the problem's ``errors`` and ``detail``; the problem's ``code`` stays the same."""

from __future__ import annotations

import importlib
import inspect
import pkgutil
from typing import Any

import marshmallow
import pytest
from api_helpers import API, Table, assert_problem
from flask.testing import FlaskClient
from marshmallow import fields, validate

from hanabi.server.api import schemas
from hanabi.server.api.schemas import plain as plain_messages

GAMES = f"{API}/games"

UNKNOWN_VARIANT = (
    "There is no variant 'nope': name one by its hanab.live name (such as 'Rainbow (6 "
    "Suits)', any letter case), its hanab.live number, or one of this service's ids (GET "
    "/variants lists them all)."
)
BAD_BODIES = [
    (
        {"name": "ann", "max_players": "five"},
        {"max_players": ["Use a whole number."]},
        "max_players: Use a whole number.",
    ),
    (
        {"name": "ann", "max_players": 9},
        {"max_players": ["Use a whole number from 2 to 6."]},
        "max_players: Use a whole number from 2 to 6.",
    ),
    (
        {"name": "ann", "variant": "nope"},
        {"variant": [UNKNOWN_VARIANT]},
        "variant: There is no variant 'nope': name one by its hanab.live name",
    ),
    (
        {"name": "ann", "colour": "red"},
        {"colour": ["This field is not accepted here."]},
        "colour: This field is not accepted here.",
    ),
    (
        {"name": "ann", "options": {"timer": {"base": 60}}},
        {"options": {"timer": {"per_turn": ["This field is required."]}}},
        "options.timer.per_turn: This field is required.",
    ),
    (
        {"name": "ann", "options": True},
        {"options": {"_schema": ["Use a JSON object."]}},
        "options: Use a JSON object.",
    ),
    (
        {"name": "ann", "options": {"idle_limit": 2}},
        {"options": {"idle_limit": ["Use a whole number from 5 to 31622400."]}},
        "options.idle_limit: Use a whole number from 5 to 31622400.",
    ),
    (
        {"name": "ann", "seed": ""},
        {"seed": ["Use 1 to 64 characters."]},
        "seed: Use 1 to 64 characters.",
    ),
    (
        {"name": "ann", "deck": []},
        {"deck": ["Use 1 to 200 items."]},
        "deck: Use 1 to 200 items.",
    ),
    (
        {"name": None},
        {"name": ["This field cannot be null."]},
        "name: This field cannot be null.",
    ),
    (
        {"name": "ann", "options": {"rated": "yes"}},
        {"options": {"rated": ["Use true or false."]}},
        "options.rated: Use true or false.",
    ),
]


@pytest.mark.parametrize(("body", "errors", "detail"), BAD_BODIES)
def test_a_bad_create_body_is_refused_in_plain_words(
    client: FlaskClient, body: dict[str, Any], errors: dict[str, Any], detail: str
) -> None:
    problem = assert_problem(client.post(GAMES, json=body), 400, "validation_error")
    assert problem["errors"] == errors
    assert problem["detail"].startswith("The request body is not valid: " + detail)


def test_account_bodies_are_refused_in_plain_words(aclient: FlaskClient) -> None:
    short = aclient.post(f"{API}/accounts", json={"username": "plainwords", "password": "short"})
    problem = assert_problem(short, 400, "validation_error")
    assert problem["errors"] == {"password": ["Use 8 to 256 characters."]}
    assert problem["detail"] == "The request body is not valid: password: Use 8 to 256 characters."
    empty = assert_problem(aclient.post(f"{API}/sessions", json={}), 400, "validation_error")
    assert empty["errors"] == {
        "username": ["This field is required."],
        "password": ["This field is required."],
    }


def test_actions_and_bots_are_refused_in_plain_words(client: FlaskClient, table: Table) -> None:
    kind = assert_problem(table.act(0, 0, type="wave"), 400, "validation_error")
    assert kind["errors"] == {"type": ["Use one of: play, discard, clue."]}
    rank = assert_problem(table.act(0, 0, type="clue", target=1, rank=7), 400, "validation_error")
    assert rank["errors"] == {"rank": ["Use one of: 1, 2, 3, 4, 5."]}
    bot = assert_problem(table.post("/bots", 0, {"strategy": "genius"}), 400, "validation_error")
    assert bot["errors"]["strategy"][0].startswith("Use one of: conventions, hat")


def test_a_bad_query_string_is_refused_in_plain_words(client: FlaskClient) -> None:
    problem = assert_problem(client.get(f"{GAMES}?limit=lots&color=red"), 400, "invalid_query")
    assert problem["errors"] == {
        "limit": ["Use a whole number."],
        "color": ["This parameter is not accepted here."],
    }
    wait = assert_problem(client.get(f"{GAMES}?wait=99"), 400, "invalid_query")
    assert wait["errors"] == {"wait": ["Use a number from 0 to 30."]}


# -- once, centrally ------------------------------------------------------------------------


def _service_schemas() -> list[type[marshmallow.Schema]]:
    found = []
    for info in pkgutil.iter_modules(schemas.__path__, schemas.__name__ + "."):
        module = importlib.import_module(info.name)
        for _, cls in inspect.getmembers(module, inspect.isclass):
            if issubclass(cls, marshmallow.Schema) and cls.__module__ == module.__name__:
                found.append(cls)
    return found


def _all_fields(field: fields.Field) -> list[fields.Field]:
    out = [field]
    if isinstance(field, fields.List):
        out += _all_fields(field.inner)
    if isinstance(field, fields.Dict):
        out += [
            f for part in (field.key_field, field.value_field) if part for f in _all_fields(part)
        ]
    return out


MARSHMALLOW_WORDS = ("Not a valid", "Missing data", "Must be", "Length must", "Shorter than",
                     "Longer than", "Field may not", "Invalid ", "Unknown field", "String does")  # fmt: skip


def test_no_schema_of_the_service_keeps_a_marshmallow_message() -> None:
    """Every schema derives from the plain base, so no field (nor a field inside a list or
    mapping), validator or schema-level refusal says it marshmallow's way."""
    found = _service_schemas()
    assert len(found) > 40
    left = []
    for cls in found:
        assert issubclass(cls, plain_messages.Schema), cls
        schema = cls()
        texts = [f"{cls.__name__}: {m}" for m in schema.error_messages.values()]
        for name, top in schema.fields.items():
            for field in _all_fields(top):
                texts += [f"{cls.__name__}.{name}: {m}" for m in field.error_messages.values()]
                for v in field.validators:
                    if isinstance(v, (validate.Length, validate.Range)):
                        assert v.error, f"{cls.__name__}.{name}: {v!r} has no plain message"
                    texts.append(f"{cls.__name__}.{name}: {getattr(v, 'error', '')}")
        left += [t for t in texts if any(w in t for w in MARSHMALLOW_WORDS)]
    assert not left, "\n".join(left)
