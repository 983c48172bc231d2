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
Target (issue 39): p99 <= 200 ms over all the room's changes. The reference, in the same
run and interleaved with them: a game in play with as many spectators on its event stream,
the delay from a move's request to each spectator's new view (the machinery rooms reuse;
the ratio of the two p99s says what a room adds, whatever else loads the machine). Prints
p50/p90/p99/max per kind, the date, the machine and its load. Loopback only; every wait is
bounded.

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
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from api import API, Conn, new_game, send_move
from scale import ms, pct, start_server

JSON = {"Content-Type": "application/json"}
REFERENCE = "game move (reference)"


class Audience:
    """Everyone on one stream (a room's followers, or a game's spectators): the arrival
    times of each new message after the first (the state sent on connect), by change."""

    def __init__(self, path: str, mark: bytes) -> None:
        self.path, self.mark = path, mark
        self.arrivals: dict[int, list[float]] = {}
        self.members: list[Follower] = []
        self.live = 0
        self.changes = 0

    async def connect(self, port: int, count: int) -> None:
        loop = asyncio.get_running_loop()
        for _ in range(count):
            _, member = await loop.create_connection(lambda: Follower(self), "127.0.0.1", port)
            self.members.append(member)
        deadline = time.monotonic() + 20  # until every one has its first message
        while any(m.seen == 0 for m in self.members) and time.monotonic() < deadline:
            await asyncio.sleep(0.05)


class Follower(asyncio.Protocol):
    """One connection of an :class:`Audience`. Messages are found in the raw bytes
    (chunked encoding and all): only their arrival times matter."""

    def __init__(self, audience: Audience) -> None:
        self.audience = audience
        self.tail = b""
        self.seen = 0

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.audience.live += 1
        transport.write(  # type: ignore[attr-defined]
            f"GET {API}{self.audience.path} HTTP/1.1\r\nHost: b\r\n"
            "Accept: text/event-stream\r\n\r\n".encode()
        )

    def connection_lost(self, exc: Exception | None) -> None:
        self.audience.live -= 1

    def data_received(self, data: bytes) -> None:
        at = time.monotonic()
        mark = self.audience.mark
        joined = self.tail + data
        found = joined.count(mark)
        self.tail = joined[-len(mark) + 1 :]
        for _ in range(found):
            if self.seen > 0:
                self.audience.arrivals.setdefault(self.seen, []).append(at)
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

    def send(self, method: str, path: str, body: dict | None) -> float:
        """Send a change; the time its answer arrived."""
        raw_body = b"" if body is None else json.dumps(body).encode()
        status, raw, _ = self.conn.request(
            method, f"{API}/replays/{self.room}{path}", raw_body, self.headers
        )
        assert status == 200, raw
        self.state = json.loads(raw)
        return time.monotonic()


async def run(port: int, args: argparse.Namespace) -> dict[str, list[float]]:
    room, token = finished_room(port)
    followers = Audience(f"/replays/{room}/stream", b"event: room")
    await followers.connect(port, args.followers)
    print(f"followers with the room's state: {sum(m.seen > 0 for m in followers.members)}")
    # The reference, in the same run: a game in play with as many spectators on its stream.
    conn, rng = Conn(port), random.Random(40)
    gid, tokens, game = new_game(conn, rng)
    spectators = Audience(f"/games/{gid}/stream", b"event: view")
    await spectators.connect(port, args.followers)
    leader = Leader(port, room, token)
    delays: dict[str, list[float]] = {}

    async def measure(kind: str, audience: Audience, act: Any) -> None:
        audience.changes += 1
        change = audience.changes
        sent = time.monotonic()
        took = await asyncio.to_thread(act) - sent
        until = time.monotonic() + 5
        while len(audience.arrivals.get(change, [])) < audience.live and time.monotonic() < until:
            await asyncio.sleep(0.005)
        got = audience.arrivals.get(change, [])
        if len(got) < audience.live:
            print(f"  {kind} {change}: only {len(got)} of {audience.live} within 5 s")
        delays.setdefault(kind, []).extend(at - sent for at in got)
        if args.verbose and got:
            print(f"  {kind} {change}: p50 {ms(pct([a - sent for a in got], 0.5))}"
                  f" max {ms(max(got) - sent)} (its request took {ms(took)})")  # fmt: skip
        await asyncio.sleep(0.05)

    async def lead(kind: str, method: str, path: str, body: dict | None) -> None:
        await measure(kind, followers, lambda: leader.send(method, path, body))
        if not game.is_over:  # then the reference: a move of the game in play
            await measure(REFERENCE, spectators, lambda: send_move(conn, gid, tokens, game, rng))

    for r in range(args.rounds):
        await lead("position", "PUT", "/position", {"turn": r % 6, "highlight": [r % 10]})
    await lead("branch", "POST", "/hypothetical", {"turn": 2, "reveal_draws": False})
    for _ in range(args.moves):
        hypo = leader.state["hypothetical"]
        if hypo["current_seat"] is None:
            break
        legal = hypo["legal_actions"]  # a clue while tokens last, else a discard
        action = next((a for a in legal if a["type"] == "clue"), None) or next(
            a for a in legal if a["type"] == "discard"
        )
        await lead("hypothetical move", "POST", "/hypothetical/actions",
                   {"turn": hypo["current_turn"], **action})  # fmt: skip
    print(f"connected at the end: {followers.live} followers, {spectators.live} spectators")
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
    for kind, values in delays.items():
        if not values:
            continue
        p99 = pct(values, 0.99)
        print(
            f"  {kind:21} n={len(values):5}  p50 {ms(pct(values, 0.5))}  "
            f"p90 {ms(pct(values, 0.9))}  p99 {ms(p99)}  max {ms(max(values))}"
        )
    rooms = [d for kind, values in delays.items() if kind != REFERENCE for d in values]
    reference = delays.get(REFERENCE, [])
    worst = pct(rooms, 0.99)
    if reference:
        ratio = worst / pct(reference, 0.99)
        print(f"  room changes' p99 / the game stream's p99 in the same run: {ratio:.2f}")
    verdict = "meets" if worst <= 0.2 else "MISSES"
    print(f"  target p99 <= 200 ms from the leader's request: {verdict} ({ms(worst)})")
    return 0 if worst <= 0.2 else 1


if __name__ == "__main__":
    threading.excepthook = lambda a: print(f"thread failed: {a.exc_value}", file=sys.stderr)
    sys.exit(main())
