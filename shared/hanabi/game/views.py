"""Per-seat views: JSON-ready dicts holding exactly what a viewer may see.

While the game is on, a seat sees every other hand but only ``order`` and knowledge of its
own cards; a spectator sees public information only. Once the game is over, everyone sees
everything (docs/rules.md, "What everyone can see").
"""

from __future__ import annotations

from typing import Any

from .fireworks import Direction
from .game import Game
from .knowledge import deduce_hand, visible_counts
from .variants import Variant

Card = dict[str, Any]


def view(game: Game, seat: int) -> dict[str, Any]:
    """What ``seat`` may see."""
    if not 0 <= seat < game.num_players:
        raise ValueError(f"no seat {seat} in a {game.num_players}-player game")
    return _build(game, seat, reveal=game.is_over)


def spectator_view(game: Game) -> dict[str, Any]:
    """Public information only (every hand's identities hidden) while the game is on."""
    return _build(game, None, reveal=game.is_over)


def public_view(game: Game) -> dict[str, Any]:
    """Public information only, even once the game is over: what a spectator saw while it
    was on (a deal some viewers may not see yet; hanabi.server's seed names)."""
    return _build(game, None, reveal=False)


def full_view(game: Game) -> dict[str, Any]:
    """Everything, for finished games, replays and tests."""
    return _build(game, None, reveal=True)


# The ranks whose bits are set in each 5-bit slice of a knowledge mask (one slice a suit).
_RANKS_OF = [tuple(r for r in range(1, 6) if chunk >> (r - 1) & 1) for chunk in range(32)]
_SLOT_RANKS = (1, 2, 3, 4, 5, 7)  # a 6-bit slice (Up or Down) ends with the START card


def possible_dict(game: Game, mask: int) -> dict[str, list[int]]:
    """A knowledge mask as {suit id: [ranks]} (suits with no possible rank left out)."""
    out: dict[str, list[int]] = {}
    stride = game.variant.stride
    if stride == 5:
        for suit in game.variant.suits:
            chunk = mask & 31
            if chunk:
                out[suit.id] = list(_RANKS_OF[chunk])
            mask >>= 5
        return out
    full = (1 << stride) - 1
    for suit in game.variant.suits:
        chunk = mask & full
        if chunk:
            out[suit.id] = [r for i, r in enumerate(_SLOT_RANKS) if chunk >> i & 1]
        mask >>= stride
    return out


def clue_tokens(game: Game) -> int | float:
    """Clue tokens as people count them: halves in Clue Starved."""
    unit = game.variant.clue_unit
    if unit == 1:
        return game.clue_tokens
    whole, half = divmod(game.clue_tokens, unit)
    return whole if not half else whole + 0.5


def public_clue(variant: Variant, clue: dict[str, Any]) -> dict[str, Any]:
    """A clue as the table hears it: in Cow & Pig only its kind ("moo" for a colour,
    "oink" for a rank), in Duck nothing but the cards pointed at."""
    rules = variant.rules
    if not rules.hides_clues:
        return clue
    out = {**clue, "color": None, "rank": None}
    if rules.cow_and_pig:
        out["sound"] = "moo" if clue.get("color") is not None else "oink"
    else:
        out["sound"] = "quack"
    return out


def _build(game: Game, viewer: int | None, reveal: bool) -> dict[str, Any]:
    variant = game.variant
    deck = game.deck
    n = game.num_players
    hole = variant.rules.throw_it_in_a_hole and not reveal
    hands = []
    for holder in range(n):
        # Deduce from what both the holder and the viewer can see: never from the viewer's
        # own cards, which would tell the viewer about them.
        if reveal:
            hidden = {holder}
        elif viewer is None:
            hidden = set(range(n))
        else:
            hidden = {holder, viewer}
        deduced = deduce_hand(game, holder, visible_counts(game, hidden, reveal))
        shown = reveal or (viewer is not None and holder != viewer)
        cards = []
        for order, mask in zip(game.hands[holder], deduced, strict=True):
            card = deck[order]
            clues = game.card_clues.get(order, ())
            if not reveal:
                clues = [public_clue(variant, c) for c in clues]
            cards.append(
                {
                    "order": order,
                    "suit": variant.suits[variant.suit_of[card]].id if shown else None,
                    "rank": variant.rank_of[card] if shown else None,
                    "knowledge": {
                        "clued": bool(clues),
                        "clues": [{"color": c["color"], "rank": c["rank"]} for c in clues],
                        "possible": possible_dict(game, game.told[order]),
                        "deduced": possible_dict(game, mask),
                    },
                }
            )
        hands.append(cards)
    max_score = game.max_score_possible()
    is_turn = viewer is not None and viewer == game.current and not game.is_over
    out = {
        "variant": variant.id,
        "options": game.setup.options.to_dict(),
        "players": list(game.setup.players),
        "you": viewer,
        "turn": game.turn,
        "current_seat": None if game.is_over else game.current,
        "clue_tokens": clue_tokens(game),
        "strikes": game.strikes,
        "deck_size": game.deck_size,
        "score": None if hole else game.score,
        "max_score": None if hole else max_score,
        # once the game is over no discard is left to afford: no pace
        "pace": None if hole or game.is_over else game.pace(max_score),
        "fireworks": {
            variant.suits[f].id: None if hole else game.fireworks[f] for f in variant.firework_suits
        },
        "hands": hands,
        "discards": [
            {"order": order, **variant.card_dict(deck[order]), "misplayed": order in game.misplays}
            for order in game.discards
            if not (hole and order in game.misplays)
        ],
        "clues": [
            {**(c if reveal else public_clue(variant, c)), "touched": list(c["touched"])}
            for c in game.clues
        ],
        "turns_left": game.turns_left,
        "legal_actions": [a.to_dict() for a in game.legal_actions()] if is_turn else [],
        "result": dict(game.result) if game.result else None,
    }
    if hole:
        # say why score and fireworks are null, so clients word it ("hidden until the end")
        out["score_hidden"] = "throw_it_in_a_hole"
        out["hole"] = sorted([o for stack in game.stacks for o in stack] + list(game.misplays))
    if variant.reversible or variant.rules.sudoku:
        out["firework_states"] = None if hole else _firework_states(game)
    return out


def _firework_states(game: Game) -> dict[str, dict[str, Any]]:
    """Where each firework stands when it is not simply 1 up to 5: its last rank, the way
    it goes, its first rank (Sudoku) and the ranks it takes next."""
    variant = game.variant
    return {
        variant.suits[f].id: {
            "top": game.tops[f] or None,
            "direction": Direction(game.directions[f]).name.lower(),
            "start": game.starts[f] or None,
            "next": list(game.next_ranks(f)),
        }
        for f in variant.firework_suits
    }


def redact_event(
    event: dict[str, Any], viewer: int | None, game_over: bool, variant: Variant | None = None
) -> dict[str, Any]:
    """An event as ``viewer`` (a seat, or None for a spectator) may see it.

    Draws carry hidden information: a seat does not see the cards it draws, and a
    spectator sees no drawn card, until the game is over. Given the ``variant``, its rules
    hide more: the cards thrown in the hole (Throw It in a Hole) and what a clue was (Cow &
    Pig, Duck). Other events are public.
    """
    if game_over:
        return event
    kind = event.get("type")
    if variant is not None:
        rules = variant.rules
        if rules.throw_it_in_a_hole and kind in ("play", "misplay"):
            return {**event, "suit": None, "rank": None, "firework": None}
        if rules.hides_clues and kind == "clue":
            return public_clue(variant, event)
    if kind != "draw":
        return event
    if viewer is not None and event["seat"] != viewer:
        return event
    return {**event, "suit": None, "rank": None}
