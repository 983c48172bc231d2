"""The web page's hand-written api.js against openapi.yaml: every request the page sends to
/api/v1 in the web tests (recorded by Playwright, :class:`web_support.Browsing`) is a
documented operation, with documented query parameters and a body the operation's schema
accepts. The page keeps no build step; this keeps it on the contract."""

from __future__ import annotations

import functools
import json
import re
from pathlib import Path
from typing import Any
from urllib.parse import parse_qsl, urlsplit

import yaml
from jsonschema import Draft202012Validator

SPEC = Path(__file__).resolve().parents[2] / "openapi.yaml"
PREFIX = "/api/v1"
#: Served under the prefix but not operations: the interactive docs page and its assets.
NOT_OPERATIONS = re.compile(r"^/api/v1/docs(/|$)|^/api/v1/swaggerui/")


@functools.cache
def _doc() -> dict[str, Any]:
    return yaml.load(
        SPEC.read_text(encoding="utf-8"), Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    )


@functools.cache
def _routes() -> list[tuple[re.Pattern[str], str]]:
    """(a documented path as a regex, the path) for every path of the contract."""
    out = []
    for path in _doc()["paths"]:
        regex = re.sub(r"\\\{[^}]+\\\}", "[^/]+", re.escape(path))
        out.append((re.compile(f"^{regex}$"), path))
    return out


def _deref(node: dict[str, Any]) -> dict[str, Any]:
    while "$ref" in node:
        target: Any = _doc()
        for part in node["$ref"][2:].split("/"):
            target = target[part]
        node = target
    return node


def check(method: str, url: str, body: str | None) -> str | None:
    """What is wrong with this request by the contract; None if nothing."""
    path = urlsplit(url).path
    if not path.startswith(PREFIX + "/") or NOT_OPERATIONS.match(path):
        return None
    said = f"{method} {path}"
    matches = [p for regex, p in _routes() if regex.match(path)]
    if not matches:
        return f"{said}: no such path in openapi.yaml"
    # A literal segment wins over a parameter (/games/{id} vs /accounts/me).
    item = _doc()["paths"][min(matches, key=lambda p: p.count("{"))]
    operation = item.get(method.lower())
    if operation is None:
        return f"{said}: no {method} operation there"
    parameters = [
        _deref(p) for p in [*item.get("parameters", []), *operation.get("parameters", [])]
    ]
    known = {p["name"] for p in parameters if p.get("in") == "query"}
    for name, _ in parse_qsl(urlsplit(url).query, keep_blank_values=True):
        if name not in known:
            return f"{said}: query parameter {name!r} is not documented"
    request_body = operation.get("requestBody")
    if not body:
        if request_body and request_body.get("required"):
            return f"{said}: no body, and the operation requires one"
        return None
    if request_body is None:
        return f"{said}: a body the operation does not take"
    schema = request_body["content"]["application/json"]["schema"]
    errors = list(_validator(json.dumps(schema)).iter_errors(json.loads(body)))
    if errors:
        return f"{said}: body {body} is refused by the contract: {errors[0].message}"
    return None


@functools.cache
def _validator(schema: str) -> Draft202012Validator:
    return Draft202012Validator({**json.loads(schema), "components": _doc()["components"]})
