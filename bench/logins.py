"""Login cost: what an argon2id login costs a server process, against a trivial request.

Starts a private redis-server and the real app (default argon2id parameters: 3 passes,
64 MiB, 4 lanes) and measures, in the same run, through the Flask test client:

- health:  GET /api/v1/health (the reference: one Redis round trip)
- login:   POST /api/v1/sessions with the right password
- wrong:   the same with a wrong password, and with an unknown username (same time: the
           unknown name is checked against a dummy hash of the same cost)
- flood:   --threads logins at once in one process (the hashes run outside the GIL, at
           most HANABI_HASH_CONCURRENCY at a time): logins/s that process sustains

    .venv/bin/python bench/logins.py [--logins 20] [--threads 2]
"""

from __future__ import annotations

import argparse
import statistics
import threading
import time

from hanabi.server import create_app
from hanabi.server.ops.redis_process import RedisProcess
from timing import timed

PASSWORD = "correct horse battery"


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--logins", type=int, default=20)
    parser.add_argument("--threads", type=int, default=2)
    args = parser.parse_args()
    with RedisProcess() as redis:
        app = create_app(
            {
                "REDIS_URL": redis.url,
                "HANABI_SETTLE_SWEEP": 0,
                "HANABI_LOGIN_FAILS_PAIR": 10**6,
                "HANABI_LOGIN_FAILS_USER": 10**6,
                "HANABI_LIMITS": "off",  # and no rate on POST /sessions
                "HANABI_LOGIN_FAILS_ADDR": 10**6,
                "HANABI_HASH_CONCURRENCY": max(2, args.threads),
            }
        )
        client = app.test_client()
        client.post("/api/v1/accounts", json={"username": "bencher", "password": PASSWORD})

        def login(password: str = PASSWORD, user: str = "bencher") -> None:
            body = {"username": user, "password": password}
            response = client.post("/api/v1/sessions", json=body)
            assert response.status_code in (201, 401), response.get_json()

        health = timed(lambda: client.get("/api/v1/health"), 200)
        right = timed(login, args.logins)
        wrong = timed(lambda: login("wrong password"), args.logins)
        unknown = timed(lambda: login(PASSWORD, "nobody"), args.logins)

        done = []
        per_thread = max(1, args.logins // args.threads)

        def worker() -> None:
            local = app.test_client()
            for _ in range(per_thread):
                local.post("/api/v1/sessions", json={"username": "bencher", "password": PASSWORD})
                done.append(1)

        threads = [threading.Thread(target=worker) for _ in range(args.threads)]
        start = time.perf_counter()
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        flood = len(done) / (time.perf_counter() - start)

    def ms(samples: list[float]) -> str:
        return f"p50 {statistics.median(samples) * 1000:7.1f} ms"

    ref = statistics.median(health)
    print(f"health (reference)   {ms(health)}")
    for label, samples in (("login", right), ("wrong password", wrong), ("unknown user", unknown)):
        print(f"{label:20} {ms(samples)}   x{statistics.median(samples) / ref:,.0f} a health check")
    print(f"one at a time        {1 / statistics.median(right):7.1f} logins/s")
    print(f"{args.threads} at once           {flood:7.1f} logins/s (one process)")


if __name__ == "__main__":
    main()
