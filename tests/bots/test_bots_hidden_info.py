"""A bot cannot reach hidden information: not the deck, not its own cards."""

from __future__ import annotations

import gc
import random
import types

import pytest

from hanabi.bots import STRATEGIES, choose_action, make_bot, seat_events
from hanabi.game import Game, IllegalAction, Setup

_OPAQUE = (type, types.ModuleType, types.FunctionType, types.BuiltinFunctionType, types.CodeType)


def reachable(root: object) -> list[object]:
    """Every object reachable from ``root`` through references, except classes, modules
    and functions (shared program code, not game data)."""
    seen: dict[int, object] = {}
    stack = [root]
    while stack:
        obj = stack.pop()
        if id(obj) in seen or isinstance(obj, _OPAQUE):
            continue
        seen[id(obj)] = obj
        stack.extend(gc.get_referents(obj))
    return list(seen.values())


def bots_mid_game(strategy: str, seed: str, players: int, turns: int):
    game = Game(Setup.create("no_variant", players, seed=seed))
    bots = [make_bot(strategy, "no_variant", players, s) for s in range(players)]
    for s, bot in enumerate(bots):
        bot.observe(seat_events(game.deal_events(), s))
    while not game.is_over and game.turn < turns:
        events = game.apply(bots[game.current].act())
        for s, bot in enumerate(bots):
            bot.observe(seat_events(events, s))
    return game, bots


@pytest.mark.parametrize("strategy", sorted(STRATEGIES))
def test_bot_holds_no_reference_to_the_game(strategy: str) -> None:
    game, bots = bots_mid_game(strategy, "gc", 4, 25)
    forbidden = {id(game), id(game.deck), id(game.hands), id(game.told), id(game.card_clues)}
    forbidden |= {id(hand) for hand in game.hands}
    for bot in bots:
        objs = reachable(bot)
        assert not [o for o in objs if id(o) in forbidden]
        assert not [o for o in objs if isinstance(o, Game)]
        # Nothing the bot holds lists its own cards' identities.
        own = set(game.hands[bot.seat])
        card = bot.obs.card
        assert all(card[order] == -1 for order in own)


def swapped_twin(game: Game, seat: int, rng: random.Random) -> Game | None:
    """The same game with ``seat``'s cards replaced by other identities that every clue it
    received allows (taken from the undrawn deck), or None if no such swap exists."""
    deck = list(game.deck)
    swapped = False
    for order in game.hands[seat]:
        allowed = game.told[order]
        candidates = [
            p
            for p in range(game.next_draw, len(deck))
            if deck[p] != deck[order] and allowed >> deck[p] & 1
        ]
        if candidates:
            p = rng.choice(candidates)
            deck[order], deck[p] = deck[p], deck[order]
            swapped = True
    if not swapped:
        return None
    variant = game.variant
    setup = Setup.create(
        game.setup.variant, list(game.setup.players), seed=game.setup.seed,
        deck=[variant.card(c) for c in deck],
    )  # fmt: skip
    twin = Game(setup)
    try:
        for action in game.actions:
            twin.apply(action)
    except IllegalAction:
        return None
    return twin


def seat_log(game: Game, seat: int) -> list[dict]:
    replay = Game(game.setup)
    log = seat_events(replay.deal_events(), seat)
    for action in game.actions:
        log += seat_events(replay.apply(action), seat)
    return log


@pytest.mark.parametrize("strategy", sorted(STRATEGIES))
def test_own_cards_do_not_change_decisions(strategy: str) -> None:
    """Swapping a seat's own cards for other identities (consistent with its clues) leaves
    its log unchanged, and so must leave its decision unchanged."""
    rng = random.Random(7)
    checked = 0
    for i in range(40):
        players = 2 + i % 4
        game, _ = bots_mid_game(strategy, f"swap-{i}", players, rng.randrange(1, 40))
        if game.is_over:
            continue
        seat = game.current
        twin = swapped_twin(game, seat, rng)
        if twin is None:
            continue
        assert [twin.deck[o] for o in twin.hands[seat]] != [game.deck[o] for o in game.hands[seat]]
        assert seat_log(twin, seat) == seat_log(game, seat)
        assert choose_action(strategy, twin, seat) == choose_action(strategy, game, seat)
        checked += 1
    assert checked >= 20


@pytest.mark.parametrize("strategy", sorted(STRATEGIES))
def test_stateless_replay_matches_incremental_play(strategy: str) -> None:
    """choose_action (rebuilt from the log) decides exactly what the live bot decided."""
    for seed, players in (("live-1", 2), ("live-2", 3), ("live-3", 5)):
        game = Game(Setup.create("no_variant", players, seed=seed))
        bots = [make_bot(strategy, "no_variant", players, s) for s in range(players)]
        for s, bot in enumerate(bots):
            bot.observe(seat_events(game.deal_events(), s))
        while not game.is_over:
            action = bots[game.current].act()
            if game.turn % 7 == 0:
                assert choose_action(strategy, game, game.current) == action
            events = game.apply(action)
            for s, bot in enumerate(bots):
                bot.observe(seat_events(events, s))
