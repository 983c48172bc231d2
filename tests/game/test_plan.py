"""The variant's plan (its rules as tables) and the plain play path give exactly what the
rules read directly give.

The plan is what makes a move cheap (bench/engine.py); these tests make sure it changes
nothing: legal_actions() against the rules written out here the long way, the plain path
for plays and discards against the general one, move by move, event by event, and a
restored snapshot plans its game as a new one does.
"""

from __future__ import annotations

import random

import pytest

from hanabi.game import Action, Game, IllegalAction, Setup, catalogue, get_variant
from hanabi.game.plan import COLOR, RANK, plan_of
from hanabi.game.setup import DEFAULT_OPTIONS

# Variants whose clues and plays take every road of the plan: the standard game, colour
# and rank touch rules, clues that touch nothing, alternating clues, hidden clues, clue
# starved, reversed and Up or Down fireworks, Sudoku, inverted and wild cards.
VARIANTS = [
    "no_variant",
    "Rainbow (6 Suits)",
    "Black (6 Suits)",
    "Pink (5 Suits)",
    "Prism (6 Suits)",
    "Synesthesia (6 Suits)",
    "Odds and Evens (6 Suits)",
    "Funnels (5 Suits)",
    "Deceptive-Ones (5 Suits)",
    "Color Blind (5 Suits)",
    "Number Blind (5 Suits)",
    "Alternating Clues (5 Suits)",
    "Cow & Pig (5 Suits)",
    "Clue Starved (6 Suits)",
    "Throw It in a Hole (5 Suits)",
    "Reversed (6 Suits)",
    "Up or Down (5 Suits)",
    "Sudoku (5 Suits)",
    "Orange (6 Suits)",
    "wild_rainbow",
]
OPTION_SETS = [
    {},
    {"empty_clues": True},
    {"deck_plays": True, "card_cycle": True},
    {"end_at_max_possible": True, "all_or_nothing": True},
]


def legal_the_long_way(game: Game) -> list[Action]:
    """legal_actions() as the rules say it, asking the variant for every clue and card."""
    if game.result is not None:
        return []
    variant = game.variant
    rules = variant.rules
    hand = game.hands[game.current]
    out = []
    for order in hand:
        choices = game.wild_choices(order)
        if len(choices) > 1:
            out += [Action.play(order, variant.suits[f].id) for f in choices]
        else:
            out.append(Action.play(order))
    deck_card = game.next_draw if game.deck_play_allowed() else None
    if deck_card is not None:
        out.append(Action.play(deck_card))
    if game.clue_tokens < game.max_clue_tokens or variant.inverted_mask:
        out += [Action.discard(order) for order in hand]
        if deck_card is not None and variant.inverted_mask:
            out.append(Action.discard(deck_card))
    if game.clue_tokens < variant.clue_unit:
        return out
    empty_ok = game.setup.options.empty_clues
    last = game.last_clue_kind if rules.alternating_clues else None
    for offset in range(1, game.num_players):
        target = (game.current + offset) % game.num_players
        cards = [game.deck[order] for order in game.hands[target]]
        for color, mask in variant.color_masks.items():
            touches = any(mask >> c & 1 for c in cards)
            free = empty_ok or rules.color_clues_touch_nothing
            if last != COLOR and (touches or free):
                out.append(Action.clue(target, color=color))
        for rank, mask in variant.rank_masks.items():
            touches = any(mask >> c & 1 for c in cards)
            free = empty_ok or rules.rank_clues_touch_nothing
            if last != RANK and (touches or free):
                out.append(Action.clue(target, rank=rank))
    return out


def random_games(variant: str, options: dict[str, bool], games: int = 4):
    """(game, rng) pairs to play: several table sizes, fixed seeds."""
    for seed in range(games):
        players = 2 + seed % 4
        setup = Setup.create(variant, players, options=options, seed=seed)
        yield Game(setup), random.Random(seed)


@pytest.mark.parametrize("options", OPTION_SETS, ids=lambda o: ",".join(o) or "plain")
@pytest.mark.parametrize("variant", VARIANTS)
def test_legal_actions_are_the_rules_read_the_long_way(variant: str, options: dict) -> None:
    for game, rng in random_games(variant, options):
        while not game.is_over:
            legal = game.legal_actions()
            assert legal == legal_the_long_way(game)
            game.apply(rng.choice(legal))
        assert game.legal_actions() == []


@pytest.mark.parametrize("options", OPTION_SETS, ids=lambda o: ",".join(o) or "plain")
@pytest.mark.parametrize("variant", VARIANTS)
def test_the_plain_path_plays_as_the_general_one(kit, variant: str, options: dict) -> None:
    """Every move gives the same events and leaves the same state, whichever path plays
    it (the general path is forced by clearing the game's ``plain`` flag)."""
    for game, rng in random_games(variant, options):
        general = Game(game.setup)
        general.plain = False
        while not game.is_over:
            action = rng.choice(game.legal_actions())
            assert game.apply(action) == general.apply(action)
            assert kit.state(game) == kit.state(general)
        assert general.is_over


def test_the_plain_path_is_taken_only_where_no_special_play_rule_applies() -> None:
    plain = {name: plan_of(get_variant(name)).plain for name in VARIANTS}
    assert plain["no_variant"] and plain["Rainbow (6 Suits)"] and plain["Pink (5 Suits)"]
    assert plain["Alternating Clues (5 Suits)"] and plain["Throw It in a Hole (5 Suits)"]
    for special in ("Reversed (6 Suits)", "Up or Down (5 Suits)", "Sudoku (5 Suits)",
                    "Orange (6 Suits)", "wild_rainbow"):  # fmt: skip
        assert not plain[special], special
    deck_plays = Game(Setup.create("no_variant", 2, options={"deck_plays": True}))
    assert not deck_plays.plain  # the last card of the deck is played from the deck


def test_refusals_are_the_same_on_the_plain_path(kit) -> None:
    """A card not in the hand (or not a card number) and a discard at 8 tokens are refused
    with their codes, and change nothing."""
    game = Game(Setup.create("no_variant", 2, seed=3))
    before = kit.state(game)
    for action, code in [
        (Action.play(99), "card_not_in_hand"),
        (Action(type="play", card=True), "card_not_in_hand"),
        (Action.discard(game.hands[1][0]), "card_not_in_hand"),  # seat 1's card
        (Action.discard(game.hands[0][0]), "clue_tokens_full"),
        (Action.play(game.hands[0][0], firework="nope"), "unknown_firework"),
    ]:
        with pytest.raises(IllegalAction) as refused:
            game.apply(action)
        assert refused.value.code == code
        assert kit.state(game) == before


def test_a_variant_is_planned_once_and_stays_equal_to_itself() -> None:
    variant = catalogue.variant("Pink & Brown (6 Suits)")
    before = (variant.describe(), hash(variant), repr(variant))
    plan = plan_of(variant)
    assert plan_of(variant) is plan
    assert Game(Setup.create(variant.name, 3)).plan is plan
    assert (variant.describe(), hash(variant), repr(variant)) == before
    assert variant == catalogue.variant(variant.name)


def test_the_plan_numbers_clues_colours_first_then_ranks() -> None:
    variant = get_variant("Rainbow (6 Suits)")
    plan = plan_of(variant)
    kinds = [COLOR] * len(variant.clue_colors) + [RANK] * len(variant.clue_ranks)
    assert list(plan.clue_kinds) == kinds
    rainbow_one = variant.card_id(5, 1)
    # a rainbow card is touched by every colour and by its rank
    expected = sum(1 << i for i in range(len(variant.clue_colors))) | 1 << len(variant.clue_colors)
    assert plan.clue_bits[rainbow_one] == expected


@pytest.mark.parametrize(
    "variant", ["no_variant", "Alternating Clues (5 Suits)", "Sudoku (5 Suits)"]
)
def test_a_restored_snapshot_is_planned_as_a_new_game(variant: str) -> None:
    game = Game(Setup.create(variant, 3, options={"empty_clues": True}, seed=7))
    rng = random.Random(7)
    for _ in range(12):
        if game.is_over:
            break
        game.apply(rng.choice(game.legal_actions()))
        restored = Game.from_snapshot(game.setup, game.actions, game.snapshot())
        assert restored.plan is game.plan
        assert (restored.plain, restored.always_clues, restored.targets) == (
            game.plain,
            game.always_clues,
            game.targets,
        )
        assert restored.legal_actions() == game.legal_actions()


def test_setups_without_options_share_the_default_options() -> None:
    first, second = Setup.create("no_variant", 2), Setup.create("no_variant", 3, seed=9)
    assert first.options is DEFAULT_OPTIONS and second.options is DEFAULT_OPTIONS
    assert first.players == ("Player 1", "Player 2")
    assert Setup.create("no_variant", 7).players[-1] == "Player 7"  # refused by Game later
