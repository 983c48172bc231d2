"""Operating real servers (gunicorn, gevent workers, as `make run`): metrics added up over
worker processes, JSON logs that name requests and never a secret, and a SIGTERM during a
burst of actions and held waiters that loses nothing and exits within HANABI_DRAIN_S."""

from __future__ import annotations

import asyncio
import http.client
import json
import os
import re
import signal
import subprocess
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from api_helpers import API
from process_helpers import Http, _stop, _wait_healthy, run_async

from hanabi.client.api import Client
from hanabi.server.ops.redis_process import free_port
from hanabi.server.ops.serving import gunicorn_command
from hanabi.server.storage.connect import connect
from hanabi.server.storage.keys import due_key
from hanabi.server.storage.slots import BUCKETS


class Server:
    """gunicorn on a free port with its stdout and stderr in files; started once every
    worker has loaded the app (its metrics file exists)."""

    def __init__(self, tmp: Path, env: dict[str, str], workers: int, access_log: bool) -> None:
        self.port = free_port()
        self.metrics = Path(env["PROMETHEUS_MULTIPROC_DIR"])
        self.out, self.err = tmp / "stdout.log", tmp / "stderr.log"
        command = gunicorn_command(
            f"127.0.0.1:{self.port}", workers, log_level="info", access_log=access_log
        )
        with self.out.open("wb") as out, self.err.open("wb") as err:
            self.proc = subprocess.Popen(command, env={**os.environ, **env}, stdout=out, stderr=err)
        _wait_healthy(self.port, self.proc)
        self.wait_for_workers(workers)

    def wait_for_workers(self, workers: int) -> None:
        deadline = time.monotonic() + 60  # a loaded machine boots slowly
        while len(self.loaded()) < workers:
            assert time.monotonic() < deadline, "the workers did not load the app"
            time.sleep(0.05)
        time.sleep(0.2)  # from the app loaded to the SIGTERM handler installed

    def loaded(self) -> set[int]:
        """Live workers that have made their metrics (their app is loaded)."""
        made = {int(f.stem.rsplit("_", 1)[1]) for f in self.metrics.glob("gauge_livesum_*.db")}
        return made & set(self.worker_pids())

    def worker_pids(self) -> list[int]:
        children = Path(f"/proc/{self.proc.pid}/task/{self.proc.pid}/children")
        return [int(p) for p in children.read_text().split()] if children.exists() else []

    def log(self) -> str:
        return self.out.read_text() + self.err.read_text()

    def stop(self) -> int:
        return _stop(self.proc)


def _json_lines(text: str) -> list[dict[str, Any]]:
    lines = []
    for line in text.splitlines():
        if "MonkeyPatchWarning" in line or line.strip() == "monkey.patch_all()":
            continue  # gevent's warning, written by the warnings module before logging is set
        lines.append(json.loads(line))  # every log line is one JSON object
    return lines


#: The scraper's token (/metrics is closed without one).
SCRAPE = "scrape-token-8c2f"


def _scrape(port: int, token: str = SCRAPE) -> str:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    conn.request("GET", "/metrics", headers={"Authorization": f"Bearer {token}"})
    response = conn.getresponse()
    body = response.read().decode()
    conn.close()
    assert response.status == 200, body
    return body


def _value(text: str, sample: str) -> float:
    match = re.search("^" + re.escape(sample) + r" (\S+)$", text, re.M)
    assert match, f"{sample} not in metrics"
    return float(match.group(1))


def _started(http: Http, seed: str) -> tuple[str, list[str]]:
    _, _, created = http("POST", "/games", {"name": "ann", "seed": seed})
    gid = created["id"]
    _, _, joined = http("POST", f"/games/{gid}/players", {"name": "bob"})
    assert http("POST", f"/games/{gid}/start", token=created["token"])[0] == 200
    return gid, [created["token"], joined["token"]]


def _fresh(port: int, method: str, path: str, **headers: str) -> tuple[int, dict[str, str], Any]:
    """One request on a connection of its own (gunicorn spreads them over its workers)."""
    http = Http(port)
    result = http(method, path, Connection="close", **headers)
    http.conn.close()
    return result


async def _hold(port: int, path: str, headers: dict[str, str]) -> tuple[int, bytes]:
    """A GET on a connection of its own, read to its end: (status, the whole response)."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    lines = [f"GET {API}{path} HTTP/1.1", "Host: test", "Connection: close"]
    lines += [f"{k}: {v}" for k, v in headers.items()]
    writer.write(("\r\n".join(lines) + "\r\n\r\n").encode())
    await writer.drain()
    raw = await reader.read()
    writer.close()
    return int(raw.split(b" ", 2)[1]), raw


@pytest.fixture
def multiproc_dir(tmp_path: Path) -> Iterator[Path]:
    path = tmp_path / "metrics"
    path.mkdir()
    (path / "counter_1.db").write_bytes(b"stale")  # a file of an earlier run: emptied at start
    yield path


def test_metrics_add_up_over_two_worker_processes(
    redis_url: str, tmp_path: Path, multiproc_dir: Path
) -> None:
    env = {
        "REDIS_URL": redis_url,
        "PROMETHEUS_MULTIPROC_DIR": str(multiproc_dir),
        "HANABI_METRICS_TOKEN": SCRAPE,
    }
    server = Server(tmp_path, env, workers=2, access_log=False)
    try:
        assert not (multiproc_dir / "counter_1.db").exists()
        port = server.port
        assert Client(f"http://127.0.0.1:{port}").ready() is True  # the library's call
        http = Http(port)
        games = [_started(http, f"m{i}") for i in range(2)]
        http("POST", "/games", {"name": "lonely"})  # a lobby
        for _ in range(40):
            assert _fresh(port, "GET", "/variants")[0] == 200
        sample = 'hanabi_requests_total{method="GET",route="/api/v1/variants",status="200"}'
        deadline = time.monotonic() + 5
        while _value(_scrape(port), sample) != 40:  # each worker writes its counts every 1 s
            assert time.monotonic() < deadline, _value(_scrape(port), sample)
            time.sleep(0.2)
        pids = {int(f.stem.rsplit("_", 1)[1]) for f in multiproc_dir.glob("counter_*.db")}
        assert pids == set(server.worker_pids()) and len(pids) == 2, "both workers counted"
        for _ in range(4):  # whichever worker answers the scrape adds up both
            assert _value(_scrape(port), sample) == 40

        gid, tokens = games[0]
        view = http("GET", f"/games/{gid}", token=tokens[0])[2]
        etag = http("GET", f"/games/{gid}")[1]["ETag"]

        async def polls() -> list[int]:
            tasks = [
                asyncio.create_task(_hold(port, f"/games/{gid}?wait=20", {"If-None-Match": etag}))
                for _ in range(6)
            ]
            deadline = time.monotonic() + 10
            while _value(_scrape(port), "hanabi_waiters") != 6:
                assert time.monotonic() < deadline, "the 6 held polls are not counted"
                await asyncio.sleep(0.1)
            clue = next(a for a in view["legal_actions"] if a["type"] == "clue")
            assert http("POST", f"/games/{gid}/actions", {"turn": 0, **clue}, tokens[0])[0] == 201
            return [status for status, _ in await asyncio.gather(*tasks)]

        assert run_async(polls()) == [200] * 6
        time.sleep(1.2)  # both workers have written their counts
        text = _scrape(port)
        assert _value(text, "hanabi_waiters") == 0
        assert _value(text, 'hanabi_actions_total{by="person"}') == 1
        client = connect(redis_url)[0]  # a single Redis or the Cluster the tests run on
        assert _value(text, 'hanabi_games{status="playing"}') == client.zcard(
            "hanabi:index:playing"
        )
        assert _value(text, 'hanabi_games{status="lobby"}') == client.zcard("hanabi:index:lobby")
        assert _value(text, "hanabi_bot_due") == sum(
            client.zcard(due_key(b)) for b in range(BUCKETS)
        )
        route = 'route="/api/v1/games/{game_id}"'
        assert _value(text, f"hanabi_request_seconds_count{{{route}}}") >= 2  # plain reads
        assert f'hanabi_requests_total{{method="GET",{route},status="200"}}' in text

        # Workers that die holding waiters no longer count them (child_exit).
        async def held_then_killed() -> float:
            gid2 = games[1][0]
            etag2 = http("GET", f"/games/{gid2}")[1]["ETag"]
            tasks = [
                asyncio.create_task(_hold(port, f"/games/{gid2}?wait=30", {"If-None-Match": etag2}))
                for _ in range(4)
            ]
            deadline = time.monotonic() + 10
            while _value(_scrape(port), "hanabi_waiters") != 4:
                assert time.monotonic() < deadline, "the 4 held polls are not counted"
                await asyncio.sleep(0.1)
            for pid in server.worker_pids():
                os.kill(pid, signal.SIGKILL)
            await asyncio.gather(*tasks, return_exceptions=True)
            server.wait_for_workers(2)
            return _value(_scrape(port), "hanabi_waiters")

        assert run_async(held_then_killed()) == 0
        assert _value(_scrape(port), sample) == 40  # counters outlive their processes
    finally:
        server.stop()


def test_logs_are_json_lines_with_request_ids_and_never_a_secret(
    redis_url: str, tmp_path: Path, multiproc_dir: Path
) -> None:
    metrics_token = "metrics-token-5d1e"
    env = {
        "REDIS_URL": redis_url,
        "PROMETHEUS_MULTIPROC_DIR": str(multiproc_dir),
        "HANABI_METRICS_TOKEN": metrics_token,
    }
    server = Server(tmp_path, env, workers=1, access_log=True)
    secrets = [metrics_token, "forged-token-0123456789", "wrong-metrics-token"]
    chat = "the-secret-word-is-swordfish"
    try:
        port = server.port
        api = Http(port)
        gid, tokens = _started(api, "logs")
        secrets += tokens
        assert api("POST", f"/games/{gid}/chat", {"text": chat}, tokens[1])[0] == 201
        view = api("GET", f"/games/{gid}", token=tokens[0], **{"X-Request-ID": "trace-me-1"})[2]
        clue = next(a for a in view["legal_actions"] if a["type"] == "clue")
        assert api("POST", f"/games/{gid}/actions", {"turn": 0, **clue}, tokens[0])[0] == 201
        assert api("GET", f"/games/{gid}", token="forged-token-0123456789")[0] == 403
        etag = api("GET", f"/games/{gid}", token=tokens[1])[1]["ETag"]
        polled = api("GET", f"/games/{gid}?wait=1", token=tokens[1], **{"If-None-Match": etag})
        assert polled[0] == 304
        _, _, ticket = api("POST", f"/games/{gid}/tickets", token=tokens[1])
        secrets.append(ticket["ticket"])
        for query, headers in (
            (f"?ticket={ticket['ticket']}", {}),
            ("", {"Authorization": f"Bearer {tokens[0]}"}),
        ):
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
            conn.request("GET", f"{API}/games/{gid}/stream{query}", headers=headers)
            response = conn.getresponse()
            assert response.status == 200
            got = b""
            while b"event: view" not in got:
                got += response.read1(65536)
            conn.close()
        assert _scrape(port, metrics_token)
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        conn.request("GET", "/metrics", headers={"Authorization": "Bearer wrong-metrics-token"})
        assert conn.getresponse().status == 403
        time.sleep(0.3)  # the streams' lines are written when they close
    finally:
        server.stop()
    text = server.log()
    lines = _json_lines(text)
    requests = [line for line in lines if line["logger"] == "hanabi.requests"]
    traced = [line for line in requests if line.get("request_id") == "trace-me-1"]
    assert len(traced) == 1 and traced[0]["route"] == "/api/v1/games/{game_id}"
    assert traced[0]["game_id"] == gid and traced[0]["status"] == 200
    streams = [line for line in requests if line["route"].endswith("/stream")]
    assert len(streams) == 2 and all(line["status"] == 200 for line in streams)
    assert {line["status"] for line in requests} >= {200, 201, 304, 403}
    allowed = {"time", "level", "logger", "message", "pid", "request_id", "method", "route"}
    allowed |= {"status", "duration_ms", "game_id", "seat", "remote", "auth", "auth_hash"}
    assert all(set(line) <= allowed for line in requests), requests[0]
    assert any(line["logger"] == "gunicorn.error" for line in lines)  # gunicorn's own, as JSON
    for secret in [*secrets, chat, "Bearer", "ticket="]:
        assert secret not in text, f"{secret!r} is in the logs"
    for card_field in ('"hands"', '"deck"', '"legal_actions"', '"knowledge"'):
        assert card_field not in text


def test_sigterm_during_actions_and_held_waiters_loses_nothing_and_exits_in_time(
    redis_url: str, tmp_path: Path, multiproc_dir: Path, client: Any
) -> None:
    drain_s = 5.0
    env = {
        "REDIS_URL": redis_url,
        "PROMETHEUS_MULTIPROC_DIR": str(multiproc_dir),
        "HANABI_DRAIN_S": str(drain_s),
        "HANABI_METRICS_TOKEN": SCRAPE,
    }
    server = Server(tmp_path, env, workers=2, access_log=False)
    port = server.port
    setup = Http(port)
    idle_gid, _ = _started(setup, "drain-idle")
    etag = setup("GET", f"/games/{idle_gid}")[1]["ETag"]
    busy = [_started(setup, f"drain-{i}") for i in range(3)]
    acked: dict[str, list[dict[str, Any]]] = {gid: [] for gid, _ in busy}
    failures: list[str] = []
    signalled = threading.Event()

    def play(gid: str, tokens: list[str]) -> None:
        api = Http(port)
        try:
            seat = api("GET", f"/games/{gid}")[2]["current_seat"]
            while seat is not None:
                status, _, view = api("GET", f"/games/{gid}", token=tokens[seat])
                if status != 200:
                    failures.append(f"{gid}: view {status}")
                    return
                kinds = ("clue", "discard") if len(acked[gid]) % 2 else ("discard", "clue")
                move = next(a for k in kinds for a in view["legal_actions"] if a["type"] == k)
                status, _, body = api(
                    "POST", f"/games/{gid}/actions", {"turn": view["turn"], **move}, tokens[seat]
                )
                if status not in (200, 201):
                    failures.append(f"{gid}: {status} {body}")
                    return
                acked[gid].append(body)
                seat = body["game"]["current_seat"]
        except (OSError, http.client.HTTPException) as exc:  # the server went away: stop
            if not signalled.is_set():
                failures.append(f"{gid}: {type(exc).__name__} before SIGTERM")

    polls: list[tuple[int, float]] = []
    streams: list[tuple[bytes, str, float]] = []

    async def poll() -> None:
        status, _ = await _hold(port, f"/games/{idle_gid}?wait=30", {"If-None-Match": etag})
        polls.append((status, time.monotonic()))

    def stream() -> None:
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        conn.request("GET", f"{API}/games/{idle_gid}/stream")
        response = conn.getresponse()
        try:
            streams.append((response.read(), "clean", time.monotonic()))
        except http.client.IncompleteRead as exc:
            streams.append((exc.partial, "cut", time.monotonic()))

    waiters = [threading.Thread(target=asyncio.run, args=(asyncio.wait_for(_polls(poll), 40),))]
    waiters += [threading.Thread(target=stream) for _ in range(3)]
    players = [threading.Thread(target=play, args=game) for game in busy]
    for thread in waiters + players:
        thread.start()
    deadline = time.monotonic() + 10
    while _value(_scrape(port), "hanabi_waiters") < 11:
        assert time.monotonic() < deadline, "the 8 polls and 3 streams are not all held"
        time.sleep(0.1)
    time.sleep(0.5)  # the burst of actions goes on
    assert all(acked[gid] for gid in acked), failures
    signalled.set()
    sent = time.monotonic()
    server.proc.send_signal(signal.SIGTERM)
    code = server.proc.wait(drain_s + 5)
    took = time.monotonic() - sent
    for thread in waiters + players:
        thread.join(10)
    assert code == 0 and took < drain_s, took
    assert failures == []
    assert sorted(status for status, _ in polls) == [304] * 8
    assert max(at for _, at in polls) - sent < 1.5  # answered at once, not after the drain
    assert len(streams) == 3
    for body, ending, at in streams:
        assert ending == "clean" and at - sent < 1.5
        assert re.search(rb"event: view\n.*: server draining\nretry: \d{4}\n\n$", body, re.S)
    # Every action that got a 2xx is in its game's log, with the same events.
    for gid, answers in acked.items():
        log = client.get(f"{API}/games/{gid}/events").get_json()["events"]
        by_seq = {event["seq"]: event for event in log}
        for answer in answers:
            for event in answer["events"]:
                logged = by_seq.get(event["seq"])
                assert logged is not None and logged["type"] == event["type"], (gid, event)
        turns = [event for event in log if event["type"] in ("clue", "discard", "play", "misplay")]
        assert len(turns) >= len(answers)
    # The drain ran (its closing "drained in" line may not make it out before the worker exits).
    assert "SIGTERM: draining for up to" in server.log()


async def _polls(poll: Any) -> None:
    await asyncio.gather(*(poll() for _ in range(8)))
