"""hanab.live's special rules and table options, one exact situation each.

Cards are (suit id, rank) pairs; hands are given in deal order (a seat's first card is its
oldest). The differential test checks the same rules against hanab.live over thousands of
random games; these show each rule on a position a person can follow, and cover what the
differential cannot see: what each viewer is shown.
"""

from __future__ import annotations

import pytest

from hanabi.game import (
    Action,
    Game,
    IllegalAction,
    Setup,
    catalogue,
    export_game,
    full_view,
    import_game,
    view,
)
from hanabi.game.views import redact_event

R, Y, G, B, P = "red", "yellow", "green", "blue", "purple"


def hand(*cards: str) -> list[tuple[str, int]]:
    """``hand("r1", "y2")`` with r y g b p for the five standard suits, o for orange."""
    names = {"r": R, "y": Y, "g": G, "b": B, "p": P, "o": "orange"}
    return [(names[c[0]], int(c[1])) for c in cards]


# -- what each viewer is shown ----------------------------------------------------------


def test_throw_it_in_a_hole_hides_plays_score_and_fireworks_until_the_end(kit):
    game = kit.game(
        "Throw It in a Hole (5 Suits)",
        2,
        hands=[hand("r1", "r3", "y1", "g1", "b1"), hand(*["r2", "y2", "g2", "b2", "p2"])],
    )
    events = game.apply(Action.play(0))  # red 1: played, face down
    play = next(e for e in events if e["type"] == "play")
    assert redact_event(play, 1, False, game.variant)["suit"] is None
    assert redact_event(play, None, False, game.variant)["rank"] is None
    assert redact_event(play, 1, True, game.variant)["suit"] == R
    game.apply(Action.play(5))  # seat 1: red 2 plays too
    game.apply(Action.play(2))  # yellow 1
    seen = view(game, 1)
    assert seen["score"] is None and seen["max_score"] is None and seen["pace"] is None
    assert set(seen["fireworks"].values()) == {None}
    assert seen["hole"] == [0, 2, 5]
    assert game.score == 3
    game.apply(Action.play(6))  # seat 1: yellow 2 (order 6)
    game.apply(Action.play(1))  # red 3 on red 2
    assert full_view(game)["score"] == 5


def test_throw_it_in_a_hole_misplays_are_hidden_but_the_strike_is_not(kit):
    game = kit.game(
        "Throw It in a Hole (5 Suits)",
        2,
        hands=[hand("r3", "r4", "y1", "g1", "b1"), hand(*["r2", "y2", "g2", "b2", "p2"])],
    )
    events = game.apply(Action.play(0))
    assert [e["type"] for e in events][:2] == ["misplay", "strike"]
    seen = view(game, 0)
    assert seen["strikes"] == 1
    assert all(d["order"] != 0 for d in seen["discards"])  # face down in the hole
    assert redact_event(events[0], 1, False, game.variant)["suit"] is None


@pytest.mark.parametrize(
    ("variant", "sound"), [("Cow & Pig (5 Suits)", "moo"), ("Duck (5 Suits)", "quack")]
)
def test_cow_and_pig_and_duck_hide_what_the_clue_was(kit, variant, sound):
    game = kit.game(
        variant,
        2,
        hands=[hand(*["r1", "r2", "y1", "g1", "b1"]), hand(*["r3", "y2", "g2", "b2", "p2"])],
    )
    events = game.apply(Action.clue(1, color=R))
    assert events[0]["touched"] == [5]
    before = game.told[5]
    assert before == Game(game.setup).told[5]  # the holder is told nothing by it
    public = redact_event(events[0], 1, False, game.variant)
    assert (public["color"], public["rank"], public["sound"]) == (None, None, sound)
    seen = view(game, 1)
    assert seen["clues"][0]["color"] is None and seen["clues"][0]["sound"] == sound
    card = next(c for c in seen["hands"][1] if c["order"] == 5)
    assert card["knowledge"]["clued"] and card["knowledge"]["clues"] == [
        {"color": None, "rank": None}
    ]
    assert full_view(game)["clues"][0]["color"] == R


def test_clue_starved_counts_half_tokens(kit):
    game = kit.game(
        "Clue Starved (5 Suits)",
        2,
        hands=[hand(*["r1", "r2", "y1", "g1", "b1"]), hand(*["r3", "y2", "g2", "b2", "p2"])],
    )
    game.apply(Action.clue(1, rank=2))
    assert view(game, 0)["clue_tokens"] == 7
    game.apply(Action.discard(5))
    assert view(game, 0)["clue_tokens"] == 7.5
    assert game.clue_tokens == 15  # hanab.live's units: halves


# -- clues ------------------------------------------------------------------------------


def test_alternating_clues_refuses_two_of_a_kind_in_a_row(kit):
    game = kit.game(
        "Alternating Clues (5 Suits)",
        2,
        hands=[hand(*["r1", "r2", "y1", "g1", "b1"]), hand(*["r3", "y2", "g2", "b2", "p2"])],
    )
    game.apply(Action.clue(1, color=R))
    with pytest.raises(IllegalAction) as info:
        game.apply(Action.clue(0, color=R))
    assert info.value.code == "alternating_clues"
    assert all(a.color is None for a in game.legal_actions() if a.type == "clue")
    game.apply(Action.clue(0, rank=1))


def test_color_blind_clues_touch_nothing_and_are_always_allowed(kit):
    game = kit.game(
        "Color Blind (5 Suits)",
        2,
        hands=[hand(*["r1", "r2", "y1", "g1", "b1"]), hand(*["r3", "y2", "g2", "b2", "p2"])],
    )
    events = game.apply(Action.clue(1, color=R))
    assert events[0]["touched"] == []
    with pytest.raises(IllegalAction):
        game.apply(Action.clue(0, rank=3))  # rank clues are normal: this one touches nothing


# -- playing ----------------------------------------------------------------------------


def test_orange_cards_do_the_opposite(kit):
    game = kit.game(
        "Orange (5 Suits)",
        2,
        hands=[hand(*["o1", "o3", "y1", "g1", "b1"]), hand(*["r3", "y2", "g2", "b2", "o2"])],
    )
    assert game.clue_tokens == 8
    assert Action.discard(0) in game.legal_actions()  # discarding at 8 tokens is allowed here
    events = game.apply(Action.discard(0))  # "discard" the orange 1: it is played
    assert events[0]["type"] == "play" and events[0]["inverted"]
    events = game.apply(Action.play(9))  # "play" the orange 2: it is discarded
    assert events[0]["type"] == "discard" and events[0]["inverted"]
    assert game.fireworks[4] == 1
    doc = export_game(game)
    assert doc["actions"][:2] == [
        {"type": 0, "target": 0},
        {"type": 1, "target": 9},
    ]  # what happened
    again = import_game(doc, catalogue_names=True)
    assert again.actions == game.actions  # what the players chose


def test_up_or_down_start_card_and_directions(kit):
    start = ("red", 7)
    game = kit.game(
        "Up or Down (5 Suits)",
        2,
        hands=[
            [start, ("red", 4), ("red", 3), ("yellow", 5), ("green", 1)],
            hand(*["b2", "b3", "b4", "p2", "p3"]),
        ],
    )
    assert game.next_ranks(0) == (1, 5, 7)
    game.apply(Action.play(0))
    assert game.next_ranks(0) == (2, 4)
    game.apply(Action.clue(0, rank=4))
    game.apply(Action.play(1))  # red 4 on START: the red firework goes down
    assert view(game, 0)["firework_states"]["red"] == {
        "top": 4,
        "direction": "down",
        "start": None,
        "next": [3],
    }
    game.apply(Action.clue(0, rank=3))
    game.apply(Action.play(2))
    assert game.fireworks[0] == 3 and game.next_ranks(0) == (2,)
    assert full_view(game)["hands"][0][-1]["rank"] in (5, 1)


def test_sudoku_stacks_start_anywhere_once_and_wrap(kit):
    game = kit.game(
        "Sudoku (5 Suits)",
        2,
        hands=[hand(*["r3", "y3", "r4", "r5", "r1"]), hand(*["b2", "b3", "b4", "p2", "p3"])],
    )
    game.apply(Action.play(0))  # red starts at 3
    game.apply(Action.clue(0, rank=3))
    events = game.apply(Action.play(1))  # yellow cannot start at 3 too
    assert events[0]["type"] == "misplay"
    game.apply(Action.clue(0, rank=4))
    for order in (2, 3, 4):  # red 4, 5, then wraps to 1
        assert game.apply(Action.play(order))[0]["type"] == "play"
        game.apply(Action.clue(0, rank=2))
    assert game.tops[0] == 1 and game.next_ranks(0) == (2,)


# -- table options ----------------------------------------------------------------------


def test_card_cycling_moves_the_givers_oldest_unclued_card(kit):
    setup = kit.setup(
        "No Variant",
        2,
        hands=[hand(*["r1", "r2", "y1", "g1", "b1"]), hand(*["r3", "y2", "g2", "b2", "p2"])],
        options={"card_cycle": True},
    )
    game = Game(setup)
    events = game.apply(Action.clue(1, color=R))
    assert events[-1] == {"type": "cycle", "turn": 0, "seat": 0, "card": 0}
    assert game.hands[0] == [0, 4, 3, 2, 1]


def test_deck_plays_lets_the_last_card_be_played_blind():
    variant = catalogue.variant("No Variant")
    game = Game(Setup.create(variant.id, 2, options={"deck_plays": True}, seed=3))
    while game.deck_size > 1:
        game.apply(
            next(a for a in game.legal_actions() if a.type == "discard")
            if game.clue_tokens < 8
            else next(a for a in game.legal_actions() if a.type == "clue")
        )
    last = game.next_draw
    assert Action.play(last) in game.legal_actions()
    assert Action.discard(last) not in game.legal_actions()
    events = game.apply(Action.play(last))
    assert events[0]["type"] == "draw" and events[1]["card"] == last
    assert last not in game.hands[(game.current - 1) % 2]
    assert game.turns_left == 2


def test_all_or_nothing_has_no_final_round_and_scores_zero_once_perfect_is_impossible():
    game = Game(Setup.create("No Variant", 2, options={"all_or_nothing": True}, seed=5))
    while not game.is_over:
        legal = game.legal_actions()
        game.apply(next((a for a in legal if a.type == "discard"), legal[0]))
        assert game.turns_left is None
    assert game.result["score"] == 0
    assert game.result["reason"] in ("all_or_nothing_failed", "strikeout", "all_or_nothing_stuck")


def test_one_extra_and_one_less_card():
    assert Game(Setup.create("No Variant", 2, options={"one_extra_card": True})).hand_size == 6
    assert Game(Setup.create("No Variant", 5, options={"one_less_card": True})).hand_size == 3


def test_new_options_show_only_when_on(kit):
    assert kit.game("no_variant", 2).setup.options.to_dict() == {
        "empty_clues": False,
        "strikeout_keeps_score": False,
    }
    game = Game(Setup.create("No Variant", 2, options={"deck_plays": True}))
    assert view(game, 0)["options"] == {
        "empty_clues": False,
        "strikeout_keeps_score": False,
        "deck_plays": True,
    }


def test_a_snapshot_from_before_the_catalogue_still_loads(kit):
    game = kit.game("no_variant", 3)
    for _ in range(20):
        game.apply(kit.cheat(game))
    snap = game.snapshot()
    for name in (
        "tops",
        "directions",
        "starts",
        "max_possible",
        "suit_max",
        "live",
        "done",
        "last_clue_kind",
    ):
        del snap[name]
    restored = Game.from_snapshot(game.setup, game.actions, snap)
    assert restored.snapshot() == game.snapshot()
    while not game.is_over:
        action = kit.cheat(game)
        assert game.apply(action) == restored.apply(action)
