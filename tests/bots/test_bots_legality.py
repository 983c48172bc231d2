"""Every strategy plays every shipped variant legally, at every table size."""

from __future__ import annotations

import pytest

from hanabi.bots import STRATEGIES, play_game
from hanabi.game import VARIANTS, Options, Setup

SEEDS_PER_TABLE = 2  # each variant and strategy: 10 games (the search's: below)
SIZES = (2, 3, 4, 5, 6)


def search_sizes(variant: str) -> tuple[int, ...]:
    """Search plays each move ~100 rollouts deep: one game at two table sizes per variant,
    turning through the sizes over the variants so that each size is played (every size of
    every variant: the slow test below)."""
    at = sorted(VARIANTS).index(variant)
    return SIZES[at % 5], SIZES[(at + 2) % 5]


def plays_legally(strategy: str, variant: str, sizes: tuple[int, ...], seeds: int) -> None:
    # play_game applies every bot action through the engine, which refuses illegal ones.
    for players in sizes:
        for i in range(seeds):
            game = play_game(Setup.create(variant, players, seed=f"legal-{i}"), strategy)
            assert game.is_over
            assert game.result["reason"] in ("perfect", "deck_out", "strikeout")


@pytest.mark.parametrize("variant", sorted(VARIANTS))
@pytest.mark.parametrize("strategy", sorted(STRATEGIES))
def test_plays_every_variant_legally(strategy: str, variant: str) -> None:
    if strategy == "search":
        plays_legally(strategy, variant, search_sizes(variant), 1)
    else:
        plays_legally(strategy, variant, SIZES, SEEDS_PER_TABLE)


@pytest.fixture
def thorough(request):
    if "slow" not in (request.config.getoption("markexpr") or ""):
        pytest.skip("search at every table size: pytest -m slow")


@pytest.mark.slow
@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_search_plays_every_variant_at_every_size(variant: str, thorough: None) -> None:
    plays_legally("search", variant, SIZES, 1)


@pytest.mark.parametrize("strategy", sorted(STRATEGIES))
def test_mixed_tables_and_options(strategy: str) -> None:
    others = sorted(STRATEGIES)
    for i in range(6):
        seats = [strategy] + [others[(i + k) % len(others)] for k in range(1 + i % 4)]
        options = Options(empty_clues=bool(i % 2), strikeout_keeps_score=bool(i % 3 == 0))
        setup = Setup.create("rainbow" if i % 2 else "no_variant", len(seats), options, f"mix-{i}")
        assert play_game(setup, seats).is_over
