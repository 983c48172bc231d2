"""Every hanab.live variant plays: random games with invariants checked after every move.

The normal run plays one variant of every family (the name less its suit count and its
"& <suit>" part) and a fixed random sample, at several table sizes and table options;
``pytest -m slow`` plays all 2,426 variants. Checked after every move: cards are neither
lost nor duplicated, the score is what the fireworks hold, the maximum score is what the
discards leave (never raised again), pace follows hanab.live's formula, clue tokens and
strikes stay in bounds, every clue touched exactly the cards the touch rules say, and no
card's knowledge (told or deduced) excludes its true identity. Every game ends.
"""

from __future__ import annotations

import json
import random
import re
from collections import Counter

import pytest

from hanabi.game import Action, Game, Setup, catalogue, export_game, import_game, view
from hanabi.game.ending import max_score_now
from hanabi.game.knowledge import deduce_hand, visible_counts
from hanabi.game.touch import color_touches, rank_touches

OPTION_SETS = [
    {},
    {"end_at_max_possible": True},
    {"all_or_nothing": True},
    {"card_cycle": True, "deck_plays": True},
    {"one_extra_card": True, "empty_clues": True},
    {"one_less_card": True, "end_at_max_possible": True},
]


def family(name: str) -> str:
    """A variant's family: "Rainbow-Ones & Pink (5 Suits)" -> "Rainbow-Ones"."""
    return re.sub(r" \(\d Suits\)$", "", name).split(" & ")[0]


def family_sample() -> list[str]:
    seen: dict[str, str] = {}
    for name in catalogue.names():
        seen.setdefault(family(name), name)
    return list(seen.values())


def random_sample(count: int = 40) -> list[str]:
    return random.Random(38).sample(catalogue.names(), count)


def good_action(game: Game) -> Action | None:
    """A play that works, seen with full knowledge (an Orange card is played by discarding
    it), if the seat to move has one."""
    variant = game.variant
    legal = set(game.legal_actions())
    for order in game.hands[game.current]:
        card = game.deck[order]
        suit = variant.suit_of[card]
        if variant.rank_of[card] in game.next_ranks(suit):
            inverted = variant.inverted_mask >> card & 1
            action = Action.discard(order) if inverted else Action.play(order)
            if action in legal:
                return action
    return None


def check_clue(game: Game, event: dict) -> None:
    variant = game.variant
    target = game.hands[event["target"]]
    if event["color"] is not None:
        index = variant.clue_colors.index(event["color"])
        want = [
            o
            for o in target
            if color_touches(
                variant, variant.suit_of[game.deck[o]], variant.rank_of[game.deck[o]], index
            )
        ]
    else:
        want = [
            o
            for o in target
            if rank_touches(
                variant, variant.suit_of[game.deck[o]], variant.rank_of[game.deck[o]], event["rank"]
            )
        ]
    assert event["touched"] == want


def check_invariants(game: Game, deep: bool) -> None:
    variant = game.variant
    where = [o for h in game.hands for o in h] + [o for s in game.stacks for o in s]
    where += game.discards + list(range(game.next_draw, len(game.deck)))
    assert sorted(where) == list(range(len(game.deck)))
    assert game.score == sum(game.fireworks) == sum(len(s) for s in game.stacks)
    assert game.score <= game.max_possible <= variant.max_score
    assert game.max_possible <= max_score_now(game)
    if not game.is_over:
        assert game.max_score_possible() == game.max_possible
        assert game.pace() == game.score + game.deck_size + game.num_players - game.max_possible
    assert 0 <= game.clue_tokens <= game.max_clue_tokens
    assert game.strikes <= 3
    for seat, hand in enumerate(game.hands):
        for order in hand:
            assert game.told[order] >> game.deck[order] & 1, "told excludes the true card"
        if deep:
            counts = visible_counts(game, {seat})
            for order, mask in zip(hand, deduce_hand(game, seat, counts), strict=True):
                assert mask >> game.deck[order] & 1, "deduction excludes the true card"


def play_variant(name: str, players: int, seed: int, options: dict) -> Game:
    setup = Setup.create(name, players, options=options, seed=seed)
    game = Game(setup)
    assert Counter(game.deck) == Counter(game.variant.deck())
    assert game.variant.card_count == len(game.deck)
    rng = random.Random(seed)
    moves = 0
    while not game.is_over:
        moves += 1
        assert moves <= 4 * len(game.deck) + 50, "the game does not end"
        action = good_action(game) if rng.random() < 0.6 else None
        if action is None:
            legal = game.legal_actions()
            assert legal, "no legal action in a game that is not over"
            plays = [a for a in legal if a.type == "play"]
            others = [a for a in legal if a.type != "play"] or legal
            action = rng.choice(plays if plays and rng.random() < 0.05 else others)
        events = game.apply(action)
        for event in events:
            if event["type"] == "clue":
                check_clue(game, event)
        check_invariants(game, deep=moves % 9 == 0)
    return game


def run_variant(name: str, index: int) -> None:
    for k, players in enumerate((2, 3 + index % 4)):
        options = OPTION_SETS[(index + k) % len(OPTION_SETS)]
        game = play_variant(name, players, seed=index * 10 + k, options=options)
        assert game.result["reason"] in (
            "perfect", "deck_out", "strikeout", "max_possible",
            "all_or_nothing_failed", "all_or_nothing_stuck",
        )  # fmt: skip
        view(game, 0)
        doc = json.loads(json.dumps(export_game(game)))
        again = import_game(doc, catalogue_names=True)
        assert again.variant is game.variant
        assert again.snapshot() == game.snapshot()
        assert again.result == game.result


@pytest.mark.parametrize("name", family_sample())
def test_every_family_plays(name):
    run_variant(name, catalogue.names().index(name))


@pytest.mark.parametrize("name", random_sample())
def test_a_random_sample_plays(name):
    run_variant(name, catalogue.names().index(name))


@pytest.fixture
def thorough(request):
    if "slow" not in (request.config.getoption("markexpr") or ""):
        pytest.skip("the whole catalogue: pytest -m slow")


@pytest.mark.slow
def test_every_variant_plays(thorough):
    for index, name in enumerate(catalogue.names()):
        run_variant(name, index)
