"""Helpers for the rules-engine tests: exact deals, compact card names, state capture.

Exact situations are built from explicit decks: ``make_game("rainbow", 2, hands=[...])``
deals the given hands (in deal order, so the first card of a seat is its lowest order),
then the given draws, then the rest of the variant's cards in canonical order.
Cards are written ``"r1"``, ``"m5"``, ``"k3"`` (suit abbreviation + rank) or as
``(suit id, rank)`` pairs.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from types import SimpleNamespace
from typing import Any

import pytest

from hanabi.game import HAND_SIZES, Action, Game, Options, Setup, full_view, get_variant

CardSpec = str | tuple[str, int]


def parse_card(variant_id: str, spec: CardSpec) -> tuple[str, int]:
    """(suit id, rank) of ``"r1"``-style or pair notation in a variant."""
    if not isinstance(spec, str):
        return spec[0], spec[1]
    letter, rank = spec[0].upper(), int(spec[1:])
    for suit in get_variant(variant_id).suits:
        if suit.abbreviation == letter:
            return suit.id, rank
    raise ValueError(f"no suit {letter} in {variant_id}")


def parse_cards(variant_id: str, specs: str | Iterable[CardSpec]) -> list[tuple[str, int]]:
    if isinstance(specs, str):
        specs = specs.split()
    return [parse_card(variant_id, s) for s in specs]


def deck_of(variant_id: str, top: str | Iterable[CardSpec] = ()) -> list[tuple[str, int]]:
    """A full deck of the variant starting with ``top``, completed in canonical order."""
    variant = get_variant(variant_id)
    first = parse_cards(variant_id, top)
    rest = [variant.card(c) for c in variant.deck()]
    for card in first:
        rest.remove(card)  # ValueError: more copies asked for than the variant has
    return first + rest


def setup_of(
    variant_id: str = "no_variant",
    players: int = 2,
    hands: Sequence[str | Iterable[CardSpec]] = (),
    draws: str | Iterable[CardSpec] = (),
    options: dict[str, bool] | None = None,
) -> Setup:
    """A setup dealing ``hands`` (one per seat, deal order; missing seats get whatever the
    canonical completion puts there) and then ``draws``."""
    size = HAND_SIZES[players]
    top: list[tuple[str, int]] = []
    for seat_cards in hands:
        cards = parse_cards(variant_id, seat_cards)
        assert len(cards) == size, f"a hand of {players} players holds {size} cards"
        top += cards
    if draws:
        assert len(hands) == players, "draws need every hand given"
    top += parse_cards(variant_id, draws)
    return Setup.create(
        variant_id, players, options=Options(**(options or {})), deck=deck_of(variant_id, top)
    )


def game_of(*args: Any, **kwargs: Any) -> Game:
    return Game(setup_of(*args, **kwargs))


def state(game: Game) -> dict[str, Any]:
    """Everything about a game, JSON-normalised, for equality checks."""
    return json.loads(
        json.dumps(
            {
                "snapshot": game.snapshot(),
                "actions": [a.to_dict() for a in game.actions],
                "full_view": full_view(game),
            }
        )
    )


def order_of(game: Game, seat: int, index: int) -> int:
    """Order of the ``index``-th card dealt to ``seat`` (0 = its first, oldest card)."""
    return seat * game.hand_size + index


def playable(game: Game, order: int) -> bool:
    """Whether a card (any card, hidden or not) would be played successfully now."""
    card = game.deck[order]
    suit, height = divmod(card, 5)
    variant = game.variant
    if variant.suits[suit].wild:
        return any(game.fireworks[f] == height for f in variant.firework_suits)
    return game.fireworks[suit] == height


def play_action(game: Game, order: int) -> Action:
    """A play of ``order`` that succeeds if the card is playable.

    It names a firework only where the rules ask for one (the holder's knowledge allows
    more than one firework for a wild card).
    """
    if len(game.wild_choices(order)) <= 1:
        return Action.play(order)
    card = game.deck[order]
    suit, height = divmod(card, 5)
    variant = game.variant
    if not variant.suits[suit].wild:
        return Action.play(order, variant.suits[suit].id)
    takers = [f for f in variant.firework_suits if game.fireworks[f] == height]
    return Action.play(order, variant.suits[(takers or variant.firework_suits)[0]].id)


def dead(game: Game, order: int) -> bool:
    """Whether a card can never be played any more (its rank is already on its firework)."""
    suit, height = divmod(game.deck[order], 5)
    variant = game.variant
    if variant.suits[suit].wild:
        return all(game.fireworks[f] > height for f in variant.firework_suits)
    return game.fireworks[suit] > height


def cheat_step(game: Game) -> Action:
    """A strong full-knowledge move: play a playable card, else discard the least useful
    card (dead, then duplicated, then not the last copy), else clue."""
    hand = game.hands[game.current]
    for order in hand:
        if playable(game, order):
            return play_action(game, order)
    if game.clue_tokens == 8:
        return next(a for a in game.legal_actions() if a.type == "clue")
    deck = game.deck
    oldest_first = hand[::-1]
    held = [deck[o] for h in game.hands for o in h]
    for keep_if in (
        lambda o: not dead(game, o),
        lambda o: held.count(deck[o]) < 2,
        lambda o: game.variant.copies[deck[o]] - game.discarded[deck[o]] < 2,
    ):
        for order in oldest_first:
            if not keep_if(order):
                return Action.discard(order)
    return Action.discard(hand[-1])


def identity(game: Game, order: int) -> tuple[str, int]:
    """(suit id, rank) of any card of the game."""
    return game.variant.card(game.deck[order])


@pytest.fixture(scope="session")
def kit() -> SimpleNamespace:
    """The helpers above, for tests (conftest modules are not importable)."""
    return SimpleNamespace(
        card=parse_card,
        deck=deck_of,
        setup=setup_of,
        game=game_of,
        state=state,
        order=order_of,
        identity=identity,
        playable=playable,
        play=play_action,
        cheat=cheat_step,
    )


@pytest.fixture(scope="session")
def make_deck():
    return deck_of


@pytest.fixture(scope="session")
def make_setup():
    return setup_of


@pytest.fixture(scope="session")
def make_game():
    return game_of
