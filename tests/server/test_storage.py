"""What lands in Redis: hash-tagged keys, hashed tokens, expiries, compact finished games."""

from __future__ import annotations

import redis
from api_helpers import API, make_table
from flask import Flask
from flask.testing import FlaskClient

from hanabi.server import create_app


def _keys(r: redis.Redis, gid: str) -> list[str]:
    return sorted(k.decode() for k in r.keys(f"*{gid}*"))


def test_keys_are_hash_tagged_and_tokens_hashed(client: FlaskClient, redis_url: str) -> None:
    table = make_table(client, 3)
    table.act(0, 0, type="clue", target=1, rank=table.view(0)["hands"][1][0]["rank"])
    r = redis.Redis.from_url(redis_url)
    keys = _keys(r, table.id)
    assert keys == [f"{{game:{table.id}}}:{k}" for k in ("a", "e", "g")]
    dump = b"".join(
        b"".join(r.lrange(k, 0, -1)) if r.type(k) == b"list" else b"".join(r.hgetall(k).values())
        for k in keys
    )
    for token in table.tokens:
        assert token.encode() not in dump


def test_expiries_follow_status(redis_url: str) -> None:
    app = create_app(
        {
            "REDIS_URL": redis_url,
            "HANABI_LOBBY_TTL": 100,
            "HANABI_PLAYING_TTL": 1000,
            "HANABI_FINISHED_TTL": 10000,
        }
    )
    client = app.test_client()
    r = redis.Redis.from_url(redis_url)
    table = make_table(client, 2, start=False)
    g = f"{{game:{table.id}}}:g"
    assert 90 < r.ttl(g) <= 100
    table.start()
    table.act(0, 0, type="clue", target=1, rank=table.view(0)["hands"][1][0]["rank"])
    assert all(900 < r.ttl(k) <= 1000 for k in _keys(r, table.id))
    assert (
        client.post(
            f"{table.url}/terminate", headers={"Authorization": f"Bearer {table.tokens[0]}"}
        ).status_code
        == 200
    )
    assert _keys(r, table.id) == [g]  # the lists were folded into the archive
    assert 9000 < r.ttl(g) <= 10000


def test_expired_game_is_gone_and_leaves_the_listing(client: FlaskClient, redis_url: str) -> None:
    table = make_table(client, 2, start=False)
    r = redis.Redis.from_url(redis_url)
    r.delete(*_keys(r, table.id))
    assert client.get(table.url).status_code == 404
    listed = client.get(f"{API}/games?status=lobby&limit=100").get_json()["games"]
    assert table.id not in [g["id"] for g in listed]
    assert not any(table.id in m.decode() for m in r.zrange("hanabi:index:lobby", 0, -1))


def test_finished_game_fits_in_4kb(app: Flask, client: FlaskClient, redis_url: str) -> None:
    """A long game (many turns, chat) still costs at most 4 KB of Redis once finished."""
    table = make_table(client, 5, seed="memory")
    for i in range(3):
        table.post("/chat", i, {"text": f"good luck everyone, this is player {i}"})
    while True:
        view = table.view(0)
        if view["status"] == "finished":
            break
        seat = view["current_seat"]
        mine = table.view(seat)
        legal = mine["legal_actions"]
        discards = [a for a in legal if a["type"] == "discard"]
        clues = [a for a in legal if a["type"] == "clue"]
        action = discards[0] if discards and (mine["clue_tokens"] < 4 or not clues) else clues[-1]
        assert table.act(seat, mine["turn"], **action).status_code == 201
    assert view["turn"] > 40
    r = redis.Redis.from_url(redis_url)
    total = sum(r.memory_usage(k) for k in _keys(r, table.id))
    assert total <= 4096, total
