"""What lands in Redis: hash-tagged keys, hashed tokens, expiries, compact finished games."""

from __future__ import annotations

import redis
from api_helpers import API, make_table
from flask import Flask
from flask.testing import FlaskClient
from redis.cluster import RedisCluster

from hanabi.server import create_app


def _keys(r: redis.Redis, gid: str) -> list[str]:
    """The game's keys (on a Cluster: asked of every master)."""
    if isinstance(r, RedisCluster):
        return sorted(
            k.decode() for k in r.keys(f"{{game:{gid}}}:*", target_nodes=RedisCluster.PRIMARIES)
        )
    return sorted(k.decode() for k in r.keys(f"{{game:{gid}}}:*"))


def _redis(app: Flask) -> redis.Redis:
    """The app's own client: a single Redis or a Cluster, whichever the tests run on."""
    return app.extensions["hanabi"].store.redis


def test_keys_are_hash_tagged_and_tokens_hashed(app: Flask, client: FlaskClient) -> None:
    table = make_table(client, 3)
    table.act(0, 0, type="clue", target=1, rank=table.view(0)["hands"][1][0]["rank"])
    r = _redis(app)
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
    r = _redis(app)
    table = make_table(client, 2, start=False)
    g = f"{{game:{table.id}}}:g"
    assert 90 < r.ttl(g) <= 100
    table.start()
    table.act(0, 0, type="clue", target=1, rank=table.view(0)["hands"][1][0]["rank"])
    assert all(900 < r.ttl(k) <= 1000 for k in _keys(r, table.id))
    assert table.end()["game"]["status"] == "finished"
    assert _keys(r, table.id) == [g]  # the lists were folded into the archive
    assert 9000 < r.ttl(g) <= 10000


def test_expired_game_is_gone_and_leaves_the_listing(app: Flask, client: FlaskClient) -> None:
    table = make_table(client, 2, start=False)
    r = _redis(app)
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
    r = _redis(app)
    total = sum(r.memory_usage(k) for k in _keys(r, table.id))
    assert total <= 4096, total


def test_two_app_instances_never_act_on_stale_state(app: Flask, redis_url: str) -> None:
    """Each process keeps the version it last wrote; another process's commits must win."""
    other = create_app({"REDIS_URL": redis_url}).test_client()
    mine = app.test_client()
    table = make_table(mine, 2, seed="two-apps")
    hands = table.view(0)["hands"]
    # seat 0 acts through the other process; this process still holds version "started"
    clue = {"type": "clue", "target": 1, "rank": hands[1][0]["rank"]}
    url = f"{API}/games/{table.id}/actions"
    auth0 = {"Authorization": f"Bearer {table.tokens[0]}"}
    auth1 = {"Authorization": f"Bearer {table.tokens[1]}"}
    assert other.post(url, json={"turn": 0, **clue}, headers=auth0).status_code == 201
    # a retry through this process is recognised, not applied again
    again = mine.post(url, json={"turn": 0, **clue}, headers=auth0)
    assert again.status_code == 200
    # seat 1 acts on turn 1 through this process, whose copy still says turn 0
    back = {"type": "clue", "target": 0, "rank": table.view(1)["hands"][0][0]["rank"]}
    assert mine.post(url, json={"turn": 1, **back}, headers=auth1).status_code == 201
    # and a stale turn is refused through the other process, whose copy says turn 1
    assert other.post(url, json={"turn": 1, **back}, headers=auth0).status_code == 409
    view = other.get(f"{API}/games/{table.id}", headers=auth0).get_json()
    assert view["turn"] == 2 and view["clue_tokens"] == 6 and len(view["clues"]) == 2
