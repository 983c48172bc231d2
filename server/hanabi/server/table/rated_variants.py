"""The variants rated tables accept, and hanabot's expected score in each: data measured
by ``bench/bots_variants.py --write`` (``rated_variants.json`` beside this module).

A rated game is a match against hanabot, so a variant is rated only where the house bot's
strength there was measured (self-play at 3 players, 400 seeds): one variant per
family the bots play well enough to be a fair yardstick (docs/bots.md has the figures).
Any other of hanab.live's 2,426 variants can be played, unrated. A variant is named by
its hanab.live name (this service's old ids are aliases of it) or, for this service's own
variants hanab.live does not have, by its id. Pure: one JSON read on first use.
"""

from __future__ import annotations

import functools
import json
from pathlib import Path
from typing import Any

from hanabi.game import Variant, get_variant

DATA = Path(__file__).with_name("rated_variants.json")


@functools.cache
def _data() -> dict[str, Any]:
    return json.loads(DATA.read_text(encoding="utf-8"))


def key(variant: Variant) -> str:
    """The name the data knows a variant by: its hanab.live name, else its own id."""
    return variant.hanablive_name or variant.id


@functools.cache
def _rows() -> dict[str, dict[str, Any]]:
    return {row["variant"]: row for row in _data()["variants"]}


def measured() -> dict[str, Any]:
    """When, where and how the figures were measured (date, machine, players, seeds, the
    house bot)."""
    return dict(_data()["measured"])


def house_bot() -> str:
    """The strategy whose mean score is hanabot's expected score."""
    return str(_data()["measured"]["house_bot"])


def is_rated(variant: Variant) -> bool:
    """Whether rated tables accept ``variant``: measured, and not excluded (55 cards)."""
    row = _rows().get(key(variant))
    return bool(row and row["rated"])


def expected_score(variant: Variant) -> float | None:
    """Hanabot's expected score in ``variant`` (the house bot's measured mean), or None
    where it was not measured."""
    row = _rows().get(key(variant))
    return None if row is None else float(row["bots"][house_bot()]["mean"])


def rated_variants() -> list[Variant]:
    """Every variant rated tables accept, in the data's order (family by family)."""
    return [get_variant(name) for name, row in _rows().items() if row["rated"]]


def measured_variants() -> list[Variant]:
    """Every measured variant, rated or not, in the data's order."""
    return [get_variant(name) for name in _rows()]
