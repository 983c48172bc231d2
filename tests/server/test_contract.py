"""The contract: openapi.yaml is valid OpenAPI 3.1, is what the code generates, names every
route the app has (and no other), and the app keeps to it under schemathesis."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import schemathesis
import yaml
from api_helpers import API, make_table
from flask import Flask
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from openapi_spec_validator import validate
from schemathesis.generation.modes import GenerationMode
from schemathesis.specs.openapi.checks import positive_data_acceptance

from hanabi.server import create_app
from hanabi.server.api.spec import spec_yaml
from hanabi.server.table.refusals import Refused
from hanabi.server.table.seats import check_name
from hanabi.server.table.variants import canonical_id

ROOT = Path(__file__).resolve().parents[2]
SPEC_FILE = ROOT / "openapi.yaml"
NOT_API = {API, f"{API}/docs"}  # the Swagger UI page, and flask-restx's 404-only root


def test_openapi_yaml_is_valid_openapi_31() -> None:
    doc = yaml.safe_load(SPEC_FILE.read_text())
    assert doc["openapi"] == "3.1.0"
    validate(doc)


def test_committed_openapi_yaml_is_generated() -> None:
    assert SPEC_FILE.read_text() == spec_yaml(), "openapi.yaml is stale: run `make openapi`"


def test_served_openapi_yaml_is_the_committed_one(app: Flask) -> None:
    response = app.test_client().get(f"{API}/openapi.yaml")
    assert response.status_code == 200
    assert response.get_data(as_text=True) == SPEC_FILE.read_text()
    assert app.test_client().get(f"{API}/docs").status_code == 200


def test_app_routes_and_openapi_paths_match_both_ways(app: Flask) -> None:
    doc = yaml.safe_load(SPEC_FILE.read_text())
    documented = {
        (path, method.upper())
        for path, item in doc["paths"].items()
        for method in item
        if method in ("get", "post", "put", "patch", "delete")
    }
    served = set()
    for rule in app.url_map.iter_rules():
        if (
            not rule.rule.startswith(API)
            or rule.rule in NOT_API
            or rule.endpoint.startswith("docs.")  # the Swagger UI page and its assets
            or rule.endpoint.endswith("static")
        ):
            continue
        path = re.sub(r"<(?:\w+:)?(\w+)>", r"{\1}", rule.rule)
        served |= {(path, m) for m in rule.methods - {"HEAD", "OPTIONS"}}
    assert served - documented == set(), "routes missing from openapi.yaml"
    assert documented - served == set(), "openapi.yaml names routes the app lacks"


# -- schemathesis: a short property-based run against the WSGI app ------------------------


@pytest.fixture(scope="module")
def api_schema(redis_url: str) -> schemathesis.schemas.BaseSchema:
    # Streams of live games close after a moment, so a generated request ends.
    app = create_app({"REDIS_URL": redis_url, "HANABI_STREAM_MAX": 0.3, "HANABI_KEEPALIVE": 0.1})
    table = make_table(app.test_client(), 3, seed="schemathesis")
    finished = make_table(app.test_client(), 2, seed="schemathesis-done")
    finished.end()
    loaded = schemathesis.openapi.from_wsgi(f"{API}/openapi.yaml", app)
    loaded.game_ids = (table.id, finished.id)  # type: ignore[attr-defined]
    loaded.tokens = (table.tokens[0], table.tokens[1])  # type: ignore[attr-defined]
    return loaded


def _name_beyond_schema(name: object) -> bool:
    """A name the schema allows but the service refuses by a rule JSON Schema cannot say:
    too long once NFKC-normalised, or a format character outside the BMP."""
    if not isinstance(name, str):
        return False
    try:
        check_name(name)
    except Refused:
        return True
    return False


def _variant_beyond_schema(variant: object) -> bool:
    """A variant the schema allows (any text: a name in any letter case, a number or an
    id, thousands of them, so no enum) that names none (400 with unknown variant)."""
    if not isinstance(variant, str):
        return False
    try:
        canonical_id(variant)
    except KeyError:
        return True
    return False


def test_api_keeps_its_contract(
    api_schema: schemathesis.schemas.BaseSchema, request: pytest.FixtureRequest
) -> None:
    """Every operation, eight generated requests each (valid and invalid ones; 30 with
    ``pytest -m slow``): no 5xx, no response off the spec, invalid requests refused.

    Some cases are aimed at real games (one live, one finished), some with a real seat's
    token, not only at unknown ids with made-up tokens.
    """
    # make test's short form: the same cases, fewer of them (derandomized: the first ones)
    examples = 30 if "slow" in (request.config.getoption("markexpr") or "") else 8
    live, done = api_schema.game_ids  # type: ignore[attr-defined]
    tokens = api_schema.tokens  # type: ignore[attr-defined]
    failures = []
    for result in api_schema.get_all_operations():
        operation = result.ok()

        cases = st.one_of(
            st.tuples(st.just(True), operation.as_strategy(GenerationMode.POSITIVE)),
            st.tuples(st.just(False), operation.as_strategy(GenerationMode.NEGATIVE)),
        )

        @given(
            case=cases,
            aim=st.sampled_from([None, live, done]),
            token=st.sampled_from([None, *tokens]),
        )
        @settings(
            max_examples=examples,
            deadline=None,
            suppress_health_check=list(HealthCheck),
            derandomize=True,
            database=None,
        )
        def run(case: tuple[bool, schemathesis.Case], aim: str | None, token: str | None) -> None:
            valid, case = case
            # Only valid cases are re-aimed: an invalid one must stay invalid as generated.
            if valid and aim and case.path_parameters and "game_id" in case.path_parameters:
                case.path_parameters["game_id"] = aim
                if token is not None:  # a real seat's token, so requests get past auth
                    case.headers = {**(case.headers or {}), "Authorization": f"Bearer {token}"}
            excluded = []
            if isinstance(case.body, dict) and "deck" in case.body:
                # Whether a deck is exactly the variant's cards is beyond JSON Schema: a
                # schema-valid but wrong deck is rightly a 400 invalid_deck.
                excluded.append(positive_data_acceptance)
            if isinstance(case.body, dict) and _name_beyond_schema(case.body.get("name")):
                excluded.append(positive_data_acceptance)
            if isinstance(case.body, dict) and _variant_beyond_schema(case.body.get("variant")):
                excluded.append(positive_data_acceptance)
            if "shadow" in (case.query or {}) or (
                isinstance(case.body, dict) and "shadow" in case.body
            ):
                # A seat the table does not have, or a table whose spectators see the
                # public board only, is beyond the schema: 400 shadow_seat, 403.
                excluded.append(positive_data_acceptance)
            case.call_and_validate(excluded_checks=excluded)

        try:
            run()
        except Exception as exc:  # collect all operations' failures, then report
            failures.append(f"{operation.label}: {exc}")
    assert not failures, "\n\n".join(failures)
