"""The launcher's embedded Redis (``python -m hanabi.server`` without REDIS_URL), as real
processes: reachable by its owner only (a 0600 unix socket in a 0700 data directory, or a
127.0.0.1 port that wants the data directory's password), with maxmemory and noeviction;
and a launcher that refuses, before starting anything, a busy port or a data directory
another launcher holds."""

from __future__ import annotations

import os
import signal
import socket
import stat
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
import redis
from process_helpers import Http, _stop, _wait_healthy, launcher
from redis.backoff import NoBackoff
from redis.retry import Retry

from hanabi.server.ops.data_dir import LOCK_NAME, PASSWORD_NAME
from hanabi.server.ops.redis_process import free_port

#: Serving, logs, headers and the launcher are the same on any Redis: run once.


class Launched:
    """A running ``python -m hanabi.server`` with its output in files."""

    def __init__(self, proc: subprocess.Popen[bytes], out: Path, err: Path) -> None:
        self.proc, self.out, self.err = proc, out, err

    def output(self) -> str:
        return self.out.read_text() + self.err.read_text()

    def children(self) -> list[int]:
        """The launcher's child processes: its redis-server and gunicorn."""
        path = Path(f"/proc/{self.proc.pid}/task/{self.proc.pid}/children")
        return [int(pid) for pid in path.read_text().split()]

    def redis_pid(self) -> int:
        for pid in self.children():
            if "redis" in Path(f"/proc/{pid}/comm").read_text():
                return pid
        raise AssertionError("no redis-server child")


@contextmanager
def launched(tmp: Path, port: int, data: Path, **env: str) -> Iterator[Launched]:
    command, base = launcher(port, data)
    out, err = tmp / f"out-{port}.log", tmp / f"err-{port}.log"
    with out.open("wb") as o, err.open("wb") as e:
        proc = subprocess.Popen(command, env={**base, **env}, stdout=o, stderr=e)
    try:
        _wait_healthy(port, proc)
        yield Launched(proc, out, err)
    finally:
        _stop(proc)


def refused(port: int, data: Path) -> subprocess.CompletedProcess[str]:
    """Run a launcher expected to refuse: it must exit by itself, quickly. One that runs
    instead is stopped with everything it started (its own process group)."""
    command, env = launcher(port, data)
    proc = subprocess.Popen(
        command, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        start_new_session=True,
    )  # fmt: skip
    try:
        out, err = proc.communicate(timeout=30)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGTERM)
        out, err = proc.communicate(timeout=30)
        raise AssertionError(f"the launcher did not refuse, it ran:\n{out}{err}") from None
    return subprocess.CompletedProcess(command, proc.returncode, out, err)


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def _wait_for(predicate, timeout: float) -> bool:  # type: ignore[no-untyped-def]
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(0.1)
    return False


def test_the_embedded_redis_listens_on_a_private_unix_socket_only(tmp_path: Path) -> None:
    port, data = free_port(), tmp_path / "data"
    with launched(tmp_path, port, data) as server:
        sock = data / "redis.sock"
        assert f"embedded redis-server on unix://{sock}?db=0" in server.output()
        assert stat.S_ISSOCK(sock.stat().st_mode) and mode(sock) == 0o600
        assert mode(data) == 0o700 and mode(data / LOCK_NAME) == 0o600
        admin = redis.Redis(unix_socket_path=str(sock), decode_responses=True)
        try:
            assert admin.config_get("port") == {"port": "0"}  # no TCP listener at all
            assert admin.config_get("maxmemory")["maxmemory"] == str(256 * 1024 * 1024)
            assert admin.config_get("maxmemory-policy")["maxmemory-policy"] == "noeviction"
        finally:
            admin.close()
        http = Http(port)  # the server itself plays through the socket
        status, _, game = http("POST", "/games", {"name": "host"})
        assert status == 201
        assert http("GET", f"/games/{game['id']}", token=game["token"])[0] == 200


def test_redis_over_tcp_wants_the_data_dirs_password(tmp_path: Path) -> None:
    port, data = free_port(), tmp_path / "data"
    with launched(tmp_path, port, data, HANABI_REDIS_TCP="1", HANABI_REDIS_MAXMEMORY="64mb") as s:
        secret = (data / PASSWORD_NAME).read_text().strip()
        assert len(secret) >= 40 and mode(data / PASSWORD_NAME) == 0o600 and mode(data) == 0o700
        line = next(x for x in s.output().splitlines() if "embedded redis-server" in x)
        redis_port = int(line.split("redis://127.0.0.1:")[1].split("/")[0])
        assert secret not in s.output()  # the startup line names the file, not the password
        cmdline = Path(f"/proc/{s.redis_pid()}/cmdline").read_bytes().decode()
        assert secret not in cmdline  # given on stdin: /proc/*/cmdline is world-readable
        with socket.create_connection(("127.0.0.1", redis_port), timeout=5) as raw:
            raw.sendall(b"*2\r\n$3\r\nGET\r\n$1\r\nx\r\n")
            assert raw.recv(64).startswith(b"-NOAUTH")
        stranger = redis.Redis(port=redis_port, retry=Retry(NoBackoff(), 0))
        with pytest.raises(redis.AuthenticationError):
            stranger.keys("*")
        stranger.close()
        admin = redis.Redis(port=redis_port, password=secret, decode_responses=True)
        assert admin.config_get("maxmemory")["maxmemory"] == str(64 * 1024 * 1024)
        assert admin.config_get("maxmemory-policy")["maxmemory-policy"] == "noeviction"
        assert admin.config_get("bind")["bind"] == "127.0.0.1"
        # killed, it comes back with the same password, and the server plays on
        os.kill(s.redis_pid(), signal.SIGKILL)
        assert _wait_for(lambda: Http(port)("POST", "/games", {"name": "h"})[0] == 201, 20)
        assert admin.ping() and (data / PASSWORD_NAME).read_text().strip() == secret
        admin.close()
        assert secret not in s.output()


def test_a_busy_port_is_refused_before_redis_starts(tmp_path: Path) -> None:
    with socket.create_server(("127.0.0.1", 0)) as taken:
        port = taken.getsockname()[1]
        done = refused(port, tmp_path / "data")
    assert done.returncode == 1
    said = done.stderr.strip()
    assert said.startswith(f"Port {port} on 127.0.0.1 is already in use by process {os.getpid()} (")
    assert "pytest" in said or sys.executable in said  # this test's own command line
    assert "embedded redis-server" not in done.stdout
    assert not (tmp_path / "data").exists()  # nothing was started, not even its directory


def test_one_launcher_per_data_dir_even_on_other_ports(tmp_path: Path) -> None:
    data = tmp_path / "data"
    with launched(tmp_path, free_port(), data) as first:
        second_port = free_port()
        done = refused(second_port, data)
        assert done.returncode == 1
        assert done.stderr.startswith(
            f"not started: The data directory {data} is already in use by process "
            f"{first.proc.pid} ("
        ), done.stderr
        assert "embedded redis-server" not in done.stdout
        assert not _listening(second_port)
        redis_pid, orphans = first.redis_pid(), first.children()
        # The launcher killed outright: its Redis still runs there, and still holds the lock.
        first.proc.kill()
        first.proc.wait()
        try:
            done = refused(free_port(), data)
            assert done.returncode == 1
            assert f"the redis-server started by process {first.proc.pid}" in done.stderr
            assert f"The data directory {data} is already in use" in done.stderr
        finally:
            for pid in orphans:  # its gunicorn and redis-server, by the pids it started
                os.kill(pid, signal.SIGKILL if pid == redis_pid else signal.SIGTERM)
        assert _wait_for(lambda: all(_gone(pid) for pid in orphans), 20)
    with launched(tmp_path, free_port(), data):  # free again once that Redis is gone
        pass


def _listening(port: int) -> bool:
    try:
        socket.create_connection(("127.0.0.1", port), timeout=1).close()
    except OSError:
        return False
    return True


def _gone(pid: int) -> bool:
    try:
        return Path(f"/proc/{pid}/stat").read_text().split(") ")[1][0] in "ZX"
    except OSError:
        return True
