"""Engine throughput: random legal self-play on one core.

Prints moves/s, games/s and view()s/s for 2-5 players. A random legal game ends early
(usually by strikeout), so moves/s includes the cost of dealing; the last column times
view() on the positions those games pass through.

    .venv/bin/python bench/engine.py [--games N] [--variant ID]
"""

from __future__ import annotations

import argparse
import random
import time

from hanabi.game import Game, Setup, view


def self_play(players: int, variant: str, seed: int) -> tuple[int, list[Game]]:
    """One random legal game; returns its move count and a few positions to view."""
    game = Game(Setup.create(variant, players, seed=seed))
    rng = random.Random(seed)
    moves = 0
    while not game.is_over:
        game.apply(rng.choice(game.legal_actions()))
        moves += 1
    return moves, game


def bench(players: int, variant: str, games: int) -> dict[str, float]:
    start = time.perf_counter()
    moves = 0
    finished = []
    for seed in range(games):
        n, game = self_play(players, variant, seed)
        moves += n
        if seed < 200:
            finished.append(game)
    elapsed = time.perf_counter() - start

    # view() on mid-game positions: replay each kept game halfway and view every seat.
    positions = []
    for game in finished:
        mid = Game(game.setup)
        for action in game.actions[: len(game.actions) // 2]:
            mid.apply(action)
        positions.append(mid)
    count = 0
    start = time.perf_counter()
    for game in positions:
        for seat in range(players):
            view(game, seat)
            count += 1
    view_elapsed = time.perf_counter() - start
    return {
        "moves_per_game": moves / games,
        "moves_s": moves / elapsed,
        "games_s": games / elapsed,
        "views_s": count / view_elapsed,
    }


def reference(iterations: int = 300_000) -> float:
    """Calls/s of a trivial stand-in move (pick from a 20-item list, append): the
    machine-speed yardstick that the engine's moves/s are divided by."""
    rng = random.Random(0)
    options = list(range(20))
    log: list[int] = []
    start = time.perf_counter()
    for _ in range(iterations):
        log.append(rng.choice(options))
    return iterations / (time.perf_counter() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=5000)
    parser.add_argument("--variant", default="no_variant")
    args = parser.parse_args()
    print(f"variant {args.variant}, {args.games} random legal games per row, one core")
    ref = reference()
    print(f"reference: {ref:,.0f} trivial moves/s in this process")
    print(
        f"{'players':>7} {'moves/game':>10} {'moves/s':>10} {'vs ref':>7} "
        f"{'games/s':>9} {'views/s':>9}"
    )
    for players in (2, 3, 4, 5):
        r = bench(players, args.variant, args.games)
        print(
            f"{players:>7} {r['moves_per_game']:>10.1f} {r['moves_s']:>10,.0f} "
            f"{r['moves_s'] / ref:>7.3f} "
            f"{r['games_s']:>9,.0f} {r['views_s']:>9,.0f}"
        )


if __name__ == "__main__":
    main()
