"""The state is a pure function of setup + actions: replay, snapshots."""

from __future__ import annotations

import json

import pytest

from hanabi.game import VARIANTS, Action, Game, Setup, replay, view


def played_game(kit, variant_id: str, players: int, seed: str) -> tuple[Game, list[dict]]:
    """A full game by the full-knowledge policy, with the state after every turn."""
    game = Game(Setup.create(variant_id, players, seed=seed))
    states = [kit.state(game)]
    while not game.is_over:
        game.apply(kit.cheat(game))
        states.append(kit.state(game))
    return game, states


@pytest.mark.parametrize("variant_id", sorted(VARIANTS))
def test_replay_upto_equals_the_live_state(kit, variant_id):
    game, states = played_game(kit, variant_id, 3, "replay")
    assert game.turn == len(states) - 1
    for turn in (0, 1, 2, len(states) // 2, len(states) - 2, len(states) - 1):
        assert kit.state(replay(game.setup, game.actions, upto=turn)) == states[turn]
    assert kit.state(replay(game.setup, game.actions)) == states[-1]
    assert kit.state(replay(game.setup, game.actions, upto=10_000)) == states[-1]


def test_replay_of_a_terminated_game(kit):
    game = kit.game("no_variant", 2)
    game.apply(kit.cheat(game))
    game.apply(Action.terminate(0))  # seat 0 ends it during seat 1's turn
    assert kit.state(replay(game.setup, game.actions)) == kit.state(game)


def test_replay_from_the_action_log_as_json(kit):
    game, states = played_game(kit, "black_powder", 4, "json-log")
    log = json.loads(json.dumps([a.to_dict() for a in game.actions]))
    setup = Setup.from_dict(json.loads(json.dumps(game.setup.to_dict())))
    assert kit.state(replay(setup, [Action.from_dict(a) for a in log])) == states[-1]


@pytest.mark.parametrize("variant_id", sorted(VARIANTS))
def test_snapshot_round_trips_through_json(kit, variant_id):
    game = Game(Setup.create(variant_id, 4, seed="snap"))
    while not game.is_over:
        snap = json.loads(json.dumps(game.snapshot()))
        restored = Game.from_snapshot(game.setup, list(game.actions), snap)
        assert kit.state(restored) == kit.state(game)
        assert [view(restored, s) for s in range(4)] == [view(game, s) for s in range(4)]
        assert restored.legal_actions() == game.legal_actions()
        action = kit.cheat(game)
        # The restored game goes on exactly like the original.
        assert restored.apply(action) == game.apply(action)
        assert kit.state(restored) == kit.state(game)


def test_a_snapshot_does_not_change_when_the_game_goes_on(kit):
    game = kit.game("no_variant", 2, hands=["r1 r2 y1 g3 b4", "y2 y3 b1 w1 w5"])
    game.apply(Action.clue(1, rank=1))
    snap = game.snapshot()
    frozen = json.loads(json.dumps(snap))
    game.apply(Action.clue(0, rank=1))
    game.apply(Action.play(0))
    game.apply(Action.discard(9))
    assert json.loads(json.dumps(snap)) == frozen


def test_a_restored_game_does_not_share_state_with_its_snapshot(kit):
    game = kit.game("no_variant", 2, hands=["r1 r2 y1 g3 b4", "y2 y3 b1 w1 w5"])
    game.apply(Action.clue(1, rank=1))
    snap = game.snapshot()
    frozen = json.loads(json.dumps(snap))
    restored = Game.from_snapshot(game.setup, list(game.actions), snap)
    restored.apply(Action.clue(0, rank=1))
    restored.apply(Action.play(0))
    assert json.loads(json.dumps(snap)) == frozen
