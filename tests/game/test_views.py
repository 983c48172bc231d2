"""Per-seat views: everything a seat may see and nothing it may not."""

from __future__ import annotations

import json

import pytest

from hanabi.game import Action, Game, Setup, full_view, spectator_view, view

KEYS = {
    "variant",
    "options",
    "players",
    "you",
    "turn",
    "current_seat",
    "clue_tokens",
    "strikes",
    "deck_size",
    "score",
    "max_score",
    "pace",
    "fireworks",
    "hands",
    "discards",
    "clues",
    "turns_left",
    "legal_actions",
    "result",
}


def identities(seen: dict, seat: int) -> list[tuple]:
    return [(c["suit"], c["rank"]) for c in seen["hands"][seat]]


def test_a_view_holds_the_public_state(kit):
    game = kit.game("rainbow", 3, hands=["r1 r2 m3 b4 w5", "y1 y2 y3 y4 m5", "g1 g2 g3 g4 b1"])
    game.apply(Action.play(0))
    game.apply(Action.clue(2, rank=1))
    game.apply(Action.play(14))  # b1 starts blue
    seen = view(game, 0)
    assert set(seen) == KEYS
    assert seen["variant"] == "rainbow"
    assert seen["options"] == {"empty_clues": False, "strikeout_keeps_score": False}
    assert seen["players"] == ["Player 1", "Player 2", "Player 3"]
    assert seen["you"] == 0
    assert seen["turn"] == 3
    assert seen["current_seat"] == 0
    assert seen["clue_tokens"] == 7
    assert seen["strikes"] == 0
    assert seen["deck_size"] == 60 - 15 - 2
    assert seen["score"] == 2
    assert seen["max_score"] == 30
    assert seen["pace"] == 2 + 43 + 3 - 30
    assert seen["fireworks"] == {
        "red": 1,
        "yellow": 0,
        "green": 0,
        "blue": 1,
        "white": 0,
        "rainbow": 0,
    }
    assert seen["discards"] == []
    assert seen["clues"] == [
        {
            "type": "clue",
            "turn": 1,
            "seat": 1,
            "target": 2,
            "color": None,
            "rank": 1,
            "touched": [14, 10],
        }
    ]
    assert seen["turns_left"] is None
    assert seen["result"] is None
    assert json.loads(json.dumps(seen)) == seen


def test_a_seat_never_sees_its_own_cards_while_the_game_is_on(kit):
    game = kit.game("no_variant", 3, hands=["r1 r2 y3 b4 w5", "y1 y2 y3 y4 g5", "g1 g2 g3 g4 b1"])
    for seat in range(3):
        seen = view(game, seat)
        assert identities(seen, seat) == [(None, None)] * 5
        assert [c["order"] for c in seen["hands"][seat]] == game.hands[seat]
        for other in range(3):
            if other != seat:
                assert identities(seen, other) == identities(full_view(game), other)
                assert None not in identities(seen, other)[0]


def test_spectator_sees_no_hand_and_full_view_sees_all(kit):
    game = kit.game("no_variant", 2, hands=["r1 r2 y3 b4 w5", "y1 y2 y3 y4 g5"])
    spectator = spectator_view(game)
    assert spectator["you"] is None
    assert spectator["legal_actions"] == []
    for seat in range(2):
        assert identities(spectator, seat) == [(None, None)] * 5
    full = full_view(game)
    assert identities(full, 0) == [("white", 5), ("blue", 4), ("yellow", 3), ("red", 2), ("red", 1)]
    assert identities(full, 1) == [
        ("green", 5),
        ("yellow", 4),
        ("yellow", 3),
        ("yellow", 2),
        ("yellow", 1),
    ]


def test_every_view_shows_every_card_once_the_game_is_over(kit):
    game = kit.game("no_variant", 2, hands=["r1 r2 y3 b4 w5", "y1 y2 y3 y4 g5"])
    game.apply(Action.clue(1, rank=1))
    game.apply(Action.terminate(1))
    full = full_view(game)
    for seen in (view(game, 0), view(game, 1), spectator_view(game)):
        assert seen["hands"] == full["hands"]
        assert seen["current_seat"] is None
        assert seen["legal_actions"] == []
        assert seen["result"] == {"reason": "terminated", "score": 0}


def test_legal_actions_only_in_the_view_of_the_seat_to_move(kit):
    game = kit.game("no_variant", 3)
    for _ in range(4):
        mover = game.current
        # each as a request body: the action and the turn it is legal for
        expected = [{**a.to_dict(), "turn": game.turn} for a in game.legal_actions()]
        assert expected
        for seat in range(3):
            assert view(game, seat)["legal_actions"] == (expected if seat == mover else [])
        assert spectator_view(game)["legal_actions"] == []
        assert full_view(game)["legal_actions"] == []
        game.apply(kit.cheat(game))


def test_discards_are_public_and_misplays_marked(kit):
    game = kit.game("no_variant", 2, hands=["r2 r1 y3 b4 w5", "y1 y2 y3 y4 g5"])
    game.apply(Action.play(0))  # r2: misplay
    game.apply(Action.clue(0, rank=1))
    game.apply(Action.discard(2))
    expected = [
        {"order": 0, "suit": "red", "rank": 2, "misplayed": True},
        {"order": 2, "suit": "yellow", "rank": 3, "misplayed": False},
    ]
    for seen in (view(game, 0), view(game, 1), spectator_view(game)):
        assert seen["discards"] == expected


def test_view_of_a_seat_that_is_not_there():
    game = Game(Setup.create("no_variant", 2))
    for seat in (-1, 2):
        with pytest.raises(ValueError):
            view(game, seat)


# -- a seat's view must not depend on its own cards ----------------------------------------
#
# Two deals that differ only in seat 1's hand (the cards swapped out of it lie deep in the
# deck, beyond every draw the game makes). Seat 1 only gives clues; the one clue it gets
# touches the same positions in both deals. Nothing seat 1 may see differs, so its view
# must be the same in both games, turn after turn: its own suit/rank are hidden, and the
# knowledge shown for other hands must not be deduced from seat 1's own cards.

SCENARIOS = {
    # variant: (seat 1 in deal A, seat 1 in deal B, other hands, draws)
    "no_variant": (
        "r5 g5 b4 b4 y3",
        "y5 w5 r4 r4 g3",
        ["r1 r2 r3 g4 y1", "g1 g2 b1 w4 w1"],
        "r1 y1 g1 b2 w1 r2 g2 y2 b3 w2",
    ),
    "rainbow": (
        "m5 r5 m4 b4 y3",
        "g5 w5 r4 m4 m3",
        ["r1 r2 m1 g4 y1", "g1 g2 b1 w4 m2"],
        "r1 y1 g1 b2 w1 r2 g2 y2 b3 w2",
    ),
    "wild_rainbow": (
        "m5 r5 m4 b4 y3",
        "g5 w5 r4 m4 m3",
        ["r1 r2 m1 g4 y1", "g1 g2 b1 w4 m2"],
        "r1 y1 g1 b2 w1 r2 g2 y2 b3 w2",
    ),
    "black_powder": (
        "k5 r5 k4 b4 y3",
        "m5 w5 r4 m4 k3",
        ["r1 r2 k1 g4 y1", "g1 g2 b1 w4 m2"],
        "r1 y1 g1 b2 w1 r2 g2 y2 b3 w2",
    ),
}


def _script(game: Game) -> list[Action]:
    """Moves that never depend on seat 1's hand: seats 0 and 2 play or discard the card
    at a fixed position, or clue; seat 1 clues seat 0 or 2; seat 1 gets one rank-5 clue."""
    return [
        Action.clue(2, color="green"),  # seat 0
        Action.clue(0, color="red"),  # seat 1
        Action.clue(1, rank=5),  # seat 2: touches positions 0 and 1 of seat 1's hand
        Action.discard(game.hands[0][-1]),  # seat 0 discards its oldest card
        Action.clue(2, rank=1),  # seat 1
        "seat 2 plays its newest card",
        Action.clue(2, rank=2),  # seat 0
        Action.clue(0, rank=1),  # seat 1
        "seat 2 discards its oldest card",
        "seat 0 plays its newest card",
        Action.clue(0, rank=2),  # seat 1
    ]


def _resolve(game: Game, step) -> Action:
    if not isinstance(step, str):
        return step
    seat = int(step.split()[1])
    if "newest" in step:
        order = game.hands[seat][0]
        choices = game.wild_choices(order)
        firework = game.variant.suits[choices[0]].id if len(choices) > 1 else None
        return Action.play(order, firework)
    return Action.discard(game.hands[seat][-1])


@pytest.mark.parametrize("variant_id", sorted(SCENARIOS))
def test_a_seats_view_does_not_depend_on_its_own_cards(kit, variant_id):
    hand_a, hand_b, (hand_0, hand_2), draws = SCENARIOS[variant_id]
    a = kit.game(variant_id, 3, hands=[hand_0, hand_a, hand_2], draws=draws)
    b = kit.game(variant_id, 3, hands=[hand_0, hand_b, hand_2], draws=draws)
    assert [kit.identity(a, o) for o in a.hands[1]] != [kit.identity(b, o) for o in b.hands[1]]
    steps = _script(a)
    assert steps == _script(b)
    for step in steps:
        assert view(a, 1) == view(b, 1)
        assert spectator_view(a) == spectator_view(b)
        action_a, action_b = _resolve(a, step), _resolve(b, step)
        assert action_a == action_b
        events_a, events_b = a.apply(action_a), b.apply(action_b)
        assert events_a == events_b  # seat 1 hears the same story in both games
    assert a.turn == len(steps)
    assert view(a, 1) == view(b, 1)
    # The other seats do see the difference, of course.
    assert view(a, 0) != view(b, 0)


def test_the_own_hand_deduction_ignores_the_own_hand(kit):
    # Seat 1 holds both red 4s. Its card 5 is clued red; whether card 6 is the other red 4
    # must not narrow what seat 1 is shown about card 5.
    game = kit.game("no_variant", 2, hands=["g1 g1 g1 y2 y2", "r4 r4 b2 g3 w1"])
    game.apply(Action.clue(1, color="red"))
    card = next(c for c in view(game, 1)["hands"][1] if c["order"] == 5)
    assert card["knowledge"]["deduced"] == {"red": [1, 2, 3, 4, 5]}
