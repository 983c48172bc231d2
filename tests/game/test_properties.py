"""Property tests over random legal games in every variant and table size.

Each game is played by a mix of random legal moves and full-knowledge good moves (so that
games reach deck-outs, perfect scores and wild plays, not only early strikeouts); after
every move the invariants below must hold. The larger run is ``pytest -m slow``.
"""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from hanabi.game import (
    VARIANTS,
    Action,
    Game,
    IllegalAction,
    Setup,
    export_game,
    full_view,
    import_game,
    replay,
    spectator_view,
    view,
)

GAMES = st.fixed_dictionaries(
    {
        "variant": st.sampled_from(sorted(VARIANTS)),
        "players": st.integers(2, 6),
        "seed": st.integers(0, 2**32),
        "smart": st.sampled_from([0.0, 0.5, 0.8, 0.95, 1.0]),
        "reckless": st.sampled_from([0.05, 0.3, 1.0]),
        "empty_clues": st.booleans(),
        "strikeout_keeps_score": st.booleans(),
        "terminate": st.sampled_from([False, False, False, True]),
    }
)


def play_out(kit, params: dict, check) -> Game:
    """Play one random game, calling ``check(game, rng, events)`` before the first move
    and after every move; returns the finished game.

    ``smart`` is the share of full-knowledge moves; of the others, ``reckless`` is the
    share of any legal move, the rest never play (so that more games reach the deck out).
    """
    setup = Setup.create(
        params["variant"],
        params["players"],
        {k: params[k] for k in ("empty_clues", "strikeout_keeps_score")},
        seed=params["seed"],
    )
    game = Game(setup)
    rng = random.Random(params["seed"])
    terminate_at = rng.randrange(80) if params["terminate"] else None
    check(game, rng, [])
    while not game.is_over:
        legal = game.legal_actions()
        if game.turn == terminate_at:
            action = Action.terminate(rng.randrange(game.num_players))
        elif rng.random() < params["smart"]:
            action = kit.cheat(game)
            assert action in legal
        elif rng.random() < params["reckless"]:
            action = rng.choice(legal)
        else:
            action = rng.choice([a for a in legal if a.type != "play"] or legal)
        check(game, rng, game.apply(action))
    return game


def check_invariants(kit, game: Game, events: list[dict]) -> None:
    variant = game.variant
    n = len(game.deck)
    assert n == variant.card_count
    # Every card is in exactly one place: deck, a hand, a firework, the discards.
    in_hands = [o for hand in game.hands for o in hand]
    on_fireworks = [o for stack in game.stacks for o in stack]
    in_deck = list(range(game.next_draw, n))
    assert sorted(in_hands + on_fireworks + game.discards + in_deck) == list(range(n))
    assert game.deck_size == len(in_deck)
    assert game.misplays <= set(game.discards)
    assert all(len(hand) <= game.hand_size for hand in game.hands)
    if game.deck_size and not game.is_over:
        assert all(len(hand) == game.hand_size for hand in game.hands)
    # Tokens, strikes, score.
    assert 0 <= game.clue_tokens <= 8
    assert 0 <= game.strikes <= 3
    assert game.score == sum(game.fireworks[f] for f in variant.firework_suits)
    assert game.score == len(on_fireworks)
    assert all(game.fireworks[i] == 0 for i, s in enumerate(variant.suits) if s.wild)
    for f, stack in enumerate(game.stacks):
        assert [game.deck[o] % 5 + 1 for o in stack] == list(range(1, len(stack) + 1))
        assert all(variant.suits[game.deck[o] // 5].wild or game.deck[o] // 5 == f for o in stack)
    assert game.score <= game.max_score_possible() <= variant.max_score
    if game.is_over:
        assert game.result["score"] <= game.max_score_possible()
    # Every card is still possible for what its holder was told.
    for o in in_hands:
        assert game.told[o] >> game.deck[o] & 1
    # Events.
    for happened in events:
        assert happened["turn"] == game.turn - 1
    if game.turns_left is not None:
        assert game.deck_size == 0
        assert 0 <= game.turns_left <= game.num_players
    if game.is_over:
        check_result(game)


def check_result(game: Game) -> None:
    reason, score = game.result["reason"], game.result["score"]
    if reason == "strikeout":
        assert game.strikes == 3
        assert score == (game.score if game.setup.options.strikeout_keeps_score else 0)
    elif reason == "perfect":
        assert score == game.score == game.variant.max_score
    elif reason == "deck_out":
        assert game.deck_size == 0 and game.turns_left == 0
        assert score == game.score
    else:
        assert reason == "terminated" and score == 0
        assert game.actions[-1].type == "terminate"
    assert game.legal_actions() == []


def check_views(kit, game: Game) -> None:
    """No seat sees its own cards while the game is on; deductions keep the truth."""
    full = full_view(game)
    seen_by = [view(game, s) for s in range(game.num_players)]
    spectator = spectator_view(game)
    for viewer, seen in enumerate(seen_by):
        for holder, hand in enumerate(seen["hands"]):
            hidden = holder == viewer and not game.is_over
            for card, truth in zip(hand, full["hands"][holder]):
                assert card["order"] == truth["order"]
                if hidden:
                    assert card["suit"] is None and card["rank"] is None
                else:
                    assert (card["suit"], card["rank"]) == (truth["suit"], truth["rank"])
        assert seen["legal_actions"] == (
            [{**a.to_dict(), "turn": game.turn} for a in game.legal_actions()]
            if viewer == game.current
            else []
        )
    for hand in spectator["hands"]:
        for card in hand:
            assert (card["suit"] is None) == (not game.is_over)
    for seen in [*seen_by, spectator, full]:
        for hand, truth in zip(seen["hands"], full["hands"]):
            for card, real in zip(hand, truth):
                k = card["knowledge"]
                assert real["rank"] in k["deduced"].get(real["suit"], [])
                for suit, ranks in k["deduced"].items():
                    assert set(ranks) <= set(k["possible"][suit])
    # Public parts are the same for everyone.
    public = {k: v for k, v in full.items() if k not in ("you", "hands", "legal_actions")}
    for seen in [*seen_by, spectator]:
        assert {
            k: v for k, v in seen.items() if k not in ("you", "hands", "legal_actions")
        } == public


def check_own_cards_do_not_show(kit, game: Game, rng: random.Random) -> None:
    """Swap some of a seat's cards with undrawn cards its holder cannot tell apart (their
    identity is in the card's told mask, so every past clue touched it alike): the seat's
    view must not change."""
    seat = rng.randrange(game.num_players)
    snap = json.loads(json.dumps(game.snapshot()))
    deck = snap["deck"]
    swapped = 0
    undrawn = list(range(game.next_draw, len(deck)))
    rng.shuffle(undrawn)
    for order in game.hands[seat]:
        for other in undrawn:
            if deck[other] != deck[order] and game.told[order] >> deck[other] & 1:
                deck[order], deck[other] = deck[other], deck[order]
                undrawn.remove(other)
                swapped += 1
                break
    twin = Game.from_snapshot(game.setup, list(game.actions), snap)
    assert view(twin, seat) == view(game, seat)
    assert spectator_view(twin) == spectator_view(game)
    if swapped:
        assert full_view(twin) != full_view(game)


def check_action_space(game: Game) -> None:
    """An action is accepted exactly when legal_actions() offers it; a play naming a
    firework is always accepted (it is a misplay if that firework cannot take the card)."""
    variant = game.variant
    legal = set(game.legal_actions())
    seat = game.current
    candidates = []
    for order in game.hands[seat]:
        candidates += [Action.play(order), Action.discard(order)]
        candidates += [Action.play(order, variant.suits[f].id) for f in variant.firework_suits]
    for target in range(game.num_players):
        candidates += [Action.clue(target, color=c) for c in variant.clue_colors]
        candidates += [Action.clue(target, rank=r) for r in variant.clue_ranks]
    snap = game.snapshot()
    for action in candidates:
        twin = Game.from_snapshot(game.setup, list(game.actions), snap)
        try:
            twin.apply(action)
            accepted = True
        except IllegalAction:
            accepted = False
        if action.firework is not None:
            assert accepted  # a named play is the holder's choice, right or wrong
        else:
            assert accepted == (action in legal), action
    assert legal <= set(candidates)


VIEW_SHARE = 0.15


def run_properties(kit, params: dict) -> None:
    states: list[dict] = []
    spot = {}

    def check(game: Game, rng: random.Random, events: list[dict]) -> None:
        check_invariants(kit, game, events)
        if game.is_over or rng.random() < VIEW_SHARE:  # views are the costly part
            check_views(kit, game)
        states.append(json.loads(json.dumps(game.snapshot())))
        if not spot and not game.is_over and rng.random() < 0.08:
            spot["turn"] = game.turn
            check_own_cards_do_not_show(kit, game, rng)
            check_action_space(game)

    game = play_out(kit, params, check)
    event(f"ended by {game.result['reason']}")
    event(f"spot checks: {'yes' if spot else 'no'}")
    assert len(states) == game.turn + 1
    # Replay equals the live state, at every turn we look at.
    rng = random.Random(params["seed"] + 1)
    for turn in {0, game.turn, rng.randrange(game.turn + 1), rng.randrange(game.turn + 1)}:
        assert replay(game.setup, game.actions, upto=turn).snapshot() == states[turn]
    # Snapshot -> JSON -> restore.
    restored = Game.from_snapshot(game.setup, list(game.actions), states[-1])
    assert kit.state(restored) == kit.state(game)
    # Export -> import, finished and half-way.
    doc = json.loads(json.dumps(export_game(game)))
    again = import_game(doc)
    assert kit.state(again) == kit.state(game)
    assert export_game(again) == doc
    half = replay(game.setup, game.actions, upto=game.turn // 2)
    assert kit.state(import_game(export_game(half))) == kit.state(half)


@settings(max_examples=50, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(params=GAMES)
def test_random_games(kit, params):
    run_properties(kit, params)


@pytest.fixture
def thorough(request):
    if "slow" not in (request.config.getoption("markexpr") or ""):
        pytest.skip("the long property run: pytest -m slow")


@pytest.mark.slow
@settings(
    max_examples=500,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(params=GAMES)
def test_random_games_thorough(kit, thorough, params):
    run_properties(kit, params)
