"""Giving a clue: checking it, touching cards, telling their holder, and card cycling.

What a clue touches is the variant's data (one bitmask per clue, :mod:`.touch`), so a clue
costs one pass over the target's hand, whatever the variant.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .actions import Action
from .errors import IllegalAction, no_seat
from .plan import COLOR, RANK

if TYPE_CHECKING:
    from .game import Game


def give_clue(game: Game, action: Action, actor: int, turn: int) -> list[dict[str, Any]]:
    """Apply a clue by ``actor`` (the seat to move) and return its events; raises
    :class:`IllegalAction` and changes nothing if the rules refuse it."""
    plan = game.plan
    if game.clue_tokens < plan.clue_unit:
        raise IllegalAction("no_clue_tokens", "There are no clue tokens left to give a clue.")
    target = action.target
    if type(target) is not int or not 0 <= target < game.num_players:
        raise no_seat(target)
    if target == actor:
        raise IllegalAction("clue_to_self", "You cannot give a clue to yourself.")
    color, rank = action.color, action.rank
    if (color is None) == (rank is None):
        raise IllegalAction("invalid_clue", "A clue names exactly one colour or one rank.")
    if color is not None:
        # type checks first: JSON input may bring a list (unhashable) or True (== 1).
        mask = plan.color_masks.get(color) if type(color) is str else None
        if mask is None:
            variant = game.variant
            colors = ", ".join(variant.clue_colors) or "none"
            raise IllegalAction(
                "unknown_color",
                "{color} is not a clue colour of {variant} (colours: {colors}).",
                color=repr(color),
                variant=variant.name,
                colors=colors,
            )
        kind = COLOR
    else:
        mask = plan.rank_masks.get(rank) if type(rank) is int else None
        if mask is None:
            variant = game.variant
            ranks = ", ".join(map(str, variant.clue_ranks)) or "none"
            raise IllegalAction(
                "unknown_rank",
                "{rank} is not a clue rank of {variant} ({ranks}).",
                rank=repr(rank),
                variant=variant.name,
                ranks=ranks,
            )
        kind = RANK
    if plan.alternating and kind == game.last_clue_kind:
        if kind == COLOR:
            raise IllegalAction(
                "alternating_clues", "After that last clue, the next clue must be a rank."
            )
        raise IllegalAction(
            "alternating_clues", "After that last clue, the next clue must be a colour."
        )
    deck = game.deck
    hand = game.hands[target]
    touched = [order for order in hand if mask >> deck[order] & 1]
    # A clue that touches nothing: only with the empty_clues option, or a kind of clue the
    # variant lets touch nothing (the game's always_clues has its bits).
    if not touched and not game.always_clues & plan.kind_bits[kind]:
        raise IllegalAction("empty_clue", "That clue would touch no card, and empty clues are off.")
    # Nothing can be refused from here on: change the state.
    clue = {"turn": turn, "color": color, "rank": rank}
    card_clues = game.card_clues
    for order in touched:
        clues = card_clues.get(order)
        if clues is None:
            card_clues[order] = [clue]
        else:
            clues.append(clue)
    if not plan.hides_clues:  # Cow & Pig, Duck: the holder is not told what it was
        told = game.told
        keep = ~mask
        for order in hand:
            if mask >> deck[order] & 1:
                told[order] &= mask
            else:
                told[order] &= keep
    game.clue_tokens -= plan.clue_unit
    game.last_clue_kind = kind
    event = {"type": "clue", "turn": turn, "seat": actor, "target": target, "color": color,
             "rank": rank, "touched": touched}  # fmt: skip
    # the game's own record: the same, with its own list (callers may change theirs)
    game.clues.append(
        {"type": "clue", "turn": turn, "seat": actor, "target": target, "color": color,
         "rank": rank, "touched": touched[:]}
    )  # fmt: skip
    events = [event]
    if game.card_cycle:
        cycle(game, actor, turn, events)
    return events


def cycle(game: Game, seat: int, turn: int, events: list[dict[str, Any]]) -> None:
    """Card cycling: the giver's oldest card never touched by a clue moves to the newest
    slot (nothing moves when every card was touched or it is already the newest)."""
    hand = game.hands[seat]
    for i in range(len(hand) - 1, -1, -1):
        if hand[i] not in game.card_clues:
            if i > 0:
                order = hand.pop(i)
                hand.insert(0, order)
                events.append({"type": "cycle", "turn": turn, "seat": seat, "card": order})
            return
