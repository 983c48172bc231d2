"""The actions the seat to move may take, as the rules allow them right now.

Built from precomputed per-variant clue masks, so listing them costs O(players x clues),
never a look at hidden information beyond what the rules themselves decide on.
"""

from __future__ import annotations

from collections.abc import Collection
from typing import TYPE_CHECKING

from .actions import CLUE, PLAY, Action
from .plan import COLOR, DISCARDS, PLAYS, RANK

if TYPE_CHECKING:
    from .game import Game

__all__ = ["COLOR", "RANK", "legal_actions", "legal_actions_unseen"]


def legal_actions(game: Game) -> list[Action]:
    """Every action the seat to move may take (empty once the game is over)."""
    if game.result is not None:
        return []
    seat = game.current
    hand = game.hands[seat]
    plan = game.plan
    if plan.wild:
        out = _wild_plays(game, hand)
    else:
        out = [PLAYS[order] for order in hand]
    tokens = game.clue_tokens
    if game.deck_plays and game.deck_play_allowed():
        deck_card = game.next_draw
        out.append(PLAYS[deck_card])
        if tokens < plan.max_tokens or plan.inverted:
            out += [DISCARDS[order] for order in hand]
            if plan.inverted:
                out.append(DISCARDS[deck_card])
    elif tokens < plan.max_tokens or plan.inverted:
        out += [DISCARDS[order] for order in hand]
    if tokens >= plan.clue_unit:
        # The clues that touch a card of the target's hand (or may touch none), as one
        # bitmask; the table gives their actions in the listing order.
        always = game.always_clues
        allowed = plan.allowed[game.last_clue_kind] if plan.alternating else -1
        bits_of = plan.clue_bits
        deck = game.deck
        hands = game.hands
        tables = game.clue_tables
        for target in game.targets[seat]:
            bits = always
            for order in hands[target]:
                bits |= bits_of[deck[order]]
            bits &= allowed
            table = tables[target]
            clues = table.get(bits)
            if clues is None:
                clues = table[bits] = plan.clue_list(target, bits)
            out += clues
    return out


def _wild_plays(game: Game, hand: list[int]) -> list[Action]:
    """Plays in a variant with wild cards: a card that may be wild and fit more than one
    firework (from what its holder was told) is offered once per firework."""
    variant = game.variant
    out: list[Action] = []
    for order in hand:
        choices = game.wild_choices(order)
        if len(choices) > 1:
            out += [Action(PLAY, card=order, firework=variant.suits[f].id) for f in choices]
        else:
            out.append(PLAYS[order])
    return out


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
    clues = game.plan.clue_actions(game.num_players)
    targets = [(game.current + k) % game.num_players for k in range(1, game.num_players)]
    for target in targets:
        if not unseen.isdisjoint(game.hands[target]):
            offered.update(action for _, action, kind in clues[target] if kind != last)
    rest = [a for a in out if a.type != CLUE]
    return rest + [a for t in targets for _, a, _ in clues[t] if a in offered]
