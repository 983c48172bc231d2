"""The catalogue: its data, the lookup and filter API, and the script that generates it."""

from __future__ import annotations

import doctest
import json
import subprocess
import sys
from pathlib import Path

import pytest

import hanabi.game.catalogue
from hanabi.game import VARIANTS, Game, Setup, catalogue, get_variant

ROOT = Path(__file__).resolve().parents[2]


def test_the_catalogue_holds_every_hanablive_variant_and_suit():
    assert len(catalogue.names()) == 2426
    assert len(catalogue.suits()) == 61
    assert [c["id"] for c in catalogue.colors()][:5] == ["red", "yellow", "green", "blue", "purple"]
    source = catalogue.source()
    assert len(source["commit"]) == 40 and source["repository"] == "Hanabi-Live/hanabi-live"


def test_lookup_by_name_number_alias_and_any_case():
    rainbow = catalogue.variant("Rainbow (6 Suits)")
    assert rainbow.hanablive_id == 3
    assert catalogue.variant(3) is rainbow
    assert catalogue.variant("3") is rainbow
    assert catalogue.variant("rainbow (6 suits)") is rainbow
    assert catalogue.variant("rainbow") is rainbow  # this service's old id
    assert catalogue.variant("six_suits").name == "6 Suits"
    assert catalogue.variant("wild_rainbow") is VARIANTS["wild_rainbow"]  # ours alone
    for bad in ("Nonesuch", 99999, True, None):
        with pytest.raises(KeyError):
            catalogue.variant(bad)


def test_get_variant_keeps_our_ids_and_adds_hanablive_names():
    assert get_variant("rainbow") is VARIANTS["rainbow"]  # the old form, unchanged
    assert get_variant("Pink & Brown (6 Suits)").name == "Pink & Brown (6 Suits)"
    game = Game(Setup.create("Pink & Brown (6 Suits)", 3, seed=1))
    assert game.variant.card_count == 60 and game.variant.max_score == 30


def test_filters():
    assert [v.name for v in catalogue.variants(rule="up_or_down", suit="Black")] == [
        "Up or Down & Black (6 Suits)"
    ]
    four = list(catalogue.variants(q="SUDOKU", suits=4))
    assert len(four) == 11 and all(len(v.suits) == 4 and v.rules.sudoku for v in four)
    assert all(any(s.reversed for s in v.suits) for v in catalogue.variants(rule="reversed"))
    with pytest.raises(ValueError):
        list(catalogue.variants(rule="no_such_rule"))


def test_describe_carries_every_touch_flag_and_rule():
    item = catalogue.variant("Up or Down & Pink (6 Suits)").describe()
    pink = item["suits"][-1]
    assert pink["id"] == "pink" and pink["all_ranks"] and pink["touched_by"] == ["pink"]
    assert item["rules"] == {"up_or_down": True}
    assert item["card_ranks"] == [1, 2, 3, 4, 5, 7]
    assert item["deck_size"] == 54 and item["max_score"] == 30
    assert item["clue_color_names"][0] == "Red"
    json.dumps(item)


def test_generated_deck_sizes_and_scores_are_what_the_engine_deals():
    data = json.loads((ROOT / "shared/hanabi/game/catalogue.json").read_text())
    for entry in data["variants"]:
        variant = catalogue.variant(entry["name"])
        assert variant.card_count == entry["deck_size"], entry["name"]
        assert variant.max_score == entry["max_score"], entry["name"]


def test_module_examples():
    assert doctest.testmod(hanabi.game.catalogue).failed == 0


def _write_source(root: Path) -> None:
    """A tiny hanab.live checkout: three colours, four suits, three variants."""
    folder = root / "packages/game/src/json"
    folder.mkdir(parents=True)
    colors = [
        {"name": "Red", "fill": "#e60000"},
        {"name": "Blue", "fill": "#0037ff", "fillColorblind": "#0055ff"},
        {"name": "Pink", "abbreviation": "I", "fill": "#ff69b4"},
    ]
    suits = [
        {"name": "Unknown", "id": "Uk", "fill": "#cccccc", "clueColors": [], "pip": "none"},
        {"name": "Red", "id": "R", "pip": "hanabiRed1"},
        {"name": "Blue", "id": "B", "pip": "hanabiBlue4"},
        {"name": "Pink", "id": "Pi", "createVariants": True, "pip": "hashtag", "allClueRanks": True},
        {"name": "Rainbow", "id": "Ra", "abbreviation": "M", "fill": "multi",
         "fillColors": ["#ff0000"], "pip": "rainbow", "allClueColors": True},
    ]  # fmt: skip
    variants = [
        {"id": 0, "newID": "R+B", "name": "Two", "suits": ["Red", "Blue"]},
        {"id": 7, "newID": "R+Pi+Ra,UD", "name": "Up", "suits": ["Red", "Pink", "Rainbow"],
         "upOrDown": True},
        {"id": 9, "newID": "R+B:R", "name": "Back", "suits": ["Red", "Blue Reversed"],
         "clueRanks": [1, 2]},
    ]  # fmt: skip
    for name, data in (("colors", colors), ("suits", suits), ("variants", variants)):
        (folder / f"{name}.json").write_text(json.dumps(data))
    git = ["git", "-C", str(root), "-c", "user.name=t", "-c", "user.email=t@t"]
    subprocess.run([*git, "init", "-q"], check=True)
    subprocess.run([*git, "add", "."], check=True)
    subprocess.run([*git, "commit", "-qm", "data"], check=True)


def test_the_generator_reads_a_hanablive_checkout(tmp_path):
    source = tmp_path / "hanabi-live"
    _write_source(source)
    out = tmp_path / "catalogue.json"
    subprocess.run(
        [sys.executable, str(ROOT / "tools/catalogue.py"), str(source), str(out)], check=True
    )
    data = json.loads(out.read_text())
    head = subprocess.run(
        ["git", "-C", str(source), "rev-parse", "HEAD"], capture_output=True, text=True
    )
    assert data["source"]["commit"] == head.stdout.strip()
    assert [s["id"] for s in data["suits"]] == ["red", "blue", "pink", "rainbow"]
    pink = data["suits"][2]
    assert (
        pink["abbreviation"] == "I" and pink["all_clue_ranks"] and pink["clue_colors"] == ["pink"]
    )
    assert data["suits"][1]["fill_colorblind"] == "#0055ff"
    two, up, back = data["variants"]
    assert (two["deck_size"], two["max_score"], two["clue_colors"]) == (20, 10, ["red", "blue"])
    assert up["rules"] == {"up_or_down": True}
    assert up["clue_colors"] == ["red", "pink"]  # rainbow adds no colour of its own
    assert up["deck_size"] == 3 * 9
    assert back["suits"] == ["red", "blue_reversed"] and back["clue_ranks"] == [1, 2]
    assert back["deck_size"] == 20  # reversed: one 1 and three 5s
