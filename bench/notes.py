"""What card notes cost a seat's view: GET /games/{id} for a seat, in-process (Flask's
test client on a private redis-server), with the notes on (one HGET of the seat's notes
per view served, one more for its ETag) and off (the same app with no notes in views),
in the same run; and PUT /notes/{order}, against POST /chat as the reference write.

Prints p50/p99 in ms and the ratios.

    .venv/bin/python bench/notes.py [--requests 2000]
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "server"))

from api_helpers import bearer, make_table

from hanabi.server import create_app
from hanabi.server.ops.redis_process import RedisProcess
from timing import p50_p99


def timed(n: int, request: Callable[[int], Any]) -> list[float]:
    out = []
    for i in range(n):
        start = time.perf_counter()
        response = request(i)
        out.append((time.perf_counter() - start) * 1000)
        assert response.status_code in (200, 201), response.get_json()
    return sorted(out)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--requests", type=int, default=2000)
    n = parser.parse_args().requests
    config = {"HANABI_LIMIT_NOTE_SEAT": "1000000/minute", "HANABI_LIMIT_CHAT_SEAT": "1000000/minute",
              "HANABI_LIMIT_CHAT_GAME": "1000000/minute", "HANABI_MAX_CHAT": 10**6,
              "HANABI_MAX_CHAT_BYTES": 10**8}  # fmt: skip
    with RedisProcess() as proc:
        app = create_app({"REDIS_URL": proc.url, **config})
        app.testing = True
        client = app.test_client()
        table = make_table(client, 3, seed="bench-notes")
        hands = table.view(1)["hands"]
        orders = [c["order"] for hand in hands for c in hand]
        for order in orders:
            client.put(f"{table.url}/notes/{order}", json={"text": "x" * 100},
                       headers=bearer(table.tokens[0]))  # fmt: skip
        head = bearer(table.tokens[0])
        reads = app.extensions["hanabi"].reads
        private = reads.private
        rows = {}
        timed(200, lambda i: client.get(table.url, headers=head))  # warm
        samples: dict[bool, list[float]] = {False: [], True: []}
        for i in range(2 * n):  # interleaved: the machine's load falls on both alike
            reads.private = private if i % 2 else None
            samples[bool(i % 2)] += timed(1, lambda _: client.get(table.url, headers=head))
        reads.private = private
        rows["view, notes off"] = p50_p99(sorted(samples[False]))
        rows["view, notes on"] = p50_p99(sorted(samples[True]))
        chat_url, note_url = f"{table.url}/chat", f"{table.url}/notes/"

        def write(i: int) -> Any:
            if i % 2:
                order = orders[i % len(orders)]
                return client.put(note_url + str(order), json={"text": f"n{i}"}, headers=head)
            return client.post(chat_url, json={"text": "x" * 100}, headers=head)

        writes: dict[bool, list[float]] = {False: [], True: []}
        for i in range(2 * n):  # interleaved too
            start = time.perf_counter()
            assert write(i).status_code in (200, 201)
            writes[bool(i % 2)].append((time.perf_counter() - start) * 1000)
        rows["chat line (reference)"] = p50_p99(sorted(writes[False]))
        rows["note written"] = p50_p99(sorted(writes[True]))
    for label, (p50, p99) in rows.items():
        print(f"{label:24} p50 {p50:6.2f} ms   p99 {p99:6.2f} ms")
    off, on = rows["view, notes off"][0], rows["view, notes on"][0]
    print(f"view with notes / without: {on / off:.2f} (p50, {len(orders)} notes of 100 chars)")
    print(
        f"note / chat line: {rows['note written'][0] / rows['chat line (reference)'][0]:.2f} (p50)"
    )


if __name__ == "__main__":
    main()
