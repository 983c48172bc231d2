"""Per-seat views: JSON-ready dicts holding exactly what a viewer may see.

While the game is on, a seat sees every other hand but only ``order`` and knowledge of its
own cards; a spectator sees public information only. Once the game is over, everyone sees
everything (docs/rules.md, "What everyone can see").
"""

from __future__ import annotations

from typing import Any

from .engine import Game
from .knowledge import deduce_hand, visible_counts

Card = dict[str, Any]


def view(game: Game, seat: int) -> dict[str, Any]:
    """What ``seat`` may see."""
    if not 0 <= seat < game.num_players:
        raise ValueError(f"no seat {seat} in a {game.num_players}-player game")
    return _build(game, seat, reveal=game.is_over)


def spectator_view(game: Game) -> dict[str, Any]:
    """Public information only (every hand's identities hidden) while the game is on."""
    return _build(game, None, reveal=game.is_over)


def full_view(game: Game) -> dict[str, Any]:
    """Everything, for finished games, replays and tests."""
    return _build(game, None, reveal=True)


# The ranks whose bits are set in each 5-bit slice of a knowledge mask (one slice a suit).
_RANKS_OF = [tuple(r for r in range(1, 6) if chunk >> (r - 1) & 1) for chunk in range(32)]


def possible_dict(game: Game, mask: int) -> dict[str, list[int]]:
    """A knowledge mask as {suit id: [ranks]} (suits with no possible rank left out)."""
    out: dict[str, list[int]] = {}
    for suit in game.variant.suits:
        chunk = mask & 31
        if chunk:
            out[suit.id] = list(_RANKS_OF[chunk])
        mask >>= 5
    return out


def _build(game: Game, viewer: int | None, reveal: bool) -> dict[str, Any]:
    variant = game.variant
    deck = game.deck
    n = game.num_players
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
        deduced = deduce_hand(game, holder, visible_counts(game, hidden))
        shown = reveal or (viewer is not None and holder != viewer)
        cards = []
        for order, mask in zip(game.hands[holder], deduced, strict=True):
            card = deck[order]
            clues = game.card_clues.get(order, ())
            cards.append(
                {
                    "order": order,
                    "suit": variant.suits[card // 5].id if shown else None,
                    "rank": card % 5 + 1 if shown else None,
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
    return {
        "variant": variant.id,
        "options": game.setup.options.to_dict(),
        "players": list(game.setup.players),
        "you": viewer,
        "turn": game.turn,
        "current_seat": None if game.is_over else game.current,
        "clue_tokens": game.clue_tokens,
        "strikes": game.strikes,
        "deck_size": game.deck_size,
        "score": game.score,
        "max_score": max_score,
        # once the game is over no discard is left to afford: no pace
        "pace": None if game.is_over else game.pace(max_score),
        "fireworks": {variant.suits[f].id: game.fireworks[f] for f in variant.firework_suits},
        "hands": hands,
        "discards": [
            {"order": order, **variant.card_dict(deck[order]), "misplayed": order in game.misplays}
            for order in game.discards
        ],
        "clues": [{**c, "touched": list(c["touched"])} for c in game.clues],
        "turns_left": game.turns_left,
        "legal_actions": [a.to_dict() for a in game.legal_actions()] if is_turn else [],
        "result": dict(game.result) if game.result else None,
    }


def redact_event(event: dict[str, Any], viewer: int | None, game_over: bool) -> dict[str, Any]:
    """An event as ``viewer`` (a seat, or None for a spectator) may see it.

    Only draws carry hidden information: a seat does not see the cards it draws, and a
    spectator sees no drawn card, until the game is over. Other events are public.
    """
    if game_over or event.get("type") != "draw":
        return event
    if viewer is not None and event["seat"] != viewer:
        return event
    return {**event, "suit": None, "rank": None}
