"""The live lobby: GET /games sends an ETag of its page, and ?wait=N holds a request until
the listing changes (a table opens, a seat is taken or freed, a bot sits, a game starts or
ends, a table is gone), for every front end that shows open tables."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import Any

import pytest
from api_helpers import API, Table, bearer, make_table
from flask.testing import FlaskClient

pytestmark = pytest.mark.cluster  # run again on a Redis Cluster (make test-cluster)

LOBBY = f"{API}/games?status=lobby&limit=100"


def current(client: FlaskClient, url: str = LOBBY) -> tuple[str, list[dict[str, Any]]]:
    response = client.get(url)
    assert response.status_code == 200
    assert response.headers["Cache-Control"] == "no-cache"
    return response.headers["ETag"], response.get_json()["games"]


#: The last :func:`held` request's answer, with when it was sent (``sent``) and answered
#: (``at``).
LAST: dict[str, Any] = {}


def held(client: FlaskClient, change: Callable[[], Any], url: str = LOBBY, wait: float = 5):
    """Hold ``GET url?wait=`` with the current ETag, make ``change`` while it is held, and
    return (status, games or None, seconds the request was held after the change)."""
    etag, _ = current(client, url)
    answer: dict[str, Any] = {}

    def poll() -> None:
        answer["sent"] = time.monotonic()
        response = client.get(f"{url}&wait={wait}", headers={"If-None-Match": etag})
        answer.update(status=response.status_code, at=time.monotonic())
        if response.status_code == 200:
            answer["games"] = response.get_json()["games"]
            assert response.headers["ETag"] != etag

    waiter = threading.Thread(target=poll)
    waiter.start()
    time.sleep(0.3)  # the request is held by now
    assert "status" not in answer, "the request was not held"
    changed = time.monotonic()
    change()
    waiter.join(wait + 2)
    LAST.clear()
    LAST.update(answer)
    return answer["status"], answer.get("games"), answer["at"] - changed


def seats(games: list[dict[str, Any]], gid: str) -> list[str] | None:
    game = next((g for g in games if g["id"] == gid), None)
    return None if game is None else [p["name"] for p in game["players"]]


def test_an_unchanged_page_is_304(client: FlaskClient) -> None:
    etag, _ = current(client)
    response = client.get(LOBBY, headers={"If-None-Match": etag})
    assert response.status_code == 304 and response.headers["ETag"] == etag
    began = time.monotonic()
    response = client.get(f"{LOBBY}&wait=0.5", headers={"If-None-Match": etag})
    assert response.status_code == 304
    assert 0.4 < time.monotonic() - began < 2


def test_every_lobby_change_wakes_a_held_request(client: FlaskClient) -> None:
    opened: dict[str, Any] = {}

    def create() -> None:
        body = client.post(f"{API}/games", json={"name": "ann", "max_players": 3}).get_json()
        opened.update(id=body["id"], token=body["token"])

    status, games, after = held(client, create)
    assert status == 200 and after < 1.0
    gid = opened["id"]
    assert seats(games, gid) == ["ann"]
    table = Table(client, gid, [opened["token"]])

    def join() -> None:
        joined = client.post(f"{table.url}/players", json={"name": "bob"}).get_json()
        table.tokens.append(joined["token"])

    status, games, after = held(client, join)
    assert status == 200 and after < 1.0 and seats(games, gid) == ["ann", "bob"]

    status, games, after = held(client, lambda: table.post("/bots", 0, {}))
    assert status == 200 and after < 1.0 and len(seats(games, gid) or []) == 3

    leave = lambda: client.delete(f"{table.url}/players/2", headers=bearer(table.tokens[0]))  # noqa: E731
    status, games, after = held(client, leave)
    assert status == 200 and after < 1.0 and seats(games, gid) == ["ann", "bob"]

    status, games, after = held(client, table.start)
    assert status == 200 and after < 1.0 and seats(games, gid) is None  # no longer open


def test_a_game_ending_wakes_the_finished_listing(client: FlaskClient) -> None:
    table = make_table(client, 2)
    url = f"{API}/games?status=finished&limit=100"
    status, games, after = held(client, lambda: table.end(0), url)
    assert status == 200 and after < 1.0
    assert next(g for g in games if g["id"] == table.id)["result"]["reason"] == "terminated"


def test_moves_do_not_wake_a_wait_but_show_on_a_read(client: FlaskClient) -> None:
    table = make_table(client, 2)
    url = f"{API}/games?status=playing&limit=100"

    def move() -> None:
        view = table.view(0)
        clue = next(a for a in view["legal_actions"] if a["type"] == "clue")
        assert table.act(0, view["turn"], **clue).status_code == 201

    status, _, _ = held(client, move, url, wait=1)
    assert status == 304  # the listing's games and seats did not change
    _, games = current(client, url)
    assert next(g for g in games if g["id"] == table.id)["turn"] == 1


def test_a_change_elsewhere_keeps_the_wait_going(client: FlaskClient) -> None:
    """A change that leaves this page as it was (a table opening while this client watches
    finished games) does not answer the held request with the same page."""
    url = f"{API}/games?status=finished&limit=100"
    create = lambda: client.post(f"{API}/games", json={"name": "cat"})  # noqa: E731
    for _ in range(3):
        _, before = current(client, url)
        status, games, _ = held(client, create, url, wait=1.5)
        if status == 304:
            # held its whole wait, counted from its sending (a busy machine's sleep before
            # the change may overrun: the change's time would say too little)
            assert LAST["at"] - LAST["sent"] >= 1.45
            return
        # The session's bot worker plays other tests' bot games on: one may have ended
        # while the request was held. Then the page really changed; the same page again
        # would be the bug.
        assert status == 200 and games != before
    pytest.fail("the finished games kept changing: no quiet moment to test in")


@pytest.mark.parametrize("query", ["wait=-1", "wait=31", "wait=x"])
def test_wait_is_checked(client: FlaskClient, query: str) -> None:
    response = client.get(f"{API}/games?{query}")
    assert response.status_code == 400
    assert response.get_json()["code"] == "invalid_query"
