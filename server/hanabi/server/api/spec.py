"""The OpenAPI 3.1 document, generated from the resources'
:class:`~hanabi.server.api.operations.Operation` metadata and the marshmallow schemas.
``make openapi`` writes it to ``openapi.yaml``; the tests fail when the committed file
differs from what this module generates.

    python -m hanabi.server.api.spec [PATH]     # write (default: print)
    python -m hanabi.server.api.spec --check PATH
"""

from __future__ import annotations

import functools
import re
import sys
from importlib.metadata import version
from typing import Any

import yaml
from apispec import APISpec
from apispec.ext.marshmallow import MarshmallowPlugin

from .examples import media_examples, problem_example
from .namespaces import NAMESPACES
from .operations import PREFIX, Operation
from .problems import HTTP_CODES
from .schemas.actions import CLUE_REQUEST_EXTRA, ClueRequestSchema
from .schemas.basics import CARD_MAX, SEAT_MAX
from .schemas.system import ProblemSchema
from .spec_rules import conform, one_of_nested

DESCRIPTION = """\
A Hanabi game service. Create or join a table (each seat gets a bearer token, shown once),
start it, then act with `POST /games/{game_id}/actions` and follow the game with
`GET /games/{game_id}` (ETag, If-None-Match, `?wait=` long-polls) or the event log.
Every error is `application/problem+json` (RFC 9457) with a stable `code`; a move the rules
refuse is 409 with the engine's code (`not_your_turn`, `no_clue_tokens`, ...). No response
ever shows a seat its own cards while the game is on.
"""

#: Not just "Hanabi": client generators name their package after it, and hanabi-client is
#: ours.
TITLE = "Hanabi Game Service API"

_CONVERTER = re.compile(r"<(?:(\w+):)?(\w+)>")
PARAM_SCHEMAS = {
    "string": {"type": "string", "minLength": 1, "maxLength": 64},
    "int": {"type": "integer", "minimum": 0, "maximum": 9999},  # http.PathNumber's 4 digits
}
#: Path parameters with a shape of their own, by name.
NAMED_PARAM_SCHEMAS = {
    "seat": {"type": "integer", "minimum": 0, "maximum": SEAT_MAX},
    "card_order": {"type": "integer", "minimum": 0, "maximum": CARD_MAX},
    "seed_name": {"type": "string", "pattern": "^p[2-6]v(0|[1-9][0-9]{0,5})s[1-9][0-9]{0,8}$"},
}
METHODS = ("get", "post", "put", "patch", "delete")
#: Request headers whose values have a shape of their own.
HEADER_SCHEMAS = {"Last-Event-ID": {"type": "string", "pattern": "^[0-9]{1,12}$"}}


def routes() -> list[tuple[str, dict[str, Any], dict[str, Operation]]]:
    """(OpenAPI path, path parameter schemas, method -> operation) for every resource."""
    out = []
    for namespace in NAMESPACES:
        for route in namespace.resources:
            for url in route.urls:
                rule = re.sub("/+", "/", PREFIX + namespace.path + url)
                params = {
                    name: NAMED_PARAM_SCHEMAS.get(name) or PARAM_SCHEMAS[kind or "string"]
                    for kind, name in _CONVERTER.findall(rule)
                }
                path = _CONVERTER.sub(r"{\2}", rule)
                ops = {
                    m: getattr(route.resource, m).operation
                    for m in METHODS
                    if hasattr(route.resource, m)
                }
                out.append((path, params, ops))
    return out


#: The reader's language: every problem's ``title`` and ``detail`` speak it (docs/i18n.md).
ACCEPT_LANGUAGE = {
    "in": "header",
    "name": "Accept-Language",
    "required": False,
    "description": "The language of the problems' title and detail (and of the strategies' "
    "descriptions): English (en, the default), Simplified Chinese (zh, zh-CN, zh-SG, "
    "zh-Hans) or Russian (ru); the first range by quality that is spoken here wins.",
    "schema": {"type": "string", "examples": ["ru-RU,ru;q=0.9,en;q=0.8"]},
}
#: What every problem response says of its language.
LANGUAGE_HEADERS = {
    "Content-Language": {
        "description": "The language of title and detail: en, zh-Hans or ru.",
        "schema": {"type": "string", "enum": ["en", "zh-Hans", "ru"]},
    },
    "Vary": {
        "description": "Names Accept-Language: the answer depends on it.",
        "schema": {"type": "string"},
    },
}
#: apispec reads a name (a string) as a reference to the component of that name.
LANGUAGE_REFS = {name: name for name in LANGUAGE_HEADERS}
ACCEPT_LANGUAGE_REF = "Accept-Language"


def _problem(status: int) -> dict[str, Any]:
    response: dict[str, Any] = {
        "description": HTTP_CODES.get(status, ("", "Error"))[1],
        "headers": dict(LANGUAGE_REFS),
        "content": {"application/problem+json": {"schema": ProblemSchema}},
    }
    if status == 401:
        response["headers"]["WWW-Authenticate"] = {"schema": {"type": "string"}}
    if status == 503:
        response["headers"]["Retry-After"] = {"schema": {"type": "string"}}
    return response


def _operation(op: Operation, tag: str, method: str) -> dict[str, Any]:
    out: dict[str, Any] = {"operationId": op.id, "summary": op.summary, "tags": [tag]}
    if op.description:
        out["description"] = op.description
    parameters: list[dict[str, Any] | str] = [ACCEPT_LANGUAGE_REF]
    if op.query is not None:
        parameters.append({"in": "query", "schema": op.query})
    for name, text in op.request_headers.items():
        header_schema = HEADER_SCHEMAS.get(name, {"type": "string"})
        parameters.append(
            {"in": "header", "name": name, "description": text, "schema": header_schema}
        )
    out["parameters"] = parameters
    if op.body is not None:
        body = {"oneOf": list(op.body)} if isinstance(op.body, tuple) else op.body
        media: dict[str, Any] = {"schema": body}
        if examples := media_examples(op.id):
            media["examples"] = examples  # else Swagger UI makes one up (see examples.py)
        out["requestBody"] = {"required": op.body_required, "content": {"application/json": media}}
    if op.auth == "required":
        out["security"] = [{"bearer": []}]
    elif op.auth == "optional":
        out["security"] = [{"bearer": []}, {}]
    responses: dict[str, Any] = {}
    for status, (schema, description) in sorted(op.responses.items()):
        response: dict[str, Any] = {"description": description}
        if schema is not None:
            response["content"] = {op.media.get(status, "application/json"): {"schema": schema}}
        if status in op.headers:
            response["headers"] = {
                name: {"description": text, "schema": {"type": "string"}, "required": True}
                for name, text in op.headers[status].items()
            }
        responses[str(status)] = response
    # Any body that is not JSON is refused (415) before the operation runs.
    always = {503, 415} if method in ("post", "put", "patch") else {503}
    for status in sorted({*op.errors, *always}):
        responses[str(status)] = _problem(status)
    responses["default"] = {
        "description": "Any other error",
        "headers": dict(LANGUAGE_REFS),
        "content": {"application/problem+json": {"schema": ProblemSchema}},
    }
    out["responses"] = responses
    return out


#: The contract's version is the server distribution's (semantic versioning; a major
#: version is a path prefix, /api/v1: docs/api-versioning.md).
API_VERSION = version("hanabi-server")


def build_spec() -> dict[str, Any]:
    marshmallow = MarshmallowPlugin()
    spec = APISpec(
        title=TITLE,
        version=API_VERSION,
        openapi_version="3.1.0",
        plugins=[marshmallow],
        info={"description": " ".join(DESCRIPTION.split())},
        servers=[{"url": "/"}],
    )
    marshmallow.converter.add_attribute_function(one_of_nested)
    spec.components.security_scheme(
        "bearer", {"type": "http", "scheme": "bearer", "description": "A seat's token"}
    )
    spec.components.schema("Problem", {"examples": [problem_example()]}, schema=ProblemSchema)
    spec.components.schema("ClueRequest", dict(CLUE_REQUEST_EXTRA), schema=ClueRequestSchema)
    spec.components.parameter("Accept-Language", "header", dict(ACCEPT_LANGUAGE))
    for name, header in LANGUAGE_HEADERS.items():
        spec.components.header(name, header)
    for path, params, ops in routes():
        tag = "system" if path.count("/") <= 3 and "games" not in path else "games"
        spec.path(
            path=path,
            parameters=[
                {"name": name, "in": "path", "required": True, "schema": schema}
                for name, schema in params.items()
            ],
            operations={method: _operation(op, tag, method) for method, op in ops.items()},
        )
    spec.path(
        path=PREFIX + "/openapi.yaml",
        operations={
            "get": {
                "operationId": "getOpenApi",
                "summary": "This document",
                "tags": ["system"],
                "responses": {
                    "200": {
                        "description": "OpenAPI 3.1, YAML",
                        "content": {"application/yaml": {"schema": {"type": "string"}}},
                    },
                    "default": {
                        "description": "Any error",
                        "content": {"application/problem+json": {"schema": ProblemSchema}},
                    },
                },
            }
        },
    )
    return conform(spec.to_dict())  # generator-friendly by construction (spec_rules.py)


@functools.cache
def spec_yaml() -> str:
    return yaml.safe_dump(build_spec(), sort_keys=False, allow_unicode=True, width=100)


def main(argv: list[str]) -> int:
    check = "--check" in argv
    paths = [a for a in argv if not a.startswith("--")]
    text = spec_yaml()
    if check:
        with open(paths[0], encoding="utf-8") as fh:
            if fh.read() != text:
                print(f"{paths[0]} is out of date: run `make openapi`", file=sys.stderr)
                return 1
        return 0
    if paths:
        with open(paths[0], "w", encoding="utf-8") as fh:
            fh.write(text)
    else:
        sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
