"""Every hanab.live variant, by its hanab.live name or numeric id.

The data is ``catalogue.json`` beside this module, generated from hanab.live's published
suits and variants by ``make catalogue`` (tools/catalogue.py); it records the hanab.live
commit it came from (:func:`source`). Variants are built on first use and cached, so
importing this module costs one JSON read and no mask computation.

>>> from hanabi.game import catalogue
>>> catalogue.variant("Rainbow (6 Suits)").hanablive_id
3
>>> catalogue.variant("rainbow").name          # this service's old id is an alias
'Rainbow (6 Suits)'
>>> [v.name for v in catalogue.variants(rule="up_or_down", suit="Black")]
['Up or Down & Black (6 Suits)']
"""

from __future__ import annotations

import functools
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from .variants import VARIANTS, Rules, Suit, Variant

DATA = Path(__file__).with_name("catalogue.json")
REVERSED = "_reversed"

#: This service's own variant ids that hanab.live also plays, and hanab.live's names for
#: them. ``wild_rainbow`` and ``black_powder`` have no hanab.live equivalent: they stay
#: this service's own (:data:`hanabi.game.VARIANTS`).
ALIASES: dict[str, str] = {
    v.id: v.hanablive_name for v in VARIANTS.values() if v.hanablive_name is not None
}

#: The special rules a filter may name (``rule=...``), as in :class:`Rules`.
RULE_NAMES: tuple[str, ...] = tuple(
    name for name in Rules.__dataclass_fields__ if name not in ("stack_size",)
)


@functools.cache
def _data() -> dict[str, Any]:
    return json.loads(DATA.read_text(encoding="utf-8"))


@functools.cache
def _entries() -> dict[str, dict[str, Any]]:
    return {v["name"]: v for v in _data()["variants"]}


@functools.cache
def _by_id() -> dict[int, str]:
    return {v["id"]: v["name"] for v in _data()["variants"]}


@functools.cache
def _by_folded_name() -> dict[str, str]:
    return {name.casefold(): name for name in _entries()}


@functools.cache
def _suits() -> dict[str, Suit]:
    """Every catalogue suit by id, with a reversed twin ``<id>_reversed`` of each."""
    out: dict[str, Suit] = {}
    for s in _data()["suits"]:
        suit = Suit(
            id=s["id"],
            name=s["name"],
            abbreviation=s["abbreviation"],
            color=None,
            touched_by=tuple(s["clue_colors"]),
            all_colors=s.get("all_clue_colors", False),
            no_colors=s.get("no_clue_colors", False),
            all_ranks=s.get("all_clue_ranks", False),
            no_ranks=s.get("no_clue_ranks", False),
            one_of_each=s.get("one_of_each", False),
            prism=s.get("prism", False),
            inverted=s.get("inverted", False),
            display_name=s["display_name"],
            hanablive_id=s["hanablive_id"],
            pip=s["pip"],
            fill=s["fill"],
            fill_colorblind=s["fill_colorblind"],
            fill_colors=tuple(s["fill_colors"]),
        )
        out[suit.id] = suit
        out[suit.id + REVERSED] = Suit(
            **{**suit.__dict__, "id": suit.id + REVERSED, "name": suit.name + " Reversed"},
        )
        object.__setattr__(out[suit.id + REVERSED], "reversed", True)
    return out


@functools.cache
def _color_names() -> dict[str, str]:
    return {c["id"]: c["name"] for c in _data()["colors"]}


@functools.cache
def _build(name: str) -> Variant:
    entry = _entries()[name]
    suits = _suits()
    names = _color_names()
    return Variant(
        id=name,
        name=name,
        suits=tuple(suits[s] for s in entry["suits"]),
        hanablive_name=name,
        rules=Rules(**entry.get("rules", {})),
        colors=tuple(entry["clue_colors"]),
        ranks=tuple(entry["clue_ranks"]),
        hanablive_id=entry["id"],
        color_names=tuple(names[c] for c in entry["clue_colors"]),
    )


def _name_of(key: str | int) -> str | None:
    """hanab.live's name for a name (any letter case), a numeric id or an alias."""
    if isinstance(key, bool):
        return None
    if isinstance(key, int):
        return _by_id().get(key)
    if not isinstance(key, str):
        return None
    if key in _entries():
        return key
    if key in ALIASES:
        return ALIASES[key]
    if key.isascii() and key.isdigit():
        return _by_id().get(int(key))
    return _by_folded_name().get(key.casefold())


def lookup(key: str | int) -> Variant | None:
    """The catalogue variant for a hanab.live name, numeric id or alias; None if unknown."""
    name = _name_of(key)
    return None if name is None else _build(name)


def variant(key: str | int) -> Variant:
    """A variant by hanab.live name ("Pink & Brown (6 Suits)"), numeric id (1344, or
    "1344") or alias ("rainbow"); this service's own ``wild_rainbow`` and ``black_powder``
    too. Raises KeyError for anything else."""
    found = lookup(key)
    if found is None and isinstance(key, str) and key in VARIANTS:
        found = VARIANTS[key]
    if found is None:
        raise KeyError(key)
    return found


def variants(
    q: str | None = None,
    suits: int | None = None,
    rule: str | None = None,
    suit: str | None = None,
) -> Iterator[Variant]:
    """The catalogue in hanab.live's order, filtered: ``q`` a piece of the name (any case),
    ``suits`` the number of suits, ``rule`` a special rule that is on (a :data:`RULE_NAMES`
    entry, or ``reversed``), ``suit`` a suit id (or hanab.live suit name) the variant has.
    Only the matches are built."""
    if rule is not None and rule not in RULE_NAMES and rule != "reversed":
        raise ValueError(f"unknown rule {rule!r}")
    wanted_suit = None
    if suit is not None:
        wanted_suit = next(
            (s.id for s in _suits().values() if suit in (s.id, s.name)), suit.casefold()
        )
    folded = q.casefold() if q else None
    for name, entry in _entries().items():
        if folded and folded not in name.casefold():
            continue
        if suits is not None and len(entry["suits"]) != suits:
            continue
        if rule == "reversed":
            if not any(s.endswith(REVERSED) for s in entry["suits"]):
                continue
        elif rule is not None and not entry.get("rules", {}).get(rule):
            continue
        if wanted_suit is not None and not any(
            s == wanted_suit or s == wanted_suit + REVERSED for s in entry["suits"]
        ):
            continue
        yield _build(name)


def names() -> list[str]:
    """Every hanab.live variant name, in hanab.live's order."""
    return list(_entries())


def suits() -> list[Suit]:
    """The catalogue's suits (not their reversed twins), in hanab.live's order."""
    return [s for s in _suits().values() if not s.reversed]


def colors() -> list[dict[str, Any]]:
    """The clue colours: id, hanab.live name, abbreviation and fills."""
    return [dict(c) for c in _data()["colors"]]


def source() -> dict[str, str]:
    """The hanab.live repository and commit the data was generated from."""
    return dict(_data()["source"])


__all__ = [
    "ALIASES",
    "RULE_NAMES",
    "colors",
    "lookup",
    "names",
    "source",
    "suits",
    "variant",
    "variants",
]


def get_variant(variant_id: str | int) -> Variant:
    """The variant with this id: one of this service's own (:data:`VARIANTS`), else any
    hanab.live variant by its name or numeric id. Raises KeyError for an unknown one."""
    found = VARIANTS.get(variant_id) if isinstance(variant_id, str) else None
    if found is not None:
        return found
    found = lookup(variant_id)
    if found is None:
        raise KeyError(variant_id)
    return found
