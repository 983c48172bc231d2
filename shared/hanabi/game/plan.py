"""What the engine derives from a variant once, so that a move asks tables, not rules.

A :class:`Plan` is built the first time a variant is played (:func:`plan_of`) and kept
on the variant, shared by every game of it. It turns the
variant's data into the shapes the hot paths want: each clue as a bit, each card identity
as the set of clues that touch it, the legal clues for a hand as one table look-up, and
the names a card event carries. It also says whether the plain path applies: no wild or
inverted suit, fireworks that only go up from 1 to 5, no Sudoku, so that a play is legal
on a firework exactly when the firework holds ``rank - 1`` cards. Every special rule stays
data in :class:`~hanabi.game.variants.Variant` and :class:`~hanabi.game.variants.Rules`;
the plan only reads it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .actions import CLUE, DISCARD, PLAY, Action
from .fireworks import initial_directions
from .setup import MAX_CLUE_TOKENS

if TYPE_CHECKING:
    from .variants import Variant

COLOR, RANK = 0, 1  # clue kinds, for Alternating Clues

#: One shared action object per card order: legal_actions() hands these out, never new ones.
PLAYS = tuple(Action(PLAY, card=order) for order in range(256))
DISCARDS = tuple(Action(DISCARD, card=order) for order in range(256))


class Plan:
    """A variant's rules as look-up tables (see the module's docstring).

    Clues are numbered colours first, then ranks, in the variant's order; that is also the
    order legal_actions() lists them in. ``clue_bits[card]`` has bit i set when clue i
    touches the card identity; ``allowed[last_clue_kind]`` masks the clues Alternating
    Clues forbids after the last one (all clues in any other variant).
    """

    __slots__ = (
        "_tables",
        "_targets",
        "all_clues",
        "allowed",
        "alternating",
        "clue_bits",
        "clue_kinds",
        "clue_unit",
        "clues",
        "color_masks",
        "event_names",
        "free_clues",
        "hides_clues",
        "inverted",
        "kind_bits",
        "max_score",
        "max_tokens",
        "plain",
        "rank_masks",
        "start_directions",
        "start_suit_max",
        "told_start",
        "wild",
    )

    def __init__(self, variant: Variant) -> None:
        rules = variant.rules
        clues: list[tuple[int, str | None, int | None, int]] = [
            (m, c, None, COLOR) for c, m in variant.color_masks.items()
        ] + [(m, None, r, RANK) for r, m in variant.rank_masks.items()]
        self.clues = tuple(clues)
        self.clue_kinds = tuple(kind for *_, kind in clues)
        self.clue_bits = tuple(
            sum(1 << i for i, (mask, *_) in enumerate(clues) if mask >> card & 1)
            for card in range(len(variant.copies))
        )
        color_bits = sum(1 << i for i, kind in enumerate(self.clue_kinds) if kind == COLOR)
        rank_bits = sum(1 << i for i, kind in enumerate(self.clue_kinds) if kind == RANK)
        self.all_clues = color_bits | rank_bits
        self.kind_bits = (color_bits, rank_bits)  # by clue kind: COLOR, RANK
        # Clues that may touch nothing under the variant's own rules.
        self.free_clues = (color_bits if rules.color_clues_touch_nothing else 0) | (
            rank_bits if rules.rank_clues_touch_nothing else 0
        )
        if rules.alternating_clues:
            self.allowed = {None: self.all_clues, COLOR: rank_bits, RANK: color_bits}
        else:
            self.allowed = dict.fromkeys((None, COLOR, RANK), self.all_clues)
        self.clue_unit = variant.clue_unit
        self.color_masks = variant.color_masks
        self.rank_masks = variant.rank_masks
        self.alternating = rules.alternating_clues
        self.hides_clues = rules.hides_clues
        self.max_tokens = MAX_CLUE_TOKENS * self.clue_unit
        self.max_score = variant.max_score
        present = sum(1 << c for c, n in enumerate(variant.copies) if n)
        self.told_start = variant.all_cards_mask & present
        self.event_names = tuple(variant.card(c) for c in range(len(variant.copies)))
        self.start_suit_max = tuple(
            variant.stack_size if s in variant.firework_suits else 0
            for s in range(len(variant.suits))
        )
        self.wild = bool(variant.wild_mask)
        self.inverted = bool(variant.inverted_mask)
        self.plain = not (
            variant.wild_mask
            or variant.inverted_mask
            or variant.reversible
            or rules.sudoku
            or rules.stack_size != 5
        )
        self.start_directions = tuple(initial_directions(variant))
        self._tables: dict[int, tuple[dict[int, tuple[Action, ...]], ...]] = {}
        self._targets: dict[int, tuple[tuple[int, ...], ...]] = {}

    def clue_tables(self, num_players: int) -> tuple[dict[int, tuple[Action, ...]], ...]:
        """Per target seat, the legal clues by the set of clues that touch the target's
        hand (a bitmask): filled as hands come, at most one list per set, shared by every
        game of this variant and table size."""
        tables = self._tables.get(num_players)
        if tables is None:
            tables = tuple({} for _ in range(num_players))
            self._tables[num_players] = tables
        return tables

    def targets(self, num_players: int) -> tuple[tuple[int, ...], ...]:
        """Per seat, the seats it may clue, in turn order from the next one."""
        targets = self._targets.get(num_players)
        if targets is None:
            n = num_players
            targets = tuple(tuple((seat + k) % n for k in range(1, n)) for seat in range(n))
            self._targets[num_players] = targets
        return targets

    def clue_list(self, target: int, bits: int) -> tuple[Action, ...]:
        """The clues to ``target`` whose bit is in ``bits``, in the listing order."""
        return tuple(
            Action(CLUE, target=target, color=color, rank=rank)
            for i, (_, color, rank, _) in enumerate(self.clues)
            if bits >> i & 1
        )

    def clue_actions(self, num_players: int) -> list[list[tuple[int, Action, int]]]:
        """Per target seat, every clue with the mask of cards it touches and its kind."""
        return [
            [
                (mask, Action(CLUE, target=t, color=color, rank=rank), kind)
                for mask, color, rank, kind in self.clues
            ]
            for t in range(num_players)
        ]


def plan_of(variant: Variant) -> Plan:
    """The variant's plan, built on first use and kept on the (immutable) variant: the
    variants are built once and cached, so each is planned once per process."""
    plan = variant.__dict__.get("_plan")
    if plan is None:
        plan = Plan(variant)
        object.__setattr__(variant, "_plan", plan)  # a cache, not part of its value
    return plan
