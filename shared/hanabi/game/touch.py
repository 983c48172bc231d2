"""Which clue touches which card: hanab.live's touch rules, asked once per variant.

:class:`~hanabi.game.variants.Variant` turns the answers into one bitmask per clue, so
the engine never calls these while a game is played. The order of the checks is the rule:
a suit that every colour (or none) touches overrides a special rank, a special rank
overrides prism, and so on, exactly as hanab.live decides it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .variants import Variant

START_RANK = 7
ODD_RANKS = (1, 3, 5)
EVEN_RANKS = (2, 4)


def color_touches(variant: Variant, suit_index: int, rank: int, color_index: int) -> bool:
    """Whether the clue colour ``variant.clue_colors[color_index]`` touches the card."""
    rules = variant.rules
    if rules.color_clues_touch_nothing:
        return False
    suit = variant.suits[suit_index]
    if suit.all_colors:
        return True
    if suit.no_colors:
        return False
    colors = variant.clue_colors
    color = colors[color_index]
    if rules.synesthesia and not suit.no_ranks and colors[(rank - 1) % len(colors)] == color:
        return True  # a card also counts as the colour in its rank's position
    if rank == rules.special_rank:
        if rules.special_rank_all_colors:
            return True
        if rules.special_rank_no_colors:
            return False
    if suit.prism:
        # the colour in the rank's position, wrapping; START counts as rank 0 (the last)
        position = len(colors) - 1 if rank == START_RANK else (rank - 1) % len(colors)
        return colors[position] == color
    return color in suit.colors


def rank_touches(variant: Variant, suit_index: int, rank: int, clue: int) -> bool:
    """Whether the rank clue ``clue`` touches the card (Odds and Evens: 1 odd, 2 even)."""
    rules = variant.rules
    if rules.rank_clues_touch_nothing:
        return False
    suit = variant.suits[suit_index]
    if suit.all_ranks:
        return True
    if suit.no_ranks:
        return False
    if rank == rules.special_rank:
        if rules.special_rank_all_ranks:
            return True
        if rules.special_rank_no_ranks:
            return False
        if rules.special_rank_deceptive:
            # a deceptive card answers to the clue rank in its suit's position, wrapping
            ranks = variant.clue_ranks
            return clue == ranks[suit_index % len(ranks)]
    if rules.odds_and_evens:
        return rank in (ODD_RANKS if clue == 1 else EVEN_RANKS)
    if rules.funnels:
        return rank <= clue
    if rules.chimneys:
        return rank >= clue
    return suit.touched_by_rank(rank, clue)
