"""Turn-based tables: the move clock option, the per-account list of games awaiting a move
(GET /accounts/me/turns) kept as moves are made, and a move clock that runs out."""

from __future__ import annotations

import time
from collections.abc import Iterator
from datetime import datetime
from typing import Any

import pytest
from account_helpers import FAST, PASSWORD, account_table, session
from api_helpers import API, assert_problem, assert_valid, bearer, bot_parts
from flask import Flask
from flask.testing import FlaskClient

from hanabi.server import create_app
from hanabi.server.api.schemas.turns import TurnListSchema
from hanabi.server.api.schemas.views import GameViewSchema
from hanabi.server.storage.keys import game_keys
from hanabi.server.table.bots import BotWorker

pytestmark = pytest.mark.cluster  # run again on a Redis Cluster (make test-cluster)

DAY = 24 * 3600
#: The keys of an entry: public facts only (no hand, card or deck in any form).
ENTRY_KEYS = {"game_id", "variant", "players", "seat", "turn", "score", "move_clock",
              "deadline", "since", "link", "web"}  # fmt: skip


def seconds(stamp: str) -> float:
    return datetime.fromisoformat(stamp.replace("Z", "+00:00")).timestamp()


@pytest.fixture(scope="module")
def turn_app(redis_url: str) -> Iterator[Flask]:
    """Move clocks down to 1 s; no bot worker of its own (tests start one for deadlines)."""
    app = create_app({"REDIS_URL": redis_url, **FAST, "HANABI_BOT_WORKER": 0,
                      "HANABI_MOVE_CLOCK_MIN": 1, "HANABI_WEBHOOK_WORKERS": 0})  # fmt: skip
    app.testing = True
    yield app


@pytest.fixture
def tclient(turn_app: Flask) -> FlaskClient:
    return turn_app.test_client()


def my_turns(client: FlaskClient, token: str, **query: Any) -> dict[str, Any]:
    response = client.get(f"{API}/accounts/me/turns", headers=bearer(token), query_string=query)
    assert response.status_code == 200, response.get_json()
    body = response.get_json()
    assert_valid(TurnListSchema, body)
    for entry in body["games"]:
        assert set(entry) == ENTRY_KEYS
    for hidden in ("hand", "card", "deck", "suit", "rank", "seed", "clues_received"):
        assert hidden not in response.get_data(as_text=True)
    return body


def ids(body: dict[str, Any]) -> list[str]:
    return [entry["game_id"] for entry in body["games"]]


def any_move(client: FlaskClient, gid: str, token: str) -> None:
    view = client.get(f"{API}/games/{gid}", headers=bearer(token)).get_json()
    legal = view["legal_actions"]
    action = next((a for a in legal if a["type"] == "clue"), None) or next(
        a for a in legal if a["type"] == "discard"
    )
    response = client.post(f"{API}/games/{gid}/actions", headers=bearer(token),
                           json={"turn": view["turn"], **action})  # fmt: skip
    assert response.status_code == 201, response.get_json()


def test_the_move_clock_option_and_its_bounds(client: FlaskClient) -> None:
    _, token = session(client)
    create = client.post
    for bad in (60, 15 * DAY, 0):
        response = create(f"{API}/games", json={"name": "a", "options": {"move_clock": bad}})
        assert response.status_code == 400, response.get_json()
        assert response.get_json()["code"] in ("invalid_option", "validation_error")
    both = {"move_clock": DAY, "timer": {"base": 60, "per_turn": 0}}
    assert_problem(create(f"{API}/games", json={"name": "a", "options": both}), 400,
                   "invalid_option")  # fmt: skip
    idle = {"move_clock": DAY, "idle_limit": 600}
    assert_problem(create(f"{API}/games", json={"name": "a", "options": idle}), 400,
                   "invalid_option")  # fmt: skip
    _, other = session(client)
    table = account_table(client, [token, other], move_clock=14 * DAY)
    view = table.view(0)
    assert_valid(GameViewSchema, view)
    assert view["options"]["move_clock"] == 14 * DAY and view["options"]["idle_limit"] == 0
    assert view["options"]["timer"] is None
    assert view["clocks"] == [pytest.approx(14 * DAY, abs=2)] * 2
    left = seconds(view["deadline"]) - seconds(view["server_time"])
    assert left == pytest.approx(14 * DAY, abs=2)
    # It must outlive its move clock in Redis: the TTL is above 14 days (not the 7 of play).
    store = client.application.extensions["hanabi"].store
    assert store.redis.pttl(game_keys(table.id)[0]) / 1000 > 14 * DAY
    assert "move_clock" not in account_table(client, [token, other]).view(0)["options"]


def test_the_turns_list_follows_the_moves(tclient: FlaskClient) -> None:
    _, a = session(tclient)
    _, b = session(tclient)
    assert my_turns(tclient, a) == {"games": [], "total": 0}
    lobby = account_table(tclient, [a, b], start=False, move_clock=3600)
    assert my_turns(tclient, a)["total"] == 0  # a lobby awaits nobody's move
    lobby.start()
    first = my_turns(tclient, a)
    assert ids(first) == [lobby.id] and my_turns(tclient, b)["total"] == 0
    entry = first["games"][0]
    assert entry["seat"] == 0 and entry["turn"] == 0 and entry["move_clock"] == 3600
    assert entry["link"] == f"{API}/games/{lobby.id}" and entry["web"] == f"/games/{lobby.id}"
    assert seconds(entry["deadline"]) - time.time() == pytest.approx(3600, abs=5)
    any_move(tclient, lobby.id, a)
    assert my_turns(tclient, a)["total"] == 0
    assert ids(my_turns(tclient, b)) == [lobby.id]
    # A second game, live (no move clock): its idle limit (30 minutes) comes sooner.
    live = account_table(tclient, [b, a])
    listed = my_turns(tclient, b)
    assert ids(listed) == [live.id, lobby.id] and listed["total"] == 2
    assert listed["games"][0]["move_clock"] is None
    assert ids(my_turns(tclient, b, limit=1)) == [live.id]
    assert my_turns(tclient, b, limit=1)["total"] == 2
    # A chat line changes no turn: still listed (its entry repaired to the new version).
    tclient.post(f"{API}/games/{live.id}/chat", headers=bearer(a), json={"text": "hi"})
    assert ids(my_turns(tclient, b)) == [live.id, lobby.id]
    live.end()
    assert ids(my_turns(tclient, b)) == [lobby.id]
    assert_problem(tclient.get(f"{API}/accounts/me/turns"), 401, "account_required")
    assert_problem(tclient.get(f"{API}/accounts/me/turns", headers=bearer(a),
                               query_string={"limit": 0}), 400, "invalid_query")  # fmt: skip


def test_a_late_update_is_repaired_by_the_reader(tclient: FlaskClient) -> None:
    """Commits by two processes may reach an account's index out of order: an update from
    an older version is ignored, and an entry older than its game is checked and fixed."""
    _, a = session(tclient)
    _, b = session(tclient)
    table = account_table(tclient, [a, b], move_clock=3600)
    any_move(tclient, table.id, a)
    services = tclient.application.extensions["hanabi"]
    account_a = services.accounts.resolve(a)[0].id
    record = services.store.load(table.id)
    index = services.turns.index
    # An update from before the move arrives late: "a's move" at an older version.
    assert index.set(account_a, table.id, record.version - 1, True, 0, {"game_id": table.id})
    assert my_turns(tclient, a)["total"] == 0  # checked against the game: dropped
    # ... and a late "not b's move" from before is ignored: b's entry is newer.
    account_b = services.accounts.resolve(b)[0].id
    assert index.set(account_b, table.id, record.version - 1, False, 0, None) == (False, False)
    assert ids(my_turns(tclient, b)) == [table.id]
    # A game gone from Redis leaves the list at the next read.
    services.store.redis.delete(*game_keys(table.id))
    assert my_turns(tclient, b) == {"games": [], "total": 0}
    assert services.store.redis.zcard("{acct:" + account_b + "}:tn") == 0


@pytest.mark.single_redis
def test_a_move_clock_that_runs_out_ends_the_game(turn_app: Flask, tclient: FlaskClient) -> None:
    _, a = session(tclient)
    _, b = session(tclient)
    table = account_table(tclient, [a, b], move_clock=2)
    time.sleep(1.2)
    any_move(tclient, table.id, a)  # in time: b's clock starts at 2 s again
    view = table.view(1)
    assert seconds(view["deadline"]) - seconds(view["server_time"]) == pytest.approx(2, abs=0.3)
    assert view["clocks"][0] == pytest.approx(2, abs=0.01)  # a's clock back to full
    worker = BotWorker(*bot_parts(turn_app), 1, lease=1.0).start()
    try:
        began = time.monotonic()
        while (view := table.view(None))["status"] != "finished":
            assert time.monotonic() - began < 5, "the move clock did not end the game"
            time.sleep(0.05)
    finally:
        worker.stop()
    assert view["result"] == {"reason": "timeout", "score": 0}
    events = tclient.get(f"{table.url}/events").get_json()["events"]
    assert events[-2]["type"] == "terminate" and events[-2]["seat"] == 1
    assert my_turns(tclient, a)["total"] == 0 and my_turns(tclient, b)["total"] == 0


def test_a_deleted_account_is_listed_nowhere(tclient: FlaskClient) -> None:
    """Its keys go with it, and the game it sat in plays on without making new ones."""
    _, a = session(tclient)
    _, b = session(tclient)
    table = account_table(tclient, [a, b], move_clock=3600)
    services = tclient.application.extensions["hanabi"]
    account_b = services.accounts.resolve(b)[0].id
    gone = tclient.delete(f"{API}/accounts/me", headers=bearer(b), json={"password": PASSWORD})
    assert gone.status_code == 204, gone.get_json()
    any_move(tclient, table.id, a)  # now the deleted account's seat is to move
    assert table.view(0)["status"] == "playing"
    assert (
        services.store.redis.exists("{acct:" + account_b + "}:tn", "{acct:" + account_b + "}:ti")
        == 0
    )
