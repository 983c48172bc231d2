"""Card knowledge: what a card's holder was told, and what a viewer can deduce.

Knowledge is a bitmask over card ids (see :class:`~hanabi.game.variants.Variant`). Clues
narrow it in the engine (a positive clue keeps the touched identities, a negative one
removes them), which is all a holder is *told*. Deduction also removes identities whose
every copy a viewer can see elsewhere: on the fireworks, in the discards, in other hands.
"""

from __future__ import annotations

from collections.abc import Iterable

from .game import Game


def visible_counts(game: Game, hidden_seats: Iterable[int], reveal: bool = False) -> list[int]:
    """Copies of each card id visible to someone who cannot see ``hidden_seats``' hands.

    In Throw It in a Hole the played and misplayed cards lie face down until the game is
    over (``reveal``): they are not counted.
    """
    deck = game.deck
    counts = [0] * len(game.variant.copies)
    hole = game.variant.rules.throw_it_in_a_hole and not reveal
    if not hole:
        for stack in game.stacks:
            for order in stack:
                counts[deck[order]] += 1
    for order in game.discards:
        if not (hole and order in game.misplays):
            counts[deck[order]] += 1
    hidden = set(hidden_seats)
    for seat, hand in enumerate(game.hands):
        if seat not in hidden:
            for order in hand:
                counts[deck[order]] += 1
    return counts


def exhausted_mask(game: Game, counts: list[int]) -> int:
    """Card ids all of whose copies are among ``counts``."""
    mask = 0
    for card, (seen, copies) in enumerate(zip(counts, game.variant.copies, strict=True)):
        if copies and seen >= copies:
            mask |= 1 << card
    return mask


def deduce_hand(game: Game, seat: int, counts: list[int]) -> list[int]:
    """Deduced masks for the cards of ``seat`` (hand order), given the copies visible to
    whoever is deducing (who must not see this hand).

    Besides the visible copies, a card known exactly counts as a visible copy for the
    other cards of the same hand; that is repeated until nothing changes.
    """
    hand = game.hands[seat]
    masks = [game.told[order] for order in hand]
    counts = list(counts)
    settled = [False] * len(hand)
    while True:
        gone = exhausted_mask(game, counts)
        masks = [m & ~gone if not done else m for m, done in zip(masks, settled, strict=True)]
        changed = False
        for i, mask in enumerate(masks):
            if not settled[i] and mask and mask & (mask - 1) == 0:
                settled[i] = True
                counts[mask.bit_length() - 1] += 1
                changed = True
        if not changed:
            return masks
