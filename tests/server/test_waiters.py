"""Many waiting clients on a real server (gunicorn, gevent workers, as `make run`): held
long-polls and streams cost sockets, not threads, so the rest of the service stays fast
and every waiter is woken by a change, in whichever worker it is held.

A few hundred waiters here (CI's size); bench/scale.py measures thousands.
"""

from __future__ import annotations

import asyncio
import json
import os
import statistics
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from api_helpers import API, assert_problem, make_table
from process_helpers import Http, _stop, gunicorn

from hanabi.server import create_app
from hanabi.server.ops.redis_process import free_port
from hanabi.server.storage import changes
from hanabi.server.storage.connect import connect
from hanabi.server.storage.keys import channel

WAITERS = 300
GAMES = 10

# measures wake-up times: alone, not beside another worker; and again on a Redis Cluster
pytestmark = [pytest.mark.serial, pytest.mark.cluster]


@pytest.fixture(scope="module")
def port(redis_url: str) -> Iterator[int]:
    port = free_port()
    proc = gunicorn(port, {"REDIS_URL": redis_url}, workers=2)
    try:
        yield port
    finally:
        _stop(proc)


async def _request(
    port: int, path: str, headers: dict[str, str] | None = None
) -> tuple[int, dict[str, str], bytes]:
    """One HTTP/1.1 GET on a connection of its own."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    lines = [f"GET {API}{path} HTTP/1.1", "Host: test", "Connection: close"]
    lines += [f"{k}: {v}" for k, v in (headers or {}).items()]
    writer.write(("\r\n".join(lines) + "\r\n\r\n").encode())
    await writer.drain()
    raw = await reader.read()
    writer.close()
    head, _, body = raw.partition(b"\r\n\r\n")
    status_line, *header_lines = head.decode().split("\r\n")
    found = {}
    for line in header_lines:
        name, _, value = line.partition(":")
        found[name.strip().lower()] = value.strip()
    return int(status_line.split()[1]), found, body


def _games(port: int) -> list[tuple[str, list[str], str]]:
    """Started 2-player games: (id, tokens, spectator ETag)."""
    http = Http(port)
    out = []
    for i in range(GAMES):
        _, _, created = http("POST", "/games", {"name": "a", "seed": f"w{i}"})
        gid = created["id"]
        _, _, joined = http("POST", f"/games/{gid}/players", {"name": "b"})
        http("POST", f"/games/{gid}/start", token=created["token"])
        _, headers, _ = http("GET", f"/games/{gid}")
        out.append((gid, [created["token"], joined["token"]], headers["ETag"]))
    return out


def test_hundreds_of_long_polls_hold_no_thread_and_all_wake(port: int) -> None:
    games = _games(port)
    woken: dict[int, float] = {}

    async def main() -> tuple[list[float], list[int]]:
        async def wait(i: int) -> int:
            gid, _, etag = games[i % GAMES]
            status, _, _ = await _request(port, f"/games/{gid}?wait=25", {"If-None-Match": etag})
            woken[i] = time.monotonic()
            return status

        tasks = [asyncio.create_task(wait(i)) for i in range(WAITERS)]
        await asyncio.sleep(2.0)  # every waiter connected and held
        assert not woken, "a long-poll answered before any change"
        health = []
        for _ in range(50):
            start = time.monotonic()
            status, _, body = await _request(port, "/health")
            health.append(time.monotonic() - start)
            assert status == 200 and json.loads(body) == {"status": "ok"}
        acted = {}
        for i, (gid, tokens, _) in enumerate(games):
            http = Http(port)
            view = http("GET", f"/games/{gid}", token=tokens[0])[2]
            clue = {"turn": 0, "type": "clue", "target": 1, "rank": view["hands"][1][0]["rank"]}
            assert http("POST", f"/games/{gid}/actions", clue, token=tokens[0])[0] == 201
            acted[i] = time.monotonic()
        statuses = await asyncio.wait_for(asyncio.gather(*tasks), 20)
        delays = [woken[i] - acted[i % GAMES] for i in range(WAITERS)]
        return sorted(health), statuses, sorted(delays)  # type: ignore[return-value]

    health, statuses, delays = asyncio.run(main())
    assert statuses == [200] * WAITERS  # every waiter woken with the new view
    assert health[-1] < 0.5, health  # /health answers at once while 300 polls are held
    assert statistics.median(delays) < 0.25 and delays[-1] < 1.5, delays


def test_a_stream_is_woken_by_a_change_committed_in_another_worker(port: int) -> None:
    (gid, tokens, _), *_ = _games(port)
    got: list[bytes] = []
    ready = threading.Event()

    def read() -> None:
        import http.client

        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        conn.request("GET", f"{API}/games/{gid}/stream", headers={"Accept": "text/event-stream"})
        response = conn.getresponse()
        assert response.status == 200
        buffer = b""
        while b"event: clue" not in buffer or buffer.count(b"event: view") < 2:
            chunk = response.read1(65536)
            if not chunk:
                break
            buffer += chunk
            if b"event: view" in buffer:
                ready.set()
        got.append(buffer)
        conn.close()

    reader = threading.Thread(target=read)
    reader.start()
    assert ready.wait(5)
    # Several fresh connections: gunicorn spreads them over both workers.
    for _ in range(3):
        Http(port)("GET", "/health")
    http = Http(port)
    view = http("GET", f"/games/{gid}", token=tokens[0])[2]
    clue = {"turn": 0, "type": "clue", "target": 1, "rank": view["hands"][1][0]["rank"]}
    assert http("POST", f"/games/{gid}/actions", clue, token=tokens[0])[0] == 201
    reader.join(10)
    assert got and b"event: clue" in got[0] and got[0].count(b"event: view") == 2


def test_past_the_waiter_limit_a_long_poll_is_refused_with_retry_after(redis_url: str) -> None:
    app = create_app({"REDIS_URL": redis_url, "HANABI_MAX_WAITERS": 2})
    client = app.test_client()
    table = make_table(client, 2, seed="limit")
    etag = client.get(table.url).headers["ETag"]
    held: list[Any] = []

    def hold() -> None:
        mine = app.test_client()  # a client per thread, like separate connections
        held.append(mine.get(f"{table.url}?wait=3", headers={"If-None-Match": etag}))

    threads = [threading.Thread(target=hold) for _ in range(2)]
    for thread in threads:
        thread.start()
    deadline = time.monotonic() + 3
    while app.extensions["hanabi"].changes.waiting < 2 and time.monotonic() < deadline:
        time.sleep(0.01)
    refused = client.get(f"{table.url}?wait=3", headers={"If-None-Match": etag})
    assert_problem(refused, 503, "too_many_waiters")
    assert refused.headers["Retry-After"] == "5"
    stream = client.get(f"{table.url}/stream")
    assert_problem(stream, 503, "too_many_waiters")
    assert client.get("/api/v1/health").status_code == 200  # no wait: never refused
    for thread in threads:
        thread.join(10)
    assert [r.status_code for r in held] == [304, 304]
    assert app.extensions["hanabi"].changes.waiting == 0


def test_a_listener_with_nothing_left_to_watch_sleeps(
    redis_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Once its last game lingered out, a process's change listener sleeps in select and
    costs no CPU (it polled every 10 ms once; a later draft spun on the unsubscription's
    unread confirmation)."""
    monkeypatch.setattr(changes, "LINGER", 0.2)
    client, cluster, sharded = connect(redis_url)
    game = "idlelistenr1"
    key = "{game:" + game + "}:idle-version"
    client.set(key, 1, ex=60)
    hub = changes.ChangeHub(client, lambda g: int(client.get(key) or 0), sharded=sharded,
                            cluster=cluster)  # fmt: skip
    before = set(threading.enumerate())
    woken: list[int | None] = []
    waiter = threading.Thread(target=lambda: woken.append(hub.wait(game, 1, 10)))
    waiter.start()
    time.sleep(0.3)  # held, subscribed
    client.set(key, 2, ex=60)
    client.execute_command("SPUBLISH" if sharded else "PUBLISH", channel(game), 2)
    waiter.join(10)
    assert woken == [2]
    (listener,) = [t for t in set(threading.enumerate()) - before if t.name == "hanabi-changes"]
    time.sleep(1.5)  # the game lingers out and is unsubscribed

    def cpu() -> float:
        stat = Path(f"/proc/self/task/{listener.native_id}/stat").read_text()
        fields = stat.rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    start = cpu()
    time.sleep(2)
    assert cpu() - start < 0.1, "the idle listener keeps the CPU busy"
