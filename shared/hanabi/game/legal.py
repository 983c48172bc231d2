"""The actions the seat to move may take, as the rules allow them right now.

Built from precomputed per-variant clue masks, so listing them costs O(players x clues),
never a look at hidden information beyond what the rules themselves decide on.
"""

from __future__ import annotations

import functools
from collections.abc import Collection
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


def legal_actions_unseen(game: Game, hidden: Collection[int]) -> list[Action]:
    """The seat to move's legal actions as shown to someone who does not see the cards
    ``hidden`` (orders): a shared replay's followers while a hypothetical hides its draws.

    :func:`legal_actions` offers a clue only when it touches a card (unless the rules allow
    empty clues), which tells whoever reads the list something of every card in the
    target's hand. So here a target holding a hidden card is offered every clue the
    variant gives (of the kind the rules allow now); one that would touch nothing is the
    engine's to refuse when it is sent (``empty_clue``), as it refuses any illegal move.
    Plays and discards name cards by order and depend on public knowledge only: they are
    :func:`legal_actions`' own. Views only; a seat's own list in a play needs none of this
    (it sees every hand a clue goes to).
    """
    out = legal_actions(game)
    if not hidden or not out or game.clue_tokens < game.variant.clue_unit:
        return out  # no clue may be given: nothing else to offer
    unseen = set(hidden)
    offered = {a for a in out if a.type == CLUE}
    last = game.last_clue_kind if game.variant.rules.alternating_clues else None
    clues = _clue_actions(game.variant, game.num_players)
    targets = [(game.current + k) % game.num_players for k in range(1, game.num_players)]
    for target in targets:
        if not unseen.isdisjoint(game.hands[target]):
            offered.update(action for _, action, kind in clues[target] if kind != last)
    rest = [a for a in out if a.type != CLUE]
    return rest + [a for t in targets for _, a, _ in clues[t] if a in offered]
