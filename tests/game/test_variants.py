"""Variants as data: deck composition, clue colours, clue touching, max score."""

from __future__ import annotations

from collections import Counter

import pytest

from hanabi.game import VARIANTS, Action, Game, IllegalAction, Setup, get_variant

BASIC = ["red", "yellow", "green", "blue", "white"]
NORMAL = {1: 3, 2: 2, 3: 2, 4: 2, 5: 1}
SINGLE = {1: 1, 2: 1, 3: 1, 4: 1, 5: 1}

# id: (suits with their copies per rank, clue colours, fireworks, cards, max score)
EXPECTED = {
    "no_variant": ({s: NORMAL for s in BASIC}, BASIC, BASIC, 50, 25),
    "six_suits": (
        {**{s: NORMAL for s in BASIC}, "multicolor": NORMAL},
        [*BASIC, "multicolor"],
        [*BASIC, "multicolor"],
        60,
        30,
    ),
    "single_sixth": (
        {**{s: NORMAL for s in BASIC}, "black": SINGLE},
        [*BASIC, "black"],
        [*BASIC, "black"],
        55,
        30,
    ),
    "rainbow": (
        {**{s: NORMAL for s in BASIC}, "rainbow": NORMAL},
        BASIC,
        [*BASIC, "rainbow"],
        60,
        30,
    ),
    "single_rainbow": (
        {**{s: NORMAL for s in BASIC}, "dark_rainbow": SINGLE},
        BASIC,
        [*BASIC, "dark_rainbow"],
        55,
        30,
    ),
    "wild_rainbow": (
        {**{s: NORMAL for s in BASIC}, "wild_rainbow": NORMAL},
        BASIC,
        BASIC,
        60,
        25,
    ),
    "black_powder": (
        {**{s: NORMAL for s in BASIC}, "multicolor": NORMAL, "black": SINGLE},
        [*BASIC, "multicolor", "black"],
        [*BASIC, "multicolor", "black"],
        65,
        35,
    ),
}

# Suit id -> the clue colours that touch it (None: every colour of the variant).
TOUCHED_BY = {
    **{s: [s] for s in BASIC},
    "multicolor": ["multicolor"],
    "black": ["black"],
    "rainbow": None,
    "dark_rainbow": None,
    "wild_rainbow": None,
}


def test_every_variant_of_the_rules_is_shipped():
    assert set(VARIANTS) == set(EXPECTED)
    for variant_id, variant in VARIANTS.items():
        assert variant.id == variant_id
        assert get_variant(variant_id) is variant
        assert variant.name
    with pytest.raises(KeyError):
        get_variant("nope")


def test_hanablive_names():
    names = {v.id: v.hanablive_name for v in VARIANTS.values()}
    assert names["no_variant"] == "No Variant"
    assert names["six_suits"] == "6 Suits"
    assert names["rainbow"] == "Rainbow (6 Suits)"
    assert names["single_rainbow"] == "Dark Rainbow (6 Suits)"
    assert names["single_sixth"] == "Black (6 Suits)"
    # hanab.live has no wild rainbow and no black powder.
    assert names["wild_rainbow"] is None
    assert names["black_powder"] is None


@pytest.mark.parametrize("variant_id", sorted(EXPECTED))
def test_deck_composition(variant_id):
    suits, colors, fireworks, cards, max_score = EXPECTED[variant_id]
    variant = get_variant(variant_id)
    assert [s.id for s in variant.suits] == list(suits)
    assert variant.card_count == cards
    assert len(variant.deck()) == cards
    counts = Counter(variant.card(c) for c in variant.deck())
    assert counts == Counter(
        {(s, r): n for s, per_rank in suits.items() for r, n in per_rank.items()}
    )
    game = Game(Setup.create(variant_id, 2, seed="composition"))
    assert Counter(variant.card(c) for c in game.deck) == counts
    assert list(variant.clue_colors) == colors
    assert list(variant.clue_ranks) == [1, 2, 3, 4, 5]
    assert [variant.suits[i].id for i in variant.firework_suits] == fireworks
    assert variant.max_score == max_score == 5 * len(fireworks)
    assert game.max_score_possible() == max_score
    listing = variant.to_dict()
    assert listing["card_count"] == cards
    assert listing["max_score"] == max_score
    assert listing["clue_colors"] == colors
    assert listing["fireworks"] == fireworks


@pytest.mark.parametrize("variant_id", sorted(EXPECTED))
def test_clue_touching_masks(variant_id):
    variant = get_variant(variant_id)
    for color, mask in variant.color_masks.items():
        for index, suit in enumerate(variant.suits):
            expected = TOUCHED_BY[suit.id] is None or color in TOUCHED_BY[suit.id]
            for rank in range(1, 6):
                assert bool(mask >> (index * 5 + rank - 1) & 1) == expected, (suit.id, rank, color)
    for clue_rank, mask in variant.rank_masks.items():
        for index in range(len(variant.suits)):
            for rank in range(1, 6):
                assert bool(mask >> (index * 5 + rank - 1) & 1) == (rank == clue_rank)


def _touched(game: Game, **clue) -> list[tuple[str, int]]:
    events = game.apply(Action.clue(1, **clue))
    return sorted(game.variant.card(game.deck[o]) for o in events[0]["touched"])


def test_rainbow_is_touched_by_every_colour(kit):
    for color in BASIC:
        game = kit.game("rainbow", 2, hands=["r1 r1 r1 y1 y1", "r2 m3 b4 w5 m1"])
        touched = _touched(game, color=color)
        own = [c for c in [("red", 2), ("blue", 4), ("white", 5)] if c[0] == color]
        assert touched == sorted([*own, ("rainbow", 1), ("rainbow", 3)])
    game = kit.game("rainbow", 2, hands=["r1 r1 r1 y1 y1", "r2 m3 b4 w5 m1"])
    with pytest.raises(IllegalAction) as info:
        game.apply(Action.clue(1, color="rainbow"))
    assert info.value.code == "unknown_color"


def test_multicolor_is_touched_only_by_its_own_colour(kit):
    game = kit.game("six_suits", 2, hands=["r1 r1 r1 y1 y1", "r2 m3 b4 w5 m1"])
    assert _touched(game, color="red") == [("red", 2)]
    game = kit.game("six_suits", 2, hands=["r1 r1 r1 y1 y1", "r2 m3 b4 w5 m1"])
    assert _touched(game, color="multicolor") == [("multicolor", 1), ("multicolor", 3)]
    game = kit.game("six_suits", 2, hands=["r1 r1 r1 y1 y1", "r2 m3 b4 w5 m1"])
    assert _touched(game, rank=3) == [("multicolor", 3)]


def test_black_is_one_of_each_with_its_own_colour(kit):
    for variant_id in ("single_sixth", "black_powder"):
        game = kit.game(variant_id, 2, hands=["r1 r1 r1 y1 y1", "k1 k2 r2 y3 w4"])
        assert _touched(game, color="black") == [("black", 1), ("black", 2)]
        with pytest.raises(ValueError):  # only one black 1 in the deck
            kit.deck(variant_id, "k1 k1")
    game = kit.game("black_powder", 2, hands=["r1 r1 r1 y1 y1", "k1 k2 r2 m3 w4"])
    assert _touched(game, color="multicolor") == [("multicolor", 3)]
    game = kit.game("black_powder", 2, hands=["r1 r1 r1 y1 y1", "k1 k2 r2 m3 w4"])
    assert _touched(game, color="red") == [("red", 2)]


def test_dark_rainbow_is_one_of_each_and_touched_by_every_colour(kit):
    game = kit.game("single_rainbow", 2, hands=["r1 r1 r1 y1 y1", "m1 m2 r2 g3 w4"])
    assert _touched(game, color="green") == [("dark_rainbow", 1), ("dark_rainbow", 2), ("green", 3)]
    with pytest.raises(ValueError):
        kit.deck("single_rainbow", "m5 m5")


def test_wild_rainbow_is_touched_by_every_colour(kit):
    game = kit.game("wild_rainbow", 2, hands=["r1 r1 r1 y1 y1", "m1 m2 r2 g3 w4"])
    assert _touched(game, color="white") == [("white", 4), ("wild_rainbow", 1), ("wild_rainbow", 2)]


def test_clue_touches_every_matching_card(kit):
    game = kit.game("no_variant", 2, hands=["r1 r1 r1 y1 y1", "b1 r2 b1 g1 b5"])
    events = game.apply(Action.clue(1, color="blue"))
    # Newest first, like the hand: orders 9 (b5), 7 (b1), 5 (b1).
    assert events[0]["touched"] == [9, 7, 5]
    game.apply(Action.clue(0, rank=1))
    events = game.apply(Action.clue(1, rank=1))
    assert events[0]["touched"] == [8, 7, 5]


@pytest.mark.parametrize(
    "name",
    [
        "no_variant",
        "Prism (6 Suits)",
        "Muddy-Rainbow-Fives & Dark Orange (6 Suits)",
        "Odds and Evens (5 Suits)",
        "Pink-Ones & Brown (6 Suits)",
        "Up or Down (6 Suits)",
    ],
)
def test_the_described_clue_touches_are_what_a_clue_touches_in_play(name: str) -> None:
    """``clue_touches`` (what a client draws before a clue is sent) is the engine's touch:
    each clue on a dealt hand touches exactly the cards the table names."""
    variant = get_variant(name)
    touches = variant.describe()["clue_touches"]
    for seed in ("t1", "t2", "t3"):
        game = Game(Setup.create(name, ["a", "b"], None, seed))
        hand = game.hands[1]
        for clue in [{"color": c} for c in variant.clue_colors] + [
            {"rank": r} for r in variant.clue_ranks
        ]:
            table = (
                touches["colors"][clue["color"]]
                if "color" in clue
                else touches["ranks"][str(clue["rank"])]
            )
            expected = [
                o for o in hand
                if variant.card(game.deck[o])[1] in table.get(variant.card(game.deck[o])[0], [])
            ]  # fmt: skip
            legal = [a.to_dict() for a in game.legal_actions()]
            action = {"type": "clue", "target": 1, **clue}
            if action not in legal:
                assert not expected or variant.rules.alternating_clues
                continue
            copy = Game(Setup.create(name, ["a", "b"], None, seed))
            events = copy.apply(Action.from_dict(action), 0)
            clued = next(e for e in events if e["type"] == "clue")
            assert sorted(clued["touched"]) == sorted(expected), (name, clue)
