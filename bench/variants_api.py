"""GET /api/v1/variants latency for several filters, and GET /variants/{key}.

By default in process, through the Flask test client of the real app (routing, query
validation, the catalogue search, the JSON body; no socket). With ``--url`` against a live
server instead (over HTTP, one connection). The catalogue is warmed first (as a server
does at start, HANABI_WARM_VARIANTS); the cold cost of building every variant's answer
is printed too. The target is p99 <= 20 ms for every filter.

Wall-clock percentiles need an idle machine; on a shared one (load far above the core
count) the CPU time each request took in this process is printed too (in process only):
it is what the request costs, whatever else runs.

    .venv/bin/python bench/variants_api.py [--rounds 200] [--url http://127.0.0.1:8000]
"""

from __future__ import annotations

import argparse
import os
import platform
import time
from collections.abc import Callable
from datetime import UTC, datetime
from urllib.parse import quote

from timing import p50_p99

QUERIES = [
    "",  # the first page of all 2,428
    "?limit=500",  # the largest page
    "?q=pink",
    "?suits=6",
    "?rule=up_or_down",
    "?rule=rainbow&suits=5&limit=500",
    "?offset=2000&limit=500",  # deep into the catalogue
    "?q=zzz",  # nothing matches
]
ONE = ["Pink & Brown (6 Suits)", "1344", "no_variant", "nothing (9 suits)"]


def getter(url: str | None) -> Callable[[str], tuple[int, int]]:
    """A function GETting a path under /api/v1: (status, body bytes)."""
    if url:
        import requests

        session = requests.Session()
        base = url.rstrip("/") + "/api/v1"

        def http(path: str) -> tuple[int, int]:
            response = session.get(base + path)
            return response.status_code, len(response.content)

        return http
    os.environ.setdefault("HANABI_WARM_VARIANTS", "0")  # warmed below, timed
    from hanabi.server import create_app
    from hanabi.server.ops.redis_process import RedisProcess

    redis = RedisProcess().start()
    client = create_app({"REDIS_URL": redis.url, "HANABI_BOT_WORKER": 0}).test_client()

    def local(path: str) -> tuple[int, int]:
        response = client.get("/api/v1" + path)
        return response.status_code, len(response.get_data())

    return local


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=200)
    parser.add_argument("--url", help="a live server (default: in process)")
    args = parser.parse_args()
    get = getter(args.url)
    print(f"# GET /variants, {datetime.now(UTC):%Y-%m-%d %H:%M} UTC, {platform.node()}, "
          f"{os.cpu_count()} CPUs, {'HTTP ' + args.url if args.url else 'Flask test client'}")  # fmt: skip
    if not args.url:
        from hanabi.server.table.variants import CATALOGUE

        start = time.perf_counter()
        CATALOGUE.warm()
        print(f"warm-up: every variant built and serialized once in "
              f"{time.perf_counter() - start:.2f} s (a server does it in the background)")  # fmt: skip
    load = os.getloadavg()[0]
    print(f"load average {load:.1f} on {os.cpu_count()} CPUs")
    print(f"{'request':<44} {'status':>6} {'bytes':>8} {'p50 ms':>7} {'p99 ms':>7}"
          f" {'cpu p50':>8} {'cpu p99':>8}")  # fmt: skip
    worst = worst_cpu = 0.0
    paths = [f"/variants{q}" for q in QUERIES] + [f"/variants/{quote(k, safe='')}" for k in ONE]
    for path in paths:
        status, size = get(path)
        times, cpu = [], []
        for _ in range(args.rounds):
            start, start_cpu = time.perf_counter(), time.thread_time()
            get(path)
            times.append((time.perf_counter() - start) * 1000)
            cpu.append((time.thread_time() - start_cpu) * 1000)
        p50, p99 = p50_p99(times)
        c50, c99 = p50_p99(cpu)
        worst, worst_cpu = max(worst, p99), max(worst_cpu, c99)
        cpu_cols = "" if args.url else f" {c50:>8.2f} {c99:>8.2f}"
        print(f"{path[:44]:<44} {status:>6} {size:>8} {p50:>7.2f} {p99:>7.2f}{cpu_cols}")
    print(
        f"worst p99: {worst:.2f} ms wall"
        + ("" if args.url else f", {worst_cpu:.2f} ms CPU")
        + " (target <= 20 ms)"
    )


if __name__ == "__main__":
    main()
