"""Rules that keep the OpenAPI document readable whole by client generators
(openapi-python-client, openapi-typescript, ...), applied to every schema by construction:
a schema added later follows them without its author knowing them (docs/clients/).

:func:`conform` rewrites what apispec made where the meaning stays the same, and refuses
(:class:`SpecRuleError`, so ``make openapi`` and the tests fail) what only the schema's
author can settle:

- A ``oneOf`` of objects is a union discriminated by ``type``: each member states its own
  ``type`` value(s); the rule adds ``discriminator`` with its ``mapping``. Two members
  sharing a ``type`` value are refused (a generator cannot tell them apart).
- A property's ``default`` inside a component schema goes into its description: generators
  read a default there as "always present" (openapi-typescript makes the field required,
  so a request must send what the server would assume). Parameters keep theirs.
- A ``default`` outside its own ``enum`` is refused (openapi-python-client drops the whole
  schema and every operation using it).
- A response that is not JSON (``text/event-stream``) is text to a generator: an object
  schema alone makes generated code parse the whole stream as one JSON object. Its schema
  is the message's object or a string (``anyOf``): generators take the text, and tools
  that read a stream's schema message by message (schemathesis) still check each one.
- ``additionalProperties: false`` stays only on the schemas of requests (the server refuses
  unknown fields there). A response's object may gain fields (docs/api-versioning.md):
  clients must not be told that it never will.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

from .schemas.basics import OneOfNested

#: The property that tells a union's members apart.
DISCRIMINATOR = "type"
REF_PREFIX = "#/components/schemas/"


class SpecRuleError(ValueError):
    """The document breaks a rule only the schema's author can mend (see the module)."""


def one_of_nested(self: Any, field: Any, ret: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
    """apispec attribute function: a :class:`OneOfNested` field is a ``oneOf`` of its
    schemas' components (:func:`conform` makes it a discriminated union)."""
    if isinstance(field, OneOfNested):
        return {"oneOf": [self.resolve_nested_schema(s) for s in field.schemas]}
    return {}


def conform(doc: dict[str, Any]) -> dict[str, Any]:
    """``doc`` made to keep the rules (in place, and returned); raises SpecRuleError."""
    schemas = doc.get("components", {}).get("schemas", {})
    for where, node in _walk(doc, "#"):
        if "oneOf" in node:
            _discriminate(where, node, schemas)
    for name, schema in schemas.items():
        _defaults_in_words(f"{REF_PREFIX}{name}", schema)
    for where, node in _walk(doc, "#"):
        if "default" in node and "enum" in node and node["default"] not in node["enum"]:
            raise SpecRuleError(f"{where}: default {node['default']!r} is not in its enum")
    for item in doc.get("paths", {}).values():
        for op in item.values():
            if isinstance(op, dict):
                for response in op.get("responses", {}).values():
                    _text_bodies(response)
    requested = _reachable(
        schemas,
        [
            op["requestBody"]
            for item in doc.get("paths", {}).values()
            for op in item.values()
            if isinstance(op, dict) and "requestBody" in op
        ],
    )
    for name, schema in schemas.items():
        if name not in requested and schema.get("additionalProperties") is False:
            del schema["additionalProperties"]
    return doc


def _walk(node: Any, where: str) -> Iterator[tuple[str, dict[str, Any]]]:
    """Every mapping in ``node`` (depth first), with its JSON pointer."""
    if isinstance(node, dict):
        yield where, node
        for key, value in node.items():
            if key not in ("example", "examples"):  # data, not schemas
                yield from _walk(value, f"{where}/{key}")
    elif isinstance(node, list):
        for i, value in enumerate(node):
            yield from _walk(value, f"{where}/{i}")


def _discriminate(where: str, node: dict[str, Any], schemas: dict[str, Any]) -> None:
    members = node["oneOf"]
    if not all(isinstance(m, dict) and set(m) == {"$ref"} for m in members):
        raise SpecRuleError(f"{where}: a oneOf lists component schemas ($ref) only")
    mapping: dict[str, str] = {}
    for member in members:
        ref = member["$ref"]
        tag = schemas.get(ref.removeprefix(REF_PREFIX), {}).get("properties", {})
        values = tag.get(DISCRIMINATOR, {}).get("enum") or (
            [tag[DISCRIMINATOR]["const"]] if "const" in tag.get(DISCRIMINATOR, {}) else []
        )
        if not values:
            raise SpecRuleError(f"{where}: {ref} names no `{DISCRIMINATOR}` value of its own")
        for value in values:
            if value in mapping:
                raise SpecRuleError(
                    f"{where}: {ref} and {mapping[value]} share `{DISCRIMINATOR}` {value!r}"
                )
            mapping[value] = ref
    node["discriminator"] = {"propertyName": DISCRIMINATOR, "mapping": mapping}


def _defaults_in_words(where: str, schema: dict[str, Any]) -> None:
    for name, prop in schema.get("properties", {}).items():
        if not isinstance(prop, dict):
            continue
        if "default" in prop:
            default = prop.pop("default")
            if "enum" in prop and default not in prop["enum"]:
                raise SpecRuleError(f"{where}/properties/{name}: default {default!r} not in enum")
            said = f"Default: {json.dumps(default, ensure_ascii=False)}."
            prop["description"] = f"{prop['description']} {said}" if "description" in prop else said
        _defaults_in_words(f"{where}/properties/{name}", prop)
    if isinstance(schema.get("items"), dict):
        _defaults_in_words(f"{where}/items", schema["items"])


def _text_bodies(response: dict[str, Any]) -> None:
    for media, content in response.get("content", {}).items():
        schema = content.get("schema", {})
        if media.endswith("json") or schema.get("type") == "string" or "$ref" not in schema:
            continue
        name = schema["$ref"].removeprefix(REF_PREFIX)
        content["schema"] = {
            "anyOf": [schema, {"type": "string"}],
            "description": f"The stream's text; each message's fields as {name} says.",
        }


def _reachable(schemas: dict[str, Any], roots: list[Any]) -> set[str]:
    """The names of the component schemas ``roots`` refer to, directly or through others."""
    seen: set[str] = set()
    todo = list(roots)
    while todo:
        for _, node in _walk(todo.pop(), "#"):
            ref = node.get("$ref")
            if isinstance(ref, str) and ref.startswith(REF_PREFIX):
                name = ref.removeprefix(REF_PREFIX)
                if name not in seen and name in schemas:
                    seen.add(name)
                    todo.append(schemas[name])
    return seen
