"""Redis faults: the launcher restarts its embedded redis-server after a kill -9 and the
game goes on with nothing lost; with an external REDIS_URL, /health follows Redis down
and back up."""

from __future__ import annotations

import os
import signal
import subprocess
import threading
import time
from pathlib import Path

from process_helpers import Http, _stop, _wait_healthy, gunicorn, launcher

from hanabi.server.ops.launcher import main
from hanabi.server.ops.redis_process import RedisProcess, RedisSupervisor, free_port


def _children(pid: int) -> dict[int, tuple[str, str]]:
    """pid -> (command name, state) of the direct children of ``pid``."""
    out = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        name = stat[stat.index("(") + 1 : stat.rindex(")")]
        fields = stat[stat.rindex(")") + 2 :].split()
        if int(fields[1]) == pid:
            out[int(entry.name)] = (name, fields[0])
    return out


def _wait_for(predicate, timeout: float) -> bool:  # type: ignore[no-untyped-def]
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(0.1)
    return False


def _health(port: int) -> int:
    try:
        return Http(port)("GET", "/health")[0]
    except OSError:
        return 0


def _clue(http: Http, gid: str, token: str) -> int:
    view = http("GET", f"/games/{gid}", token=token)[2]
    clue = next(a for a in view["legal_actions"] if a["type"] == "clue")
    body = {"turn": view["turn"], **{k: v for k, v in clue.items() if k != "seat"}}
    return http("POST", f"/games/{gid}/actions", body, token)[0]


def test_embedded_redis_is_restarted_after_kill_9_and_nothing_is_lost(tmp_path: Path) -> None:
    port = free_port()
    command, env = launcher(port, tmp_path / "redis")
    proc = subprocess.Popen(command, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    lines: list[str] = []
    reader = threading.Thread(
        target=lambda: lines.extend(line.decode() for line in proc.stdout or ()), daemon=True
    )
    reader.start()
    try:
        _wait_healthy(port, proc)
        http = Http(port)
        host = http("POST", "/games", {"name": "host", "max_players": 2})[2]
        gid, tokens = host["id"], [host["token"]]
        tokens.append(http("POST", f"/games/{gid}/players", {"name": "guest"})[2]["token"])
        assert http("POST", f"/games/{gid}/start", token=tokens[0])[0] == 200
        assert _clue(http, gid, tokens[0]) == 201
        assert http("POST", f"/games/{gid}/chat", {"text": "before"}, tokens[1])[0] == 201
        redis_pids = [p for p, (name, _) in _children(proc.pid).items() if "redis" in name]
        assert len(redis_pids) == 1, _children(proc.pid)
        os.kill(redis_pids[0], signal.SIGKILL)
        assert _wait_for(lambda: _health(port) == 503 or _health(port) == 200, 5)
        assert _wait_for(lambda: _health(port) == 200, 20), lines
        kids = _children(proc.pid)
        assert redis_pids[0] not in kids  # reaped: no zombie
        assert [n for n, state in kids.values() if "redis" in n and state != "Z"], kids
        http = Http(port)
        # A Redis still loading its append-only file answers LOADING (503 here, with
        # Retry-After) for a moment after /health's PING comes back: a client retries.
        assert _wait_for(lambda: http("GET", f"/games/{gid}", token=tokens[1])[0] == 200, 10)
        view = http("GET", f"/games/{gid}", token=tokens[1])[2]
        assert view["turn"] == 1 and [p["name"] for p in view["players"]] == ["host", "guest"]
        events = http("GET", f"/games/{gid}/events", token=tokens[1])[2]["events"]
        assert events[-1]["text"] == "before"
        assert _clue(http, gid, tokens[1]) == 201  # the game goes on
        assert http("GET", f"/games/{gid}", token=tokens[0])[2]["turn"] == 2
    finally:
        _stop(proc)
    reader.join(5)
    assert any("restarted" in line for line in lines), lines
    assert f"play in a browser: http://127.0.0.1:{port}/ (the API: /api/v1/docs)\n" in lines


def test_the_supervisor_backs_off_a_server_that_keeps_dying(tmp_path: Path) -> None:
    process = RedisProcess(directory=tmp_path, persist=True).start()
    supervisor = RedisSupervisor(process, first_delay=0.2, max_delay=0.8, stable=60)
    try:
        delays = []
        for _ in range(4):
            assert process.pid is not None
            os.kill(process.pid, signal.SIGKILL)
            assert _wait_for(lambda: not process.running, 5)
            died = time.monotonic()
            assert _wait_for(supervisor.check, 10)
            delays.append(time.monotonic() - died)
        assert supervisor.restarts == 4
        assert 0.15 < delays[0] < 1.0 and delays[-1] >= 0.75, delays  # doubled, bounded
        assert supervisor.delay == 0.8
    finally:
        process.stop()


def test_health_follows_an_external_redis_down_and_back(tmp_path: Path) -> None:
    redis_port = free_port()
    external = RedisProcess(port=redis_port).start()
    port = free_port()
    proc = gunicorn(port, {"REDIS_URL": external.url, "HANABI_BOT_WORKER": "0"})
    try:
        assert _health(port) == 200
        external.stop()
        assert _wait_for(lambda: _health(port) == 503, 10)
        status, _, body = Http(port)("GET", "/health")
        assert status == 503 and body["code"] == "storage_unavailable"
        external = RedisProcess(port=redis_port).start()
        assert _wait_for(lambda: _health(port) == 200, 10)
        assert Http(port)("POST", "/games", {"name": "back"})[0] == 201
    finally:
        _stop(proc)
        external.stop()


def test_help_shows_defaults_and_no_rst(capsys) -> None:  # type: ignore[no-untyped-def]
    try:
        main(["--help"])
    except SystemExit as exc:
        assert exc.code == 0
    out = " ".join(capsys.readouterr().out.split())
    assert "(default: 8000)" in out and "(default: var/redis)" in out
    assert "``" not in out


def test_make_run_passes_port_host_and_workers_through() -> None:
    root = Path(__file__).resolve().parents[2]
    dry = subprocess.run(
        ["make", "-n", "-W", ".venv/.installed", "run", "PORT=8080", "HOST=0.0.0.0", "WORKERS=3"],
        cwd=root, capture_output=True, text=True, check=True,
    )  # fmt: skip
    line = next(x for x in dry.stdout.splitlines() if "-m hanabi.server" in x)
    assert "--port 8080" in line and "--host 0.0.0.0" in line and "--workers 3" in line
    plain = subprocess.run(
        ["make", "-n", "-W", ".venv/.installed", "run"], cwd=root, capture_output=True, text=True
    )
    line = next(x for x in plain.stdout.splitlines() if "-m hanabi.server" in x)
    assert "--port" not in line  # the environment (HANABI_PORT) or the default decides
