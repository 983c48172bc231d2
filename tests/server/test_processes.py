"""Real processes: several gunicorn workers sharing one Redis, and `python -m hanabi.server`.

Concurrency: 20 identical actions at once apply exactly one; 20 joins at once to a 5-seat
table with 1 seated fill exactly 4 seats; a long-poll held by one worker wakes within
100 ms of a change committed through another.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from process_helpers import Http, _stop, _wait_healthy, launcher

from hanabi.server.ops.redis_process import free_port
from hanabi.server.ops.serving import gunicorn_command


@pytest.fixture(scope="module")
def port(redis_url: str) -> Iterator[int]:
    port = free_port()
    env = {**os.environ, "REDIS_URL": redis_url}
    command = gunicorn_command(f"127.0.0.1:{port}", 2, log_level="warning")
    proc = subprocess.Popen(command, env=env)
    try:
        _wait_healthy(port, proc)
        yield port
    finally:
        _stop(proc)


def _at_once(n: int, port: int, request: Any) -> list[Any]:
    """Run ``request(http)`` on ``n`` threads released together, each on its own connection."""
    clients = [Http(port) for _ in range(n)]
    for client in clients:  # open the connections first so the requests really race
        client("GET", "/health")
    barrier = threading.Barrier(n)
    results: list[Any] = [None] * n

    def run(i: int) -> None:
        barrier.wait()
        results[i] = request(clients[i], i)

    threads = [threading.Thread(target=run, args=(i,)) for i in range(n)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    return results


def _table(http: Http, players: int, max_players: int = 5) -> tuple[str, list[str]]:
    status, _, body = http(
        "POST", "/games", {"name": "host", "max_players": max_players, "seed": "c"}
    )
    assert status == 201
    gid, tokens = body["id"], [body["token"]]
    for i in range(1, players):
        status, _, joined = http("POST", f"/games/{gid}/players", {"name": f"p{i}"})
        tokens.append(joined["token"])
    return gid, tokens


def test_twenty_identical_actions_apply_once(port: int) -> None:
    http = Http(port)
    gid, tokens = _table(http, 3)
    assert http("POST", f"/games/{gid}/start", token=tokens[0])[0] == 200
    view = http("GET", f"/games/{gid}", token=tokens[0])[2]
    clue = next(a for a in view["legal_actions"] if a["type"] == "clue")
    body = {"turn": 0, **clue}
    results = _at_once(20, port, lambda h, i: h("POST", f"/games/{gid}/actions", body, tokens[0]))
    statuses = sorted(r[0] for r in results)
    assert statuses == [200] * 19 + [201]
    assert len({json.dumps(r[2]["events"]) for r in results}) == 1  # all the same events
    after = http("GET", f"/games/{gid}", token=tokens[1])[2]
    assert after["turn"] == 1 and after["clue_tokens"] == 7 and len(after["clues"]) == 1
    events = http("GET", f"/games/{gid}/events")[2]["events"]
    assert [e["type"] for e in events].count("clue") == 1


def test_twenty_joins_fill_exactly_four_seats(port: int) -> None:
    http = Http(port)
    gid, _ = _table(http, 1, max_players=5)
    results = _at_once(
        20, port, lambda h, i: h("POST", f"/games/{gid}/players", {"name": f"joiner{i}"})
    )
    won = [r for r in results if r[0] == 201]
    lost = [r for r in results if r[0] != 201]
    assert len(won) == 4
    assert all(r[0] == 409 and r[2]["code"] == "game_full" for r in lost)
    assert sorted(r[2]["seat"] for r in won) == [1, 2, 3, 4]
    assert len({r[2]["token"] for r in won}) == 4
    players = http("GET", f"/games/{gid}")[2]["players"]
    assert [p["seat"] for p in players] == [0, 1, 2, 3, 4]
    names = [p["name"] for p in players]
    assert len(set(names)) == 5 and sorted(names[1:]) == sorted(
        r[2]["game"]["players"][r[2]["seat"]]["name"] for r in won
    )


def test_long_polls_on_any_worker_wake_within_100ms(port: int) -> None:
    http = Http(port)
    gid, tokens = _table(http, 2)
    http("POST", f"/games/{gid}/start", token=tokens[0])
    etag = http("GET", f"/games/{gid}", token=tokens[1])[1]["ETag"]
    answered: list[float] = []
    statuses: list[int] = []

    def poll(h: Http, i: int) -> None:
        status, _, _ = h("GET", f"/games/{gid}?wait=10", token=tokens[1], **{"If-None-Match": etag})
        answered.append(time.monotonic())
        statuses.append(status)

    # 8 polls over 8 connections: with 2 workers, both processes hold some of them
    pollers = threading.Thread(target=_at_once, args=(8, port, poll))
    pollers.start()
    time.sleep(0.6)
    assert answered == []
    view = http("GET", f"/games/{gid}", token=tokens[0])[2]
    clue = next(a for a in view["legal_actions"] if a["type"] == "clue")
    assert http("POST", f"/games/{gid}/actions", {"turn": 0, **clue}, tokens[0])[0] == 201
    acted = time.monotonic()
    pollers.join(15)
    assert statuses == [200] * 8
    delays = sorted(t - acted for t in answered)
    assert delays[len(delays) // 2] < 0.1 and delays[-1] < 0.3, delays


def test_python_m_hanabi_server_runs_embedded_redis_that_persists(tmp_path: Path) -> None:
    port = free_port()
    command, env = launcher(port, tmp_path / "redis")
    proc = subprocess.Popen(command, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    try:
        _wait_healthy(port, proc)
        gid, _ = _table(Http(port), 2)
    finally:
        assert _stop(proc) == 0 or proc.returncode == -signal.SIGTERM
    output = proc.stdout.read().decode() if proc.stdout else ""
    sock = tmp_path / "redis" / "redis.sock"
    assert f"embedded redis-server on unix://{sock}?db=0" in output
    assert not sock.exists()  # stopped with the server, which removes its socket
    assert any((tmp_path / "redis").rglob("*.aof*"))
    proc = subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        _wait_healthy(port, proc)
        status, _, view = Http(port)("GET", f"/games/{gid}")
        assert status == 200 and [p["name"] for p in view["players"]] == ["host", "p1"]
    finally:
        _stop(proc)
