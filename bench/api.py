"""API throughput over HTTP against gunicorn on this machine (loopback only, bounded).

Starts a private redis-server and gunicorn (gevent workers, as `make run`) serving the real app plus one
trivial Flask endpoint, then measures, in the same run:

- trivial: GET /bench/trivial (a plain Flask route in the same app and workers)
- actions: scripted clients playing many games at once, POST /games/{id}/actions only;
  each client keeps a shadow engine to choose legal, never-losing moves, so the (Rainbow,
  two-player) games run past turn 80 and cost per turn can be compared from 1 to 90
- polls:   GET /games/{id} with If-None-Match of the current ETag (304s)
- memory:  Redis MEMORY USAGE of finished games (all their keys)
- bots:    server-side bot seats: a person's move makes a bot due and a long-poll sees the
  bot's commit (due -> played latency), and all-bot tables playing flat out (bot moves/s)

Prints requests/s, p50/p99 latency, the action/trivial ratios and per-turn-band p50s.

    .venv/bin/python bench/api.py [--seconds 5] [--clients 8] [--workers 2]
"""

from __future__ import annotations

import argparse
import json
import multiprocessing as mp
import os
import random
import socket
import statistics
import subprocess
import threading
import time
from pathlib import Path
from typing import Any

from hanabi.game import Action, Game, Setup
from hanabi.server.ops.redis_process import RedisProcess, free_port
from hanabi.server.ops.serving import gunicorn_command
from timing import percentile

API = "/api/v1"
VARIANT = "rainbow"  # 60 cards: two players' games run past turn 80
HERE = Path(__file__).resolve().parent


def bench_app() -> Any:
    """The real app with one trivial endpoint added (gunicorn factory for this benchmark)."""
    from hanabi.server import create_app

    app = create_app()

    @app.get("/bench/trivial")
    def trivial() -> str:
        return "ok"

    return app


# -- client side -----------------------------------------------------------------------


class Conn:
    """A minimal HTTP/1.1 keep-alive client on a raw socket: the load generator shares the
    machine's two cores with the server, so it spends as little CPU as it can."""

    def __init__(self, port: int) -> None:
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=30)
        self.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self.buffer = b""

    def request(
        self,
        method: str,
        path: str,
        body: bytes | None = None,
        headers: dict[str, str] | None = None,
    ) -> tuple[int, bytes, dict[str, str]]:
        lines = [f"{method} {path} HTTP/1.1", "Host: 127.0.0.1"]
        lines += [f"{k}: {v}" for k, v in (headers or {}).items()]
        lines.append(f"Content-Length: {len(body or b'')}")
        self.sock.sendall(("\r\n".join(lines) + "\r\n\r\n").encode() + (body or b""))
        while b"\r\n\r\n" not in self.buffer:
            self._fill()
        head, _, self.buffer = self.buffer.partition(b"\r\n\r\n")
        status_line, *header_lines = head.decode("latin-1").split("\r\n")
        found = {}
        for line in header_lines:
            name, _, value = line.partition(":")
            found[name.strip().lower()] = value.strip()
        length = int(found.get("content-length", "0"))
        while len(self.buffer) < length:
            self._fill()
        payload, self.buffer = self.buffer[:length], self.buffer[length:]
        return int(status_line.split(" ", 2)[1]), payload, found

    def _fill(self) -> None:
        chunk = self.sock.recv(65536)
        if not chunk:
            raise ConnectionError("server closed the connection")
        self.buffer += chunk


def wait_healthy(port: int, proc: subprocess.Popen[bytes], timeout: float = 30) -> None:
    """Wait until the server on ``port`` answers GET /health; exit if it dies or stays
    silent for ``timeout`` seconds."""
    deadline = time.monotonic() + timeout
    while True:
        try:
            if Conn(port).request("GET", f"{API}/health")[0] == 200:
                return
        except OSError:
            pass
        if time.monotonic() > deadline or proc.poll() is not None:
            proc.kill()
            raise SystemExit(f"the server on port {port} did not start")
        time.sleep(0.1)


def new_game(conn: Conn, rng: random.Random) -> tuple[str, list[str], Game]:
    seed = str(rng.random())
    status, raw, _ = conn.request(
        "POST", f"{API}/games", json.dumps({"name": "a", "seed": seed, "variant": VARIANT}).encode(),
        {"Content-Type": "application/json"},
    )  # fmt: skip
    assert status == 201, raw
    body = json.loads(raw)
    gid, tokens = body["id"], [body["token"]]
    status, raw, _ = conn.request(
        "POST", f"{API}/games/{gid}/players", b'{"name": "b"}', {"Content-Type": "application/json"}
    )
    tokens.append(json.loads(raw)["token"])
    conn.request("POST", f"{API}/games/{gid}/start", None, {"Authorization": f"Bearer {tokens[0]}"})
    return gid, tokens, Game(Setup.create(VARIANT, ["a", "b"], None, seed))


def choose(game: Game, rng: random.Random) -> Action:
    """A legal move that never misplays and gives many clues (long games)."""
    legal = game.legal_actions()
    plays = [a for a in legal if a.type == "play" and _playable(game, a.card)]
    if plays:
        return plays[0]
    clues = [a for a in legal if a.type == "clue"]
    discards = [a for a in legal if a.type == "discard"]
    if clues and (not discards or rng.random() < 0.85):
        return rng.choice(clues)
    return rng.choice(discards)


def send_move(conn: Conn, gid: str, tokens: list[str], game: Game, rng: random.Random) -> float:
    """Choose a move for the seat to play (:func:`choose`), send it, apply it to the shadow
    engine; the time its answer arrived."""
    seat = game.current
    action = choose(game, rng)
    fields = {k: v for k, v in action.to_dict().items() if k != "seat"}
    body = json.dumps({"turn": game.turn, **fields}).encode()
    headers = {"Authorization": f"Bearer {tokens[seat]}", "Content-Type": "application/json"}
    status, raw, _ = conn.request("POST", f"{API}/games/{gid}/actions", body, headers)
    at = time.monotonic()
    assert status == 201, raw
    game.apply(action, seat)
    return at


def _playable(game: Game, order: int | None) -> bool:
    card = game.deck[order]  # type: ignore[index]
    return game.fireworks[card // 5] == card % 5


def action_worker(port: int, seconds: float, threads: int, seed: int, out: Any) -> None:
    """Play games until time is up; report (turn, latency) of every POST action."""
    stop = time.monotonic() + seconds
    samples: list[tuple[int, float]] = []
    finished: list[str] = []
    lock = threading.Lock()

    def run(i: int) -> None:
        rng = random.Random(seed * 1000 + i)
        conn = Conn(port)
        mine: list[tuple[int, float]] = []
        done: list[str] = []
        while time.monotonic() < stop:
            gid, tokens, game = new_game(conn, rng)
            while not game.is_over and time.monotonic() < stop:
                action = choose(game, rng)
                seat = game.current
                body = json.dumps({"turn": game.turn, **action.to_dict()}).encode()
                headers = {
                    "Content-Type": "application/json",
                    "Authorization": f"Bearer {tokens[seat]}",
                }
                t0 = time.perf_counter()
                status, raw, _ = conn.request("POST", f"{API}/games/{gid}/actions", body, headers)
                mine.append((game.turn, time.perf_counter() - t0))
                assert status == 201, raw[:300]
                game.apply(action, seat)
            if game.is_over:
                done.append(gid)
        with lock:
            samples.extend(mine)
            finished.extend(done)

    run_threads(run, threads)
    out.put((samples, finished))


def run_threads(run: Any, threads: int) -> None:
    """Run ``run(i)`` on ``threads`` threads at once and wait for all of them."""
    pool = [threading.Thread(target=run, args=(i,)) for i in range(threads)]
    for t in pool:
        t.start()
    for t in pool:
        t.join()


def get_worker(
    port: int,
    seconds: float,
    threads: int,
    targets: list[tuple[str, dict[str, str], int]],
    index: int,
    out: Any,
) -> None:
    """GET the targets round-robin until time is up; report latencies."""
    stop = time.monotonic() + seconds
    samples: list[float] = []
    lock = threading.Lock()

    def run(i: int) -> None:
        conn = Conn(port)
        mine = []
        k = i + index * threads
        while time.monotonic() < stop:
            path, headers, want = targets[k % len(targets)]
            k += 1
            t0 = time.perf_counter()
            status, raw, _ = conn.request("GET", path, None, headers)
            mine.append(time.perf_counter() - t0)
            assert status == want, (status, raw[:200])
        with lock:
            samples.extend(mine)

    run_threads(run, threads)
    out.put((samples, []))


def run_clients(target: Any, procs: int, *args: Any) -> tuple[list[Any], list[str], float]:
    """Run ``target(*args, index, queue)`` in ``procs`` client processes; merged samples,
    merged extras, wall time."""
    ctx = mp.get_context("fork")
    queue = ctx.Queue()
    start = time.perf_counter()
    workers = [ctx.Process(target=target, args=(*args, i + 1, queue)) for i in range(procs)]
    for w in workers:
        w.start()
    samples: list[Any] = []
    extra: list[str] = []
    for _ in workers:
        s, e = queue.get(timeout=600)
        samples += s
        extra += e
    for w in workers:
        w.join()
    return samples, extra, time.perf_counter() - start


def worker_pids(parent: int) -> list[int]:
    children = Path(f"/proc/{parent}/task/{parent}/children")
    return [int(p) for p in children.read_text().split()] if children.exists() else []


def pct(values: list[float], p: float) -> float:
    """The ``p``-th percentile of latencies in seconds, in ms."""
    return percentile(values, p / 100) * 1000


# -- main ------------------------------------------------------------------------------


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--seconds", type=float, default=5.0, help="per phase (max 60)")
    parser.add_argument("--clients", type=int, default=8, help="concurrent client threads")
    parser.add_argument("--procs", type=int, default=2, help="client processes")
    parser.add_argument("--workers", type=int, default=2, help="gunicorn workers")
    args = parser.parse_args()
    seconds = min(args.seconds, 60.0)
    per_proc = max(1, args.clients // args.procs)

    with RedisProcess() as redis_proc:
        port = free_port()
        env = {**os.environ, "REDIS_URL": redis_proc.url, "HANABI_LIMITS": "off"}  # one address
        command = gunicorn_command(
            f"127.0.0.1:{port}", args.workers, log_level="warning", app="api:bench_app()"
        )
        server = subprocess.Popen(command, env=env, cwd=HERE)
        try:
            wait_healthy(port, server, 20)
            pids = [server.pid, *worker_pids(server.pid), redis_proc.pid]
            return measure(port, redis_proc.url, seconds, args.procs, per_proc, args, pids)
        finally:
            server.terminate()
            server.wait(15)


def cpu_seconds(pids: list[int]) -> float:
    """User+system CPU time used so far by these processes (Linux /proc)."""
    total = 0
    for pid in pids:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += int(fields[11]) + int(fields[12])  # utime, stime (clock ticks)
    return total / os.sysconf("SC_CLK_TCK")


def phase(name: str, pids: list[int], target: Any, procs: int, *args: Any) -> dict[str, Any]:
    """Run one load phase; print rate, latency and server CPU per request."""
    before = cpu_seconds(pids)
    samples, extra, wall = run_clients(target, procs, *args)
    cpu = cpu_seconds(pids) - before
    latencies = [x[1] if isinstance(x, tuple) else x for x in samples]
    rate = len(samples) / wall
    per = cpu / len(samples) * 1000
    print(
        f"{name:14s} {rate:7.0f} req/s   p50 {pct(latencies, 50):6.2f} ms   "
        f"p99 {pct(latencies, 99):6.2f} ms   server+Redis CPU {per:5.2f} ms/req"
    )
    return {"rate": rate, "lat": latencies, "samples": samples, "extra": extra, "cpu": per}


def measure(
    port: int, redis_url: str, seconds: float, procs: int, per_proc: int, args: Any, pids: list[int]
) -> int:
    import redis

    load = os.getloadavg()[0]
    print(
        f"gunicorn gevent: {args.workers} workers; "
        f"{procs} client processes x {per_proc} threads; {seconds:g} s per phase; "
        f"{os.cpu_count()} cores shared by server, Redis and clients (load avg {load:.1f} at start)"
    )
    trivial = phase(
        "trivial GET",
        pids,
        get_worker,
        procs,
        port,
        seconds,
        per_proc,
        [("/bench/trivial", {}, 200)],
    )
    actions = phase("POST actions", pids, action_worker, procs, port, seconds, per_proc)

    # polls: a 304 for the current ETag of a live game, as each seat
    conn = Conn(port)
    targets = []
    for i in range(8):
        gid, tokens, _ = new_game(conn, random.Random(i))
        for token in tokens:
            headers = {"Authorization": f"Bearer {token}"}
            _, _, found = conn.request("GET", f"{API}/games/{gid}", None, headers)
            targets.append((f"{API}/games/{gid}", {**headers, "If-None-Match": found["etag"]}, 304))
    polls = phase("GET 304 polls", pids, get_worker, procs, port, seconds, per_proc, targets)

    print(
        f"action / trivial: {actions['cpu'] / trivial['cpu']:.2f}x server CPU per request, "
        f"{trivial['rate'] / actions['rate']:.2f}x by throughput, "
        f"{pct(actions['lat'], 50) / pct(trivial['lat'], 50):.2f}x by p50 latency; "
        f"304 poll / trivial: {polls['cpu'] / trivial['cpu']:.2f}x CPU"
    )
    bands: dict[int, list[float]] = {}
    for turn, taken in actions["samples"]:
        if turn < 90:
            bands.setdefault(turn // 10, []).append(taken)
    print(
        "action p50 ms by turn: "
        + "  ".join(
            f"{b * 10 + 1}-{b * 10 + 10}: {pct(v, 50):.2f}" for b, v in sorted(bands.items())
        )
    )
    longest = max((t for t, _ in actions["samples"]), default=0)
    finished = actions["extra"]
    client = redis.Redis.from_url(redis_url)
    sizes = [
        sum(client.memory_usage(k) or 0 for k in client.keys("{game:" + gid + "}*"))
        for gid in finished[:200]
    ]
    if sizes:
        print(
            f"finished games: {len(finished)} (longest reached turn {longest + 1}); Redis memory "
            f"per finished game: mean {statistics.mean(sizes):.0f} B, max {max(sizes)} B (limit 4096)"
        )
    bot_phase(port, per_proc * procs)
    return 0


def _json(conn: Conn, method: str, path: str, body: Any = None, token: str | None = None) -> Any:
    headers = {"Content-Type": "application/json"}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    raw = None if body is None else json.dumps(body).encode()
    status, payload, found = conn.request(method, API + path, raw, headers)
    return status, (json.loads(payload) if payload else None), found


def _bot_table(conn: Conn, bots: list[str]) -> tuple[str, str]:
    _, created, _ = _json(conn, "POST", "/games", {"name": "host"})
    for strategy in bots:
        status, _, _ = _json(
            conn, "POST", f"/games/{created['id']}/bots", {"strategy": strategy}, created["token"]
        )
        assert status == 201
    return created["id"], created["token"]


def bot_phase(port: int, clients: int) -> None:
    """Bot seats: due -> played latency seen by people, then all-bot throughput."""
    delays: list[float] = []

    def person(i: int) -> None:
        conn = Conn(port)
        gid, token = _bot_table(conn, ["conventions"])
        _, view, _ = _json(conn, "POST", f"/games/{gid}/start", None, token)
        while view["result"] is None:
            legal = view["legal_actions"]
            kinds = ("clue", "discard") if view["clue_tokens"] > 2 else ("discard", "clue")
            action = next((a for k in kinds for a in legal if a["type"] == k), legal[0])
            status, body, _ = _json(
                conn, "POST", f"/games/{gid}/actions", {"turn": view["turn"], **action}, token
            )
            moved = time.perf_counter()
            view = body["game"]
            if view["result"] is not None:
                break
            status, raw, _ = conn.request(
                "GET", f"{API}/games/{gid}?wait=5", None,
                {"Authorization": f"Bearer {token}", "If-None-Match": f'"{view["version"]}.0"'},
            )  # fmt: skip
            assert status == 200, status
            delays.append(time.perf_counter() - moved)
            view = json.loads(raw)

    threads = [threading.Thread(target=person, args=(i,)) for i in range(clients)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(120)
    print(
        f"bot seats: {clients} people each with a conventions bot: the bot's move is seen "
        f"p50 {pct(delays, 50):.1f} ms, p99 {pct(delays, 99):.1f} ms after the person's "
        f"({len(delays)} bot moves)"
    )
    conn = Conn(port)
    tables = [_bot_table(conn, ["conventions"] * 4) for _ in range(8)]
    began = time.perf_counter()
    for gid, token in tables:
        _json(conn, "POST", f"/games/{gid}/start", {"watch": True}, token)
    turns = 0
    for gid, _ in tables:
        while True:
            _, view, _ = _json(conn, "GET", f"/games/{gid}")
            if view["result"] is not None:
                turns += view["turn"]
                break
            time.sleep(0.02)
    wall = time.perf_counter() - began
    print(f"all-bot tables: 8 x 4 conventions bots, {turns} bot moves in {wall:.2f} s: "
          f"{turns / wall:.0f} bot moves/s")  # fmt: skip


if __name__ == "__main__":
    raise SystemExit(main())
