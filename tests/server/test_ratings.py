"""The rating arithmetic against hand-worked cases (docs/ratings.md)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from hanabi.game import VARIANTS, get_variant
from hanabi.server.table import ratings


def test_thresholds_follow_the_maximum() -> None:
    assert ratings.threshold(25) == 18  # the rules' figure
    assert ratings.threshold(30) == 21  # the rules' figure
    assert ratings.threshold(35) == 24  # black_powder, on the same scale


def test_hanabot_table_for_25() -> None:
    table = [ratings.hanabot(25, s) for s in range(26)]
    # 400 points over 7 steps from 18: 1400 + 57.142857 per point, rounded.
    assert table == [1000] * 18 + [1400, 1457, 1514, 1571, 1629, 1686, 1743, 1800]


def test_hanabot_table_for_30() -> None:
    table = [ratings.hanabot(30, s) for s in range(31)]
    # 400 points over 9 steps from 21: 44.44 per point.
    tail = [1400, 1444, 1489, 1533, 1578, 1622, 1667, 1711, 1756, 1800]
    assert table == [1000] * 21 + tail
    assert ratings.hanabot(35, 23) == 1000 and ratings.hanabot(35, 24) == 1400
    assert ratings.hanabot(35, 35) == 1800


@pytest.mark.parametrize("max_score", [25, 30, 35])
def test_tables_never_decrease(max_score: int) -> None:
    table = [ratings.hanabot(max_score, s) for s in range(max_score + 1)]
    assert table == sorted(table)


def test_a_low_score_loses() -> None:
    # 1500 vs 1000: E = 1 / (1 + 10^(-500/400)) = 1 / 1.0562341 = 0.9467597
    # change = 20 * (0.5 - 0.9467597) = -8.935194
    assert ratings.change(1500, 25, 10) == pytest.approx(-8.935194, abs=1e-5)
    # a strikeout counts as 0: the same
    assert ratings.change(1500, 25, 0) == pytest.approx(-8.935194, abs=1e-5)


def test_a_perfect_score_from_1500() -> None:
    # 1500, perfect 25 meets 1800: E = 1 / (1 + 10^0.75) = 1 / 6.6234133 = 0.1509797
    # change = 20 * (0.5 - 0.1509797) = +6.980406
    assert ratings.change(1500, 25, 25) == pytest.approx(6.980406, abs=1e-5)


def test_each_member_is_rated_on_their_own_rating() -> None:
    """Ann (2000) and Bob (1000) score 20 of 25: hanabot 1514. Each meets it alone."""
    # Ann: E = 1 / (1 + 10^((1514 - 2000) / 400)) = 1 / 1.0609541 = 0.9425482 -> -8.850964
    assert ratings.change(2000, 25, 20) == pytest.approx(-8.850964, abs=1e-5)
    # Bob: E = 1 / (1 + 10^(514 / 400)) = 1 / 20.275205 = 0.0493212 -> +9.013576
    assert ratings.change(1000, 25, 20) == pytest.approx(9.013576, abs=1e-5)


def test_tanking_a_partner_does_not_pay() -> None:
    """With the team's average, an 1800 player with a partner sunk to 1000 met hanabot as a
    team of 1400 and gained at 20 points (+3.17 each). Now the partner's rating plays no
    part: at 20 points the 1800 player loses what any 1800 player loses."""
    # 1800 vs 1514: E = 1 / (1 + 10^(-286 / 400)) = 0.8383969 -> -6.767938
    assert ratings.change(1800, 25, 20) == pytest.approx(-6.767938, abs=1e-5)


def test_at_the_threshold() -> None:
    # 1500 vs 1400: E = 1 / (1 + 10^(-0.25)) = 1 / 1.5623413 = 0.6400649 -> -2.801298
    assert ratings.change(1500, 25, 18) == pytest.approx(-2.801298, abs=1e-5)
    # just below it meets 1000 again
    assert ratings.change(1500, 25, 17) == pytest.approx(-8.935194, abs=1e-5)


def test_a_perfect_score_never_loses() -> None:
    # 2000 vs 1800 would be 20 * (0.5 - 1 / (1 + 10^(-0.5))) = -5.194939: clamped to 0
    assert ratings.change(2000, 25, 25) == 0.0
    # one short of perfect does lose: 2000 vs 1743, E = 1 / (1 + 10^(-0.6425)) = 0.8144836
    assert ratings.change(2000, 25, 24) == pytest.approx(-6.289672, abs=1e-5)


def test_k_scales_the_change() -> None:
    assert ratings.change(1000, 25, 5, k=32) == 0.0  # a draw with an equal rating
    assert ratings.change(1500, 25, 10, k=40) == pytest.approx(-17.870388, abs=1e-5)


def test_55_card_variants_are_never_rated() -> None:
    model = ratings.model(20)
    assert model["start"] == 1500 and model["k"] == 20
    variants = model["variants"]
    assert isinstance(variants, dict)
    assert variants["single_sixth"] == {
        "rated": False,
        "hanabot": [],
        "max_score": 30,
        "expected_score": None,
    }
    assert variants["single_rainbow"]["rated"] is False
    assert variants["no_variant"]["hanabot"][18] == 1400
    assert len(variants["six_suits"]["hanabot"]) == 31
    assert not ratings.is_rated_variant(get_variant("single_sixth"))


def test_the_documented_tables_are_the_model() -> None:
    """docs/ratings.md shows hanabot's table for every variant and the score each rating
    must reach to gain: the same numbers as the code."""
    doc = (Path(__file__).parents[2] / "docs" / "ratings.md").read_text()
    rows = {
        cells[0].strip("`"): cells[1:]
        for line in doc.splitlines()
        if line.startswith("| `")
        and len(cells := [c.strip() for c in line.strip("|").split("|")]) == 4
    }
    for variant in VARIANTS.values():
        max_score, cutoff, table = rows[variant.id]
        assert int(max_score) == variant.max_score
        if not ratings.is_rated_variant(variant):
            assert cutoff == "never rated" and table == ""
            continue
        low = ratings.threshold(variant.max_score)
        assert int(cutoff) == low
        expected = [
            ratings.hanabot(variant.max_score, s) for s in range(low, variant.max_score + 1)
        ]
        assert [int(x) for x in table.split(", ")] == expected
        assert ratings.hanabot(variant.max_score, low - 1) == ratings.BELOW
    gains = [line for line in doc.splitlines() if re.match(r"\| 1\d00 \|", line)]
    assert len(gains) == 6
    for line in gains:
        rating, *by_max, at_zero, at_perfect = [c.strip() for c in line.strip("|").split("|")]
        for max_score, cell in zip((25, 30, 35), by_max, strict=True):
            gaining = [
                s for s in range(max_score + 1) if ratings.change(int(rating), max_score, s) > 0
            ]
            assert cell == (str(gaining[0]) if gaining else "never")
        assert float(at_zero.replace("−", "-")) == round(ratings.change(int(rating), 25, 0), 2)
        assert float(at_perfect) == round(ratings.change(int(rating), 25, 25), 2)
