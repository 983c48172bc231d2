"""Every suit of every catalogue variant shows a symbol of its own on the terminal's
cards, fireworks and discards, and none reads as a digit beside a rank: "Pink & Light
Pink" drew "I1 I3" (two pinks, each like a 1), Orange "O0", in every language."""

from __future__ import annotations

import unicodedata

import pytest
from rich.console import Console

from hanabi.client import i18n
from hanabi.client.render import TableRenderer
from hanabi.client.variants import VariantInfo
from hanabi.game import catalogue

#: What a reader takes for a digit beside a rank (the test's own list, not the client's).
DIGITISH = set("OoОоΟοIlІіӀ|ЗзЧчБбЬь") | set("〇一二三四五六七八九十零")
#: Letters of other scripts that look like a Latin one.
LOOKS = str.maketrans("АВЕКМНОРСТХУ", "ABEKMHOPCTXY")


def readable(letters: list[str]) -> list[str]:
    """What is wrong with a variant's symbols: repeats (in looks) and digit-like ones."""
    wrong = [c for c in letters if len(c) != 1 or c in DIGITISH or c.isdigit()]
    wrong += [c for c in letters if len(c) == 1 and unicodedata.category(c)[0] == "N"]
    shapes = [c.translate(LOOKS) for c in letters]
    return wrong + [c for i, c in enumerate(shapes) if c in shapes[:i]]


@pytest.mark.parametrize("tag", ["en", "ru", "zh_Hans"])
def test_every_variant_has_distinct_symbols_that_are_not_digits(tag: str) -> None:
    i18n.use(tag)
    try:
        names = catalogue.names()
        assert len(names) == 2426
        bad = {}
        for name in names:
            info = VariantInfo.from_api(catalogue.variant(name).describe())
            letters = [info.letter(s.id) for s in info.suits]
            if readable(letters):
                bad[name] = letters
        assert not bad, f"{len(bad)} variants, e.g. {list(bad.items())[:5]}"
    finally:
        i18n.use("en")


def test_pink_and_light_pink_are_told_apart_on_the_board() -> None:
    info = VariantInfo.from_api(catalogue.variant("Pink & Light Pink (6 Suits)").describe())
    renderer = TableRenderer(info)
    cards = [renderer.card(s.id, 1).plain for s in info.suits]
    assert cards == ["R1", "Y1", "G1", "B1", "P1", "L1"]
    # the letter a clue's colour is typed as is the one the board shows
    assert info.color_letter("pink") == "p"
    Console(width=80).print(renderer.card("light_pink", 3))
