"""Playing and discarding a card: the firework it goes to, the strike, the clue token won
back, the best score still reachable, and the card drawn in its place.

Two paths, one set of rules. The plain path serves every variant whose plan says no
special play rule applies (:attr:`Plan.plain <hanabi.game.plan.Plan.plain>`: fireworks
1 to 5 upwards, no wild or inverted card, no Sudoku, no deck plays) and asks nothing but
the firework's height; the general path asks :mod:`.fireworks` for every other variant.
Both produce the same state and the same events (tests/game's differential tests against
hanab.live's replays and the properties hold either way).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from . import ending
from .actions import DISCARD, Action
from .errors import IllegalAction
from .fireworks import Direction, direction_after, suit_max

if TYPE_CHECKING:
    from .game import Game

FINISHED = Direction.FINISHED


def play_or_discard(game: Game, action: Action, actor: int, turn: int) -> list[dict[str, Any]]:
    """Apply a play or discard by ``actor`` (the seat to move) and return its events;
    raises :class:`IllegalAction` and changes nothing if the rules refuse it."""
    if not game.plain or action.firework is not None:
        return _general(game, action, actor, turn)
    order = action.card
    hand = game.hands[actor]
    if type(order) is not int or order not in hand:  # True and 1.0 are not card 1
        raise IllegalAction(
            "card_not_in_hand", "Card {card} is not in your hand.", card=repr(order)
        )
    plan = game.plan
    deck = game.deck
    card = deck[order]
    names = plan.event_names
    suit_id, rank = names[card]
    events: list[dict[str, Any]]
    reshaped = False
    if action.type == DISCARD:
        if game.clue_tokens >= plan.max_tokens:
            raise IllegalAction(
                "clue_tokens_full", "You cannot discard while all 8 clue tokens are available."
            )
        hand.remove(order)
        game.clue_tokens += 1
        game.discards.append(order)
        game.discarded[card] += 1
        game.live[card] -= 1
        events = [
            {"type": "discard", "turn": turn, "seat": actor, "card": order, "suit": suit_id,
             "rank": rank, "clue_tokens": game.clue_tokens}
        ]  # fmt: skip
    else:
        hand.remove(order)
        variant = game.variant
        suit = variant.suit_of[card]
        game.live[card] -= 1
        fireworks = game.fireworks
        if fireworks[suit] == rank - 1:
            fireworks[suit] = rank
            game.tops[suit] = rank
            game.stacks[suit].append(order)
            game.score += 1
            events = [
                {"type": "play", "turn": turn, "seat": actor, "card": order, "suit": suit_id,
                 "rank": rank, "firework": suit_id}
            ]  # fmt: skip
            if rank == 5:
                game.directions[suit] = FINISHED
                reshaped = True
                if not variant.rules.throw_it_in_a_hole and game.clue_tokens < plan.max_tokens:
                    game.clue_tokens += 1
                    events.append(
                        {"type": "clue_token", "turn": turn, "clue_tokens": game.clue_tokens}
                    )
        else:
            game.strikes += 1
            game.discards.append(order)
            game.misplays.add(order)
            game.discarded[card] += 1
            events = [
                {"type": "misplay", "turn": turn, "seat": actor, "card": order, "suit": suit_id,
                 "rank": rank},
                {"type": "strike", "turn": turn, "strikes": game.strikes},
            ]  # fmt: skip
    if reshaped or game.discarded[card] >= game.variant.copies[card]:
        update_max_possible(game, card, reshaped)
    drawn = game.next_draw
    if drawn < len(deck):
        game.next_draw = drawn + 1
        hand.insert(0, drawn)
        suit_id, rank = names[deck[drawn]]
        events.append(
            {"type": "draw", "turn": turn, "seat": actor, "card": drawn, "suit": suit_id,
             "rank": rank}
        )  # fmt: skip
    return events


def _general(game: Game, action: Action, actor: int, turn: int) -> list[dict[str, Any]]:
    """Any variant: wild and inverted cards, reversed suits, Up or Down, Sudoku, deck
    plays, a named firework."""
    order = action.card
    hand = game.hands[actor]
    variant = game.variant
    events: list[dict[str, Any]] = []
    from_deck = type(order) is int and order == game.next_draw and game.deck_play_allowed()
    if from_deck:
        if action.type == DISCARD and not variant.inverted_mask:
            raise IllegalAction(
                "deck_discard", "Only the last card of the deck can be played, not discarded."
            )
        game.next_draw += 1  # drawn and used at once: it never joins the hand
        events.append(card_event(game, "draw", turn, actor, order))
    elif type(order) is not int or order not in hand:  # True and 1.0 are not card 1
        raise IllegalAction(
            "card_not_in_hand", "Card {card} is not in your hand.", card=repr(order)
        )
    card = game.deck[order]
    discard = action.type == DISCARD
    if (
        discard
        and not from_deck
        and game.clue_tokens >= game.plan.max_tokens
        and not variant.inverted_mask  # decided before looking at the card
    ):
        raise IllegalAction(
            "clue_tokens_full", "You cannot discard while all 8 clue tokens are available."
        )
    firework = None
    if not discard:
        firework = firework_for(game, action, order, card)
    inverted = bool(variant.inverted_mask >> card & 1)
    if inverted:
        discard = not discard  # an inverted card does the opposite of what was asked
        firework = variant.suit_of[card]
    if not from_deck:
        hand.remove(order)
    reshaped = False
    if discard:
        _discard(game, order, card, actor, turn, events, inverted)
    else:
        reshaped = _play(game, order, card, firework, actor, turn, events, inverted)
    if reshaped or game.discarded[card] >= variant.copies[card] or variant.wild_mask:
        update_max_possible(game, card, reshaped)
    if not from_deck and game.next_draw < len(game.deck):
        drawn = game.next_draw
        game.next_draw += 1
        hand.insert(0, drawn)
        events.append(card_event(game, "draw", turn, actor, drawn))
    return events


def card_event(game: Game, kind: str, turn: int, seat: int, order: int) -> dict[str, Any]:
    """An event about one card, with its identity (the views hide it from those who may
    not see it)."""
    suit, rank = game.plan.event_names[game.deck[order]]
    return {"type": kind, "turn": turn, "seat": seat, "card": order, "suit": suit, "rank": rank}


def _discard(
    game: Game, order: int, card: int, actor: int, turn: int, events: list, inverted: bool
) -> None:
    if game.clue_tokens < game.plan.max_tokens:
        game.clue_tokens += 1
    game.discards.append(order)
    game.discarded[card] += 1
    game.live[card] -= 1
    event = card_event(game, "discard", turn, actor, order)
    event["clue_tokens"] = game.clue_tokens
    if inverted:
        event["inverted"] = True
    events.append(event)


def _play(
    game: Game,
    order: int,
    card: int,
    firework: int | None,
    actor: int,
    turn: int,
    events: list,
    inverted: bool,
) -> bool:
    """Play a card (or misplay it); True when the play set a firework's direction or
    start, which can change the best score still reachable."""
    variant = game.variant
    rank = variant.rank_of[card]
    if firework is not None and variant.wild_mask:
        ok = game.fireworks[firework] == rank - 1
    else:
        ok = firework is not None and rank in game.next_ranks(firework)
    game.live[card] -= 1
    if not ok:
        game.strikes += 1
        game.discards.append(order)
        game.misplays.add(order)
        game.discarded[card] += 1
        event = card_event(game, "misplay", turn, actor, order)
        if inverted:
            event["inverted"] = True
        events += [event, {"type": "strike", "turn": turn, "strikes": game.strikes}]
        return False
    assert firework is not None
    count = game.fireworks[firework] + 1
    game.fireworks[firework] = count
    game.tops[firework] = rank
    if variant.rules.sudoku and count == 1:
        game.starts[firework] = rank
    before = game.directions[firework]
    direction = direction_after(variant, rank, count, before)
    game.directions[firework] = direction
    game.stacks[firework].append(order)
    game.score += 1
    event = card_event(game, "play", turn, actor, order)
    event["firework"] = variant.suits[firework].id
    if inverted:
        event["inverted"] = True
    events.append(event)
    complete = rank == 5 if variant.wild_mask else direction == Direction.FINISHED
    if (
        complete
        and not variant.rules.throw_it_in_a_hole
        and game.clue_tokens < game.plan.max_tokens
    ):
        game.clue_tokens += 1
        events.append({"type": "clue_token", "turn": turn, "clue_tokens": game.clue_tokens})
    return direction != before or (variant.rules.sudoku and count == 1)


def update_max_possible(game: Game, card: int, reshaped: bool) -> None:
    """hanab.live's running maximum after a play or discard that may change it (the last
    copy of a card gone, a firework that set its way, any move in a wild variant):
    recomputed for the card's own firework, unless the fireworks depend on each other, and
    never raised again once lowered. ``reshaped``: a play set a firework's direction or
    start."""
    variant = game.variant
    if variant.rules.sudoku or variant.wild_mask:
        best = ending.max_score_now(game)
    else:
        suit = variant.suit_of[card]
        base = suit * variant.stride
        copies, discarded = variant.copies, game.discarded
        left = [copies[c] - discarded[c] for c in range(base, base + variant.stride)]
        game.suit_max[suit] = suit_max(variant, left, 0, game.directions[suit])
        best = sum(game.suit_max)
    if best < game.max_possible:
        game.max_possible = best


def firework_for(game: Game, action: Action, order: int, card: int) -> int | None:
    """The firework a played card goes to (None: no firework can take it)."""
    variant = game.variant
    named = None
    if action.firework is not None:
        try:
            named = variant.suit_index(action.firework)
        except KeyError:
            named = None
        if named is None or named not in variant.firework_suits:
            raise IllegalAction(
                "unknown_firework",
                "There is no firework {firework} in this game.",
                firework=repr(action.firework),
            )
    if not variant.wild_mask:
        return variant.suit_of[card]
    # Decided from what the holder was told, before looking at the card: refusing only
    # real wild cards would tell the player which of their cards are wild.
    if named is None and len(game.wild_choices(order)) > 1:
        raise IllegalAction(
            "firework_required",
            "This card may be wild and more than one firework could take it: "
            "name the firework to play it on.",
        )
    suit_index = variant.suit_of[card]
    if not variant.suits[suit_index].wild:
        return suit_index
    rank = variant.rank_of[card]
    takers = [f for f in variant.firework_suits if game.fireworks[f] == rank - 1]
    if len(takers) == 1:
        return takers[0]
    if named in takers:
        return named
    return None
