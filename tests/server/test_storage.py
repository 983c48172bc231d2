"""What lands in Redis: hash-tagged keys, hashed tokens, expiries, compact finished games."""

from __future__ import annotations

import pytest
import redis
from api_helpers import API, make_table
from flask import Flask
from flask.testing import FlaskClient
from redis.cluster import RedisCluster

from hanabi.server import create_app
from hanabi.server.storage.record import ActionEntry, GameStatus, Record, SeatKind

pytestmark = pytest.mark.cluster  # run again on a Redis Cluster (make test-cluster)


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


# -- the stored shape: the Python names changed, the stored ones did not ------------------

#: A game in play as versions before the renames stored it (the keys live games hold).
EARLIER_BLOB = (
    b'J{"status":"playing","variant":"no_variant","options":{"empty_clues":false},'
    b'"max_players":2,"seed":"s","deck":null,"host":0,"created":1,"updated":2,"turn":1,'
    b'"events":9,"score":0,"result":null,"snap":{"x":1},"acts":["0:d3"],"chat":null,'
    b'"chats":2,"chat_bytes":7,"custom_deal":false,"rated":false,"votes":[],"timing":null}'
)


def test_a_game_stored_before_the_renames_reads_under_the_new_names() -> None:
    record = Record.load("g", b"4", b'[["ann",null,"h0"],["bob","hat",null]]', EARLIER_BLOB)
    assert record.status is GameStatus.PLAYING and record.event_count == 9
    assert record.snapshot == {"x": 1} and record.compact_log == ["0:d3"]
    assert record.chat_lines == 2 and record.table_events is None
    assert [p.kind for p in record.players] == [SeatKind.PERSON, SeatKind.BOT]
    assert record.players[0].token_hash == "h0"


def test_a_game_is_stored_under_the_earlier_names() -> None:
    """What this version writes, an earlier process in a rolling deploy reads: the same
    keys and bytes."""
    record = Record.load("g", b"4", b'[["ann",null,"h0"],["bob","hat",null]]', EARLIER_BLOB)
    assert record.blob() == EARLIER_BLOB
    entry = ActionEntry(1, {"type": "discard", "card": 3}, 8, 2)
    assert entry.dump() == b'{"s":1,"a":{"type":"discard","card":3},"e":[8,2]}'
    assert ActionEntry.load(entry.dump()) == entry
