"""Hold a real audience on one node: thousands of idle long-polls on `make run`'s defaults.

Starts the server exactly as `make run` does (``python -m hanabi.server``: its embedded
Redis, gunicorn with its default workers; only ``HANABI_LIMITS=off``, since every client
here has one address) on a free port, then measures in one run:

- actions/s without waiters: scripted clients playing games flat out (POST actions only;
  each client keeps a shadow engine to pick legal, never-losing moves; bench/api.py's);
- 5,000 idle long-polls over 500 games (10 each, ``?wait=30`` with the current ETag, sent
  by client processes of the bench's own on asyncio, re-sent when they time out), held
  while: ``GET /health`` latency (sequential requests), actions/s again (ratio to the
  first), and the wake-up delay of every waiter of a game after an action on it, measured
  from the action's response to each waiter's 200;
- one game with 1,000 spectators waiting, first on long-polls, then on the event stream:
  the delay from an action's sending until each spectator has the new view, and the
  action's own answer (three rounds each).

Targets (issue: one node holds thousands of waiters): /health p99 <= 50 ms; wake-ups
p50 <= 50 ms, p99 <= 250 ms; actions >= 80 % of the run without waiters; spectators
p50 <= 50 ms, p99 <= 150 ms (issue #49). Loopback only; every loop is bounded in time and count.

    .venv/bin/python bench/scale.py [--games 500] [--per-game 10] [--spectators 1000]
"""

from __future__ import annotations

import argparse
import asyncio
import multiprocessing as mp
import os
import random
import resource
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from api import API, Conn, new_game, run_threads, send_move, wait_healthy
from hanabi.server.ops.redis_process import free_port
from timing import percentile

ROOT = Path(__file__).resolve().parents[1]


# -- the waiting clients (processes of their own, asyncio) -------------------------------


class Streamer(asyncio.Protocol):
    """One spectator on the event stream: notes when each ``view`` message after the first
    (the one sent on connect) arrives. Messages are found in the raw bytes (chunked
    encoding and all): the bench only needs their arrival times."""

    MARK = b"event: view"

    def __init__(self, gid: str, woken: list[tuple[str, float]], live: list[int]):
        self.gid, self.woken, self.live = gid, woken, live
        self.tail = b""
        self.views = 0

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.live[0] += 1
        transport.write(  # type: ignore[attr-defined]
            f"GET {API}/games/{self.gid}/stream HTTP/1.1\r\nHost: b\r\n"
            "Accept: text/event-stream\r\n\r\n".encode()
        )

    def connection_lost(self, exc: Exception | None) -> None:
        self.live[0] -= 1

    def data_received(self, data: bytes) -> None:
        at = time.monotonic()
        seen = (self.tail + data).count(self.MARK)
        self.tail = (self.tail + data)[-len(self.MARK) + 1 :]
        for _ in range(seen):
            self.views += 1
            if self.views > 1:
                self.woken.append((self.gid, at))


class LongPoll(asyncio.Protocol):
    """One waiting client: a keep-alive connection that re-sends its long-poll as soon as
    it is answered, and notes when each 200 arrived. A bare protocol (no stream reader):
    the bench shares two cores with the server and must spend as little as it can."""

    def __init__(self, gid: str, etag: str, woken: list[tuple[str, float]], live: list[int]):
        self.gid, self.etag, self.woken, self.live = gid, etag, woken, live
        self.buffer = b""
        self.transport: asyncio.Transport | None = None

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = transport  # type: ignore[assignment]
        self.live[0] += 1
        self._send()

    def connection_lost(self, exc: Exception | None) -> None:
        self.live[0] -= 1

    def _send(self) -> None:
        assert self.transport is not None
        self.transport.write(
            f"GET {API}/games/{self.gid}?wait=30 HTTP/1.1\r\nHost: b\r\n"
            f"If-None-Match: {self.etag}\r\n\r\n".encode()
        )

    def data_received(self, data: bytes) -> None:
        at = time.monotonic()
        self.buffer += data
        while True:
            end = self.buffer.find(b"\r\n\r\n")
            if end < 0:
                return
            head = self.buffer[:end]
            length = 0
            for line in head.split(b"\r\n")[1:]:
                name, _, value = line.partition(b":")
                name = name.lower()
                if name == b"content-length":
                    length = int(value)
                elif name == b"etag":
                    self.etag = value.strip().decode()
            if len(self.buffer) < end + 4 + length:
                return
            self.buffer = self.buffer[end + 4 + length :]
            status = int(head.split(b" ", 2)[1])
            if status == 200:
                self.woken.append((self.gid, at))
            elif status != 304:
                raise RuntimeError(f"long-poll answered {status}")
            self._send()


def waiter_process(port: int, pipe: Any) -> None:
    """Holds the long-polls the parent asks for; reports wake-up times when asked."""
    hard = resource.getrlimit(resource.RLIMIT_NOFILE)[1]
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))

    async def main() -> None:
        loop = asyncio.get_running_loop()
        commands: asyncio.Queue[Any] = asyncio.Queue()
        loop.add_reader(pipe.fileno(), lambda: commands.put_nowait(pipe.recv()))
        woken: list[tuple[str, float]] = []
        live = [0]
        transports: list[asyncio.BaseTransport] = []
        while True:
            command, arg = await commands.get()
            if command in ("hold", "stream"):  # [(gid, etag, count)]
                wanted = live[0] + sum(count for _, _, count in arg)
                for gid, etag, count in arg:
                    for _ in range(count):
                        if command == "hold":
                            make = lambda g=gid, e=etag: LongPoll(g, e, woken, live)  # noqa: E731
                        else:
                            make = lambda g=gid: Streamer(g, woken, live)  # noqa: E731
                        transport, _ = await loop.create_connection(make, "127.0.0.1", port)
                        transports.append(transport)
                        if len(transports) % 200 == 0:
                            await asyncio.sleep(0.02)  # connect in waves, not one SYN flood
                deadline = time.monotonic() + 30
                while live[0] < wanted and time.monotonic() < deadline:
                    await asyncio.sleep(0.05)
                pipe.send(live[0])
            elif command == "report":
                pipe.send(list(woken))
                woken.clear()
            elif command == "drop":
                for transport in transports:
                    transport.close()
                transports.clear()
                await asyncio.sleep(0.5)
                pipe.send(live[0])
            elif command == "stop":
                return

    asyncio.run(main())


class Waiters:
    """The bench's waiting clients, spread over ``procs`` processes."""

    def __init__(self, port: int, procs: int) -> None:
        self.pipes = []
        self.procs = []
        for _ in range(procs):
            parent, child = mp.Pipe()
            proc = mp.Process(target=waiter_process, args=(port, child), daemon=True)
            proc.start()
            self.pipes.append(parent)
            self.procs.append(proc)

    def ask(self, command: str, args: list[Any] | None = None) -> list[Any]:
        for i, pipe in enumerate(self.pipes):
            pipe.send((command, None if args is None else args[i]))
        return [pipe.recv() for pipe in self.pipes]

    def hold(self, wanted: list[tuple[str, str, int]], how: str = "hold") -> int:
        """Open ``count`` waiting clients per (game, ETag): long-polls, or with ``how``
        "stream" event-stream spectators."""
        shares: list[list[tuple[str, str, int]]] = [[] for _ in self.pipes]
        for i, item in enumerate(wanted):
            shares[i % len(shares)].append(item)
        return sum(self.ask(how, shares))

    def woken(self) -> list[tuple[str, float]]:
        return [w for part in self.ask("report") for w in part]

    def stop(self) -> None:
        for pipe in self.pipes:
            pipe.send(("stop", None))
        for proc in self.procs:
            proc.join(10)


# -- the parent: server, games, actions, measurements ---------------------------------------


def start_server(workers: int | None) -> tuple[subprocess.Popen[bytes], int, str]:
    """``python -m hanabi.server`` as `make run` starts it (embedded Redis, defaults)."""
    port = free_port()
    data = tempfile.mkdtemp(prefix="hanabi-scale-")
    # Per-address limits off: every client of the bench comes from 127.0.0.1 (README).
    env = {k: v for k, v in os.environ.items() if k != "REDIS_URL"}
    env["HANABI_LIMITS"] = "off"
    command = [sys.executable, "-m", "hanabi.server", "--port", str(port), "--data", data]
    if workers:
        command += ["--workers", str(workers)]
    proc = subprocess.Popen(
        command, env=env, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )
    wait_healthy(port, proc)
    return proc, port, data


def stop_server(proc: subprocess.Popen[bytes], data: str) -> None:
    """Stop what :func:`start_server` started (SIGTERM, then a kill after 20 s) and remove
    its data."""
    proc.send_signal(signal.SIGTERM)
    try:
        proc.wait(20)
    except subprocess.TimeoutExpired:
        proc.kill()
    shutil.rmtree(data, ignore_errors=True)


def report(checks: list[tuple[str, bool]]) -> int:
    """Print each target as met or missed; the exit status: 0 when all are met."""
    for name, ok in checks:
        print(f"  {'ok  ' if ok else 'MISS'} {name}")
    return 0 if all(ok for _, ok in checks) else 1


def action_rate(port: int, clients: int, seconds: float, seed: int) -> float:
    """Actions per second from ``clients`` threads each playing games flat out."""
    counts = [0] * clients

    def run(i: int) -> None:
        rng = random.Random(seed * 1000 + i)
        conn = Conn(port)
        gid, tokens, game = new_game(conn, rng)
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            if game.is_over:
                gid, tokens, game = new_game(conn, rng)
            send_move(conn, gid, tokens, game, rng)
            counts[i] += 1

    started = time.monotonic()
    run_threads(run, clients)
    return sum(counts) / (time.monotonic() - started)


def health_latencies(port: int, count: int) -> list[float]:
    conn = Conn(port)
    out = []
    for _ in range(count):
        start = time.monotonic()
        status, _, _ = conn.request("GET", f"{API}/health")
        out.append(time.monotonic() - start)
        assert status == 200
        time.sleep(0.01)
    return sorted(out)


def ms(seconds: float) -> str:
    return f"{seconds * 1000:.1f} ms"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=500, help="games the idle waiters watch")
    parser.add_argument("--per-game", type=int, default=10, help="waiters per game")
    parser.add_argument("--spectators", type=int, default=1000, help="waiters on one game")
    parser.add_argument("--seconds", type=float, default=6.0, help="each actions phase")
    parser.add_argument("--rounds", type=int, default=3, help="actions phases with/without")
    parser.add_argument("--clients", type=int, default=8, help="action client threads")
    parser.add_argument("--wakes", type=int, default=50, help="games woken one by one")
    parser.add_argument("--procs", type=int, default=2, help="waiting-client processes")
    parser.add_argument(
        "--workers", type=int, default=None, help="server workers (default: make run's)"
    )
    args = parser.parse_args()
    hard = resource.getrlimit(resource.RLIMIT_NOFILE)[1]
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))

    proc, port, data = start_server(args.workers)
    waiters = None
    try:
        rng = random.Random(7)
        conn = Conn(port)
        games = []
        for _ in range(args.games):
            gid, tokens, game = new_game(conn, rng)
            _, _, headers = conn.request("GET", f"{API}/games/{gid}")
            games.append((gid, tokens, game, headers["etag"]))
        print(f"server: python -m hanabi.server (make run's defaults), port {port}; "
              f"{args.games} games set up", flush=True)  # fmt: skip

        # Actions/s with and without the idle waiters, alternated (the machine's other load
        # comes and goes): the ratio compares the means of the rounds.
        waiters = Waiters(port, args.procs)
        idle = [(gid, etag, args.per_game) for gid, _, _, etag in games]
        without, with_waiters = [], []
        for round_ in range(args.rounds):
            without.append(action_rate(port, args.clients, args.seconds, seed=2 * round_))
            held = waiters.hold(idle)
            time.sleep(2.0)
            with_waiters.append(action_rate(port, args.clients, args.seconds, seed=2 * round_ + 1))
            print(f"round {round_ + 1}: actions {without[-1]:.0f}/s without waiters, "
                  f"{with_waiters[-1]:.0f}/s with {held} idle long-polls", flush=True)  # fmt: skip
            if round_ < args.rounds - 1:
                waiters.ask("drop")
        before = sum(without) / len(without)
        during = sum(with_waiters) / len(with_waiters)
        print(f"actions: {before:.0f}/s without waiters, {during:.0f}/s with {held} "
              f"({during / before:.0%})", flush=True)  # fmt: skip

        health = health_latencies(port, 300)
        print(f"GET /health while held: p50 {ms(percentile(health, 0.5))}, p99 {ms(percentile(health, 0.99))}, "
              f"max {ms(health[-1])}", flush=True)  # fmt: skip

        waiters.woken()  # forget wake-ups the actions phase caused (none expected)
        conn = Conn(port)  # the first sat idle through the actions phases: the server closed it
        acted: dict[str, float] = {}
        for gid, tokens, game, _ in games[: args.wakes]:
            acted[gid] = send_move(conn, gid, tokens, game, rng)
            time.sleep(0.1)
        time.sleep(1.0)
        delays = [at - acted[gid] for gid, at in waiters.woken() if gid in acted]
        expected = args.wakes * args.per_game
        print(f"wake-ups after an action: {len(delays)}/{expected} waiters, "
              f"p50 {ms(percentile(delays, 0.5))}, p99 {ms(percentile(delays, 0.99))}, "
              f"max {ms(max(delays))}", flush=True)  # fmt: skip

        every: dict[str, list[float]] = {}
        for how in ("hold", "stream"):
            waiters.ask("drop")
            conn = Conn(port)
            gid, tokens, game = new_game(conn, rng)
            _, _, headers = conn.request("GET", f"{API}/games/{gid}")
            share = args.spectators // args.procs
            spectators = waiters.hold([(gid, headers["etag"], share)] * args.procs, how)
            kind = "long-poll" if how == "hold" else "event-stream"
            rounds = []
            for _ in range(3):
                time.sleep(1.5)
                waiters.woken()
                # From the move's sending: its own answer may come after some spectators'
                # (one process answers both), and the player waits for it too.
                sent = time.monotonic()
                at = send_move(conn, gid, tokens, game, rng)
                time.sleep(1.5)
                woken = [w - sent for g, w in waiters.woken() if g == gid]
                rounds.append(woken)
                print(f"{spectators} {kind} spectators of one game: {len(woken)} woken, "
                      f"p50 {ms(percentile(woken, 0.5))}, p99 {ms(percentile(woken, 0.99))}, "
                      f"max {ms(max(woken))}; the move's own answer {ms(at - sent)}",
                      flush=True)  # fmt: skip
            if any(len(r) != spectators for r in rounds):
                print(f"  not every {kind} spectator was woken", flush=True)
            every[how] = [d for r in rounds for d in r]

        print()
        checks = [
            ("/health p99 <= 50 ms", percentile(health, 0.99) <= 0.050),
            ("wake-ups p50 <= 50 ms", percentile(delays, 0.5) <= 0.050),
            ("wake-ups p99 <= 250 ms", percentile(delays, 0.99) <= 0.250),
            ("every waiter woken", len(delays) == expected),
            ("actions >= 80 % with waiters", during >= 0.8 * before),
            ("long-poll spectators p50 <= 50 ms", percentile(every["hold"], 0.5) <= 0.050),
            ("long-poll spectators p99 <= 150 ms", percentile(every["hold"], 0.99) <= 0.150),
            ("stream spectators p50 <= 50 ms", percentile(every["stream"], 0.5) <= 0.050),
            ("stream spectators p99 <= 150 ms", percentile(every["stream"], 0.99) <= 0.150),
            ("every spectator woken", all(len(d) == 3 * args.spectators for d in every.values())),
        ]
        return report(checks)
    finally:
        if waiters is not None:
            waiters.stop()
        stop_server(proc, data)


if __name__ == "__main__":
    raise SystemExit(main())
