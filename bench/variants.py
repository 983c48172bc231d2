"""Engine cost per action in the most complex hanab.live variants, against No Variant.

Plays the same number of random legal games in each variant (on one core, in the same
run, so the ratios hold on any machine) and prints microseconds per apply() and per
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


def games(variant: str, count: int) -> tuple[float, float, int]:
    """Seconds in apply(), seconds in legal_actions(), and the number of actions."""
    applying = listing = 0.0
    actions = 0
    for seed in range(count):
        game = Game(Setup.create(variant, 3, options=OPTIONS, seed=seed))
        rng = random.Random(seed)
        while not game.is_over:
            t0 = time.perf_counter()
            legal = game.legal_actions()
            t1 = time.perf_counter()
            plays = [a for a in legal if a.type == "play"]
            others = [a for a in legal if a.type != "play"] or legal
            action = rng.choice(plays if plays and rng.random() < 0.3 else others)
            t2 = time.perf_counter()
            game.apply(action)
            t3 = time.perf_counter()
            listing += t1 - t0
            applying += t3 - t2
            actions += 1
    return applying, listing, actions


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=300)
    args = parser.parse_args()
    rows = []
    for variant in VARIANTS:
        applying, listing, actions = games(variant, args.games)
        rows.append((variant, 1e6 * applying / actions, 1e6 * listing / actions, actions))
    base_apply, base_list = rows[0][1], rows[0][2]
    print(f"{'variant':44} {'apply us':>9} {'x':>5} {'legal us':>9} {'x':>5} {'actions':>8}")
    for variant, apply_us, list_us, actions in rows:
        print(
            f"{variant:44} {apply_us:9.1f} {apply_us / base_apply:5.2f} "
            f"{list_us:9.1f} {list_us / base_list:5.2f} {actions:8d}"
        )


if __name__ == "__main__":
    main()
