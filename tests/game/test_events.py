"""Events: what a spectator would narrate, with exactly the right fields."""

from __future__ import annotations

from hanabi.game import Action, full_view, spectator_view, view
from hanabi.game.views import redact_event


def test_clue_event(kit):
    game = kit.game("no_variant", 3, hands=["r1 r2 y1 g3 b4", "y2 y3 b1 w1 w5", "g1 g1 g2 g2 r5"])
    assert game.apply(Action.clue(2, color="green")) == [
        {
            "type": "clue",
            "turn": 0,
            "seat": 0,
            "target": 2,
            "color": "green",
            "rank": None,
            "touched": [13, 12, 11, 10],
        }
    ]
    assert game.apply(Action.clue(0, rank=1)) == [
        {
            "type": "clue",
            "turn": 1,
            "seat": 1,
            "target": 0,
            "color": None,
            "rank": 1,
            "touched": [2, 0],
        }
    ]
    assert [c["turn"] for c in full_view(game)["clues"]] == [0, 1]


def test_play_and_draw_events(kit):
    game = kit.game("no_variant", 2, hands=["r1 r2 y1 g3 b4", "y2 y3 b1 w1 w5"], draws="w2")
    assert game.apply(Action.play(0)) == [
        {
            "type": "play",
            "turn": 0,
            "seat": 0,
            "card": 0,
            "suit": "red",
            "rank": 1,
            "firework": "red",
        },
        {"type": "draw", "turn": 0, "seat": 0, "card": 10, "suit": "white", "rank": 2},
    ]


def test_misplay_strike_and_draw_events(kit):
    game = kit.game("no_variant", 2, hands=["r2 r2 y1 g3 b4", "y2 y3 b1 w1 w5"], draws="w2")
    assert game.apply(Action.play(1)) == [
        {"type": "misplay", "turn": 0, "seat": 0, "card": 1, "suit": "red", "rank": 2},
        {"type": "strike", "turn": 0, "strikes": 1},
        {"type": "draw", "turn": 0, "seat": 0, "card": 10, "suit": "white", "rank": 2},
    ]


def test_discard_event(kit):
    game = kit.game("no_variant", 2, hands=["r1 r2 y1 g3 b4", "y2 y3 b1 w1 w5"], draws="w2 w3")
    game.apply(Action.clue(1, rank=5))
    assert game.apply(Action.discard(8)) == [
        {
            "type": "discard",
            "turn": 1,
            "seat": 1,
            "card": 8,
            "suit": "white",
            "rank": 1,
            "clue_tokens": 8,
        },
        {"type": "draw", "turn": 1, "seat": 1, "card": 10, "suit": "white", "rank": 2},
    ]


def test_clue_token_event(kit):
    game = kit.game(
        "no_variant", 2, hands=["r1 r2 r3 r4 r5", "y2 y3 b1 w1 w5"], draws="w2 w3 w4 g1 g2"
    )
    game.apply(Action.play(0))
    game.apply(Action.clue(0, rank=5))
    for order in (1, 2, 3):
        game.apply(Action.play(order))
        game.apply(Action.clue(0, rank=5))
    events = game.apply(Action.play(4))
    assert events[1] == {"type": "clue_token", "turn": 8, "clue_tokens": 5}


def test_final_round_and_game_over_events(kit):
    game = kit.game("no_variant", 2, hands=["r1 r2 y1 g3 b4", "y2 y3 b1 w1 w5"])
    while game.deck_size > 1:
        if game.clue_tokens == 8:
            game.apply(next(a for a in game.legal_actions() if a.type == "clue"))
        else:
            game.apply(Action.discard(game.hands[game.current][-1]))
    if game.clue_tokens == 8:
        game.apply(next(a for a in game.legal_actions() if a.type == "clue"))
    turn = game.turn
    seat = game.current
    last = len(game.deck) - 1
    events = game.apply(Action.discard(game.hands[seat][-1]))
    assert events[-2:] == [
        {"type": "draw", "turn": turn, "seat": seat, "card": last, **_identity(game, last)},
        {"type": "final_round", "turn": turn, "turns_left": 2},
    ]
    game.apply(next(a for a in game.legal_actions() if a.type != "play"))
    events = game.apply(next(a for a in game.legal_actions() if a.type != "play"))
    assert events[-1] == {
        "type": "game_over",
        "turn": turn + 2,
        "reason": "deck_out",
        "score": game.score,
    }


def test_terminate_event(kit):
    game = kit.game("no_variant", 2)
    assert game.apply(Action.terminate(1)) == [
        {"type": "terminate", "turn": 0, "seat": 1},
        {"type": "game_over", "turn": 0, "reason": "terminated", "score": 0},
    ]


def _identity(game, order):
    suit, rank = game.variant.card(game.deck[order])
    return {"suit": suit, "rank": rank}


def test_every_event_carries_its_turn_and_type(kit):
    game = kit.game("rainbow", 3)
    turn = 0
    while not game.is_over:
        for event in game.apply(kit.cheat(game)):
            assert event["turn"] == turn
            assert event["type"] in {
                "clue",
                "play",
                "misplay",
                "strike",
                "discard",
                "draw",
                "clue_token",
                "final_round",
                "game_over",
            }
        turn += 1


def test_redact_event_hides_own_draws_while_the_game_is_on(kit):
    game = kit.game("no_variant", 2, hands=["r1 r2 y1 g3 b4", "y2 y3 b1 w1 w5"], draws="w2")
    play, draw = game.apply(Action.play(0))
    assert redact_event(draw, 0, False) == {**draw, "suit": None, "rank": None}
    assert redact_event(draw, None, False) == {**draw, "suit": None, "rank": None}
    assert redact_event(draw, 1, False) == draw
    assert redact_event(draw, 0, True) == draw
    assert redact_event(draw, None, True) == draw
    # Plays, discards and misplays are public: the card is face up.
    assert redact_event(play, 0, False) == play
    assert draw["suit"] == "white"  # redaction copies, it does not mutate


def test_deal_events_redacted_for_each_seat(kit):
    game = kit.game("no_variant", 3)
    for seat in range(3):
        for event in game.deal_events():
            seen = redact_event(event, seat, False)
            assert (seen["suit"] is None) == (event["seat"] == seat)


def test_changing_returned_events_does_not_change_the_game(kit):
    game = kit.game("no_variant", 2, hands=["r1 r2 y1 g3 b4", "y2 y3 b1 w1 w5"])
    events = game.apply(Action.clue(1, rank=1))
    before = kit.state(game)
    views = [view(game, 0), view(game, 1), spectator_view(game)]
    events[0]["touched"].append(99)
    events[0]["rank"] = 5
    events[0]["extra"] = "added by a server"
    assert kit.state(game) == before
    assert [view(game, 0), view(game, 1), spectator_view(game)] == views


def test_changing_a_view_does_not_change_the_game(kit):
    game = kit.game("no_variant", 2, hands=["r1 r2 y1 g3 b4", "y2 y3 b1 w1 w5"])
    game.apply(Action.clue(1, rank=1))
    before = kit.state(game)
    seen = view(game, 0)
    seen["clues"][0]["touched"].append(99)
    seen["hands"][1][0]["knowledge"]["clues"].append({"color": "red", "rank": None})
    assert kit.state(game) == before
