"""Every refusal has its stable code, a sentence, and changes nothing."""

from __future__ import annotations

import pytest

from hanabi.game import Action, Game, IllegalAction, view

HANDS = ["r1 r2 y1 g3 b4", "y2 y3 b1 w1 w5"]


def refused(kit, game: Game, action: Action, code: str, seat: int | None = None) -> IllegalAction:
    """Apply an action that must be refused with ``code``; check that nothing changed."""
    before = kit.state(game)
    views = [view(game, s) for s in range(game.num_players)]
    with pytest.raises(IllegalAction) as info:
        game.apply(action, seat)
    assert info.value.code == code
    assert info.value.message and info.value.message[-1] in ".?!"
    assert repr(info.value).startswith("IllegalAction(")
    assert kit.state(game) == before
    assert [view(game, s) for s in range(game.num_players)] == views
    return info.value


@pytest.fixture
def game(kit):
    return kit.game("no_variant", 2, hands=HANDS)


def test_not_your_turn(kit, game):
    refused(kit, game, Action.play(5), "not_your_turn", seat=1)
    refused(kit, game, Action.clue(0, rank=1), "not_your_turn", seat=1)
    game.apply(Action.clue(1, rank=1))
    refused(kit, game, Action.play(0), "not_your_turn", seat=0)


def test_game_over(kit, game):
    game.apply(Action.terminate(1))
    for action in (Action.play(0), Action.clue(1, rank=1), Action.discard(0), Action.terminate(0)):
        refused(kit, game, action, "game_over")


@pytest.mark.parametrize("order", [5, 9, 10, 49, 50, -1, 1000, None, "0"])
def test_card_not_in_hand(kit, game, order):
    refused(kit, game, Action.play(order), "card_not_in_hand")
    game.apply(Action.clue(1, rank=1))
    game.apply(Action.clue(0, rank=1))
    refused(kit, game, Action.discard(order), "card_not_in_hand")


def test_card_not_in_hand_after_it_left(kit, game):
    game.apply(Action.play(0))  # r1
    game.apply(Action.clue(0, rank=2))
    refused(kit, game, Action.play(0), "card_not_in_hand")
    game.apply(Action.discard(1))
    game.apply(Action.clue(0, rank=3))
    refused(kit, game, Action.discard(1), "card_not_in_hand")


@pytest.mark.parametrize("order", [True, 1.0])
def test_card_must_be_an_integer_order(kit, game, order):
    # True == 1 and 1.0 == 1 in Python: they must not slip through as card 1.
    refused(kit, game, Action.play(order), "card_not_in_hand")


def test_no_clue_tokens(kit, game):
    for _ in range(4):
        game.apply(Action.clue(1, rank=1))
        game.apply(Action.clue(0, rank=1))
    assert game.clue_tokens == 0
    refused(kit, game, Action.clue(1, rank=1), "no_clue_tokens")


def test_clue_tokens_full(kit, game):
    refused(kit, game, Action.discard(0), "clue_tokens_full")


def test_empty_clue(kit, game):
    refused(kit, game, Action.clue(1, color="green"), "empty_clue")
    refused(kit, game, Action.clue(1, rank=4), "empty_clue")


def test_clue_to_self(kit, game):
    refused(kit, game, Action.clue(0, rank=1), "clue_to_self")


@pytest.mark.parametrize("target", [2, -1, 6, "1", None, 1.0, True])
def test_unknown_seat(kit, game, target):
    refused(kit, game, Action.clue(target, rank=1), "unknown_seat")


@pytest.mark.parametrize("seat", [2, -1, "0"])
def test_unknown_seat_on_terminate(kit, game, seat):
    refused(kit, game, Action.terminate(seat), "unknown_seat")


@pytest.mark.parametrize("reason", ["perfect", "deck_out", "bored", ""])
def test_unknown_reason_on_terminate(kit, game, reason):
    refused(kit, game, Action.terminate(0, reason or "none"), "unknown_reason")


@pytest.mark.parametrize("color", ["purple", "rainbow", "multicolor", "black", "Red", "", 0])
def test_unknown_color(kit, game, color):
    err = refused(kit, game, Action.clue(1, color=color), "unknown_color")
    assert "red" in err.message  # says which colours there are


@pytest.mark.parametrize("color", [["red"], {"red": 1}])
def test_unknown_color_of_an_unhashable_value(kit, game, color):
    refused(kit, game, Action.clue(1, color=color), "unknown_color")


@pytest.mark.parametrize("rank", [0, 6, -1, "1", 1.0, True, [1]])
def test_unknown_rank(kit, game, rank):
    refused(kit, game, Action.clue(1, rank=rank), "unknown_rank")


def test_invalid_clue(kit, game):
    refused(kit, game, Action.clue(1), "invalid_clue")
    refused(kit, game, Action.clue(1, color="yellow", rank=2), "invalid_clue")


def test_unknown_action(kit, game):
    refused(kit, game, Action("pass"), "unknown_action")
    with pytest.raises(IllegalAction) as info:
        Action.from_dict({"type": "pass"})
    assert info.value.code == "unknown_action"


def test_action_from_dict_requires_its_fields():
    with pytest.raises(IllegalAction) as info:
        Action.from_dict({"type": "play"})
    assert info.value.code == "card_required"
    with pytest.raises(IllegalAction) as info:
        Action.from_dict({"type": "clue", "rank": 1})
    assert info.value.code == "target_required"
    for action in (
        Action.play(3),
        Action.play(3, "red"),
        Action.discard(4),
        Action.clue(1, color="red"),
        Action.clue(2, rank=5),
        Action.terminate(0),
    ):
        assert Action.from_dict(action.to_dict()) == action


def test_a_refusal_never_names_the_actors_own_cards(kit, game):
    # Seat 0 holds r1 r2 y1 g3 b4: no message may mention any of them.
    attempts = [
        (Action.discard(0), None),
        (Action.play(7), None),
        (Action.clue(0, rank=1), None),
        (Action.play(0), 1),
    ]
    for action, seat in attempts:
        with pytest.raises(IllegalAction) as info:
            game.apply(action, seat)
        message = info.value.message.lower()
        for word in ("red", "yellow", "green", "blue"):
            assert word not in message
