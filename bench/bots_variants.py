"""Bot strength per variant family: self-play at 3 players, mean score, % perfect and %
strikeout per family and bot, and each mean as a share of the maximum next to No
Variant's (the same seeds in every row).

    .venv/bin/python bench/bots_variants.py                  # 400 seeds, 2 processes
    .venv/bin/python bench/bots_variants.py --seeds 40       # quick look while developing
    .venv/bin/python bench/bots_variants.py --write          # also write the rated variants'
                                                             # data (table/rated_variants.json)

One variant stands for each family (the 6-suit one where hanab.live has it, the classic
5-suit one for the special rules), and this service's own ``wild_rainbow`` and
``black_powder`` are measured too, since they are rated. ``--write`` records the figures
in ``server/hanabi/server/table/rated_variants.json``: the variants rated tables accept
(every measured one but the 55-card ones, which are never rated) and the house bot's
(``conventions``) mean, which the rating model serves as hanabot's expected score.
``search`` is not measured here (a thousand times slower; it plays on conventions or hat).
"""

from __future__ import annotations

import argparse
import datetime
import json
import statistics
import sys
import time
from multiprocessing import Pool
from pathlib import Path

from hanabi.bots import DEFAULT_STRATEGY, play_game
from hanabi.game import Setup, get_variant

#: family -> the variant measured for it
FAMILIES: dict[str, str] = {
    "no variant": "No Variant",
    "6 suits": "6 Suits",
    "rainbow": "Rainbow (6 Suits)",
    "pink": "Pink (6 Suits)",
    "white": "White (6 Suits)",
    "brown": "Brown (6 Suits)",
    "black/dark": "Black (6 Suits)",
    "null": "Null (6 Suits)",
    "muddy": "Muddy Rainbow (6 Suits)",
    "prism": "Prism (6 Suits)",
    "up or down": "Up or Down (5 Suits)",
    "throw it in a hole": "Throw It in a Hole (5 Suits)",
    "critical fours": "Critical Fours (5 Suits)",
    "own: wild rainbow": "wild_rainbow",
    "own: black powder": "black_powder",
}
BOTS = ("conventions", "hat")
PLAYERS = 3
UNRATED_CARD_COUNT = 55  # as server/hanabi/server/table/ratings.py: never rated
DATA = (
    Path(__file__).resolve().parent.parent
    / "server"
    / "hanabi"
    / "server"
    / "table"
    / "rated_variants.json"
)


def run(args: tuple[str, str, int, int]) -> tuple[str, str, list[int], int, int]:
    variant, strategy, start, stop = args
    scores = []
    perfect = strikeout = 0
    for i in range(start, stop):
        game = play_game(Setup.create(variant, PLAYERS, seed=f"variants-{i}"), strategy)
        result = game.result
        assert result is not None
        scores.append(result["score"])
        perfect += result["reason"] == "perfect"
        strikeout += result["reason"] == "strikeout"
    return variant, strategy, scores, perfect, strikeout


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seeds", type=int, default=400, help="games per family and bot")
    parser.add_argument("--jobs", type=int, default=2, help="worker processes")
    parser.add_argument("--write", action="store_true", help=f"write {DATA.name}")
    parser.add_argument("--machine", default="2-core VM", help="recorded with --write")
    args = parser.parse_args(argv)
    chunk = max(1, args.seeds // 4)
    tasks = [
        (variant, bot, s, min(s + chunk, args.seeds))
        for variant in FAMILIES.values()
        for bot in BOTS
        for s in range(0, args.seeds, chunk)
    ]
    t0 = time.time()
    with Pool(args.jobs) as pool:
        parts = pool.map(run, tasks, chunksize=1)
    totals: dict[tuple[str, str], list] = {}
    for variant, bot, scores, perfect, strikeout in parts:
        acc = totals.setdefault((variant, bot), [[], 0, 0])
        acc[0] += scores
        acc[1] += perfect
        acc[2] += strikeout
    figures: dict[str, dict[str, dict[str, float]]] = {}
    for (variant, bot), (scores, perfect, strikeout) in totals.items():
        n = len(scores)
        figures.setdefault(variant, {})[bot] = {
            "mean": round(statistics.fmean(scores), 2),
            "sem": round(statistics.stdev(scores) / n**0.5, 2) if n > 1 else 0.0,
            "perfect": round(100 * perfect / n, 1),
            "strikeout": round(100 * strikeout / n, 1),
        }
    base = {bot: figures["No Variant"][bot]["mean"] / 25 for bot in BOTS}
    print(
        f"# {PLAYERS} players, {args.seeds} seeds a row, {time.time() - t0:.0f} s on "
        f"{args.jobs} processes ({datetime.date.today()})"
    )
    head = "| family | variant | max |"
    for bot in BOTS:
        head += f" {bot} mean | % max (NV) | % perfect | % strikeout |"
    print(head)
    print("|---" * (3 + 4 * len(BOTS)) + "|")
    for family, variant in FAMILIES.items():
        top = get_variant(variant).max_score
        line = f"| {family} | {variant} | {top} |"
        for bot in BOTS:
            f = figures[variant][bot]
            share = f["mean"] / top
            line += (
                f" {f['mean']:.2f} ± {f['sem']:.2f} | {100 * share:.0f} % "
                f"({100 * share / base[bot]:.0f}) | {f['perfect']:.1f} | {f['strikeout']:.1f} |"
            )
        print(line)
    if args.write:
        write(figures, args)
    return 0


def write(figures: dict[str, dict[str, dict[str, float]]], args: argparse.Namespace) -> None:
    rows = []
    for family, name in FAMILIES.items():
        variant = get_variant(name)
        rows.append(
            {
                "variant": variant.hanablive_name or variant.id,
                "family": family,
                "max_score": variant.max_score,
                "rated": variant.card_count != UNRATED_CARD_COUNT,
                "bots": figures[name],
            }
        )
    data = {
        "measured": {
            "date": datetime.date.today().isoformat(),
            "machine": args.machine,
            "players": PLAYERS,
            "seeds": args.seeds,
            "house_bot": DEFAULT_STRATEGY,
            "by": "bench/bots_variants.py --write",
        },
        "variants": rows,
    }
    DATA.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
    print(f"wrote {DATA}", file=sys.stderr)


if __name__ == "__main__":
    sys.exit(main())
