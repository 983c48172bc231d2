"""Bounded storage: each event stored once, a state that does not grow with chat, capped
chat and lobby events, compact archives that still rebuild every event, and expiries that
only a change of the game refreshes."""

from __future__ import annotations

import threading
from collections.abc import Iterator

import pytest
import redis
from api_helpers import Table, assert_problem, bearer, make_table
from flask import Flask
from flask.testing import FlaskClient
from redis.cluster import RedisCluster

from hanabi.server import create_app
from hanabi.server.ops.config import load_config


@pytest.fixture
def r(app: Flask) -> Iterator[redis.Redis]:
    """The app's own client: a single Redis or a Cluster, whichever the tests run on."""
    yield app.extensions["hanabi"].store.redis


def _game_keys(r: redis.Redis, gid: str) -> list[bytes]:
    """The game's keys, sorted (on a Cluster: asked of every master)."""
    pattern = f"{{game:{gid}}}:*"
    if isinstance(r, RedisCluster):
        return sorted(r.keys(pattern, target_nodes=RedisCluster.PRIMARIES))
    return sorted(r.keys(pattern))


def _state(r: redis.Redis, gid: str) -> bytes:
    return r.hget(f"{{game:{gid}}}:g", "s") or b""


def _finish(table: Table) -> None:
    assert table.end()["game"]["status"] == "finished"


def test_chat_is_stored_once_and_the_state_does_not_grow(
    client: FlaskClient, r: redis.Redis
) -> None:
    table = make_table(client, 2, start=False)
    table.post("/chat", 0, {"text": "in the lobby"})
    table.start()
    before = len(_state(r, table.id))
    for i in range(40):
        assert table.post("/chat", i % 2, {"text": f"line {i} " + "x" * 200}).status_code == 201
    assert len(_state(r, table.id)) <= before + 16  # a counter, not the lines
    logged = r.lrange(f"{{game:{table.id}}}:e", 0, -1)
    assert sum(b"x" * 200 in e for e in logged) == 40  # each line once, in the event log


def test_a_finished_game_rebuilds_every_event_from_its_archive(
    client: FlaskClient, r: redis.Redis
) -> None:
    table = make_table(client, 3, start=False, seed="archive")
    table.post("/chat", 1, {"text": "hello"})
    assert client.delete(f"{table.url}/players/2", headers=bearer(table.tokens[2])).status_code
    table.tokens.pop()
    table.start()
    hand = table.view(0)["hands"][1]
    assert table.act(0, 0, type="clue", target=1, rank=hand[0]["rank"]).status_code == 201
    table.post("/chat", 1, {"text": "thanks"})
    live = client.get(f"{table.url}/events").get_json()["events"]
    _finish(table)
    assert _game_keys(r, table.id) == [f"{{game:{table.id}}}:g".encode()]
    finished = client.get(f"{table.url}/events").get_json()["events"]
    assert finished[: len(live)] == [
        {**e, "suit": f.get("suit"), "rank": f.get("rank")} if e["type"] == "draw" else e
        for e, f in zip(live, finished)
    ]
    kinds = [e["type"] for e in finished]
    assert kinds[:5] == ["join", "join", "join", "chat", "leave"]
    assert "thanks" in [e.get("text") for e in finished]
    assert [e["seq"] for e in finished] == list(range(1, len(finished) + 1))


def test_a_whole_game_without_chat_archives_small(client: FlaskClient, r: redis.Redis) -> None:
    table = make_table(client, 4, seed="small")
    while True:
        view = table.view(0)
        if view["status"] == "finished":
            break
        mine = table.view(view["current_seat"])
        legal = mine["legal_actions"]
        action = next((a for a in legal if a["type"] == "discard"), None) or next(
            a for a in legal if a["type"] == "clue"
        )
        assert table.act(view["current_seat"], mine["turn"], **action).status_code == 201
    assert view["turn"] > 40
    assert len(_state(r, table.id)) < 1024


def test_chat_is_capped_per_game(redis_url: str) -> None:
    client = create_app({"REDIS_URL": redis_url, "HANABI_MAX_CHAT": 3}).test_client()
    table = make_table(client, 2, start=False)
    table.post("/chat", 0, {"text": "one"})
    table.start()
    for text in ("two", "three"):
        assert table.post("/chat", 1, {"text": text}).status_code == 201
    assert_problem(table.post("/chat", 0, {"text": "four"}), 409, "chat_full")
    hand = table.view(0)["hands"][1]
    assert table.act(0, 0, type="clue", target=1, rank=hand[0]["rank"]).status_code == 201


def test_chat_text_is_capped_per_game_in_bytes(redis_url: str) -> None:
    """Past HANABI_MAX_CHAT_BYTES of text a game's chat is full, whoever asks and whichever
    node: the count is in the game's state, committed with each line."""
    settings = {"REDIS_URL": redis_url, "HANABI_MAX_CHAT_BYTES": 1000}
    one, two = create_app(settings).test_client(), create_app(settings).test_client()
    table = make_table(one, 3)
    line = "é" * 150  # 300 bytes
    for seat, client in ((0, one), (1, two), (2, one)):
        said = client.post(
            f"{table.url}/chat", json={"text": line}, headers=bearer(table.tokens[seat])
        )
        assert said.status_code == 201
    full = two.post(f"{table.url}/chat", json={"text": "x" * 101}, headers=bearer(table.tokens[0]))
    assert "1000 bytes" in assert_problem(full, 409, "chat_full")["detail"]
    for client in (one, two):  # 100 bytes still fit, then not one more
        assert (
            client.post(
                f"{table.url}/chat", json={"text": "y" * 50}, headers=bearer(table.tokens[1])
            ).status_code
            == 201
        )
    assert_problem(
        one.post(f"{table.url}/chat", json={"text": "z"}, headers=bearer(table.tokens[2])),
        409,
        "chat_full",
    )
    texts = [
        e["text"]
        for e in one.get(f"{table.url}/events").get_json()["events"]
        if e["type"] == "chat"
    ]
    assert sum(len(t.encode()) for t in texts) == 1000


def test_chat_bytes_are_counted_once_per_line_under_concurrency(redis_url: str) -> None:
    settings = {"REDIS_URL": redis_url, "HANABI_MAX_CHAT_BYTES": 2000}
    apps = [create_app(settings) for _ in range(2)]
    table = make_table(apps[0].test_client(), 4)
    answers: list[int] = []

    def say(seat: int) -> None:
        client = apps[seat % 2].test_client()
        for i in range(6):
            text = f"{seat}{i}" + "ü" * 49  # 100 bytes
            headers = bearer(table.tokens[seat])
            answers.append(
                client.post(f"{table.url}/chat", json={"text": text}, headers=headers).status_code
            )

    threads = [threading.Thread(target=say, args=(seat,)) for seat in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(set(answers)) == [201, 409] and answers.count(201) == 20
    events = apps[1].test_client().get(f"{table.url}/events").get_json()["events"]
    assert sum(len(e["text"].encode()) for e in events if e["type"] == "chat") == 2000


def test_lobby_events_are_capped(redis_url: str) -> None:
    client = create_app({"REDIS_URL": redis_url, "HANABI_MAX_LOBBY_EVENTS": 12}).test_client()
    table = make_table(client, 1, start=False)
    refused = None
    for _ in range(20):
        joined = client.post(f"{table.url}/players", json={"name": "guest"})
        if joined.status_code != 201:
            refused = joined
            break
        seat, token = joined.get_json()["seat"], joined.get_json()["token"]
        assert client.delete(f"{table.url}/players/{seat}", headers=bearer(token)).status_code
    assert refused is not None
    assert_problem(refused, 409, "lobby_full")
    # chat does not count against it, and whoever sits can still leave and start
    assert table.post("/chat", 0, {"text": "still here"}).status_code == 201
    assert client.post(f"{table.url}/bots", json={}, headers=bearer(table.tokens[0])).status_code
    last = client.get(f"{table.url}/events").get_json()["last_seq"]
    assert last - 1 <= 12  # one chat line


def test_caps_have_defaults_that_never_bother_normal_play() -> None:
    config = load_config()
    assert config["HANABI_MAX_CHAT"] == 1000 and config["HANABI_MAX_LOBBY_EVENTS"] == 500
    assert config["HANABI_MAX_CHAT_BYTES"] == 64 * 1024


def _pttls(r: redis.Redis, gid: str) -> list[int]:
    return [r.pttl(k) for k in _game_keys(r, gid)]


def _shorten(r: redis.Redis, gid: str, ms: int = 50_000) -> None:
    for k in _game_keys(r, gid):
        r.pexpire(k, ms)


def test_chat_on_a_finished_game_is_refused_and_refreshes_nothing(
    client: FlaskClient, r: redis.Redis
) -> None:
    table = make_table(client, 2, seed="closed")
    _finish(table)
    _shorten(r, table.id)
    assert_problem(table.post("/chat", 0, {"text": "keep it forever"}), 409, "game_finished")
    assert_problem(table.post("/terminate", 1), 409, "game_over")
    for path in ("", "/events", "/export", "/replay"):
        assert client.get(table.url + path, headers=bearer(table.tokens[0])).status_code == 200
    assert all(0 < ttl <= 50_000 for ttl in _pttls(r, table.id))


def test_only_a_change_refreshes_a_live_games_expiry(client: FlaskClient, r: redis.Redis) -> None:
    table = make_table(client, 2, seed="expiry")
    hand = table.view(0)["hands"][1]
    clue = {"type": "clue", "target": 1, "rank": hand[0]["rank"]}
    assert table.act(0, 0, **clue).status_code == 201
    _shorten(r, table.id)
    assert table.act(0, 0, **clue).status_code == 200  # a retry: nothing applied
    assert_problem(table.act(0, 1, **clue), 409, "not_your_turn")
    assert_problem(table.post("/start", 0), 409, "game_started")
    assert client.get(f"{table.url}/events", headers=bearer(table.tokens[1])).status_code == 200
    assert table.get(1, query_string={"wait": 0}).status_code == 200
    assert all(0 < ttl <= 50_000 for ttl in _pttls(r, table.id))
    assert table.post("/chat", 1, {"text": "a change"}).status_code == 201
    assert all(ttl > 50_000 for ttl in _pttls(r, table.id))


def test_the_event_log_comes_a_page_at_a_time(redis_url: str) -> None:
    app = create_app({"REDIS_URL": redis_url, "HANABI_EVENTS_PAGE_MAX": 300})
    client = app.test_client()
    table = make_table(client, 2, seed="pages")
    for i in range(250):
        assert table.post("/chat", i % 2, {"text": f"line {i}"}).status_code == 201
    url, auth = f"{table.url}/events", bearer(table.tokens[0])
    page = client.get(url, headers=auth).get_json()
    total = page["last_seq"]
    assert total == 2 + 1 + 10 + 250  # joins, start, the deal, chat
    assert len(page["events"]) == 200 and page["next"] == 200
    assert [e["seq"] for e in page["events"]] == list(range(1, 201))
    rest = client.get(url, headers=auth, query_string={"after": 200}).get_json()
    assert len(rest["events"]) == total - 200 and rest["next"] is None
    small = client.get(url, headers=auth, query_string={"after": 10, "limit": 5}).get_json()
    assert [e["seq"] for e in small["events"]] == [11, 12, 13, 14, 15] and small["next"] == 15
    capped = client.get(url, headers=auth, query_string={"limit": 10_000}).get_json()
    assert len(capped["events"]) == min(300, total) and capped["next"] is None
    past = client.get(url, headers=auth, query_string={"after": 10_000}).get_json()
    assert past == {"events": [], "last_seq": total, "next": None}
    for bad in ({"limit": 0}, {"limit": "x"}, {"after": -1}):
        assert_problem(client.get(url, headers=auth, query_string=bad), 400, "invalid_query")
    _finish(table)
    done = client.get(url, headers=auth, query_string={"after": 250, "limit": 5}).get_json()
    assert [e["seq"] for e in done["events"]] == list(range(251, 256))
    assert done["next"] == 255 and done["last_seq"] > total
