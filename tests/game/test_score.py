"""Score, the still-achievable max score, and pace."""

from __future__ import annotations

import itertools
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from hanabi.game import Action, Game, Setup, spectator_view, view


def discard_all(game: Game, seat: int, orders) -> None:
    """Seat ``seat`` discards ``orders`` one per turn; the others clue it meanwhile."""
    for order in orders:
        while game.current != seat:
            game.apply(Action.clue(seat, rank=game.deck[game.hands[seat][0]] % 5 + 1))
        if game.clue_tokens == 8:
            other = (seat + 1) % game.num_players
            game.apply(Action.clue(other, rank=game.deck[game.hands[other][0]] % 5 + 1))
            while game.current != seat:
                game.apply(Action.clue(seat, rank=game.deck[game.hands[seat][0]] % 5 + 1))
        game.apply(Action.discard(order))


def test_score_is_the_sum_of_the_fireworks(kit):
    game = kit.game("no_variant", 2, hands=["r1 r2 y1 g1 g2", "b1 b2 b3 w1 w2"])
    for order in (0, 5, 1, 6, 2, 7):
        game.apply(Action.play(order))
    assert game.fireworks == [2, 1, 0, 3, 0]
    assert game.score == 6
    assert view(game, 0)["score"] == 6


@pytest.mark.parametrize(
    ("discarded", "expected"),
    [
        ("r4", 25),  # one red 4 is left
        ("r4 r4", 23),  # red stops at 3
        ("r5", 24),
        ("r1 r1 r1", 20),  # red cannot even start
        ("r4 r4 r5 g2 g2", 19),  # red stops at 3, green at 1
    ],
)
def test_max_score_drops_when_every_copy_of_a_needed_card_is_gone(kit, discarded, expected):
    cards = discarded.split()
    hand = cards + ["w1", "w2", "w3", "w4", "w5"][: 5 - len(cards)]
    game = kit.game("no_variant", 2, hands=[hand, "b1 b2 b3 b4 b5"])
    discard_all(game, 0, [kit.order(game, 0, i) for i in range(len(cards))])
    assert game.max_score_possible() == expected
    assert view(game, 1)["max_score"] == expected


def test_a_misplayed_copy_is_gone_too(kit):
    game = kit.game("no_variant", 2, hands=["r5 y1 y1 y1 g1", "b1 b2 b3 b4 b5"])
    game.apply(Action.play(0))
    assert game.misplays == {0}
    assert game.max_score_possible() == 24


def test_a_card_below_the_firework_does_not_matter(kit):
    game = kit.game("no_variant", 2, hands=["r1 r2 r2 y1 y1", "b1 b2 b3 b4 b5"])
    game.apply(Action.play(0))
    game.apply(Action.clue(0, rank=2))
    game.apply(Action.play(1))
    game.apply(Action.clue(0, rank=2))
    game.apply(Action.discard(2))  # the other red 2: already played
    assert game.max_score_possible() == 25


def test_one_of_each_cards_are_critical(kit):
    game = kit.game("single_sixth", 2, hands=["k2 y1 y1 y1 g1", "b1 b2 b3 b4 b5"])
    discard_all(game, 0, [0])
    assert game.max_score_possible() == 30 - 4


def test_rainbow_max_score(kit):
    game = kit.game("rainbow", 2, hands=["m4 m4 y1 y1 g1", "b1 b2 b3 b4 b5"])
    discard_all(game, 0, [0, 1])
    assert game.max_score_possible() == 28


@pytest.mark.parametrize(
    ("discarded", "expected"),
    [
        ("r4 r4", 25),  # a wild 4 stands in for red 4
        ("r4 r4 g4 g4", 25),  # both wild 4s are needed
        ("r4 r4 g4 g4 b4", 25),  # one blue 4 left
        ("r4 r4 g4 g4 b4 b4", 23),  # three fireworks need a 4, two wild 4s: one stops at 3
        ("r4 r4 m4 m4", 23),  # no 4 for red any more
        ("r5", 25),  # the wild 5 stands in for red 5
        ("r5 g5", 24),  # one wild 5 for two fireworks
        ("m5 r5", 24),  # red 5 and the only wild 5 gone
    ],
)
def test_wild_rainbow_max_score_counts_wild_cards_as_stand_ins(kit, discarded, expected):
    cards = discarded.split()
    hands = [
        cards[:5] + ["y1", "y2", "y3", "y4", "y5"][: 5 - len(cards[:5])],
        cards[5:] + ["w1", "w2", "w3", "w4", "w5"][: 5 - len(cards[5:])],
    ]
    game = kit.game("wild_rainbow", 2, hands=[" ".join(h) for h in hands])
    discard_all(game, 0, [kit.order(game, 0, i) for i in range(len(cards[:5]))])
    discard_all(game, 1, [kit.order(game, 1, i) for i in range(len(cards[5:]))])
    assert game.max_score_possible() == expected == reference_max_score(game)


def test_wild_card_on_a_firework_is_no_longer_a_stand_in(kit):
    # Both wild 2s are used up (one played on red, one discarded), and both green 2s are
    # discarded: green stops at 1.
    game = kit.game("wild_rainbow", 2, hands=["m1 m2 m2 g2 g2", "r1 g1 b1 w1 y1"])
    game.apply(Action.play(0, "yellow"))  # wild 1 starts yellow
    game.apply(Action.play(5, "red"))  # red 1
    game.apply(Action.play(1, "red"))  # wild 2 on red
    game.apply(Action.play(6, "green"))  # green 1
    assert game.fireworks[:5] == [2, 1, 1, 0, 0]
    assert game.max_score_possible() == 25
    discard_all(game, 0, [2, 3, 4])
    assert game.max_score_possible() == 25 - 4 == reference_max_score(game)


def test_pace(kit):
    game = kit.game("no_variant", 3, hands=["r1 r2 y1 g1 g2", "b1 b2 b3 w1 w2", "r4 r4 y3 y4 y5"])
    assert game.pace() == 0 + 35 + 3 - 25 == 13
    game.apply(Action.play(0))  # a play keeps pace: score +1, deck -1
    assert game.pace() == 1 + 34 + 3 - 25 == 13
    game.apply(Action.clue(2, rank=4))
    game.apply(Action.clue(0, rank=2))
    game.apply(Action.discard(1))  # a red 2, not the last: a discard costs one
    assert game.pace() == 1 + 33 + 3 - 25 == 12
    game.apply(Action.clue(2, rank=4))
    game.apply(Action.discard(10))  # a red 4, not the last
    game.apply(Action.clue(2, rank=4))
    game.apply(Action.clue(2, rank=4))
    game.apply(Action.discard(11))  # the last red 4: red stops at 3
    assert game.max_score_possible() == 23
    assert game.pace() == 1 + 31 + 3 - 23 == 12
    for seen in (view(game, 0), view(game, 1)):
        assert seen["pace"] == game.pace()
        assert seen["max_score"] == 23


def reference_max_score(game: Game) -> int:
    """Best reachable score by brute force over every final height of every firework.

    A height vector is reachable when, rank by rank, the fireworks that still need that
    rank and have no copy of their own left are at most the wild cards of that rank left.
    """
    variant = game.variant
    left = [n - d for n, d in zip(variant.copies, game.discarded)]
    wild_left = [0] * 6
    for c, n in enumerate(left):
        if variant.suits[c // 5].wild:
            wild_left[c % 5 + 1] += n
    for f in variant.firework_suits:
        for order in game.stacks[f]:
            if variant.suits[game.deck[order] // 5].wild:
                wild_left[game.deck[order] % 5 + 1] -= 1
    fws = variant.firework_suits
    heights = [game.fireworks[f] for f in fws]
    best = sum(heights)
    for target in itertools.product(*(range(h, 6) for h in heights)):
        ok = True
        for rank in range(1, 6):
            needy = sum(
                1
                for f, h, t in zip(fws, heights, target)
                if h < rank <= t and not left[f * 5 + rank - 1]
            )
            if needy > wild_left[rank]:
                ok = False
                break
        if ok:
            best = max(best, sum(target))
    return best


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**6), discard_bias=st.floats(0.5, 0.95))
def test_wild_max_score_matches_brute_force(kit, seed, discard_bias):
    """Games with many discards, so that wild cards have to stand in more than once."""
    rng = random.Random(seed)
    game = Game(Setup.create("wild_rainbow", rng.randint(2, 5), seed=seed))
    while not game.is_over:
        legal = game.legal_actions()
        plays = [a for a in legal if a.type == "play"]
        discards = [a for a in legal if a.type == "discard"]
        if discards and rng.random() < discard_bias:
            action = rng.choice(discards)
        elif rng.random() < 0.5 and any(kit.playable(game, a.card) for a in plays):
            action = kit.cheat(game)
        else:
            action = rng.choice(legal)
        game.apply(action)
        if not game.is_over and game.turn % 5 == 0:
            assert game.max_score_possible() == reference_max_score(game)


@pytest.mark.parametrize("reason", [None, "timeout", "idle"])
def test_a_game_ended_early_keeps_its_max_score(kit, reason):
    # a vote (or a clock, or idleness) scores 0, but the board's maximum is the cards'
    game = kit.game("no_variant", 2, hands=["r1 r2 r5 g1 g2", "b1 b2 b3 w1 w2"])
    game.apply(Action.play(0))  # r1
    game.apply(Action.clue(0, rank=2))
    game.apply(Action.discard(2))  # the only red 5: red stops at 4
    game.apply(Action.play(5))  # b1
    assert game.max_score_possible() == 24
    game.apply(Action.terminate(1 if reason == "timeout" else None, reason))
    assert game.result["score"] == 0
    assert game.max_score_possible() == 24
    for seen in (view(game, 0), spectator_view(game)):
        assert (seen["score"], seen["max_score"], seen["pace"]) == (2, 24, None)
