"""Every strategy plays every shipped variant legally, at every table size."""

from __future__ import annotations

import pytest

from hanabi.bots import STRATEGIES, play_game
from hanabi.game import VARIANTS, Options, Setup

SEEDS_PER_TABLE = 4
SEARCH_SEEDS = 1  # search plays each move ~100 rollouts deep: one game per table size


@pytest.mark.parametrize("variant", sorted(VARIANTS))
@pytest.mark.parametrize("strategy", sorted(STRATEGIES))
def test_plays_every_variant_legally(strategy: str, variant: str) -> None:
    # play_game applies every bot action through the engine, which refuses illegal ones.
    for players in (2, 3, 4, 5, 6):
        for i in range(SEARCH_SEEDS if strategy == "search" else SEEDS_PER_TABLE):
            game = play_game(Setup.create(variant, players, seed=f"legal-{i}"), strategy)
            assert game.is_over
            assert game.result["reason"] in ("perfect", "deck_out", "strikeout")


@pytest.mark.parametrize("strategy", sorted(STRATEGIES))
def test_mixed_tables_and_options(strategy: str) -> None:
    others = sorted(STRATEGIES)
    for i in range(6):
        seats = [strategy] + [others[(i + k) % len(others)] for k in range(1 + i % 4)]
        options = Options(empty_clues=bool(i % 2), strikeout_keeps_score=bool(i % 3 == 0))
        setup = Setup.create("rainbow" if i % 2 else "no_variant", len(seats), options, f"mix-{i}")
        assert play_game(setup, seats).is_over
