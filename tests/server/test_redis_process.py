"""The private redis-server helper starts, answers, and frees its port when stopped; the
launcher's kinds (a unix socket, or TCP with a password) keep other local users out."""

from __future__ import annotations

import os
import pwd
import shutil
import socket
import stat
import tempfile
from pathlib import Path

import pytest
import redis

from hanabi.server import create_app
from hanabi.server.ops.data_dir import PASSWORD_NAME, DataDirBusy, DataDirLock
from hanabi.server.ops.redis_process import Listen, RedisProcess, find_redis_server, ping

#: Serving, logs, headers and the launcher are the same on any Redis: run once.


def _port_is_free(port: int) -> bool:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        try:
            sock.bind(("127.0.0.1", port))
        except OSError:
            return False
        return True


def test_find_redis_server_returns_a_path() -> None:
    assert find_redis_server()


def test_start_ping_stop_frees_port() -> None:
    rp = RedisProcess().start()
    try:
        assert rp.running
        assert rp.url == f"redis://127.0.0.1:{rp.port}/0"
        client = redis.Redis.from_url(rp.url)
        assert client.ping() is True
        client.set("k", "v")
        assert client.get("k") == b"v"
        client.close()
    finally:
        rp.stop()
    assert not rp.running
    assert not ping("127.0.0.1", rp.port)
    assert _port_is_free(rp.port)


def test_context_manager_and_persist(tmp_path) -> None:
    with RedisProcess(directory=tmp_path, persist=True) as rp:
        client = redis.Redis.from_url(rp.url)
        client.set("game", "42")
        client.close()
    assert any(tmp_path.rglob("*.aof*")), list(tmp_path.iterdir())
    # A restart on the same directory replays the append-only file.
    with RedisProcess(directory=tmp_path, persist=True) as rp:
        client = redis.Redis.from_url(rp.url)
        assert client.get("game") == b"42"
        client.close()


def test_persist_needs_directory() -> None:
    with pytest.raises(ValueError):
        RedisProcess(persist=True)


def test_redis_url_fixture(redis_url: str) -> None:
    client = redis.Redis.from_url(redis_url)
    assert client.ping() is True
    client.close()


# -- the launcher's kinds: a private unix socket, or TCP with a password ----------------


def test_a_socket_redis_is_its_owners_only(tmp_path: Path) -> None:
    data = tmp_path / "data"
    data.mkdir(mode=0o755)  # made by an older version: tightened at start
    with RedisProcess(directory=data, persist=True, listen=Listen.SOCKET) as rp:
        sock = data / "redis.sock"
        assert rp.url == f"unix://{sock}?db=0" and rp.shown_url == rp.url
        assert stat.S_IMODE(sock.stat().st_mode) == 0o600
        assert stat.S_IMODE(data.stat().st_mode) == 0o700
        client = redis.Redis.from_url(rp.url, decode_responses=True)
        assert client.config_get("port") == {"port": "0"}  # no TCP port
        assert client.config_get("maxmemory-policy")["maxmemory-policy"] == "noeviction"
        client.close()
    assert not sock.exists()  # removed by the server on its way out


def test_a_tcp_redis_wants_the_password_kept_in_its_directory(tmp_path: Path) -> None:
    data = tmp_path / "data"
    with RedisProcess(directory=data, listen=Listen.PASSWORD, maxmemory="32mb") as rp:
        secret = (data / PASSWORD_NAME).read_text().strip()
        assert stat.S_IMODE((data / PASSWORD_NAME).stat().st_mode) == 0o600
        assert secret in rp.url and secret not in rp.shown_url and secret not in repr(rp)
        assert str(data / PASSWORD_NAME) in rp.shown_url
        assert not ping("127.0.0.1", rp.port)  # a bare PING is answered NOAUTH
        with socket.create_connection(("127.0.0.1", rp.port), timeout=5) as raw:
            raw.sendall(b"*2\r\n$4\r\nKEYS\r\n$1\r\n*\r\n")
            assert raw.recv(64).startswith(b"-NOAUTH")
        client = redis.Redis.from_url(rp.url, decode_responses=True)
        assert client.config_get("maxmemory")["maxmemory"] == str(32 * 1024 * 1024)
        client.close()
        first_port = rp.port
    # the same directory keeps its password
    with RedisProcess(directory=data, listen=Listen.PASSWORD, port=first_port) as rp:
        assert rp.url == f"redis://:{secret}@127.0.0.1:{first_port}/0"
        assert redis.Redis.from_url(rp.url).ping()


def test_a_socket_path_too_long_is_refused_in_plain_words(tmp_path: Path) -> None:
    deep = tmp_path / ("d" * 100)
    with pytest.raises(RuntimeError, match="longer than the 107 bytes"):
        RedisProcess(directory=deep, listen=Listen.SOCKET).start()


def test_a_data_dir_lock_is_held_once(tmp_path: Path) -> None:
    first = DataDirLock(tmp_path).acquire()
    try:
        with pytest.raises(DataDirBusy) as refused:
            DataDirLock(tmp_path).acquire()
        said = str(refused.value)
        assert said.startswith(
            f"The data directory {tmp_path} is already in use by process {os.getpid()} ("
        )
    finally:
        first.release()
    DataDirLock(tmp_path).acquire().release()  # free again


@pytest.mark.skipif(os.geteuid() != 0, reason="acting as another local user needs root")
def test_another_local_user_cannot_reach_the_socket() -> None:
    """The threat itself: a process of another user (nobody) cannot connect."""
    base = Path(tempfile.mkdtemp(prefix="hanabi-nobody-"))
    base.chmod(0o755)  # the way in is open: only the data directory's modes keep nobody out
    try:
        with RedisProcess(directory=base / "data", listen=Listen.SOCKET) as rp:
            assert rp.socket_path is not None
            assert _as_nobody_connect(rp.socket_path) == "refused"
            # the probe can tell: with the modes opened up, nobody gets in
            (base / "data").chmod(0o755)
            rp.socket_path.chmod(0o666)
            assert _as_nobody_connect(rp.socket_path) == "connected: +PONG"
    finally:
        shutil.rmtree(base)


def _as_nobody_connect(path: Path) -> str:
    """PING the unix socket ``path`` from a forked child running as user nobody (nothing
    is exec'd: nobody may not be allowed to run this venv's python)."""
    nobody = pwd.getpwnam("nobody")
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: drop to nobody, try, report, exit without cleanup
        answer = b"error"
        try:
            os.setgroups([])
            os.setgid(nobody.pw_gid)
            os.setuid(nobody.pw_uid)
            with socket.socket(socket.AF_UNIX) as sock:
                sock.settimeout(5)
                sock.connect(str(path))
                sock.sendall(b"PING\r\n")
                answer = b"connected: " + sock.recv(64).strip()
        except PermissionError:
            answer = b"refused"
        except BaseException as exc:
            answer = repr(exc).encode()
        finally:
            os.write(write, answer)
            os._exit(0)
    os.close(write)
    with os.fdopen(read, "rb") as result:
        said = result.read().decode()
    os.waitpid(pid, 0)
    return said


def test_every_consumer_of_a_unix_socket_redis_url_works(tmp_path: Path) -> None:
    """The store, the rate limits (the ``limits`` library's storage, built from the URL)
    and the metrics' Redis gauges, on a ``unix://`` REDIS_URL."""
    with RedisProcess(directory=tmp_path / "data", listen=Listen.SOCKET) as rp:
        app = create_app(
            {
                "REDIS_URL": rp.url,
                "HANABI_LIMITS": "on",
                "HANABI_LIMIT_CREATE": "2/minute",
                "HANABI_METRICS_TOKEN": "scrape-it",
                "HANABI_BOT_WORKER": 0,
                "HANABI_SETTLE_SWEEP": 0,
            }
        )
        client = app.test_client()
        assert client.get("/api/v1/health").status_code == 200
        created = [client.post("/api/v1/games", json={"name": "n"}) for _ in range(3)]
        assert [r.status_code for r in created] == [201, 201, 429]
        assert redis.Redis.from_url(rp.url).keys("hanabi:limits*")  # counted in that Redis
        scraped = client.get("/metrics", headers={"Authorization": "Bearer scrape-it"})
        assert scraped.status_code == 200
        assert 'hanabi_games{status="lobby"} 2' in scraped.get_data(as_text=True)
