"""Turn-based play: GET /accounts/me/turns for an account with 1,000 open games.

Starts a private redis-server and the real app, opens ``--games`` two-seat games between
two accounts (every one awaiting the first account's move), then measures, in the same
run, through the Flask test client:

- me:      GET /api/v1/accounts/me (the reference: an authenticated request, no index)
- turns:   GET /api/v1/accounts/me/turns (the default page, 50 games)
- turns200: the same with ?limit=200 (the largest page)
- move:    a move in a game with accounts seated (the commit, then the index of both
           accounts), against a move at a guests' table (no index): the write's cost

    .venv/bin/python bench/turns.py [--games 1000] [--requests 300]
"""

from __future__ import annotations

import argparse
import datetime
import statistics
import time

from hanabi.server import create_app
from hanabi.server.ops.redis_process import RedisProcess
from timing import p50_p99, timed

API = "/api/v1"
PASSWORD = "correct horse battery"


def percentiles(samples: list[float]) -> str:
    p50, p99 = p50_p99([s * 1000 for s in samples])
    return f"p50 {p50:6.2f} ms  p99 {p99:6.2f} ms  (n={len(samples)})"


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--requests", type=int, default=300)
    args = parser.parse_args()
    with RedisProcess() as redis:
        app = create_app({"REDIS_URL": redis.url, "HANABI_SETTLE_SWEEP": 0, "HANABI_LIMITS": "off",
                          "HANABI_BOT_WORKER": 0, "HANABI_WEBHOOK_WORKERS": 0,
                          "HANABI_ARGON2_TIME": 1, "HANABI_ARGON2_MEMORY": 1024,
                          "HANABI_ARGON2_PARALLELISM": 1})  # fmt: skip
        client = app.test_client()
        tokens = []
        for name in ("ann", "bob"):
            client.post(f"{API}/accounts", json={"username": name, "password": PASSWORD})
            login = client.post(f"{API}/sessions", json={"username": name, "password": PASSWORD})
            tokens.append({"Authorization": f"Bearer {login.get_json()['token']}"})
        ann, bob = tokens
        began = time.perf_counter()
        games = []
        for _ in range(args.games):
            made = client.post(f"{API}/games", json={"options": {"move_clock": 86400}}, headers=ann)
            gid = made.get_json()["id"]
            client.post(f"{API}/games/{gid}/players", json={}, headers=bob)
            client.post(f"{API}/games/{gid}/start", headers=ann)
            games.append(gid)
        print(f"{args.games} open games awaiting ann's move, made in "
              f"{time.perf_counter() - began:.1f} s")  # fmt: skip
        listed = client.get(f"{API}/accounts/me/turns", headers=ann).get_json()
        assert listed["total"] == args.games and len(listed["games"]) == 50, listed["total"]

        def get(path: str) -> None:
            response = client.get(f"{API}{path}", headers=ann)
            assert response.status_code == 200

        print(f"date {datetime.datetime.now(datetime.UTC):%Y-%m-%d %H:%M} UTC, 2-core VM, "
              "Flask test client in one process, a private redis-server")  # fmt: skip
        for label, path in (("me", "/accounts/me"), ("turns", "/accounts/me/turns"),
                            ("turns200", "/accounts/me/turns?limit=200")):  # fmt: skip
            get(path)
            print(f"{label:9} {percentiles(timed(lambda p=path: get(p), args.requests))}")

        def move(gid: str, seat: dict[str, str]) -> None:
            view = client.get(f"{API}/games/{gid}", headers=seat).get_json()
            clue = next(a for a in view["legal_actions"] if a["type"] == "clue")
            start = time.perf_counter()
            response = client.post(f"{API}/games/{gid}/actions", headers=seat,
                                   json={"turn": view["turn"], **clue})  # fmt: skip
            samples.append(time.perf_counter() - start)
            assert response.status_code == 201

        samples: list[float] = []
        for gid in games[: min(200, args.games)]:
            move(gid, ann)
        indexed = samples
        samples = []
        for _ in range(len(indexed)):
            made = client.post(f"{API}/games", json={"name": "g0"}).get_json()
            client.post(f"{API}/games/{made['id']}/players", json={"name": "g1"})
            client.post(f"{API}/games/{made['id']}/start",
                        headers={"Authorization": f"Bearer {made['token']}"})  # fmt: skip
            move(made["id"], {"Authorization": f"Bearer {made['token']}"})
        print(f"move, accounts (indexed) {percentiles(indexed)}")
        print(f"move, guests (no index)  {percentiles(samples)}")
        ratio = statistics.median(indexed) / statistics.median(samples)
        print(f"a move's median with the index / without: {ratio:.2f}")


if __name__ == "__main__":
    main()
