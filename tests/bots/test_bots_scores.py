"""Score regression: the average on a fixed seed set must not drop.

The pinned figures are what the strategies score today on these seeds (the games are
deterministic); a change that makes a bot play worse fails here loudly. Raise a pin when
a change improves it. The full benchmark is bench/bots.py.
"""

from __future__ import annotations

import statistics

import pytest

from hanabi.bots import play_game
from hanabi.game import Setup

# strategy -> (games per table size, {players: pinned average})
PINNED = {
    "conventions": (200, {2: 22.11, 3: 23.02, 4: 23.09, 5: 22.19}),
    "hat": (20, {2: 23.95, 3: 24.9, 4: 24.95, 5: 24.85}),
}


def average(strategy: str, players: int, games: int) -> tuple[float, int]:
    scores = []
    strikeouts = 0
    for i in range(games):
        game = play_game(Setup.create("no_variant", players, seed=f"regression-{i}"), strategy)
        scores.append(game.result["score"])
        strikeouts += game.result["reason"] == "strikeout"
    return statistics.fmean(scores), strikeouts


@pytest.mark.parametrize(
    ("strategy", "players"),
    [(s, p) for s, (_, pins) in PINNED.items() for p in pins],
)
def test_average_does_not_drop(strategy: str, players: int) -> None:
    games, pins = PINNED[strategy]
    got, _ = average(strategy, players, games)
    assert got >= pins[players] - 1e-9, f"{strategy} {players}p: {got:.3f} < pinned {pins[players]}"
