"""The variant catalogue as the service offers it: every hanab.live variant and this
service's own, found by name, numeric id or old id, searched by a piece of the name, the
number of suits, a special rule or a suit kind, a page at a time.

Searching must stay cheap (GET /variants answers in a few milliseconds whatever the
filter), and building a variant costs about a millisecond (its clue masks), 2,400 of them
seconds. So the search runs over a small index read straight from the catalogue's data
(names, suit counts, rule names, suit kinds: no variant built), and each variant is built
and serialized once, when a page first shows it (or when :meth:`VariantCatalogue.warm`
runs, which a server does in the background at start). The answers are the engine's
:meth:`~hanabi.game.Variant.describe` plus ``aliases``, this service's old ids for the
same game.
"""

from __future__ import annotations

import functools
import json
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

import orjson

from hanabi.game import VARIANTS, Suit, Variant, catalogue, get_variant

from .refusals import Invalid, NotFound
from .wording import N_

PAGE_DEFAULT = 50
PAGE_MAX = 500
QUERY_MAX = 100
KEY_MAX = 64  # a path segment (the longest hanab.live name has 45 characters)
REVERSED = "_reversed"

#: Suit kinds a search may name (``rule=pink``): a variant matches when one of its suits
#: is of that kind, going by the suit's touch flags (so ``rainbow`` also finds Omni and
#: Muddy Rainbow suits, which every colour clue touches too).
SUIT_KINDS: dict[str, Callable[[Suit], bool]] = {
    "rainbow": lambda s: s.all_colors,
    "pink": lambda s: s.all_ranks,
    "white": lambda s: s.no_colors,
    "brown": lambda s: s.no_ranks,
    "omni": lambda s: s.all_colors and s.all_ranks,
    "null": lambda s: s.no_colors and s.no_ranks,
    "dark": lambda s: s.one_of_each,
    "prism": lambda s: s.prism,
    "inverted": lambda s: s.inverted,
    "reversed": lambda s: s.reversed,
}

#: Everything ``rule=`` accepts: the special rules as :meth:`hanabi.game.Rules.to_dict`
#: names them, then the suit kinds.
RULE_FILTERS: tuple[str, ...] = (
    *catalogue.RULE_NAMES,
    *(k for k in SUIT_KINDS if k not in catalogue.RULE_NAMES),
)


@dataclass(frozen=True)
class Entry:
    """What a search reads of one variant, without building it."""

    key: str  # the variant's id: its hanab.live name, or this service's own id
    search: str  # the name and aliases, case-folded, one a line
    suits: int
    tags: frozenset[str]  # the rules that are on and the kinds of its suits
    number: int | None = None  # hanab.live's id


def aliases_of() -> dict[str, list[str]]:
    """hanab.live name -> this service's old ids for the same game."""
    out: dict[str, list[str]] = {}
    for own, name in catalogue.ALIASES.items():
        out.setdefault(name, []).append(own)
    return out


def own_only() -> list[Variant]:
    """This service's variants hanab.live does not play (listed after hanab.live's)."""
    return [v for v in VARIANTS.values() if v.id not in catalogue.ALIASES]


def canonical_id(key: Any) -> str:
    """The identifier a game stores for a variant named by ``key``: this service's own id
    as given (``no_variant``: its games keep their suits and deals), else the hanab.live
    name ("Pink & Brown (6 Suits)" for "pink & brown (6 suits)" or 1344). Raises
    KeyError for anything else (a key longer than any name, another script's digits)."""
    if isinstance(key, str) and key in VARIANTS:
        return key
    if not isinstance(key, str) or len(key) > KEY_MAX:
        raise KeyError(key)
    if key.isascii() and key.isdigit() and key != str(int(key)):
        raise KeyError(key)  # a number is written plainly: "3", not "03"
    found = catalogue.lookup(key)
    if found is None:
        raise KeyError(key)
    return found.id


UNKNOWN_VARIANT = N_(
    "There is no variant {key}: name one by its hanab.live name "
    "(such as 'Rainbow (6 Suits)', any letter case), its hanab.live number, or one of "
    "this service's ids (GET /variants lists them all)."
)


def unknown_sentence(key: Any) -> str:
    """The English sentence for an unknown variant (a schema's validation message)."""
    return UNKNOWN_VARIANT.format(key=repr(str(key)[:QUERY_MAX]))


class VariantCatalogue:
    """The searchable catalogue; one per process (:data:`CATALOGUE`), built on first use."""

    def __init__(self) -> None:
        self._bodies: dict[str, bytes] = {}
        self._lock = threading.Lock()

    @functools.cached_property
    def entries(self) -> tuple[Entry, ...]:
        """The search index, in hanab.live's order, this service's own variants last."""
        data = json.loads(catalogue.DATA.read_text(encoding="utf-8"))
        suits = {s.id: s for s in catalogue.suits()}
        aliases = aliases_of()
        out = []
        for v in data["variants"]:
            name = v["name"]
            kinds = set()
            for suit_id in v["suits"]:
                base = suits[suit_id.removesuffix(REVERSED)]
                kinds |= {k for k, test in SUIT_KINDS.items() if test(base)}
                if suit_id.endswith(REVERSED):
                    kinds.add("reversed")
            rules = {k for k, value in (v.get("rules") or {}).items() if value}
            search = "\n".join([name, *aliases.get(name, ())]).casefold()
            out.append(Entry(name, search, len(v["suits"]), frozenset(rules | kinds), v["id"]))
        for own in own_only():
            kinds = {k for s in own.suits for k, test in SUIT_KINDS.items() if test(s)}
            rules = set(own.rules.to_dict())
            search = f"{own.name}\n{own.id}".casefold()
            out.append(Entry(own.id, search, len(own.suits), frozenset(rules | kinds)))
        return tuple(out)

    @functools.cached_property
    def names(self) -> tuple[str, ...]:
        """Every way a request may name a variant exactly: this service's ids, hanab.live's
        names and its numbers (as strings); names in another letter case work too."""
        numbers = [str(e.number) for e in self.entries if e.number is not None]
        return (*VARIANTS, *(e.key for e in self.entries if e.number is not None), *numbers)

    @functools.cached_property
    def suit_counts(self) -> tuple[int, ...]:
        return tuple(sorted({e.suits for e in self.entries}))

    def search(
        self, q: str | None = None, suits: int | None = None, rule: str | None = None
    ) -> list[Entry]:
        """The variants matching every filter given, in catalogue order."""
        if rule is not None and rule not in RULE_FILTERS:
            raise Invalid("invalid_query", "There is no rule or suit kind {rule}.", rule=repr(rule))
        folded = q.casefold() if q else None
        return [
            e
            for e in self.entries
            if (folded is None or folded in e.search)
            and (suits is None or e.suits == suits)
            and (rule is None or rule in e.tags)
        ]

    def page(
        self,
        q: str | None = None,
        suits: int | None = None,
        rule: str | None = None,
        offset: int = 0,
        limit: int = PAGE_DEFAULT,
    ) -> tuple[list[bytes], int]:
        """The serialized items of one page of a search, and how many match in all."""
        found = self.search(q, suits, rule)
        return [self.body(e.key) for e in found[offset : offset + limit]], len(found)

    def body(self, key: str) -> bytes:
        """One variant's answer as JSON (built on first use, then kept)."""
        body = self._bodies.get(key)
        if body is None:
            variant = get_variant(key)
            aliases = aliases_of().get(key, []) if variant.is_catalogue else []
            body = orjson.dumps({**variant.describe(), "aliases": aliases})
            self._bodies[key] = body
        return body

    def find(self, key: str) -> bytes:
        """One variant by hanab.live name (any letter case), numeric id, or one of this
        service's ids (which answers the variant as this service plays it under that id:
        hanab.live's game, this service's suit names). 404 ``unknown_variant`` else."""
        if key in VARIANTS:
            return self.body(key)  # get_variant answers the own form of an own id
        found = catalogue.lookup(key) if len(key) <= KEY_MAX else None
        if found is None:
            raise NotFound("unknown_variant", UNKNOWN_VARIANT, key=repr(str(key)[:QUERY_MAX]))
        return self.body(found.id)

    def warm(self) -> None:
        """Build and serialize every variant now, so that no page pays for it later."""
        with self._lock:
            for entry in self.entries:
                self.body(entry.key)

    def warm_in_background(self) -> threading.Thread:
        thread = threading.Thread(target=self.warm, name="variants-warm", daemon=True)
        thread.start()
        return thread

    def __iter__(self) -> Iterator[Entry]:
        return iter(self.entries)


#: The process's catalogue (the data is the same for every app of the process).
CATALOGUE = VariantCatalogue()
