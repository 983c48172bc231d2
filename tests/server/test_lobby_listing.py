"""Abandoned lobbies leave the list: GET /games shows a lobby only while it changes (a
seat taken or freed, a bot, chat) within HANABI_LOBBY_LISTED_S, last changed first; an
abandoned one is still reachable by id until its TTL. The listing reads only the lobbies in
that window (a range of the index's scores), never the abandoned ones."""

from __future__ import annotations

import time
from collections.abc import Iterator

import pytest
import redis
from api_helpers import API, bearer, make_table
from flask import Flask
from flask.testing import FlaskClient

from hanabi.server import create_app
from hanabi.server.ops.redis_process import RedisProcess

pytestmark = pytest.mark.cluster  # run again on a Redis Cluster (make test-cluster)

WINDOW = 3  # seconds: HANABI_LOBBY_LISTED_S of these tests
LOBBIES = f"{API}/games?status=lobby&limit=100"


@pytest.fixture(scope="module")
def short_app(redis_url: str) -> Iterator[Flask]:
    app = create_app({"REDIS_URL": redis_url, "HANABI_LOBBY_LISTED_S": WINDOW})
    app.testing = True
    yield app


def listed(client: FlaskClient, url: str = LOBBIES) -> list[str]:
    response = client.get(url)
    assert response.status_code == 200
    return [g["id"] for g in response.get_json()["games"]]


def test_a_lobby_without_a_change_for_the_window_leaves_the_list(short_app: Flask) -> None:
    """... also from a page a client holds with ?wait= and its ETag: nothing changes when a
    lobby is abandoned, yet the held request answers with the page without it."""
    client = short_app.test_client()
    idle = make_table(client, 1, start=False)
    lively = make_table(client, 1, start=False)
    time.sleep(WINDOW * 0.55)
    joined = client.post(f"{lively.url}/players", json={"name": "bob"})  # a change
    assert joined.status_code == 201
    page = client.get(LOBBIES)
    assert {idle.id, lively.id} <= {g["id"] for g in page.get_json()["games"]}
    held = client.get(
        f"{LOBBIES}&wait={WINDOW * 0.55}", headers={"If-None-Match": page.headers["ETag"]}
    )  # idle is then unchanged for longer than the window; lively is not
    assert held.status_code == 200, "the listing did not change while the request was held"
    lobbies = [g["id"] for g in held.get_json()["games"]]
    assert idle.id not in lobbies and lively.id in lobbies
    assert idle.id not in listed(client, f"{API}/games?limit=100")  # nor among all games
    view = client.get(idle.url)  # still there by id, and it can still be joined
    assert view.status_code == 200 and view.get_json()["status"] == "lobby"
    assert client.post(f"{idle.url}/players", json={"name": "cat"}).status_code == 201
    assert idle.id in listed(client)  # changed: listed again


def test_lobbies_are_listed_last_changed_first_a_page_at_a_time(client: FlaskClient) -> None:
    tables = [make_table(client, 1, start=False) for _ in range(4)]
    client.post(f"{tables[1].url}/players", json={"name": "bob"})  # the last change
    order = [tables[1].id, tables[3].id, tables[2].id, tables[0].id]
    seen: list[str] = []
    changed: list[str] = []
    cursor = None
    for _ in range(50):
        query = "&cursor=" + cursor if cursor else ""
        page = client.get(f"{API}/games?status=lobby&limit=2{query}").get_json()
        assert len(page["games"]) <= 2
        seen += [g["id"] for g in page["games"]]
        changed += [g["updated"] for g in page["games"]]
        cursor = page["next_cursor"]
        if cursor is None:
            break
    assert [gid for gid in seen if gid in order] == order
    assert len(seen) == len(set(seen)) and changed == sorted(changed, reverse=True)


def test_the_last_person_leaving_takes_the_lobby_off_the_list(client: FlaskClient) -> None:
    """No person seated, nobody could start it: the table is gone, bots and all."""
    table = make_table(client, 1, start=False)
    assert table.post("/bots", 0, {}).status_code == 201
    assert table.id in listed(client)
    left = client.delete(f"{table.url}/players/0", headers=bearer(table.tokens[0]))
    assert left.status_code == 204
    assert table.id not in listed(client)


def test_abandoned_lobbies_are_neither_read_nor_kept() -> None:
    """The listing reads the lobbies of the window only (a range of scores): 60 abandoned
    lobbies cost it no read; a lobby's change drops the abandoned ones from the index."""
    with RedisProcess() as server:
        quiet = {"HANABI_BOT_WORKER": 0, "HANABI_SETTLE_SWEEP": 0}  # no reads of their own
        app = create_app({"REDIS_URL": server.url, "HANABI_LOBBY_LISTED_S": 1, **quiet})
        client = app.test_client()
        r = redis.Redis.from_url(server.url)
        for _ in range(60):
            assert client.post(f"{API}/games", json={"name": "ann"}).status_code == 201
        time.sleep(1.2)
        fresh = make_table(client, 1, start=False)

        def reads() -> int:
            return int(r.info("commandstats").get("cmdstat_hmget", {}).get("calls", 0))

        before = reads()
        assert listed(client) == [fresh.id]
        assert reads() - before == 1  # the fresh lobby's record, no other
        assert r.zcard("hanabi:index:lobby") == 1  # the abandoned ones were dropped


@pytest.mark.parametrize("cursor", ["²:x", "1e9:x", "9" * 40 + ":x", ":", "0:", "x" * 100, "5"])
def test_any_cursor_is_an_answer(client: FlaskClient, cursor: str) -> None:
    """A cursor the lobby listing did not make starts from the top or from where it says:
    never a 500 (Unicode digits, a float, a huge number, no member)."""
    response = client.get(f"{API}/games", query_string={"status": "lobby", "cursor": cursor})
    assert response.status_code == 200, response.get_json()
