"""The private redis-server helper starts, answers, and frees its port when stopped."""

from __future__ import annotations

import socket

import pytest
import redis

from hanabi.server.redis_process import RedisProcess, find_redis_server, ping


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
