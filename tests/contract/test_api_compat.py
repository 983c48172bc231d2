"""The contract only grows (docs/api-versioning.md): openapi.yaml keeps every promise of the
last released one (tests/contract/openapi-released.yaml, and the newest api-v* tag's when
the repository has one), the checker catches each kind of breaking change made on purpose,
and the versions agree."""

from __future__ import annotations

import copy
import re
import sys
import tomllib
from collections.abc import Callable
from importlib.metadata import version
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tools"))
from api_compat import RELEASED, breaking_changes, load_baseline, newest_tag, read  # noqa: E402

SPEC = read((ROOT / "openapi.yaml").read_text(encoding="utf-8"))
SEMVER = re.compile(r"^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)$")
Doc = dict[str, Any]


def _schema(doc: Doc, name: str) -> Doc:
    return doc["components"]["schemas"][name]


def test_openapi_yaml_keeps_the_released_contract() -> None:
    _, released = load_baseline(str(RELEASED))
    assert breaking_changes(released, SPEC) == []
    tag = newest_tag()
    if tag is not None:  # a release tag, once the lead made one: its openapi.yaml too
        label, tagged = load_baseline(tag)
        assert breaking_changes(tagged, SPEC) == [], label


def test_a_baseline_is_read_from_git_too() -> None:
    """A tag (here HEAD, which every checkout has) is read as `git show <ref>:openapi.yaml`."""
    label, doc = load_baseline("HEAD")
    assert label == "HEAD:openapi.yaml"
    assert doc["openapi"] == "3.1.0" and "/api/v1/games" in doc["paths"]


def _remove_path(doc: Doc) -> None:
    del doc["paths"]["/api/v1/games/{game_id}/export"]


def _remove_operation(doc: Doc) -> None:
    del doc["paths"]["/api/v1/games"]["get"]


def _remove_response_field(doc: Doc) -> None:
    del _schema(doc, "GameView")["properties"]["score"]


def _response_field_optional(doc: Doc) -> None:
    _schema(doc, "GameView")["required"].remove("turn")


def _remove_enum_value(doc: Doc) -> None:
    _schema(doc, "GameView")["properties"]["status"]["enum"].remove("lobby")


def _new_required_request_field(doc: Doc) -> None:
    _schema(doc, "Join").setdefault("required", []).append("name")


def _narrow_request_type(doc: Doc) -> None:
    _schema(doc, "ClueRequest")["properties"]["target"]["type"] = "string"


def _tighten_request_bound(doc: Doc) -> None:
    _schema(doc, "CreateGame")["properties"]["max_players"]["maximum"] = 4


def _widen_response_type(doc: Doc) -> None:
    _schema(doc, "GameView")["properties"]["turn"]["type"] = ["integer", "null"]


def _remove_union_member(doc: Doc) -> None:
    body = doc["paths"]["/api/v1/games/{game_id}/actions"]["post"]["requestBody"]
    schema = body["content"]["application/json"]["schema"]
    schema["oneOf"].pop()
    del schema["discriminator"]["mapping"]["clue"]


def _new_required_parameter(doc: Doc) -> None:
    doc["paths"]["/api/v1/games"]["get"]["parameters"].append(
        {"in": "query", "name": "shard", "required": True, "schema": {"type": "string"}}
    )


@pytest.mark.parametrize(
    ("mutate", "said"),
    [
        (_remove_path, "path removed"),
        (_remove_operation, "GET /api/v1/games: operation removed"),
        (_remove_response_field, "response field score removed"),
        (_response_field_optional, "response field turn no longer always present"),
        (_remove_enum_value, "enum value(s) removed: ['lobby']"),
        (_new_required_request_field, "new required request field name"),
        (_narrow_request_type, "type narrowed (no longer integer)"),
        (_tighten_request_bound, "maximum tightened to 4"),
        (_widen_response_type, "type widened (now also null)"),
        (_remove_union_member, "union member 'clue' removed"),
        (_new_required_parameter, "new required parameter shard"),
    ],
)
def test_checker_fails_on_a_breaking_change(mutate: Callable[[Doc], None], said: str) -> None:
    broken = copy.deepcopy(SPEC)
    mutate(broken)
    found = breaking_changes(SPEC, broken)
    assert any(said in line for line in found), found


def test_checker_allows_what_only_adds() -> None:
    grown = copy.deepcopy(SPEC)
    grown["paths"]["/api/v1/new-thing"] = copy.deepcopy(grown["paths"]["/api/v1/health"])
    _schema(grown, "GameView")["properties"]["paused_by"] = {"type": "boolean"}
    _schema(grown, "GameView")["required"].append("paused_by")
    _schema(grown, "Join")["properties"]["colour"] = {"type": "string"}
    _schema(grown, "GameView")["properties"]["status"]["enum"].append("paused")
    _schema(grown, "CreateGame")["properties"]["max_players"]["maximum"] = 8
    grown["paths"]["/api/v1/games"]["get"]["parameters"].append(
        {"in": "query", "name": "shard", "schema": {"type": "string"}}
    )
    assert breaking_changes(SPEC, grown) == []


def test_versions_are_semantic_and_the_contract_says_the_servers() -> None:
    versions = {
        part: tomllib.loads((ROOT / part / "pyproject.toml").read_text())["project"]["version"]
        for part in ("shared", "server", "client")
    }
    assert all(SEMVER.match(v) for v in versions.values()), versions
    assert SPEC["info"]["version"] == versions["server"] == version("hanabi-server")
    major = int(versions["server"].split(".")[0])
    assert all(path.startswith(f"/api/v{major}/") for path in SPEC["paths"])
    _, released = load_baseline(str(RELEASED))
    as_numbers = [tuple(map(int, d["info"]["version"].split("."))) for d in (released, SPEC)]
    assert as_numbers[0] <= as_numbers[1], "openapi.yaml's version is older than the release's"
