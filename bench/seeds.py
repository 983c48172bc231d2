"""Seed pages and leaderboards with many games: GET /seeds/{name} and GET /leaderboards,
p50/p99, against a private redis-server through the real app (Flask's test client, in
process: the app and Redis, no HTTP server).

One account finishes a game on the seed the real way (a table on that named seed, ended by
vote), then ``--games`` more results are recorded on the same seed and on one board with
the same script settling uses. Measured in the same run:

- seed page 1 (20 results), a deep page (offset games - 20), and the same first page on a
  seed of 100 games (reference: an index answers in the same time whatever the size)
- leaderboard page 1, by score and by turns (the board is capped at HANABI_BOARD_MAX)
- GET /health (reference: the cost of a request that reads nothing)

    .venv/bin/python bench/seeds.py [--games 10000] [--requests 500]
"""

from __future__ import annotations

import argparse
import datetime
import os
import random
import statistics
import time
from collections.abc import Callable
from typing import Any

from hanabi.server import create_app
from hanabi.server.ops.redis_process import RedisProcess
from hanabi.server.storage.seeds import member_of, rank_score

API = "/api/v1"
SEED = "p2v0s424242"
SMALL = "p2v0s424243"


def timed(calls: list[Callable[[], Any]], n: int) -> list[tuple[float, float]]:
    """p50 and p99 in ms of each call, ``n`` times each, interleaved (one of each in turn:
    the machine's other load falls on all of them alike), after 20 warm-up rounds."""
    samples: list[list[float]] = [[] for _ in calls]
    for round_no in range(n + 20):
        for i, call in enumerate(calls):
            start = time.perf_counter()
            call()
            if round_no >= 20:
                samples[i].append((time.perf_counter() - start) * 1000)
    out = []
    for taken in samples:
        taken.sort()
        out.append((statistics.median(taken), taken[int(len(taken) * 0.99) - 1]))
    return out


def finish_on(client: Any, seed: str, tokens: list[str]) -> None:
    auth = [{"Authorization": f"Bearer {t}"} for t in tokens]
    gid = client.post(f"{API}/games", json={"seed": seed}, headers=auth[0]).get_json()["id"]
    client.post(f"{API}/games/{gid}/players", json={}, headers=auth[1])
    client.post(f"{API}/games/{gid}/start", headers=auth[0])
    for h in auth:
        client.post(f"{API}/games/{gid}/votes", json={"end": True}, headers=h)


def fill(store: Any, seed: str, games: int, board: bool) -> None:
    rng = random.Random(1)
    for i in range(games):
        score, turns = rng.randint(15, 25), rng.randint(40, 90)
        entry = {"game_id": f"g{i}", "seed": seed, "players": ["a", "b"], "bots": 0,
                 "score": score, "max_score": 25, "turns": turns,
                 "date": "2026-12-06T00:00:00Z", "replay": f"{API}/games/g{i}/replay"}  # fmt: skip
        member, rank = member_of(1_000_000 + i, f"g{i}"), rank_score(score, turns)
        store.add_result(seed, member, rank, entry)
        if board:
            store.add_to_board("v0", 2, member, rank, {k: entry[k] for k in entry if k != "seed"})


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--requests", type=int, default=500)
    args = parser.parse_args()
    with RedisProcess() as redis_proc:
        app = create_app({"REDIS_URL": redis_proc.url, "HANABI_LIMITS": "off",
                          "HANABI_ARGON2_TIME": 1, "HANABI_ARGON2_MEMORY": 1024,
                          "HANABI_ARGON2_PARALLELISM": 1, "HANABI_SETTLE_SWEEP": 0,
                          "HANABI_BOT_WORKER": 0, "HANABI_WEBHOOK_WORKERS": 0})  # fmt: skip
        client = app.test_client()
        tokens = []
        for who in ("benchann", "benchbob"):
            client.post(f"{API}/accounts", json={"username": who, "password": "a long password"})
            made = client.post(
                f"{API}/sessions", json={"username": who, "password": "a long password"}
            )
            tokens.append(made.get_json()["token"])
        finish_on(client, SEED, tokens)
        finish_on(client, SMALL, tokens)
        store = app.extensions["hanabi"].results.store
        start = time.perf_counter()
        fill(store, SEED, args.games, board=True)
        fill(store, SMALL, 100, board=False)
        filled = time.perf_counter() - start
        auth = {"Authorization": f"Bearer {tokens[0]}"}

        def get(path: str, headers: dict[str, str] | None = None) -> Callable[[], Any]:
            def call() -> None:
                response = client.get(path, headers=headers)
                assert response.status_code == 200, response.get_json()

            return call

        deep = args.games - 20
        rows = [
            ("seed page 1", get(f"{API}/seeds/{SEED}?limit=20", auth)),
            (f"seed page at {deep}", get(f"{API}/seeds/{SEED}?limit=20&cursor={deep}", auth)),
            ("seed of 100, page 1", get(f"{API}/seeds/{SMALL}?limit=20", auth)),
            ("board by score", get(f"{API}/leaderboards?variant=0&players=2")),
            ("board by turns", get(f"{API}/leaderboards?variant=0&players=2&kind=turns")),
            ("health (reference)", get(f"{API}/health")),
        ]
        now = datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%d %H:%M UTC")
        load = os.getloadavg()[0]
        print(f"bench/seeds.py  {now}  2-core VM (shared, load average {load:.1f})  "
              "in-process app + private redis-server")  # fmt: skip
        print(f"{args.games + 1} results on {SEED} (recorded in {filled:.1f} s), "
              f"{args.requests} requests each")  # fmt: skip
        results = {}
        timings = timed([call for _, call in rows], args.requests)
        for (label, _), (p50, p99) in zip(rows, timings, strict=True):
            results[label] = p50
            print(f"  {label:<22} p50 {p50:6.2f} ms   p99 {p99:6.2f} ms")
        ratio = results["seed page 1"] / results["seed of 100, page 1"]
        print(f"  seed of {args.games + 1} / seed of 101, p50: {ratio:.2f}x (1x: indexed)")


if __name__ == "__main__":
    main()
