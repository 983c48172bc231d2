"""Bot benchmark: self-play, mixed tables and noisy partners; mean, s.e., strikeouts.

    .venv/bin/python bench/bots.py                         # every row, 1000 games each
    .venv/bin/python bench/bots.py --games 200 --rows mixed noisy --players 2 3
    .venv/bin/python bench/bots.py --rows self --variants no_variant rainbow six_suits
    .venv/bin/python bench/bots.py --rows timing            # search: a server move's time
    .venv/bin/python bench/bots.py --jobs 2                 # two processes

Rows (standard game unless ``--variants``; a strikeout scores 0):

* ``self``: every seat plays one strategy.
* ``mixed``: every mix of strategies at a table (each multiset of ``--mix`` with at least
  two different strategies); game ``i`` rotates the seats by ``i``, so each strategy sits
  everywhere. Every bot knows the table, so hat plays hat only among hat bots.
* ``noisy``: one seat (seat ``i % players`` in game ``i``) is a conventions player who
  breaks the conventions: ``clue20`` gives a random legal clue on 20 % of its turns,
  ``play5`` plays its newest card blind on 5 %. The others play the row's strategy and
  see that seat as a person.
* ``timing``: the time of one server decision with ``search`` (``choose_action``: the
  log replay plus the search with its default budget and clock) at every bot turn of a
  few games per table size, next to a person (on conventions) and among search bots
  only (on hat): p50, p99 and the slowest.

Each kind of row has seeds of its own (``self-i``, ``mixed-i``, ``noisy-i``), apart from
the regression test's. Rows with a ``search`` seat use ``--search-samples`` sampled decks
per move (on hat, three times that, in the last 30 cards only) and no clock (so they are
reproducible), ``--search-games`` games (it is ~1000x slower than conventions) and only
the table sizes in ``--search-players`` (default 2).
``games/s`` is per core (CPU time of the process that played the games).
"""

from __future__ import annotations

import argparse
import itertools
import random
import statistics
import sys
import time
from multiprocessing import Pool
from typing import Any

from hanabi.bots import STRATEGIES, Bot, choose_action, make_bot, play_game, run_game
from hanabi.bots.hat_search import HatSearchBot
from hanabi.bots.search import Search
from hanabi.game import Action, Game, Setup

NOISE = {"clue20": ("clue", 0.20), "play5": ("play", 0.05)}
SERVER_BUDGET = (Search.SAMPLES, Search.SECONDS)  # what a server bot uses


class NoisyPartner(Bot):
    """A conventions player who sometimes breaks them (a person who half knows them)."""

    name = "noisy"

    def __init__(self, kind: str, seed: str, variant: str, players: int, seat: int) -> None:
        self.inner = make_bot("conventions", variant, players, seat)
        self.obs = self.inner.obs
        self.what, self.p = NOISE[kind]
        self.rng = random.Random(f"{seed}:{seat}")

    def observe(self, events: Any) -> None:
        self.inner.observe(events)

    def act(self) -> Action:
        obs = self.obs
        if self.rng.random() < self.p:
            if self.what == "play":
                return Action.play(obs.hands[obs.me][0])
            if obs.clue_tokens > 0:
                clues = []
                for target in range(obs.num_players):
                    if target == obs.me:
                        continue
                    present = 0
                    for order in obs.hands[target]:
                        present |= 1 << obs.card[order]
                    variant = obs.variant
                    for color, mask in variant.color_masks.items():
                        if mask & present:
                            clues.append(Action.clue(target, color=color))
                    for rank, mask in variant.rank_masks.items():
                        if mask & present:
                            clues.append(Action.clue(target, rank=rank))
                if clues:
                    return self.rng.choice(clues)
        return self.inner.act()


def play_row(row: tuple, i: int) -> Game:
    """Game ``i`` of a row: ("self", strategy, variant, n), ("mixed", strategies) or
    ("noisy", strategy, kind, n)."""
    kind = row[0]
    if kind == "self":
        _, strategy, variant, n = row
        return play_game(Setup.create(variant, n, seed=f"self-{i}"), strategy)
    if kind == "mixed":
        seats = list(row[1])
        k = i % len(seats)
        return play_game(
            Setup.create("no_variant", len(seats), seed=f"mixed-{i}"), seats[k:] + seats[:k]
        )
    _, strategy, noise, n = row
    seed = f"noisy-{i}"
    noisy = i % n
    table: list[str | None] = [strategy] * n
    table[noisy] = None  # a person, to the bots
    bots = [
        NoisyPartner(noise, seed, "no_variant", n, s)
        if s == noisy
        else make_bot(strategy, "no_variant", n, s, None, table)
        for s in range(n)
    ]
    return run_game(Setup.create("no_variant", n, seed=seed), bots)


def run_chunk(args: tuple[tuple, int, int, int]) -> tuple[list[int], int, int, float, int]:
    """Games ``start..stop`` of a row: scores, perfects, strikeouts, CPU seconds, and
    strikeouts in which only the noisy seat misplayed."""
    row, start, stop, samples = args
    Search.SAMPLES = samples
    Search.SECONDS = None
    scores = []
    perfect = strikeout = 0
    t0 = time.process_time()
    alone = 0
    for i in range(start, stop):
        game = play_row(row, i)
        result = game.result
        assert result is not None
        scores.append(result["score"])
        perfect += result["reason"] == "perfect"
        strikeout += result["reason"] == "strikeout"
        if row[0] == "noisy" and result["reason"] == "strikeout":
            alone += misplayers(game) == {i % game.num_players}
    return scores, perfect, strikeout, time.process_time() - t0, alone


def misplayers(game: Game) -> set[int]:
    """The seats that misplayed in a finished game."""
    replay = Game(game.setup)
    seats = set()
    for action in game.actions:
        seat = replay.current
        if any(e["type"] == "misplay" for e in replay.apply(action)):
            seats.add(seat)
    return seats


def run(row: tuple, games: int, samples: int, pool: Any) -> dict:
    step = 10 if "search" in str(row) else 50
    chunks = [(row, i, min(i + step, games), samples) for i in range(0, games, step)]
    parts = pool.map(run_chunk, chunks) if pool else [run_chunk(c) for c in chunks]
    scores = [s for p in parts for s in p[0]]
    cpu = sum(p[3] for p in parts)
    return {
        "mean": statistics.fmean(scores),
        "sem": statistics.stdev(scores) / len(scores) ** 0.5 if len(scores) > 1 else 0.0,
        "perfect": 100 * sum(p[1] for p in parts) / len(scores),
        "strikeout": 100 * sum(p[2] for p in parts) / len(scores),
        "rate": len(scores) / cpu if cpu else float("inf"),
        "games": len(scores),
        "alone": 100 * sum(p[4] for p in parts) / len(scores),
    }


def mixes(strategies: list[str], n: int) -> list[tuple[str, ...]]:
    return [m for m in itertools.combinations_with_replacement(strategies, n) if len(set(m)) > 1]


def timing(players: list[int], games: int) -> None:
    """Seconds per server decision of a search bot (default budget and clock), at a table
    with a person (search on conventions) and at a table of search bots (on hat)."""
    Search.SAMPLES, Search.SECONDS = SERVER_BUDGET
    print("\n| search move (server: replay + search) | table | players | moves | p50 s | p99 s "
          "| max s |")  # fmt: skip
    print("|---|---|---|---|---|---|---|")
    for n in players:
        finished_games = [
            play_game(Setup.create("no_variant", n, seed=f"timing-{i}"), "conventions")
            for i in range(games)
        ]
        for label, table in (
            ("a person + search bots", [None] + ["search"] * (n - 1)),
            ("search bots only", ["search"] * n),
        ):
            times = []
            for finished in finished_games:
                game = Game(finished.setup)
                for action in finished.actions:
                    if table[game.current] is not None:
                        t0 = time.perf_counter()
                        choose_action("search", game, game.current, table)
                        times.append(time.perf_counter() - t0)
                    game.apply(action)
            times.sort()
            p99 = times[min(len(times) - 1, int(0.99 * len(times)))]
            print(
                f"| default budget ({Search.SAMPLES} samples, {Search.SECONDS} s cap) | {label} "
                f"| {n} | {len(times)} | {times[len(times) // 2]:.3f} | {p99:.3f} "
                f"| {times[-1]:.3f} |",
                flush=True,
            )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=1000, help="games per row")
    parser.add_argument("--rows", nargs="+", default=["self", "mixed", "noisy", "timing"])
    parser.add_argument("--strategies", nargs="+", default=list(STRATEGIES))
    parser.add_argument("--mix", nargs="+", default=list(STRATEGIES), help="mixed rows")
    parser.add_argument("--players", nargs="+", type=int, default=[2, 3, 4, 5])
    parser.add_argument("--variants", nargs="+", default=["no_variant"], help="self rows")
    parser.add_argument("--search-games", type=int, default=200, help="games per search row")
    parser.add_argument("--search-samples", type=int, default=Search.SAMPLES)
    parser.add_argument(
        "--search-players", nargs="+", type=int, default=[2], help="table sizes with search"
    )
    parser.add_argument("--timing-games", type=int, default=3)
    parser.add_argument("--jobs", type=int, default=1, help="worker processes (default 1)")
    args = parser.parse_args(argv)
    rows: list[tuple] = []
    for n in args.players:
        for strategy in args.strategies:
            if strategy == "search" and n not in args.search_players:
                continue
            if "self" in args.rows:
                rows += [("self", strategy, v, n) for v in args.variants]
            if "noisy" in args.rows:
                rows += [("noisy", strategy, kind, n) for kind in NOISE]
        if "mixed" in args.rows:
            pool_n = [s for s in args.mix if s != "search" or n in args.search_players]
            rows += [("mixed", m) for m in mixes(pool_n, n)]
    pool = Pool(args.jobs) if args.jobs > 1 else None
    late = f"on hat x{HatSearchBot.SAMPLE_FACTOR} in the last {HatSearchBot.DECK_AT} cards only"
    print(f"{args.games} games per row ({args.search_games} with search, "
          f"{args.search_samples} samples a move ({late}), no clock); strikeout = 0; "
          "games/s per core\n")  # fmt: skip
    print(
        "| row | table | players | games | mean | ± s.e. | % strikeout "
        "| (noisy seat's misplays only) | % perfect | games/s |"
    )
    print("|---|---|---|---|---|---|---|---|---|---|")
    try:
        for row in rows:
            games = args.search_games if "search" in str(row) else args.games
            r = run(row, games, args.search_samples, pool)
            if row[0] == "mixed":
                label, table, n = "mixed", " + ".join(row[1]), len(row[1])
            elif row[0] == "noisy":
                label, table, n = f"noisy ({row[2]})", f"{row[1]} + 1 noisy", row[3]
            else:
                label, table, n = f"self-play ({row[2]})", row[1], row[3]
            alone = f"{r['alone']:.1f}" if row[0] == "noisy" else ""
            print(
                f"| {label} | {table} | {n} | {r['games']} | {r['mean']:.2f} | {r['sem']:.2f} | "
                f"{r['strikeout']:.1f} | {alone} | {r['perfect']:.1f} | {r['rate']:.1f} |",
                flush=True,
            )
    finally:
        if pool:
            pool.close()
    if "timing" in args.rows:
        timing(args.players, args.timing_games)
    return 0


if __name__ == "__main__":
    sys.exit(main())
