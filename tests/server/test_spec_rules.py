"""The rules that keep openapi.yaml readable whole by client generators
(hanabi.server.api.spec_rules): they hold on the generated document, and a schema added
later that breaks one is mended (or refused, when only its author can mend it)."""

from __future__ import annotations

from typing import Any

import pytest
import yaml

from hanabi.server.api.spec import spec_yaml
from hanabi.server.api.spec_rules import SpecRuleError, conform


def _nodes(node: Any) -> list[dict[str, Any]]:
    out = []
    if isinstance(node, dict):
        out.append(node)
        for key, value in node.items():
            if key not in ("example", "examples"):
                out += _nodes(value)
    elif isinstance(node, list):
        for value in node:
            out += _nodes(value)
    return out


def test_the_generated_document_keeps_the_rules() -> None:
    doc = yaml.safe_load(spec_yaml())
    schemas = doc["components"]["schemas"]
    unions = [n for n in _nodes(doc) if "oneOf" in n]
    assert len(unions) >= 4  # the two action bodies, the view's and the room's legal_actions
    for union in unions:
        mapping = union["discriminator"]["mapping"]
        assert union["discriminator"]["propertyName"] == "type"
        assert sorted(mapping.values()) == sorted(m["$ref"] for m in union["oneOf"])
    for name, schema in schemas.items():
        for prop in schema.get("properties", {}).values():
            assert "default" not in prop, name
    view = schemas["GameView"]["properties"]["legal_actions"]["items"]
    assert [m["$ref"].rsplit("/", 1)[1] for m in view["oneOf"]] == [
        "PlayRequest",
        "DiscardRequest",
        "ClueRequest",
    ]
    assert "additionalProperties" not in schemas["GameView"]  # a response may grow
    assert schemas["Join"]["additionalProperties"] is False  # a request refuses the unknown
    assert schemas["ClueRequest"]["additionalProperties"] is False  # both: a request's


def _doc(**schemas: dict[str, Any]) -> dict[str, Any]:
    return {
        "paths": {
            "/x": {
                "post": {
                    "requestBody": {
                        "content": {
                            "application/json": {"schema": {"$ref": "#/components/schemas/In"}}
                        }
                    },
                    "responses": {
                        "200": {
                            "content": {
                                "application/json": {
                                    "schema": {"$ref": "#/components/schemas/Out"}
                                },
                            }
                        },
                        "201": {
                            "content": {
                                "text/event-stream": {
                                    "schema": {"$ref": "#/components/schemas/Out"}
                                }
                            }
                        },
                    },
                }
            }
        },
        "components": {"schemas": schemas},
    }


def _tagged(tag: str) -> dict[str, Any]:
    return {"type": "object", "properties": {"type": {"type": "string", "enum": [tag]}}}


def test_a_new_schema_is_mended() -> None:
    doc = conform(
        _doc(
            In={
                "type": "object",
                "additionalProperties": False,
                "properties": {
                    "watch": {"type": "boolean", "default": False, "description": "Watch."},
                    "level": {"type": "string", "enum": ["a", "b"], "default": "a"},
                    "move": {
                        "oneOf": [
                            {"$ref": "#/components/schemas/A"},
                            {"$ref": "#/components/schemas/B"},
                        ]
                    },
                },
            },
            Out={"type": "object", "additionalProperties": False, "properties": {}},
            A=_tagged("a"),
            B=_tagged("b"),
        )
    )
    props = doc["components"]["schemas"]["In"]["properties"]
    assert props["watch"] == {"type": "boolean", "description": "Watch. Default: false."}
    assert props["level"]["description"] == 'Default: "a".' and "default" not in props["level"]
    assert props["move"]["discriminator"] == {
        "propertyName": "type",
        "mapping": {"a": "#/components/schemas/A", "b": "#/components/schemas/B"},
    }
    assert doc["components"]["schemas"]["In"]["additionalProperties"] is False
    assert "additionalProperties" not in doc["components"]["schemas"]["Out"]
    stream = doc["paths"]["/x"]["post"]["responses"]["201"]["content"]["text/event-stream"]
    assert stream["schema"]["anyOf"] == [{"$ref": "#/components/schemas/Out"}, {"type": "string"}]


@pytest.mark.parametrize(
    ("schemas", "said"),
    [
        (
            {"In": {"properties": {"v": {"type": "string", "enum": ["x"], "default": "y"}}}},
            "not in enum",
        ),
        (
            {
                "In": {
                    "oneOf": [
                        {"$ref": "#/components/schemas/A"},
                        {"$ref": "#/components/schemas/B"},
                    ]
                },
                "A": _tagged("same"),
                "B": _tagged("same"),
            },
            "share `type` 'same'",
        ),
        (
            {
                "In": {
                    "oneOf": [
                        {"$ref": "#/components/schemas/A"},
                        {"$ref": "#/components/schemas/B"},
                    ]
                },
                "A": _tagged("a"),
                "B": {"type": "object", "properties": {}},
            },
            "names no `type` value",
        ),
        ({"In": {"oneOf": [{"type": "string"}, {"type": "integer"}]}}, "component schemas"),
    ],
)
def test_what_only_its_author_can_mend_is_refused(schemas: dict[str, Any], said: str) -> None:
    with pytest.raises(SpecRuleError, match=said.replace("(", r"\(").replace("$", r"\$")):
        conform(_doc(Out={"type": "object"}, **schemas))
