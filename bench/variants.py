"""Engine cost per action in the most complex hanab.live variants, against No Variant.

Records the same number of random legal games in each variant, then times replaying them
(every variant in turn, best of several rounds, on one core, in CPU time, in the same run,
so the ratios hold on a busy machine) and prints microseconds per apply() and per
legal_actions(), and the ratio to No Variant. The target is at most 2x: the rules are
per-variant data (clue masks, firework rules), so a complex variant costs what a simple
one does.

    .venv/bin/python bench/variants.py [--games N]
"""

from __future__ import annotations

import argparse
import random
import time

from hanabi.game import Game, Setup

VARIANTS = [
    "No Variant",
    "Rainbow (6 Suits)",
    "Up or Down & Rainbow (6 Suits)",
    "Sudoku (5 Suits)",
    "Reversed (6 Suits)",
    "Synesthesia & Rainbow (6 Suits)",
    "Orange (6 Suits)",
    "Throw It in a Hole & Omni (6 Suits)",
    "Clue Starved & Muddy Rainbow (6 Suits)",
    "Alternating Clues & Cocoa Rainbow (6 Suits)",
    "Deceptive-Ones & Pink (6 Suits)",
    "Matryoshka (6 Suits)",
]
OPTIONS = {"end_at_max_possible": True, "card_cycle": True}


def record(variant: str, count: int) -> list[tuple[Setup, list]]:
    """``count`` random legal games of the variant, as (setup, actions) to time again."""
    out = []
    for seed in range(count):
        game = Game(Setup.create(variant, 3, options=OPTIONS, seed=seed))
        rng = random.Random(seed)
        actions = []
        while not game.is_over:
            legal = game.legal_actions()
            plays = [a for a in legal if a.type == "play"]
            others = [a for a in legal if a.type != "play"] or legal
            action = rng.choice(plays if plays and rng.random() < 0.3 else others)
            game.apply(action)
            actions.append(action)
        out.append((game.setup, actions))
    return out


def time_games(games: list[tuple[Setup, list]]) -> tuple[float, float, float]:
    """CPU seconds to deal the recorded games, to deal and replay them, and to deal and
    replay them listing the legal actions before each move. Whole games, in CPU time: a
    per-call clock on a busy machine times the other jobs too. The differences (of each
    one's best round) are apply()'s and legal_actions()' shares."""
    clock = time.process_time
    t0 = clock()
    for setup, _ in games:
        Game(setup)
    t1 = clock()
    for setup, actions in games:
        game = Game(setup)
        for action in actions:
            game.apply(action)
    t2 = clock()
    for setup, actions in games:
        game = Game(setup)
        for action in actions:
            game.legal_actions()
            game.apply(action)
    t3 = clock()
    return t1 - t0, t2 - t1, t3 - t2


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--rounds", type=int, default=7, help="best of this many rounds")
    args = parser.parse_args()
    recorded = {v: record(v, args.games) for v in VARIANTS}
    fastest = {v: (float("inf"),) * 3 for v in VARIANTS}
    for _ in range(args.rounds):  # interleaved, best of each: robust on a shared machine
        for variant in VARIANTS:
            times = time_games(recorded[variant])
            fastest[variant] = tuple(map(min, fastest[variant], times))
    best = {}
    for variant, (deal, replay, listed) in fastest.items():
        count = sum(len(a) for _, a in recorded[variant])
        best[variant] = (1e6 * (replay - deal) / count, 1e6 * (listed - replay) / count)
    base_apply, base_list = best[VARIANTS[0]]
    print(f"{'variant':44} {'apply us':>9} {'x':>5} {'legal us':>9} {'x':>5} {'actions':>8}")
    for variant in VARIANTS:
        apply_us, list_us = best[variant]
        actions = sum(len(a) for _, a in recorded[variant])
        print(
            f"{variant:44} {apply_us:9.1f} {apply_us / base_apply:5.2f} "
            f"{list_us:9.1f} {list_us / base_list:5.2f} {actions:8d}"
        )


if __name__ == "__main__":
    main()
