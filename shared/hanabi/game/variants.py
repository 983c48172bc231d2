"""Suits and variants as data.

A suit says which clues touch it and how many copies of each rank it has; a variant is a
named list of suits plus its special rules (:class:`Rules`). The rules engine only ever
asks these objects questions, so a new suit kind is a new :class:`Suit` value, not new
rules code. The seven variants below are this service's own; the full hanab.live
catalogue is in :mod:`hanabi.game.catalogue` and uses the same classes.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .touch import color_touches, rank_touches

RANKS: tuple[int, ...] = (1, 2, 3, 4, 5)
START_RANK = 7  # hanab.live's number for the START card of Up or Down
NORMAL_COPIES: tuple[int, ...] = (3, 2, 2, 2, 1)
ONE_OF_EACH_COPIES: tuple[int, ...] = (1, 1, 1, 1, 1)


@dataclass(frozen=True)
class Suit:
    """One suit of cards.

    ``color`` is the suit's own clue colour (added to the variant's clue colours when the
    variant does not list its colours), or None. ``touched_by`` lists the clue colours that
    touch it when neither ``all_colors`` nor ``no_colors`` is set; it defaults to the own
    colour. ``prism`` suits are touched by the colour of their rank's position instead;
    ``reversed`` suits are played 5 down to 1; playing an ``inverted`` card discards it and
    discarding it plays it. The display fields are hanab.live's, for clients.
    """

    id: str
    name: str
    abbreviation: str
    color: str | None
    touched_by: tuple[str, ...] | None = None
    all_colors: bool = False
    no_colors: bool = False
    all_ranks: bool = False
    no_ranks: bool = False
    one_of_each: bool = False
    wild: bool = False
    prism: bool = False
    reversed: bool = False
    inverted: bool = False
    display_name: str | None = None
    hanablive_id: str | None = None
    pip: str | None = None
    fill: str | None = None
    fill_colorblind: str | None = None
    fill_colors: tuple[str, ...] = ()

    @property
    def copies(self) -> tuple[int, ...]:
        """Copies of each rank 1-5 in a standard deck (see :meth:`Variant` for the rules
        that change it)."""
        return ONE_OF_EACH_COPIES if self.one_of_each else NORMAL_COPIES

    @property
    def colors(self) -> tuple[str, ...]:
        """The clue colours that touch this suit by its own nature (not all/none/prism)."""
        if self.touched_by is not None:
            return self.touched_by
        return (self.color,) if self.color else ()

    def touched_by_color(self, color: str) -> bool:
        if self.all_colors:
            return True
        if self.no_colors:
            return False
        return color in self.colors

    def touched_by_rank(self, card_rank: int, clue_rank: int) -> bool:
        if self.all_ranks:
            return True
        if self.no_ranks:
            return False
        return card_rank == clue_rank

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "name": self.name,
            "abbreviation": self.abbreviation,
            "color": self.color,
            "touched_by": list(self.colors),
            "all_colors": self.all_colors,
            "no_colors": self.no_colors,
            "all_ranks": self.all_ranks,
            "no_ranks": self.no_ranks,
            "one_of_each": self.one_of_each,
            "wild": self.wild,
        }

    def describe(self) -> dict[str, Any]:
        """Everything about the suit, for the catalogue's readers (API, clients)."""
        return {
            **self.to_dict(),
            "display_name": self.display_name or self.name,
            "hanablive_id": self.hanablive_id,
            "prism": self.prism,
            "reversed": self.reversed,
            "inverted": self.inverted,
            "pip": self.pip,
            "fill": self.fill,
            "fill_colorblind": self.fill_colorblind,
            "fill_colors": list(self.fill_colors),
        }


@dataclass(frozen=True)
class Rules:
    """A variant's special rules, named as in hanab.live's variants.json (snake case).

    All off is the standard game. ``special_rank`` (with its five flags) gives one rank the
    touch of another suit kind; ``stack_size`` is the number of cards of a complete
    firework (4 in four-suit Sudoku).
    """

    special_rank: int | None = None
    special_rank_all_colors: bool = False
    special_rank_all_ranks: bool = False
    special_rank_no_colors: bool = False
    special_rank_no_ranks: bool = False
    special_rank_deceptive: bool = False
    critical_rank: int | None = None
    scarce_ones: bool = False
    clue_starved: bool = False
    color_clues_touch_nothing: bool = False
    rank_clues_touch_nothing: bool = False
    alternating_clues: bool = False
    cow_and_pig: bool = False
    duck: bool = False
    odds_and_evens: bool = False
    synesthesia: bool = False
    up_or_down: bool = False
    throw_it_in_a_hole: bool = False
    funnels: bool = False
    chimneys: bool = False
    sudoku: bool = False
    stack_size: int = 5

    def to_dict(self) -> dict[str, Any]:
        """Only the rules that are on (an empty dict for the standard game)."""
        out: dict[str, Any] = {}
        for name, f in self.__dataclass_fields__.items():
            value = getattr(self, name)
            if value != f.default:
                out[name] = value
        return out

    @property
    def hides_clues(self) -> bool:
        """Cow & Pig and Duck: a clue points at cards without saying what it was."""
        return self.cow_and_pig or self.duck


STANDARD = Rules()


@dataclass(frozen=True)
class Variant:
    """A named list of suits and rules, and everything the engine derives from them once.

    Cards are small integers: ``suit_index * stride + slot``, where the slot of rank r is
    r - 1 and the START card of Up or Down has slot 5 (``stride`` is 6 there, 5 otherwise).
    Masks are ints with one bit per card identity, so clue touching and knowledge updates
    are single bit operations. ``colors``/``ranks`` list the clue colours and ranks when
    the variant says them (the catalogue does); otherwise the colours are the suits' own.
    """

    id: str
    name: str
    suits: tuple[Suit, ...]
    hanablive_name: str | None = None
    rules: Rules = STANDARD
    colors: tuple[str, ...] | None = None
    ranks: tuple[int, ...] | None = None
    hanablive_id: int | None = None
    color_names: tuple[str, ...] | None = field(default=None, compare=False)
    clue_colors: tuple[str, ...] = field(init=False)
    clue_ranks: tuple[int, ...] = field(init=False)
    card_ranks: tuple[int, ...] = field(init=False)
    stride: int = field(init=False)
    firework_suits: tuple[int, ...] = field(init=False)
    copies: tuple[int, ...] = field(init=False)
    cards: tuple[int, ...] = field(init=False, repr=False, compare=False)
    color_masks: dict[str, int] = field(init=False, repr=False, compare=False)
    rank_masks: dict[int, int] = field(init=False, repr=False, compare=False)
    all_cards_mask: int = field(init=False, repr=False)
    wild_mask: int = field(init=False, repr=False)
    inverted_mask: int = field(init=False, repr=False)
    max_score: int = field(init=False)
    reversible: bool = field(init=False)
    suit_of: tuple[int, ...] = field(init=False, repr=False, compare=False)
    rank_of: tuple[int, ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        put = object.__setattr__
        rules = self.rules
        if self.colors is None:
            colors: list[str] = []
            for s in self.suits:
                if s.color and s.color not in colors:
                    colors.append(s.color)
            put(self, "clue_colors", tuple(colors))
        else:
            put(self, "clue_colors", tuple(self.colors))
        put(self, "clue_ranks", RANKS if self.ranks is None else tuple(self.ranks))
        card_ranks = tuple(range(1, rules.stack_size + 1))
        if rules.up_or_down:
            card_ranks += (START_RANK,)
        put(self, "card_ranks", card_ranks)
        stride = 6 if rules.up_or_down else 5
        put(self, "stride", stride)
        put(self, "firework_suits", tuple(i for i, s in enumerate(self.suits) if not s.wild))
        put(self, "max_score", rules.stack_size * len(self.firework_suits))
        # fireworks may be built downwards (a reversed suit, or Up or Down)
        put(self, "reversible", rules.up_or_down or any(s.reversed for s in self.suits))
        slots = (1, 2, 3, 4, 5, START_RANK)[:stride]
        put(self, "suit_of", tuple(i for i in range(len(self.suits)) for _ in slots))
        put(self, "rank_of", tuple(r for _ in self.suits for r in slots))
        put(
            self,
            "copies",
            tuple(
                _copies(s, r, rules) if r in card_ranks else 0 for s in self.suits for r in slots
            ),
        )
        put(self, "cards", tuple(c for c, n in enumerate(self.copies) for _ in range(n)))
        color_masks = {}
        for index, color in enumerate(self.clue_colors):
            mask = 0
            for c, n in enumerate(self.copies):
                if n and color_touches(self, self.suit_of[c], self.rank_of[c], index):
                    mask |= 1 << c
            color_masks[color] = mask
        rank_masks = {}
        for clue in self.clue_ranks:
            mask = 0
            for c, n in enumerate(self.copies):
                if n and rank_touches(self, self.suit_of[c], self.rank_of[c], clue):
                    mask |= 1 << c
            rank_masks[clue] = mask
        put(self, "color_masks", color_masks)
        put(self, "rank_masks", rank_masks)
        put(self, "all_cards_mask", (1 << (stride * len(self.suits))) - 1)
        put(self, "wild_mask", self._suit_mask(lambda s: s.wild))
        put(self, "inverted_mask", self._suit_mask(lambda s: s.inverted))

    def _suit_mask(self, test: Any) -> int:
        return sum(1 << c for c in range(len(self.copies)) if test(self.suits[self.suit_of[c]]))

    @property
    def card_count(self) -> int:
        return sum(self.copies)

    @property
    def stack_size(self) -> int:
        return self.rules.stack_size

    @property
    def clue_unit(self) -> int:
        """Clue-token units one clue costs: Clue Starved counts half tokens, as hanab.live."""
        return 2 if self.rules.clue_starved else 1

    @property
    def is_catalogue(self) -> bool:
        return self.hanablive_id is not None

    def suit_index(self, suit_id: str) -> int:
        """Index of a suit by id; raises KeyError for a suit not in this variant."""
        for i, s in enumerate(self.suits):
            if s.id == suit_id:
                return i
        raise KeyError(suit_id)

    def card_id(self, suit_index: int, rank: int) -> int:
        return suit_index * self.stride + (5 if rank == START_RANK else rank - 1)

    def deck(self) -> list[int]:
        """Every card of the variant in a canonical order (suit by suit, rank by rank)."""
        return list(self.cards)

    def card(self, card: int) -> tuple[str, int]:
        """(suit id, rank) of a card id."""
        return self.suits[self.suit_of[card]].id, self.rank_of[card]

    def card_dict(self, card: int) -> dict[str, Any]:
        return {"suit": self.suits[self.suit_of[card]].id, "rank": self.rank_of[card]}

    def card_of(self, suit_id: str, rank: int) -> int:
        """Card id of a (suit id, rank) pair; raises KeyError or ValueError if invalid."""
        if type(rank) is not int or rank not in self.card_ranks:  # not True or 1.0 either
            raise ValueError(f"rank {rank!r} is not a rank of {self.name}")
        return self.card_id(self.suit_index(suit_id), rank)

    def wild_fireworks(self, mask: int, fireworks: list[int]) -> list[int]:
        """Fireworks (suit indexes) that a wild card with an identity in ``mask`` could be
        played on, given each firework's height: the rule for when a play must name one."""
        wild = mask & self.wild_mask
        if not wild:
            return []
        ranks = {self.rank_of[c] for c in self.cards_in(wild)}
        return [f for f in self.firework_suits if fireworks[f] + 1 in ranks]

    def cards_in(self, mask: int) -> list[int]:
        """Card ids whose bits are set in mask, in canonical order."""
        out = []
        c = 0
        while mask:
            if mask & 1:
                out.append(c)
            mask >>= 1
            c += 1
        return out

    def color_name(self, color: str) -> str:
        """A clue colour as people read it ("Red")."""
        if self.color_names is not None:
            return self.color_names[self.clue_colors.index(color)]
        return color

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "name": self.name,
            "hanablive_name": self.hanablive_name,
            "suits": [s.to_dict() for s in self.suits],
            "clue_colors": list(self.clue_colors),
            "clue_ranks": list(self.clue_ranks),
            "fireworks": [self.suits[i].id for i in self.firework_suits],
            "card_count": self.card_count,
            "max_score": self.max_score,
        }

    def describe(self) -> dict[str, Any]:
        """The whole variant for the catalogue's readers: suits with every touch flag, clue
        colours and ranks, the rules that are on, maximum score and deck size."""
        return {
            **self.to_dict(),
            "hanablive_id": self.hanablive_id,
            "suits": [s.describe() for s in self.suits],
            "clue_color_names": [self.color_name(c) for c in self.clue_colors],
            "card_ranks": list(self.card_ranks),
            "rules": self.rules.to_dict(),
            "deck_size": self.card_count,
            "clue_touches": {
                "colors": {c: self._identities(m) for c, m in self.color_masks.items()},
                "ranks": {str(r): self._identities(m) for r, m in self.rank_masks.items()},
            },
        }

    def _identities(self, mask: int) -> dict[str, list[int]]:
        """The cards of a clue mask, suit id -> ranks: what a client needs to show which
        cards a clue would touch (the cards it sees) without the engine's touch rules."""
        out: dict[str, list[int]] = {}
        for c in range(len(self.copies)):
            if mask >> c & 1:
                out.setdefault(self.suits[self.suit_of[c]].id, []).append(self.rank_of[c])
        return out


def _copies(suit: Suit, rank: int, rules: Rules) -> int:
    """Copies of one card in the deck, by hanab.live's rules (deck.ts, game_deck.go)."""
    if suit.one_of_each or rules.critical_rank == rank:
        return 1
    if rules.sudoku:
        return 2
    if rank == 1:
        if rules.up_or_down or suit.reversed:
            return 1
        return 2 if rules.scarce_ones else 3
    if rank == 5:
        return 3 if suit.reversed else 1
    if rank == START_RANK:
        return 1
    return 2


def card_id(suit_index: int, rank: int) -> int:
    """Card id in a variant without START cards (stride 5)."""
    return suit_index * 5 + rank - 1


RED = Suit("red", "Red", "R", "red")
YELLOW = Suit("yellow", "Yellow", "Y", "yellow")
GREEN = Suit("green", "Green", "G", "green")
BLUE = Suit("blue", "Blue", "B", "blue")
WHITE = Suit("white", "White", "W", "white")
MULTICOLOR = Suit("multicolor", "Multicolor", "M", "multicolor")
BLACK = Suit("black", "Black", "K", "black", one_of_each=True)
RAINBOW = Suit("rainbow", "Rainbow", "M", None, all_colors=True)
DARK_RAINBOW = Suit("dark_rainbow", "Dark Rainbow", "M", None, all_colors=True, one_of_each=True)
WILD_RAINBOW = Suit("wild_rainbow", "Wild Rainbow", "M", None, all_colors=True, wild=True)

BASIC = (RED, YELLOW, GREEN, BLUE, WHITE)

VARIANTS: dict[str, Variant] = {
    v.id: v
    for v in (
        Variant("no_variant", "No Variant", BASIC, "No Variant"),
        Variant("six_suits", "Six Suits", (*BASIC, MULTICOLOR), "6 Suits"),
        Variant("single_sixth", "Single Sixth (one of each)", (*BASIC, BLACK), "Black (6 Suits)"),
        Variant("rainbow", "Rainbow", (*BASIC, RAINBOW), "Rainbow (6 Suits)"),
        Variant(
            "single_rainbow",
            "Single Rainbow (one of each)",
            (*BASIC, DARK_RAINBOW),
            "Dark Rainbow (6 Suits)",
        ),
        Variant("wild_rainbow", "Wild Rainbow", (*BASIC, WILD_RAINBOW)),
        Variant("black_powder", "Black Powder", (*BASIC, MULTICOLOR, BLACK)),
    )
}
