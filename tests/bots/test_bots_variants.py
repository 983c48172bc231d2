"""Every strategy plays every hanab.live variant: no illegal move, no crash, and the
rules' safety net (``Bot.act`` replacing a move the engine would refuse) the exception.

One game per variant family for every strategy, a fixed random sample of the catalogue
(the same every run), and all 2,426 variants behind ``slow``. ``play_game`` applies
every move through the engine, which refuses illegal ones; the bots are built here so
that their fallback counts can be read.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from hanabi.bots import STRATEGIES, make_bot, run_game
from hanabi.game import Options, Setup, catalogue, get_variant

#: family -> (a variant of it, table options); the options families play No Variant or
#: Rainbow with the option on.
FAMILIES: dict[str, tuple[str, dict[str, bool]]] = {
    "no variant": ("No Variant", {}),
    "6 suits": ("6 Suits", {}),
    "rainbow": ("Rainbow (6 Suits)", {}),
    "pink": ("Pink (6 Suits)", {}),
    "white": ("White (6 Suits)", {}),
    "brown": ("Brown (6 Suits)", {}),
    "black": ("Black (6 Suits)", {}),
    "dark": ("Dark Rainbow (6 Suits)", {}),
    "null": ("Null (6 Suits)", {}),
    "muddy": ("Muddy Rainbow (6 Suits)", {}),
    "cocoa": ("Cocoa Rainbow (6 Suits)", {}),
    "prism": ("Prism (6 Suits)", {}),
    "omni": ("Omni (6 Suits)", {}),
    "light": ("Light Pink (6 Suits)", {}),
    "gray": ("Gray (6 Suits)", {}),
    "up or down": ("Up or Down (5 Suits)", {}),
    "reversed": ("Reversed (6 Suits)", {}),
    "throw it in a hole": ("Throw It in a Hole (5 Suits)", {}),
    "critical fours": ("Critical Fours (5 Suits)", {}),
    "sudoku": ("Sudoku (5 Suits)", {}),
    "sudoku 4": ("Sudoku (4 Suits)", {}),
    "synesthesia": ("Synesthesia (6 Suits)", {}),
    "funnels": ("Funnels (5 Suits)", {}),
    "chimneys": ("Chimneys (5 Suits)", {}),
    "odds and evens": ("Odds and Evens (5 Suits)", {}),
    "clue starved": ("Clue Starved (6 Suits)", {}),
    "color blind": ("Color Blind (5 Suits)", {}),
    "number blind": ("Number Blind (5 Suits)", {}),
    "totally blind": ("Totally Blind (5 Suits)", {}),
    "alternating clues": ("Alternating Clues (5 Suits)", {}),
    "cow & pig": ("Cow & Pig (5 Suits)", {}),
    "duck": ("Duck (5 Suits)", {}),
    "special ranks": ("Rainbow-Ones (6 Suits)", {}),
    "deceptive": ("Deceptive-Ones (6 Suits)", {}),
    "one extra card": ("No Variant", {"one_extra_card": True}),
    "one less card": ("Rainbow (6 Suits)", {"one_less_card": True}),
    "deck plays": ("No Variant", {"deck_plays": True}),
    "all or nothing": ("No Variant", {"all_or_nothing": True}),
    "card cycling": ("Rainbow (6 Suits)", {"card_cycle": True}),
}

SAMPLE_SIZE = 16  # per strategy, drawn once from a fixed seed
SAMPLE = sorted(random.Random("bots-variants-sample").sample(catalogue.names(), SAMPLE_SIZE))


def players(strategy: str, i: int) -> int:
    """2 to 5 players across the games; search from 3 (it searches only at 2 players,
    where a game takes it some 25 s: test_bots_legality covers it there)."""
    return 3 + i % 3 if strategy == "search" else 2 + i % 4


def play(variant: str, strategy: str, players: int, options: dict[str, Any], seed: str) -> None:
    setup = Setup.create(variant, players, Options(**options), seed=seed)
    opts = setup.options.to_dict()
    bots = [make_bot(strategy, setup.variant, players, s, opts) for s in range(players)]
    game = run_game(setup, bots)  # every move went through the engine: all were legal
    assert game.is_over
    assert 0 <= game.result["score"] <= get_variant(variant).max_score
    fallbacks = sum(b.fallbacks for b in bots)
    # The safety net is the exception: at most one move in twenty.
    assert fallbacks * 20 <= game.turn, f"{strategy} in {variant}: {fallbacks} fallbacks"


@pytest.mark.parametrize("family", sorted(FAMILIES))
@pytest.mark.parametrize("strategy", sorted(STRATEGIES))
def test_every_family(strategy: str, family: str) -> None:
    variant, options = FAMILIES[family]
    play(
        variant, strategy, players(strategy, sorted(FAMILIES).index(family)), options, f"f-{family}"
    )


@pytest.mark.parametrize("strategy", sorted(STRATEGIES))
def test_sample_of_the_catalogue(strategy: str) -> None:
    # search thinks ~100 rollouts a move: a third of the sample (it plays every family above)
    for i, variant in enumerate(SAMPLE[::3] if strategy == "search" else SAMPLE):
        play(variant, strategy, players(strategy, i), {}, seed=f"sample-{i}")


CHUNK = 200  # variants a slow test plays (each test stays within pytest's timeout)


@pytest.fixture
def thorough(request: pytest.FixtureRequest) -> None:
    if "slow" not in (request.config.getoption("markexpr") or ""):
        pytest.skip("the whole catalogue: pytest -m slow")


@pytest.mark.slow
@pytest.mark.parametrize("start", range(0, len(catalogue.names()), CHUNK))
@pytest.mark.parametrize("strategy", sorted(STRATEGIES))
def test_the_whole_catalogue(thorough: None, strategy: str, start: int) -> None:
    names = catalogue.names()
    for i in range(start, min(start + CHUNK, len(names))):
        play(names[i], strategy, players(strategy, i), {}, seed=f"all-{i}")


@pytest.mark.parametrize(
    ("variant", "hidden"), [("Throw It in a Hole (5 Suits)", True), ("No Variant", False)]
)
def test_a_bot_never_sees_its_own_card_thrown_in_a_hole(variant: str, hidden: bool) -> None:
    """Bots are fed what their rules hide: a card a seat throws in the hole stays unknown
    to that seat (the others saw it in its hand); in other variants a play shows it."""
    setup = Setup.create(variant, 3, seed="hole")
    bots = [make_bot("conventions", setup.variant, 3, s) for s in range(3)]
    game = run_game(setup, bots)
    mine = [a.card for i, a in enumerate(game.actions) if i % 3 == 0 and a.type == "play"]
    assert mine
    assert all((bots[0].obs.card[o] == -1) == hidden for o in mine)
    assert all(bots[1].obs.card[o] != -1 for o in mine)
