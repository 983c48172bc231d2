"""The actions the seat to move may take, as the rules allow them right now.

Built from precomputed per-variant clue masks, so listing them costs O(players x clues),
never a look at hidden information beyond what the rules themselves decide on.
"""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING

from .actions import CLUE, DISCARD, PLAY, Action
from .variants import Variant

if TYPE_CHECKING:
    from .game import Game

COLOR, RANK = 0, 1  # clue kinds, for Alternating Clues


def legal_actions(game: Game) -> list[Action]:
    """Every action the seat to move may take (empty once the game is over)."""
    if game.result is not None:
        return []
    seat = game.current
    hand = game.hands[seat]
    variant = game.variant
    if variant.wild_mask:
        out: list[Action] = []
        for order in hand:
            choices = game.wild_choices(order)
            if len(choices) > 1:
                out += [Action(PLAY, card=order, firework=variant.suits[f].id) for f in choices]
            else:
                out.append(_PLAYS[order])
    else:
        out = [_PLAYS[order] for order in hand]
    deck_card = game.next_draw if game.deck_play_allowed() else None
    if deck_card is not None:
        out.append(_PLAYS[deck_card])
    if game.clue_tokens < game.max_clue_tokens or variant.inverted_mask:
        out += [_DISCARDS[order] for order in hand]
        if deck_card is not None and variant.inverted_mask:
            out.append(_DISCARDS[deck_card])
    if game.clue_tokens >= variant.clue_unit:
        empty_ok = game.setup.options.empty_clues
        rules = variant.rules
        free = (rules.color_clues_touch_nothing, rules.rank_clues_touch_nothing)
        last = game.last_clue_kind if rules.alternating_clues else None
        deck = game.deck
        clues = _clue_actions(variant, game.num_players)
        for offset in range(1, game.num_players):
            target = (seat + offset) % game.num_players
            present = 0
            for order in game.hands[target]:
                present |= 1 << deck[order]
            for mask, action, kind in clues[target]:
                if kind != last and (empty_ok or free[kind] or present & mask):
                    out.append(action)
    return out


_PLAYS = [Action(PLAY, card=order) for order in range(256)]
_DISCARDS = [Action(DISCARD, card=order) for order in range(256)]


@functools.cache
def _clue_actions(variant: Variant, num_players: int) -> list[list[tuple[int, Action, int]]]:
    """Per target seat, every clue (colours, then ranks) with the mask of cards it touches
    and its kind. Shared by all games of a variant and table size: legal_actions() only
    filters them."""
    return [
        [(m, Action(CLUE, target=t, color=c), COLOR) for c, m in variant.color_masks.items()]
        + [(m, Action(CLUE, target=t, rank=r), RANK) for r, m in variant.rank_masks.items()]
        for t in range(num_players)
    ]
