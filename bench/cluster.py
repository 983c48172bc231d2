"""Two API nodes on one Redis, then on a 3-master Redis Cluster, measured in the same run.

For each storage, starts two gunicorn nodes (gevent, one worker each, as `make run` serves)
sharing it, then measures:

- actions/s: client threads playing games flat out (bench/api.py's never-losing moves),
  each game's moves sent alternately to node 1 and node 2;
- cross-node wake-ups: a long-poll held by node 1 and a move made through node 2: the delay
  from sending the move to the long-poll's answer (the move's own time included);
- bot moves/s: all-bot tables (4 conventions bots) started on node 2, played by both
  nodes' bot workers to their end.

Prints each figure for both storages and the cluster's ratio to one Redis. Loopback only,
bounded in time; the cluster's three redis-servers share this machine's cores with
everything else, so the ratio says what the cluster's own overhead costs, not what three
machines would gain.

    .venv/bin/python bench/cluster.py [--seconds 6] [--clients 8] [--wakes 100]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from api import API, Conn, new_game, run_threads, send_move, wait_healthy
from hanabi.server.ops.redis_process import RedisClusterProcess, RedisProcess, free_port
from hanabi.server.ops.serving import gunicorn_command
from timing import percentile


def start_nodes(redis_url: str, count: int = 2) -> tuple[list[subprocess.Popen[bytes]], list[int]]:
    env = {**os.environ, "REDIS_URL": redis_url, "HANABI_LIMITS": "off"}  # one client address
    procs, ports = [], []
    for _ in range(count):
        port = free_port()
        command = gunicorn_command(f"127.0.0.1:{port}", 1, log_level="warning")
        procs.append(subprocess.Popen(command, env=env, stderr=subprocess.DEVNULL))
        ports.append(port)
    for port, proc in zip(ports, procs):
        wait_healthy(port, proc)
    return procs, ports


def action_rate(ports: list[int], clients: int, seconds: float) -> float:
    counts = [0] * clients

    def run(i: int) -> None:
        rng = random.Random(i)
        conns = [Conn(p) for p in ports]
        gid, tokens, game = new_game(conns[0], rng)
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            if game.is_over:
                gid, tokens, game = new_game(conns[0], rng)
            conn = conns[game.turn % len(conns)]  # alternate nodes move by move
            send_move(conn, gid, tokens, game, rng)
            counts[i] += 1

    started = time.monotonic()
    run_threads(run, clients)
    return sum(counts) / (time.monotonic() - started)


def wake_delays(ports: list[int], samples: int) -> list[float]:
    rng = random.Random(7)
    one, two = Conn(ports[0]), Conn(ports[1])
    delays = []
    gid, tokens, game = new_game(two, rng)
    for _ in range(samples):
        if game.is_over:
            gid, tokens, game = new_game(two, rng)
        _, _, headers = one.request("GET", f"{API}/games/{gid}")
        answered: list[float] = []

        def poll(
            etag: str = headers["etag"], game_id: str = gid, answered: list = answered
        ) -> None:
            status, _, _ = Conn(ports[0]).request(
                "GET", f"{API}/games/{game_id}?wait=10", None, {"If-None-Match": etag}
            )
            answered.append(time.monotonic() if status == 200 else float("nan"))

        waiter = threading.Thread(target=poll)
        waiter.start()
        time.sleep(0.05)  # the long-poll is held by node 1
        acted = time.monotonic()  # the move is sent (its answer may come after the wake-up)
        send_move(two, gid, tokens, game, rng)
        waiter.join(15)
        delays.append(answered[0] - acted)
    return sorted(delays)


def bot_rate(ports: list[int], tables: int, seconds: float) -> float:
    conn = Conn(ports[1])
    ids = []
    for _ in range(tables):
        _, raw, _ = conn.request(
            "POST", f"{API}/games", json.dumps({"name": "host", "max_players": 5}).encode(),
            {"Content-Type": "application/json"},
        )  # fmt: skip
        created = json.loads(raw)
        auth = {"Authorization": f"Bearer {created['token']}", "Content-Type": "application/json"}
        for _ in range(4):
            conn.request("POST", f"{API}/games/{created['id']}/bots", b"{}", auth)
        ids.append((created["id"], auth))
    started = time.monotonic()
    for gid, auth in ids:
        conn.request("POST", f"{API}/games/{gid}/start", b'{"watch": true}', auth)
    # Until every table has finished (or the time is up): moves over the time they took.
    moves, deadline = 0, started + 10 * seconds
    while time.monotonic() < deadline:
        views = [json.loads(conn.request("GET", f"{API}/games/{gid}")[1]) for gid, _ in ids]
        moves = sum(v["turn"] for v in views)
        if all(v["status"] == "finished" for v in views):
            break
        time.sleep(0.05)
    return moves / (time.monotonic() - started)


def measure(name: str, url: str, args: argparse.Namespace) -> dict[str, Any]:
    procs, ports = start_nodes(url)
    try:
        actions = action_rate(ports, args.clients, args.seconds)
        delays = wake_delays(ports, args.wakes)
        bots = bot_rate(ports, args.tables, args.seconds)
    finally:
        for proc in procs:
            proc.terminate()
            proc.wait(20)
    figures = {
        "actions/s": actions,
        "wake p50 ms": percentile(delays, 0.5) * 1000,
        "wake p99 ms": percentile(delays, 0.99) * 1000,
        "bot moves/s": bots,
    }
    print(f"{name}: " + ", ".join(f"{k} {v:.1f}" for k, v in figures.items()), flush=True)
    return figures


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seconds", type=float, default=6.0)
    parser.add_argument("--clients", type=int, default=8)
    parser.add_argument("--wakes", type=int, default=100)
    parser.add_argument("--tables", type=int, default=8)
    args = parser.parse_args()
    with RedisProcess() as single:
        one = measure("one Redis, 2 nodes", single.url, args)
    with RedisClusterProcess() as cluster:
        many = measure("3-master cluster, 2 nodes", cluster.url, args)
    print()
    for key in one:
        print(f"  {key:12s} one Redis {one[key]:8.1f}   cluster {many[key]:8.1f}   "
              f"ratio {many[key] / one[key]:.2f}")  # fmt: skip
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
