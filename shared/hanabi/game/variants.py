"""Suits and variants as data.

A suit says which clues touch it and how many copies of each rank it has; a variant is a
named list of suits. The rules engine only ever asks these objects questions, so a new suit
kind is a new :class:`Suit` value, not new rules code.
"""

from __future__ import annotations

from dataclasses import dataclass, field

RANKS: tuple[int, ...] = (1, 2, 3, 4, 5)
NORMAL_COPIES: tuple[int, ...] = (3, 2, 2, 2, 1)
ONE_OF_EACH_COPIES: tuple[int, ...] = (1, 1, 1, 1, 1)


@dataclass(frozen=True)
class Suit:
    """One suit of cards.

    ``color`` is the suit's own clue colour (added to the variant's clue colours), or None.
    ``touched_by`` lists the clue colours that touch it when neither ``all_colors`` nor
    ``no_colors`` is set; it defaults to the own colour.
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

    @property
    def copies(self) -> tuple[int, ...]:
        """Copies of each rank 1-5 in the deck."""
        return ONE_OF_EACH_COPIES if self.one_of_each else NORMAL_COPIES

    def touched_by_color(self, color: str) -> bool:
        if self.all_colors:
            return True
        if self.no_colors:
            return False
        colors = self.touched_by if self.touched_by is not None else (self.color,)
        return color in colors

    def touched_by_rank(self, card_rank: int, clue_rank: int) -> bool:
        if self.all_ranks:
            return True
        if self.no_ranks:
            return False
        return card_rank == clue_rank

    def to_dict(self) -> dict:
        return {
            "id": self.id,
            "name": self.name,
            "abbreviation": self.abbreviation,
            "color": self.color,
            "touched_by": list(self.touched_by or ((self.color,) if self.color else ())),
            "all_colors": self.all_colors,
            "no_colors": self.no_colors,
            "all_ranks": self.all_ranks,
            "no_ranks": self.no_ranks,
            "one_of_each": self.one_of_each,
            "wild": self.wild,
        }


@dataclass(frozen=True)
class Variant:
    """A named list of suits, and everything the engine derives from it once.

    Cards are small integers: ``suit_index * 5 + rank - 1``. Masks are ints with one bit
    per card identity, so clue touching and knowledge updates are single bit operations.
    """

    id: str
    name: str
    suits: tuple[Suit, ...]
    hanablive_name: str | None = None
    clue_colors: tuple[str, ...] = field(init=False)
    clue_ranks: tuple[int, ...] = field(init=False, default=RANKS)
    firework_suits: tuple[int, ...] = field(init=False)
    copies: tuple[int, ...] = field(init=False)
    color_masks: dict[str, int] = field(init=False, repr=False, compare=False)
    rank_masks: dict[int, int] = field(init=False, repr=False, compare=False)
    all_cards_mask: int = field(init=False, repr=False)
    wild_mask: int = field(init=False, repr=False)

    def __post_init__(self) -> None:
        put = object.__setattr__
        put(self, "clue_colors", tuple(s.color for s in self.suits if s.color))
        put(self, "firework_suits", tuple(i for i, s in enumerate(self.suits) if not s.wild))
        put(self, "copies", tuple(c for s in self.suits for c in s.copies))
        color_masks = {}
        for color in self.clue_colors:
            color_masks[color] = sum(
                1 << card_id(i, r)
                for i, s in enumerate(self.suits)
                if s.touched_by_color(color)
                for r in RANKS
            )
        rank_masks = {}
        for rank in self.clue_ranks:
            rank_masks[rank] = sum(
                1 << card_id(i, r)
                for i, s in enumerate(self.suits)
                for r in RANKS
                if s.touched_by_rank(r, rank)
            )
        put(self, "color_masks", color_masks)
        put(self, "rank_masks", rank_masks)
        put(self, "all_cards_mask", (1 << (5 * len(self.suits))) - 1)
        put(
            self,
            "wild_mask",
            sum(1 << card_id(i, r) for i, s in enumerate(self.suits) if s.wild for r in RANKS),
        )

    @property
    def card_count(self) -> int:
        return sum(self.copies)

    @property
    def max_score(self) -> int:
        return 5 * len(self.firework_suits)

    def suit_index(self, suit_id: str) -> int:
        """Index of a suit by id; raises KeyError for a suit not in this variant."""
        for i, s in enumerate(self.suits):
            if s.id == suit_id:
                return i
        raise KeyError(suit_id)

    def deck(self) -> list[int]:
        """Every card of the variant in a canonical order (suit by suit, rank by rank)."""
        return [c for c, n in enumerate(self.copies) for _ in range(n)]

    def card(self, card: int) -> tuple[str, int]:
        """(suit id, rank) of a card id."""
        return self.suits[card // 5].id, card % 5 + 1

    def card_dict(self, card: int) -> dict:
        return {"suit": self.suits[card // 5].id, "rank": card % 5 + 1}

    def card_of(self, suit_id: str, rank: int) -> int:
        """Card id of a (suit id, rank) pair; raises KeyError or ValueError if invalid."""
        if type(rank) is not int or rank not in RANKS:  # not True or 1.0 either
            raise ValueError(f"rank {rank!r} is not 1-5")
        return card_id(self.suit_index(suit_id), rank)

    def wild_fireworks(self, mask: int, fireworks: list[int]) -> list[int]:
        """Fireworks (suit indexes) that a wild card with an identity in ``mask`` could be
        played on, given each firework's height: the rule for when a play must name one."""
        wild = mask & self.wild_mask
        if not wild:
            return []
        ranks = {c % 5 + 1 for c in self.cards_in(wild)}
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

    def to_dict(self) -> dict:
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


def card_id(suit_index: int, rank: int) -> int:
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


def get_variant(variant_id: str) -> Variant:
    """The shipped variant with this id; raises KeyError for an unknown id."""
    return VARIANTS[variant_id]
