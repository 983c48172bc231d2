"""What metrics cost per request: the same app with HANABI_METRICS=on and =off, in one run.

Starts a private redis-server and two gunicorns (gevent workers, as `make run`; the request
log off in both, as by default) serving bench/api.py's app, then runs short rounds against
each in turn (on, off, on, off, ...): a trivial GET (the cheapest request, where the
per-request cost of metrics weighs most) and POST actions (the service's real work). Prints
the server CPU per request (gunicorn master and workers, from /proc) and requests/s of every
round, then the overhead of metrics: the median over rounds of on / off - 1 (target <= 5 %).

    .venv/bin/python bench/metrics.py [--seconds 3] [--rounds 3] [--clients 8] [--workers 2]
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import time
from pathlib import Path
from typing import Any

from api import (
    action_worker,
    cpu_seconds,
    get_worker,
    run_clients,
    wait_healthy,
    worker_pids,
)
from hanabi.server.ops.redis_process import RedisProcess, free_port
from hanabi.server.ops.serving import gunicorn_command

HERE = Path(__file__).resolve().parent


def start(redis_url: str, workers: int, metrics: str) -> tuple[subprocess.Popen[bytes], int]:
    port = free_port()
    env = {**os.environ, "REDIS_URL": redis_url, "HANABI_METRICS": metrics}
    command = gunicorn_command(
        f"127.0.0.1:{port}", workers, log_level="warning", app="api:bench_app()"
    )
    server = subprocess.Popen(command, env=env, cwd=HERE)
    wait_healthy(port, server, 20)
    time.sleep(1.0)  # every worker loaded
    return server, port


def round_(server: Any, port: int, kind: str, args: Any, per_proc: int) -> tuple[float, float]:
    """One round: (server CPU ms per request, requests/s)."""
    pids = [server.pid, *worker_pids(server.pid)]
    before = cpu_seconds(pids)
    if kind == "trivial":
        targets = [("/bench/trivial", {}, 200)]
        samples, _, wall = run_clients(
            get_worker, args.procs, port, args.seconds, per_proc, targets
        )
    else:
        samples, _, wall = run_clients(action_worker, args.procs, port, args.seconds, per_proc)
    cpu = cpu_seconds(pids) - before
    return cpu / len(samples) * 1000, len(samples) / wall


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--seconds", type=float, default=3.0, help="per round (max 30)")
    parser.add_argument("--rounds", type=int, default=3, help="rounds per server and kind")
    parser.add_argument("--clients", type=int, default=8, help="concurrent client threads")
    parser.add_argument("--procs", type=int, default=2, help="client processes")
    parser.add_argument("--workers", type=int, default=2, help="gunicorn workers")
    args = parser.parse_args()
    args.seconds = min(args.seconds, 30.0)
    per_proc = max(1, args.clients // args.procs)
    print(
        f"gunicorn gevent: {args.workers} workers per server; {args.procs} client processes x "
        f"{per_proc} threads; {args.rounds} rounds of {args.seconds:g} s per server and kind, "
        f"interleaved; {os.cpu_count()} cores (load avg {os.getloadavg()[0]:.1f} at start)"
    )
    with RedisProcess() as redis_proc:
        servers = {name: start(redis_proc.url, args.workers, name) for name in ("on", "off")}
        try:
            results: dict[tuple[str, str], list[tuple[float, float]]] = {}
            for kind in ("trivial", "actions"):
                for i in range(args.rounds):
                    order = ("on", "off") if i % 2 == 0 else ("off", "on")
                    for name in order:
                        server, port = servers[name]
                        cpu, rate = round_(server, port, kind, args, per_proc)
                        results.setdefault((kind, name), []).append((cpu, rate))
                        print(
                            f"{kind:8s} metrics {name:3s}  {cpu:6.3f} ms CPU/req  {rate:7.0f} req/s"
                        )
            for kind in ("trivial", "actions"):
                on, off = results[(kind, "on")], results[(kind, "off")]
                # each round's on/off pair ran back to back: the median of their ratios
                # is steadier than a ratio of medians while other jobs load the machine
                cpu = statistics.median(a[0] / b[0] for a, b in zip(on, off, strict=True))
                rate = statistics.median(a[1] / b[1] for a, b in zip(on, off, strict=True))
                print(
                    f"{kind}: server CPU per request {statistics.median(c for c, _ in on):.3f} ms "
                    f"with metrics, {statistics.median(c for c, _ in off):.3f} ms without; "
                    f"median of the rounds' ratios: CPU per request {100 * (cpu - 1):+.1f} %, "
                    f"throughput {100 * (rate - 1):+.1f} %"
                )
        finally:
            for server, _ in servers.values():
                server.terminate()
                server.wait(15)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
