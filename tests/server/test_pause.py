"""Pausing by vote (issue 48): unrated tables without a chess clock; nobody moves while
paused; the idle deadline and a turn-based table's move clock stand still and go on from
where they stood. Tried by seats, a spectator and a stranger."""

from __future__ import annotations

import time
from datetime import datetime

from api_helpers import API, assert_problem, assert_valid, bearer, make_table
from flask.testing import FlaskClient

from hanabi.server.api.schemas.views import GameViewSchema
from hanabi.server.storage.record import GameStatus, Player, Record
from hanabi.server.table.seats import bot_due


def _at(text: str) -> float:
    return datetime.fromisoformat(text.replace("Z", "+00:00")).timestamp()


def test_a_pause_needs_the_votes_stops_moves_and_the_idle_deadline(client: FlaskClient):
    table = make_table(client, 3, seed="pause-1", options={"idle_limit": 600})
    store = client.application.extensions["hanabi"].store
    before = table.view(0)
    assert before["pause"] == {
        "paused": False, "votes": 0, "needed": 2, "mine": False, "allowed": True
    }  # fmt: skip
    deadline = _at(before["deadline"])
    first = table.post("/pause", 1, {"paused": True})
    assert first.status_code == 200
    view = first.get_json()
    assert_valid(GameViewSchema, view)
    assert view["pause"] == {
        "paused": False,
        "votes": 1,
        "needed": 2,
        "mine": True,
        "allowed": True,
    }
    assert table.view(None)["pause"]["mine"] is None  # a spectator sees the count only
    again = table.post("/pause", 1, {"paused": True}).get_json()  # twice: nothing more
    assert again["pause"]["votes"] == 1
    paused = table.post("/pause", 2, {"paused": True}).get_json()
    assert paused["pause"]["paused"] is True and paused["pause"]["votes"] == 0
    assert paused["deadline"] is None and store.deadline(table.id) is None
    events = client.get(f"{table.url}/events").get_json()["events"]
    pauses = [e for e in events if e["type"] == "pause"]
    assert [(e["paused"], e["changed"], e["votes"]) for e in pauses] == [
        (False, False, 1), (True, True, 0)
    ]  # fmt: skip
    assert all("seat" not in e for e in pauses)  # who voted is not shown
    assert table.view(0)["legal_actions"] == []  # nothing to offer while paused
    move = table.post("/actions", 0, {"type": "clue", "target": 1, "rank": 1, "turn": 0})
    assert_problem(move, 409, "game_paused")
    assert table.post("/chat", 0, {"text": "coffee"}).status_code == 201  # chat goes on
    time.sleep(1.2)
    # going on: one vote takes back, then two go on
    table.post("/pause", 0, {"paused": False})
    table.post("/pause", 0, {"paused": True})  # the state it is in: takes the vote back
    assert table.view(0)["pause"]["votes"] == 0
    table.post("/pause", 0, {"paused": False})
    on = table.post("/pause", 2, {"paused": False}).get_json()
    assert on["pause"]["paused"] is False
    moved = _at(on["deadline"])
    assert moved >= deadline + 1.0  # the deadline moved on by the time paused
    assert store.deadline(table.id) == int(moved * 1000)
    legal = table.view(0)["legal_actions"][0]
    assert table.post("/actions", 0, legal).status_code == 201


def test_a_move_clock_stands_still_while_paused(client: FlaskClient):
    table = make_table(client, 2, seed="pause-2", options={"move_clock": 3600})
    table.post("/pause", 0, {"paused": True})
    paused = table.post("/pause", 1, {"paused": True}).get_json()
    assert paused["pause"]["paused"] is True and paused["deadline"] is None
    left = table.view(0)["clocks"][0]
    assert abs(paused["clocks"][0] - left) < 0.1
    time.sleep(1.1)
    # it does not run (a few ms either way: the server's estimate of Redis's clock)
    assert abs(table.view(0)["clocks"][0] - left) < 0.05
    table.post("/pause", 0, {"paused": False})
    on = table.post("/pause", 1, {"paused": False}).get_json()
    assert left - 0.5 <= on["clocks"][0] <= left + 0.05  # the estimate of Redis's clock
    assert _at(on["deadline"]) - _at(on["server_time"]) > 3590


def test_who_may_pause_and_when(client: FlaskClient):
    table = make_table(client, 2, seed="pause-3")
    assert_problem(client.post(f"{table.url}/pause", json={"paused": True}), 401, "auth_required")
    stranger = make_table(client, 2, seed="pause-4")
    refused = client.post(
        f"{table.url}/pause", json={"paused": True}, headers=bearer(stranger.tokens[0])
    )
    assert_problem(refused, 403, "not_a_player")
    assert_problem(table.post("/pause", 0, {"paused": "yes"}), 400, "validation_error")
    lobby = make_table(client, 2, start=False, seed="pause-5")
    assert_problem(lobby.post("/pause", 0, {"paused": True}), 409, "game_not_started")
    timed = make_table(client, 2, seed="pause-6", options={"timer": {"base": 300, "per_turn": 10}})
    assert timed.view(0)["pause"]["allowed"] is False
    assert_problem(timed.post("/pause", 0, {"paused": True}), 409, "pause_not_allowed")
    over = make_table(client, 2, seed="pause-7")
    over.end()
    assert_problem(over.post("/pause", 0, {"paused": True}), 409, "game_over")
    missing = client.post(f"{API}/games/nope/pause", json={"paused": True},
                          headers=bearer(table.tokens[0]))  # fmt: skip
    assert_problem(missing, 404, "game_not_found")


def test_a_vote_to_end_ends_a_paused_game(client: FlaskClient):
    table = make_table(client, 2, seed="pause-8", options={"idle_limit": 600})
    table.post("/pause", 0, {"paused": True})
    table.post("/pause", 1, {"paused": True})
    body = table.end()
    assert body["game"]["status"] == "finished" and body["game"]["deadline"] is None


def test_no_bot_is_due_at_a_paused_table():
    record = Record("g", GameStatus.PLAYING, "no_variant", {}, 2, "s", None, 0, 0, 0,
                    players=[Player("bot", "conventions"), Player("p", None, "h")])  # fmt: skip
    assert bot_due(record)
    record.pause = {"on": True, "votes": []}
    assert not bot_due(record)
