"""What resolving the viewer costs a finished game's view (docs/watching.md; this file
measured the seed gate that finished games no longer have): GET /games/{id} of a finished
game dealt a seed name, in-process (Flask's test client on a private redis-server), for a
seat's token (the reference: a seat is found from the players alone), an anonymous reader
(the state parsed once per version, then the full view), an account that finished the
seed and an account that never played it (both: the read of their live seats on the deal,
and for the second the spoiler it leaves, once per process), interleaved in one run so
that the machine's load falls on all alike.

Prints p50/p99 in ms and each one's ratio to the seat's.

    .venv/bin/python bench/seed_gate.py [--requests 2000]
"""

from __future__ import annotations

import argparse
import secrets
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "server"))

from account_helpers import FAST, played, seat_table, session
from api_helpers import bearer

from hanabi.server import create_app
from hanabi.server.ops.redis_process import RedisProcess
from timing import p50_p99


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--requests", type=int, default=2000)
    n = parser.parse_args().requests
    with RedisProcess() as proc:
        app = create_app({"REDIS_URL": proc.url, "HANABI_BOT_WORKER": 0, **FAST})
        app.testing = True
        client = app.test_client()
        seed = f"p2v0s{900_000_000 + secrets.randbelow(99_999_999)}"
        (_, ann), (_, bob) = session(client), session(client)
        game = played(seat_table(client, [ann, bob], seed=seed))
        (_, finisher), (_, mate) = session(client), session(client)
        played(seat_table(client, [finisher, mate], seed=seed))
        _, never = session(client)
        readers: dict[str, dict[str, str]] = {
            "a seat's token (reference)": bearer(game.tokens[0]),
            "anonymous": {},
            "a finisher's session": bearer(finisher),
            "an outsider's session (spoils it)": bearer(never),
        }
        for head in readers.values():  # each reader's answer, checked once and warmed
            for _ in range(100):
                response = client.get(game.url, headers=head)
                assert response.status_code == 200, response.get_json()
        samples: dict[str, list[float]] = {label: [] for label in readers}
        for _ in range(n):
            for label, head in readers.items():
                start = time.perf_counter()
                response = client.get(game.url, headers=head)
                samples[label].append((time.perf_counter() - start) * 1000)
                assert response.status_code == 200
    rows = {label: p50_p99(ms) for label, ms in samples.items()}
    ref = rows["a seat's token (reference)"][0]
    for label, (p50, p99) in rows.items():
        print(f"{label:32} p50 {p50:6.2f} ms   p99 {p99:6.2f} ms   {p50 / ref:4.2f}x")


if __name__ == "__main__":
    main()
