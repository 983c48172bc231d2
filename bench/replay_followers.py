"""A shared replay with 200 followers on its event stream: how long the leader's change
takes to reach them.

Starts the server as `make run` does (bench/scale.py's ``start_server``: the embedded
Redis, gunicorn's default workers, per-address limits off since every client here is
127.0.0.1), plays a short game and ends it, makes a replay room of it, opens 200
followers' streams (``GET /replays/{id}/stream``, raw sockets on asyncio in this
process), then the leader (a thread with its own keep-alive connection):

- moves the room's turn position (``PUT /replays/{id}/position``) ``--rounds`` times;
- branches a hypothetical and makes ``--moves`` moves in it (the engine replays the game
  to the branch and applies every move on each one).

For every change: the delay from the moment the leader's request is sent until each
follower has received the room's new state (so it includes the leader's own request).
Target (issue 39): p99 <= 200 ms. Prints p50/p90/p99/max per kind, the date and the
machine. Loopback only; every wait is bounded.

    .venv/bin/python bench/replay_followers.py [--followers 200] [--rounds 20] [--moves 10]
"""

from __future__ import annotations

import argparse
import asyncio
import datetime
import json
import os
import random
import resource
import shutil
import sys
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from api import API, Conn, new_game, send_move
from scale import ms, pct, start_server

JSON = {"Content-Type": "application/json"}


class Follower(asyncio.Protocol):
    """One follower on the room's stream: the arrival time of each ``room`` message after
    the first (the state sent on connect), by change number."""

    MARK = b"event: room"

    def __init__(self, room: str, arrivals: dict[int, list[float]], live: list[int]) -> None:
        self.room, self.arrivals, self.live = room, arrivals, live
        self.tail = b""
        self.seen = 0

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.live[0] += 1
        transport.write(  # type: ignore[attr-defined]
            f"GET {API}/replays/{self.room}/stream HTTP/1.1\r\nHost: b\r\n"
            "Accept: text/event-stream\r\n\r\n".encode()
        )

    def connection_lost(self, exc: Exception | None) -> None:
        self.live[0] -= 1

    def data_received(self, data: bytes) -> None:
        at = time.monotonic()
        joined = self.tail + data
        found = joined.count(self.MARK)
        self.tail = joined[-len(self.MARK) + 1 :]
        for _ in range(found):
            if self.seen > 0:
                self.arrivals.setdefault(self.seen, []).append(at)
            self.seen += 1


def finished_room(port: int) -> tuple[str, str]:
    """A two-seat game with a few moves, ended by vote, and a room on it: (id, token)."""
    conn, rng = Conn(port), random.Random(39)
    gid, tokens, game = new_game(conn, rng)
    for _ in range(6):
        send_move(conn, gid, tokens, game, rng)
    for token in tokens:
        headers = {**JSON, "Authorization": f"Bearer {token}"}
        conn.request("POST", f"{API}/games/{gid}/votes", b'{"end": true}', headers)
    body = json.dumps({"game_id": gid}).encode()
    headers = {**JSON, "Authorization": f"Bearer {tokens[0]}"}
    status, raw, _ = conn.request("POST", f"{API}/replays", body, headers)
    assert status == 201, raw
    made = json.loads(raw)
    return made["id"], made["token"]


class Leader:
    """The leader's changes, sent from a thread: when each was sent, by change number."""

    def __init__(self, port: int, room: str, token: str) -> None:
        self.conn = Conn(port)
        self.room = room
        self.headers = {**JSON, "Authorization": f"Bearer {token}"}
        self.state: dict = {}
        self.took = 0.0

    def send(self, method: str, path: str, body: dict | None) -> float:
        sent = time.monotonic()
        raw_body = b"" if body is None else json.dumps(body).encode()
        status, raw, _ = self.conn.request(
            method, f"{API}/replays/{self.room}{path}", raw_body, self.headers
        )
        assert status == 200, raw
        self.took = time.monotonic() - sent
        self.state = json.loads(raw)
        return sent


async def run(port: int, args: argparse.Namespace) -> dict[str, list[float]]:
    room, token = finished_room(port)
    arrivals: dict[int, list[float]] = {}
    live = [0]
    loop = asyncio.get_running_loop()
    followers = []
    for _ in range(args.followers):
        _, follower = await loop.create_connection(
            lambda: Follower(room, arrivals, live), "127.0.0.1", port
        )
        followers.append(follower)
    deadline = time.monotonic() + 20  # until every follower has the room's first state
    while any(f.seen == 0 for f in followers) and time.monotonic() < deadline:
        await asyncio.sleep(0.05)
    print(f"followers with the room's state: {sum(f.seen > 0 for f in followers)}")
    leader = Leader(port, room, token)
    delays: dict[str, list[float]] = {"position": [], "hypothetical move": []}
    change = 0

    async def one(kind: str, method: str, path: str, body: dict | None) -> None:
        nonlocal change
        change += 1
        sent = await asyncio.to_thread(leader.send, method, path, body)
        until = time.monotonic() + 5
        while len(arrivals.get(change, [])) < live[0] and time.monotonic() < until:
            await asyncio.sleep(0.005)
        got = arrivals.get(change, [])
        if len(got) < live[0]:
            print(f"  change {change}: only {len(got)} of {live[0]} followers within 5 s")
        delays[kind].extend(at - sent for at in got)
        if args.verbose:
            print(f"  change {change} ({kind}): p50 {ms(pct([a - sent for a in got], 0.5))}"
                  f" max {ms(max(got) - sent)} (its request took {ms(leader.took)})")  # fmt: skip
        await asyncio.sleep(0.1)

    for r in range(args.rounds):
        await one("position", "PUT", "/position", {"turn": r % 6, "highlight": [r % 10]})
    delays["branch"] = []
    await one("branch", "POST", "/hypothetical", {"turn": 2, "reveal_draws": False})
    for _ in range(args.moves):
        hypo = leader.state["hypothetical"]
        if hypo["current_seat"] is None:
            break
        legal = hypo["legal_actions"]  # a clue while tokens last, else a discard
        action = next((a for a in legal if a["type"] == "clue"), None) or next(
            a for a in legal if a["type"] == "discard"
        )
        await one("hypothetical move", "POST", "/hypothetical/actions",
                  {"turn": hypo["current_turn"], **action})  # fmt: skip
    print(f"followers connected at the end: {live[0]} of {args.followers}")
    return delays


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--followers", type=int, default=200)
    parser.add_argument("--rounds", type=int, default=20, help="position changes")
    parser.add_argument("--moves", type=int, default=10, help="moves in a hypothetical")
    parser.add_argument("--workers", type=int, default=None, help="default: make run's")
    parser.add_argument("--verbose", action="store_true", help="every change's figures")
    args = parser.parse_args()
    hard = resource.getrlimit(resource.RLIMIT_NOFILE)[1]
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    proc, port, data = start_server(args.workers)
    try:
        delays = asyncio.run(run(port, args))
    finally:
        proc.terminate()
        proc.wait(timeout=20)
        shutil.rmtree(data, ignore_errors=True)
    stamp = datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%d %H:%M UTC")
    load = ", ".join(f"{x:.1f}" for x in os.getloadavg())
    print(f"{stamp}, 2-core VM ({os.cpu_count()} CPUs seen), {args.followers} followers")
    print(f"  load average while it ran: {load} (other work on the machine slows every figure)")
    worst = 0.0
    for kind, values in delays.items():
        if not values:
            continue
        p99 = pct(values, 0.99)
        worst = max(worst, p99)
        print(
            f"  {kind:18} n={len(values):5}  p50 {ms(pct(values, 0.5))}  "
            f"p90 {ms(pct(values, 0.9))}  p99 {ms(p99)}  max {ms(max(values))}"
        )
    verdict = "meets" if worst <= 0.2 else "MISSES"
    print(f"  target p99 <= 200 ms from the leader's request: {verdict} ({ms(worst)})")
    return 0 if worst <= 0.2 else 1


if __name__ == "__main__":
    threading.excepthook = lambda a: print(f"thread failed: {a.exc_value}", file=sys.stderr)
    sys.exit(main())
