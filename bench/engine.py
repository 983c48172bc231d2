"""Engine throughput: random legal self-play on one core, against the reference engine.

The reference is DeepMind's Hanabi Learning Environment (HLE, C++) driven through its
Python bindings (``pyhanabi``) the same way: deal, list the legal moves, pick one at
random, apply it, until the game ends. Both run in this process, interleaved round by
round (best of ``--rounds``), so the ratio holds on a busy machine. ``make bench``
installs HLE (requirements-bench.txt); without it the ratio column is left out.

Then the whole hanab.live catalogue: every variant plays a few random legal games, the
slowest ones play again against No Variant in the same rounds, and the slowest five are
printed as cost per move relative to No Variant (the target: at most 2x).

A random legal game ends early (usually by strikeout), so moves/s includes the cost of
dealing; the views/s column times view() on the positions those games pass through.

    .venv/bin/python bench/engine.py [--games N] [--rounds R] [--variant ID]
        [--catalogue-games N] [--no-catalogue] [--players 2,3,4,5]
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable

from hanabi.game import Game, Setup, catalogue, view

try:
    from hanabi_learning_environment import pyhanabi
except ImportError:  # the bench still runs; only the reference column is missing
    pyhanabi = None


def self_play(players: int, variant: str, seed: int, rng: random.Random) -> tuple[int, Game]:
    """One random legal game (the deal by ``seed``, the moves by ``rng``); returns its
    move count and the finished game."""
    game = Game(Setup.create(variant, players, seed=seed))
    moves = 0
    while not game.is_over:  # written as the HLE loop below is: the engine's calls as they are
        game.apply(rng.choice(game.legal_actions()))
        moves += 1
    return moves, game


def ours(players: int, variant: str, games: int) -> tuple[int, float]:
    """Moves and seconds of ``games`` random legal games with this engine."""
    moves = 0
    rng = random.Random(0)  # one stream of choices per row, as for HLE
    start = time.process_time()
    for seed in range(games):
        moves += self_play(players, variant, seed, rng)[0]
    return moves, time.process_time() - start


def hle(players: int, games: int) -> tuple[int, float]:
    """Moves and seconds of ``games`` random legal games with HLE's Python bindings
    (No Variant: five suits, 8 clue tokens, 3 strikes; chance moves deal and are not
    counted as moves, as our engine deals inside apply())."""
    game = pyhanabi.HanabiGame({"players": players, "seed": 1})
    chance = pyhanabi.CHANCE_PLAYER_ID
    moves = 0
    rng = random.Random(0)
    start = time.process_time()
    for _ in range(games):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.cur_player() == chance:
                state.deal_random_card()
                continue
            state.apply_move(rng.choice(state.legal_moves()))
            moves += 1
    return moves, time.process_time() - start


def views_per_second(players: int, variant: str, games: int) -> float:
    """view() calls per second on mid-game positions of random legal games."""
    positions = []
    rng = random.Random(0)
    for seed in range(min(games, 200)):
        _, game = self_play(players, variant, seed, rng)
        mid = Game(game.setup)
        for action in game.actions[: len(game.actions) // 2]:
            mid.apply(action)
        positions.append(mid)
    count = 0
    start = time.process_time()
    for game in positions:
        for seat in range(players):
            view(game, seat)
            count += 1
    return count / (time.process_time() - start)


def best_rate(runs: dict[str, Callable[[], tuple[int, float]]], rounds: int) -> dict[str, float]:
    """Moves per second of each run, best of ``rounds``, the runs interleaved in each
    round so that a burst of load on the machine hits them alike."""
    best = dict.fromkeys(runs, 0.0)
    for _ in range(rounds):
        for name, run in runs.items():
            moves, seconds = run()
            best[name] = max(best[name], moves / seconds)
    return best


def table_sizes(args: argparse.Namespace) -> None:
    print(f"variant {args.variant}, {args.games} random legal games per row and round, "
          f"best of {args.rounds} rounds, one core")  # fmt: skip
    if pyhanabi is None:
        print("reference: HLE is not installed (make bench installs it): no ratio")
    print(
        f"{'players':>7} {'moves/game':>10} {'moves/s':>10} {'HLE moves/s':>11} {'x HLE':>6} "
        f"{'views/s':>9}"
    )
    for players in args.players:
        runs = {"ours": lambda p=players: ours(p, args.variant, args.games)}
        if pyhanabi is not None and args.variant == "no_variant":
            runs["hle"] = lambda p=players: hle(p, args.games)
        rates = best_rate(runs, args.rounds)
        moves = ours(players, args.variant, min(args.games, 500))[0] / min(args.games, 500)
        ref = rates.get("hle")
        ref_text = f"{ref:>11,.0f} {rates['ours'] / ref:>6.2f}" if ref else f"{'-':>11} {'-':>6}"
        print(
            f"{players:>7} {moves:>10.1f} {rates['ours']:>10,.0f} {ref_text} "
            f"{views_per_second(players, args.variant, args.games):>9,.0f}"
        )


def whole_catalogue(args: argparse.Namespace) -> None:
    """Every catalogue variant's moves/s at 3 players; the slowest again, best of rounds
    against No Variant; the slowest five printed."""
    players = 3
    names = catalogue.names()
    print(f"\ncatalogue: {len(names)} variants, {args.catalogue_games} random legal games "
          f"each at {players} players")  # fmt: skip
    screen = {}
    for name in names:
        moves, seconds = ours(players, name, args.catalogue_games)
        screen[name] = seconds / moves
    suspects = sorted(screen, key=screen.get, reverse=True)[:15]
    games = args.catalogue_games * 5
    runs = {"No Variant": lambda: ours(players, "No Variant", games)}
    for name in suspects:
        runs[name] = lambda n=name: ours(players, n, games)
    rates = best_rate(runs, args.rounds)
    base = rates["No Variant"]
    ranked = sorted(suspects, key=rates.get)
    print(f"No Variant: {base:,.0f} moves/s; the slowest five (best of {args.rounds} rounds "
          f"of {games} games, interleaved with No Variant):")  # fmt: skip
    print(f"{'variant':52} {'moves/s':>9} {'x cost':>6}")
    for name in ranked[:5]:
        print(f"{name:52} {rates[name]:>9,.0f} {base / rates[name]:>6.2f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--rounds", type=int, default=5, help="best of this many rounds")
    parser.add_argument("--variant", default="no_variant")
    parser.add_argument("--players", default="2,3,4,5")
    parser.add_argument("--catalogue-games", type=int, default=20)
    parser.add_argument("--no-catalogue", action="store_true")
    args = parser.parse_args()
    args.players = [int(p) for p in args.players.split(",")]
    table_sizes(args)
    if not args.no_catalogue:
        whole_catalogue(args)


if __name__ == "__main__":
    main()
