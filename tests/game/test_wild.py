"""Wild rainbow plays: a rainbow card goes on any firework that needs its rank."""

from __future__ import annotations

import pytest

from hanabi.game import Action, IllegalAction, view

# Seat 0: m1 m1 m3 r2 m5; seat 1 holds a 1 of every colour.
HANDS = ["m1 m1 m3 r2 m5", "r1 y1 g1 b1 w1"]


def fireworks(game):
    return {game.variant.suits[f].id: game.fireworks[f] for f in game.variant.firework_suits}


def test_wild_rainbow_has_only_the_five_normal_fireworks(kit):
    game = kit.game("wild_rainbow", 2, hands=HANDS)
    assert list(fireworks(game)) == ["red", "yellow", "green", "blue", "white"]
    assert list(view(game, 0)["fireworks"]) == ["red", "yellow", "green", "blue", "white"]


def test_an_unclued_wild_card_needs_a_named_firework(kit):
    game = kit.game("wild_rainbow", 2, hands=HANDS)
    before = kit.state(game)
    with pytest.raises(IllegalAction) as info:
        game.apply(Action.play(0))
    assert info.value.code == "firework_required"
    assert kit.state(game) == before
    legal = game.legal_actions()
    assert Action.play(0) not in legal
    assert [a.firework for a in legal if a.type == "play" and a.card == 0] == [
        "red",
        "yellow",
        "green",
        "blue",
        "white",
    ]


def test_firework_required_does_not_depend_on_whether_the_card_is_wild(kit):
    # The refusal is decided from what the holder was told, which is the same for a red 1
    # and a wild 1: answering differently would tell the player what the card is.
    for hands in (["m1 m1 m3 r2 m5", "r1 y1 g1 b1 w1"], ["r1 m1 m3 r2 m5", "m1 y1 g1 b1 w1"]):
        game = kit.game("wild_rainbow", 2, hands=hands)
        assert game.wild_choices(0) == [0, 1, 2, 3, 4]
        before = kit.state(game)
        with pytest.raises(IllegalAction) as info:
            game.apply(Action.play(0))
        assert info.value.code == "firework_required"
        assert kit.state(game) == before


def test_a_named_firework_takes_the_wild_card(kit):
    game = kit.game("wild_rainbow", 2, hands=HANDS)
    events = game.apply(Action.play(0, "blue"))
    assert events[0] == {
        "type": "play",
        "turn": 0,
        "seat": 0,
        "card": 0,
        "suit": "wild_rainbow",
        "rank": 1,
        "firework": "blue",
    }
    assert fireworks(game) == {"red": 0, "yellow": 0, "green": 0, "blue": 1, "white": 0}
    assert game.stacks[3] == [0]
    assert game.score == 1
    # The normal suit continues on top of it.
    game.apply(Action.clue(0, rank=1))
    game.apply(Action.play(3, "red"))  # r2 on an empty red firework: a misplay
    assert game.strikes == 1


def test_a_named_firework_that_cannot_take_it_is_a_misplay(kit):
    game = kit.game("wild_rainbow", 2, hands=HANDS)
    game.apply(Action.play(0, "red"))
    game.apply(Action.clue(0, rank=1))
    # Red is at 1; the second wild 1 could go on yellow, green, blue or white, not red.
    events = game.apply(Action.play(1, "red"))
    assert [e["type"] for e in events[:2]] == ["misplay", "strike"]
    assert events[0]["suit"] == "wild_rainbow" and events[0]["rank"] == 1
    assert game.misplays == {1}
    assert fireworks(game)["red"] == 1


def test_a_wild_card_goes_to_the_only_firework_that_takes_it(kit):
    game = kit.game("wild_rainbow", 3, hands=["m1 m2 y3 y3 y4", "r1 y1 g1 b1 y2", "w1 w1 w2 g2 b2"])
    # Seat 1 plays r1 y1 g1 b1 in turn; seats 0 and 2 clue meanwhile.
    # Seat 1's 1s might be wild as far as seat 1 knows, so each play names its firework.
    game.apply(Action.clue(1, rank=1))
    for order, firework in ((5, "red"), (6, "yellow"), (7, "green")):
        game.apply(Action.play(order, firework))
        game.apply(Action.clue(1, rank=1))
        game.apply(Action.clue(1, rank=1))
    game.apply(Action.play(8, "blue"))
    assert fireworks(game) == {"red": 1, "yellow": 1, "green": 1, "blue": 1, "white": 0}
    game.apply(Action.clue(0, rank=1))  # seat 2 tells seat 0 about its wild 1
    assert game.wild_choices(0) == [4]  # a 1 can only start white
    events = game.apply(Action.play(0))
    assert events[0]["firework"] == "white"
    assert fireworks(game)["white"] == 1


def test_a_wild_card_no_firework_takes_is_a_misplay(kit):
    game = kit.game("wild_rainbow", 2, hands=HANDS)
    game.apply(Action.clue(1, rank=1))
    game.apply(Action.clue(0, rank=3))  # seat 0 knows its card 2 is a 3
    assert game.wild_choices(2) == []
    events = game.apply(Action.play(2))
    assert [e["type"] for e in events[:2]] == ["misplay", "strike"]
    assert events[0]["card"] == 2
    # Naming a firework that cannot take it is a misplay too.
    game.apply(Action.clue(0, rank=5))
    events = game.apply(Action.play(4, "green"))
    assert events[0]["type"] == "misplay"
    assert game.strikes == 2


def test_unknown_firework(kit):
    game = kit.game("wild_rainbow", 2, hands=HANDS)
    for name in ("wild_rainbow", "purple", "", "Red"):
        before = kit.state(game)
        with pytest.raises(IllegalAction) as info:
            game.apply(Action.play(0, name))
        assert info.value.code == "unknown_firework"
        assert kit.state(game) == before
    plain = kit.game("no_variant", 2, hands=["r1 r1 r1 y1 y1", "g1 g1 g1 b1 b1"])
    with pytest.raises(IllegalAction) as info:
        plain.apply(Action.play(0, "rainbow"))
    assert info.value.code == "unknown_firework"


def test_naming_a_firework_for_a_normal_card_plays_it_on_its_own_suit(kit):
    game = kit.game("no_variant", 2, hands=["r1 r1 r1 y1 y1", "g1 g1 g1 b1 b1"])
    events = game.apply(Action.play(0, "yellow"))
    assert events[0]["firework"] == "red"
    game = kit.game("wild_rainbow", 2, hands=["r1 m1 m3 r2 m5", "m1 y1 g1 b1 w1"])
    events = game.apply(Action.play(0, "yellow"))
    assert events[0]["firework"] == "red"


def test_a_wild_five_regains_a_token(kit):
    game = kit.game("wild_rainbow", 2, hands=["m1 m2 m3 m4 m5", "r1 y1 g1 b1 w1"])
    game.apply(Action.play(0, "green"))
    game.apply(Action.clue(0, rank=2))
    for order in (1, 2, 3):
        game.apply(Action.play(order, "green"))
        game.apply(Action.clue(0, rank=5))
    assert game.clue_tokens == 4
    events = game.apply(Action.play(4, "green"))
    assert [e["type"] for e in events[:2]] == ["play", "clue_token"]
    assert game.clue_tokens == 5
    assert fireworks(game)["green"] == 5


def test_legal_plays_name_a_firework_only_when_the_holder_needs_to(kit):
    game = kit.game("wild_rainbow", 2, hands=HANDS)
    game.apply(Action.clue(1, rank=1))
    game.apply(Action.clue(0, color="red"))  # touches m1 m1 m3 r2 m5: all red or wild
    game.apply(Action.clue(1, rank=1))
    game.apply(Action.clue(0, rank=2))  # card 3 (r2) is now known: a red or wild 2
    plays = [a for a in game.legal_actions() if a.type == "play"]
    unnamed = {a.card for a in plays if a.firework is None}
    named = {a.card for a in plays if a.firework is not None}
    # Card 3 (r2) is known to be a 2 and no firework is at 1: no choice to make.
    assert 3 in unnamed and 3 not in named
    # The 1s are known to be red-or-wild but not which rank: 1 could start any firework.
    assert {0, 1} <= named


def test_a_card_known_not_to_be_wild_plays_without_a_name(kit):
    game = kit.game("wild_rainbow", 2, hands=HANDS)
    game.apply(Action.clue(1, color="white"))  # touches w1 only: the others are not wild
    assert game.wild_choices(5) == []
    assert game.wild_choices(9) == [0, 1, 2, 3, 4]
    assert Action.play(5) in game.legal_actions()
    events = game.apply(Action.play(5))
    assert events[0]["firework"] == "red"
