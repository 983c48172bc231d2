"""Rated tables in hanab.live's variants: accepted where hanabot's score was measured
(``table/rated_variants.json``, written by ``bench/bots_variants.py --write``), refused
elsewhere with ``variant_not_rated``; the rating model lists hanabot's expected score in
every variant it rates."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from account_helpers import session
from api_helpers import API, Table, assert_problem, assert_valid, bearer
from flask.testing import FlaskClient

from hanabi.game import get_variant
from hanabi.server.api.schemas import accounts as a
from hanabi.server.table import rated, rated_variants, ratings
from hanabi.server.table.refusals import Invalid

DATA = json.loads(rated_variants.DATA.read_text(encoding="utf-8"))


def create(client: FlaskClient, variant: str) -> Any:
    _, token = session(client)
    body = {"variant": variant, "options": {"rated": True}}
    return client.post(f"{API}/games", json=body, headers=bearer(token)), token


@pytest.mark.parametrize(
    "variant", ["no_variant", "rainbow", "black_powder", "Pink (6 Suits)", "Up or Down (5 Suits)"]
)
def test_a_rated_table_in_a_measured_variant_is_accepted(
    aclient: FlaskClient, variant: str
) -> None:
    response, token = create(aclient, variant)
    assert response.status_code == 201, response.get_json()
    table = Table(aclient, response.get_json()["id"], [token])
    assert table.get(0).get_json()["options"]["rated"] is True


@pytest.mark.parametrize("variant", ["Pink (5 Suits)", "Up or Down & Null (6 Suits)"])
def test_a_rated_table_in_an_unmeasured_variant_is_refused(
    aclient: FlaskClient, variant: str
) -> None:
    body = assert_problem(create(aclient, variant)[0], 400, "variant_not_rated")
    assert variant in body["detail"] and "rating-model" in body["detail"]


def test_a_rated_table_in_a_55_card_variant_is_refused(aclient: FlaskClient) -> None:
    body = assert_problem(create(aclient, "single_sixth")[0], 400, "variant_not_rated")
    assert "single_sixth" in body["detail"] and "55-card" in body["detail"]


@pytest.mark.parametrize(
    "variant", ["Pink (6 Suits)", "Up or Down (5 Suits)", "Throw It in a Hole (5 Suits)", 0]
)
def test_the_measured_hanablive_variants_are_rated(variant: str | int) -> None:
    """The check create makes (by hanab.live name or number, as create accepts them)."""
    rated.check_variant(get_variant(variant), variant)  # no refusal
    assert ratings.is_rated_variant(get_variant(variant))


@pytest.mark.parametrize(
    ("variant", "says"),
    [
        ("Pink (5 Suits)", "played unrated"),  # a measured family, not this variant
        ("Up or Down & Null (6 Suits)", "played unrated"),
        ("Black (6 Suits)", "55-card"),  # measured, but never rated
    ],
)
def test_an_unmeasured_variant_is_refused(variant: str, says: str) -> None:
    with pytest.raises(Invalid) as refused:
        rated.check_variant(get_variant(variant), variant)
    assert refused.value.code == "variant_not_rated"
    assert variant in refused.value.detail and says in refused.value.detail
    assert not ratings.is_rated_variant(get_variant(variant))


def test_the_rating_model_lists_the_expected_scores(aclient: FlaskClient) -> None:
    body = aclient.get(f"{API}/rating-model").get_json()
    assert_valid(a.RatingModelSchema, body)
    assert body["measured"] == DATA["measured"]
    assert body["measured"]["players"] == 3 and body["measured"]["seeds"] >= 400
    house = DATA["measured"]["house_bot"]
    variants = body["variants"]
    for row in DATA["variants"]:
        variant = get_variant(row["variant"])
        listed = variants[variant.id]
        assert listed["max_score"] == variant.max_score
        if row["rated"]:
            assert listed["rated"] is True
            assert listed["expected_score"] == row["bots"][house]["mean"]
            assert 0 < listed["expected_score"] <= variant.max_score
            assert listed["hanabot"][-1] == ratings.HIGH
        else:
            assert listed == {
                "rated": False,
                "hanabot": [],
                "max_score": variant.max_score,
                "expected_score": None,
            }
    # every variant the model rates has an expected score, and only those
    for listed in variants.values():
        assert listed["rated"] == (listed["expected_score"] is not None)
    # this service's own ids stay listed; an alias rates like its hanab.live name
    assert variants["no_variant"]["expected_score"] == variants["No Variant"]["expected_score"]
    assert variants["single_sixth"]["rated"] is False


def test_the_rated_list_covers_the_measured_families() -> None:
    families = {row["family"] for row in DATA["variants"] if row["rated"]}
    for family in (
        "no variant", "6 suits", "rainbow", "pink", "white", "brown", "null", "muddy",
        "prism", "up or down", "throw it in a hole", "critical fours",
    ):  # fmt: skip
        assert family in families
    rated = {v.id for v in rated_variants.rated_variants()}
    assert "Pink (5 Suits)" not in rated and "Black (6 Suits)" not in rated


def test_the_documented_expected_scores_are_the_data() -> None:
    """docs/ratings.md lists every rated variant with hanabot's expected score: the data's."""
    doc = (Path(__file__).parents[2] / "docs" / "ratings.md").read_text(encoding="utf-8")
    listed = {
        cells[0].strip("`"): float(cells[3])
        for line in doc.splitlines()
        if line.startswith("| `")
        and len(cells := [c.strip() for c in line.strip("|").split("|")]) == 5
    }
    house = DATA["measured"]["house_bot"]
    assert listed == {
        row["variant"]: row["bots"][house]["mean"] for row in DATA["variants"] if row["rated"]
    }
