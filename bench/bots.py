"""Bot self-play benchmark: average score, % perfect, % strikeout and games/s.

    .venv/bin/python bench/bots.py                     # 1000 games per table size, every strategy
    .venv/bin/python bench/bots.py --games 100 --strategies conventions --players 3 4
    .venv/bin/python bench/bots.py --jobs 2            # two processes (single-core speed still shown)

Game ``i`` of a run uses seed ``bench-i``, so every strategy meets the same decks and a
run is reproducible. A strikeout scores 0 (the default rules). ``games/s`` is measured
inside each worker process, so it is the speed of one core whatever ``--jobs`` is.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from multiprocessing import Pool

from hanabi.bots import STRATEGIES, play_game
from hanabi.game import Setup

DEFAULT_VARIANTS = ("no_variant", "rainbow", "six_suits")


def run_chunk(args: tuple[str, str, int, int, int]) -> tuple[list[int], int, int, float]:
    """Play games ``start..stop`` of one configuration; returns scores, perfects,
    strikeouts and the CPU-seconds spent (time.process_time of this worker)."""
    strategy, variant, players, start, stop = args
    scores = []
    perfect = strikeout = 0
    t0 = time.process_time()
    for i in range(start, stop):
        game = play_game(Setup.create(variant, players, seed=f"bench-{i}"), strategy)
        result = game.result
        assert result is not None
        scores.append(result["score"])
        perfect += result["reason"] == "perfect"
        strikeout += result["reason"] == "strikeout"
    return scores, perfect, strikeout, time.process_time() - t0


def run(strategy: str, variant: str, players: int, games: int, pool: Pool | None) -> dict:
    chunks = [(strategy, variant, players, i, min(i + 50, games)) for i in range(0, games, 50)]
    parts = pool.map(run_chunk, chunks) if pool else [run_chunk(c) for c in chunks]
    scores = [s for p in parts for s in p[0]]
    cpu = sum(p[3] for p in parts)
    return {
        "mean": statistics.fmean(scores),
        "sem": statistics.stdev(scores) / len(scores) ** 0.5 if len(scores) > 1 else 0.0,
        "perfect": 100 * sum(p[1] for p in parts) / len(scores),
        "strikeout": 100 * sum(p[2] for p in parts) / len(scores),
        "rate": len(scores) / cpu if cpu else float("inf"),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=1000, help="games per configuration")
    parser.add_argument("--strategies", nargs="+", default=list(STRATEGIES))
    parser.add_argument("--players", nargs="+", type=int, default=[2, 3, 4, 5])
    parser.add_argument("--variants", nargs="+", default=list(DEFAULT_VARIANTS))
    parser.add_argument("--jobs", type=int, default=1, help="worker processes (default 1)")
    args = parser.parse_args(argv)
    pool = Pool(args.jobs) if args.jobs > 1 else None
    print(f"{args.games} games per row; seeds bench-0..bench-{args.games - 1}; strikeout = 0")
    print("games/s is per core (CPU time of the process that played the games)\n")
    print("| strategy | variant | players | average | ± s.e. | % perfect | % strikeout | games/s |")
    print("|---|---|---|---|---|---|---|---|")
    try:
        for strategy in args.strategies:
            for variant in args.variants:
                for players in args.players:
                    r = run(strategy, variant, players, args.games, pool)
                    print(
                        f"| {strategy} | {variant} | {players} | {r['mean']:.3f} | "
                        f"{r['sem']:.3f} | {r['perfect']:.1f} | {r['strikeout']:.1f} | "
                        f"{r['rate']:.0f} |",
                        flush=True,
                    )
    finally:
        if pool:
            pool.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
