"""Shared replay rooms and hypotheticals: POST /replays and the routes under it.

Rooms are made from finished games only; only the leader changes a room; followers get
every change by the room's event stream; the engine decides what a hypothetical move may
be; hidden draws stay hidden from followers; leadership passes; every bound answers
problem+json.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import pytest
from account_helpers import FAST, session
from api_helpers import API, Table, assert_problem, assert_valid, bearer, make_table
from flask import Flask
from flask.testing import FlaskClient
from test_stream import Stream

from hanabi.server import create_app
from hanabi.server.api.schemas.replays import FollowerGrantSchema, RoomGrantSchema, RoomSchema

pytestmark = pytest.mark.cluster  # run again on a Redis Cluster (make test-cluster)

ROOMS = f"{API}/replays"


@pytest.fixture(scope="module")
def app(redis_url: str) -> Iterator[Flask]:
    config = {
        "REDIS_URL": redis_url,
        "HANABI_KEEPALIVE": 0.3,
        "HANABI_STREAM_MAX": 20,
        "HANABI_REPLAY_ROOMS": 3,
        "HANABI_REPLAY_FOLLOWERS": 2,
        "HANABI_REPLAY_MOVES": 4,
        "HANABI_LIMIT_REPLAY_LEAD": "40/minute",
        "HANABI_LIMIT_REPLAY": "1000/minute",
        **FAST,
    }
    app = create_app(config)
    app.testing = True
    yield app


@pytest.fixture
def client(app: Flask) -> FlaskClient:
    return app.test_client()


def first_clue(actions: list[dict[str, Any]]) -> dict[str, Any]:
    return next(a for a in actions if a["type"] == "clue")


def played(client: FlaskClient, seed: str) -> Table:
    """A 2-player game with a few real moves (each seat's first legal one), then ended by
    vote."""
    table = make_table(client, 2, seed=seed)
    for turn in range(4):
        seat = turn % 2
        move = first_clue(table.view(seat)["legal_actions"])
        assert table.act(seat, turn, **move).status_code == 201
    table.end()
    return table


@pytest.fixture
def finished(client: FlaskClient) -> Table:
    return played(client, "rooms")


def create(client: FlaskClient, game_id: str, token: str | None) -> Any:
    return client.post(ROOMS, json={"game_id": game_id}, headers=bearer(token))


def room_of(client: FlaskClient, table: Table, seat: int = 0) -> tuple[str, str]:
    """A new room on ``table`` by ``seat``'s token: (room id, leader token)."""
    response = create(client, table.id, table.tokens[seat])
    assert response.status_code == 201, response.get_json()
    body = response.get_json()
    assert_valid(RoomGrantSchema, body)
    assert response.headers["Location"] == f"{ROOMS}/{body['id']}"
    return body["id"], body["token"]


def get(client: FlaskClient, room: str, token: str | None = None) -> dict[str, Any]:
    response = client.get(f"{ROOMS}/{room}", headers=bearer(token))
    assert response.status_code == 200, response.get_json()
    body = response.get_json()
    assert_valid(RoomSchema, body)
    return body


def put(client: FlaskClient, room: str, path: str, token: str | None, json: Any) -> Any:
    return client.put(f"{ROOMS}/{room}/{path}", json=json, headers=bearer(token))


def post(client: FlaskClient, room: str, path: str, token: str | None, json: Any) -> Any:
    return client.post(f"{ROOMS}/{room}/{path}", json=json, headers=bearer(token))


# -- only finished games ------------------------------------------------------------------


def test_a_room_is_made_from_a_finished_game_only(client: FlaskClient, finished: Table) -> None:
    live = make_table(client, 2, seed="rooms-live")
    assert_problem(create(client, live.id, live.tokens[0]), 409, "game_not_finished")
    lobby = make_table(client, 2, start=False, seed="rooms-lobby")
    assert_problem(create(client, lobby.id, lobby.tokens[0]), 409, "game_not_finished")
    assert_problem(create(client, "nosuchgame12", live.tokens[0]), 404, "game_not_found")
    assert_problem(create(client, finished.id, None), 401, "auth_required")
    # a seat token of another game is no credential here
    assert_problem(create(client, finished.id, live.tokens[0]), 403, "not_a_player")
    # nothing of the live game reached a room: its id names none
    assert client.get(f"{ROOMS}/{live.id}").status_code == 404
    room, _ = room_of(client, finished)
    state = get(client, room)
    replay = client.get(f"{finished.url}/replay?turn={state['turn']}").get_json()
    assert {k: v for k, v in state["view"].items() if k != "server_time"} == {
        k: v for k, v in replay.items() if k != "server_time"
    }
    assert state["game_id"] == finished.id and state["followers"] == 0
    assert state["turn"] == state["last_turn"] and state["hypothetical"] is None


def test_an_account_makes_rooms_up_to_its_limit(client: FlaskClient, finished: Table) -> None:
    name, token = session(client)
    for _ in range(3):
        response = create(client, finished.id, token)
        assert response.status_code == 201, response.get_json()
        assert response.get_json()["room"]["leader"]["name"] == name
    assert_problem(create(client, finished.id, token), 409, "too_many_rooms")


# -- only the leader moves; followers follow -----------------------------------------------


def test_only_the_leader_sets_the_position(client: FlaskClient, finished: Table) -> None:
    room, leader = room_of(client, finished)
    joined = post(client, room, "followers", None, {"name": "watcher"})
    assert joined.status_code == 201
    assert_valid(FollowerGrantSchema, joined.get_json())
    follower = joined.get_json()["token"]
    body = {"turn": 1, "highlight": [3, 1, 3]}
    assert_problem(put(client, room, "position", None, body), 401, "auth_required")
    assert_problem(put(client, room, "position", follower, body), 403, "not_leader")
    assert_problem(put(client, room, "position", finished.tokens[0], body), 403, "not_leader")
    moved = put(client, room, "position", leader, body)
    assert moved.status_code == 200, moved.get_json()
    state = get(client, room)
    assert state["turn"] == 1 and state["highlight"] == [1, 3] and state["followers"] == 1
    assert state["last_move"]["action"]["type"] in ("play", "clue", "discard")
    far = put(client, room, "position", leader, {"turn": 999})
    assert_problem(far, 404, "no_such_turn")
    many = put(client, room, "position", leader, {"turn": 0, "highlight": list(range(21))})
    assert_problem(many, 400, "validation_error")
    assert_problem(client.get(f"{ROOMS}/nosuchroom"), 404, "room_not_found")


def test_followers_get_each_change_by_the_stream(client: FlaskClient, finished: Table) -> None:
    room, leader = room_of(client, finished)
    streams = [Stream(client, f"{ROOMS}/{room}/stream") for _ in range(3)]
    for stream in streams:
        assert stream.response.status_code == 200
        assert stream.response.mimetype == "text/event-stream"
        assert stream.next() == ("retry", None, 2000)
        _, version, data = stream.until("room")[-1]
        assert_valid(RoomSchema, data)
        assert version == data["version"]
    started = time.monotonic()
    assert put(client, room, "position", leader, {"turn": 2, "highlight": [0]}).status_code == 200
    for stream in streams:
        data = stream.until("room")[-1][2]
        assert data["turn"] == 2 and data["highlight"] == [0]
    assert time.monotonic() - started < 2  # within 200 ms is the bench's to measure
    assert post(client, room, "hypothetical", leader, {"turn": 1}).status_code == 200
    for stream in streams:
        assert stream.until("room")[-1][2]["hypothetical"]["turn"] == 1
        stream.close()


def test_a_stream_of_no_room_is_404(client: FlaskClient) -> None:
    assert_problem(client.get(f"{ROOMS}/nosuchroom/stream"), 404, "room_not_found")


# -- hypotheticals ----------------------------------------------------------------------


def branch(client: FlaskClient, room: str, leader: str, turn: int, reveal: bool = True) -> Any:
    response = post(client, room, "hypothetical", leader, {"turn": turn, "reveal_draws": reveal})
    assert response.status_code == 200, response.get_json()
    return response.get_json()


def test_the_engine_decides_what_a_hypothetical_move_may_be(
    client: FlaskClient, finished: Table
) -> None:
    room, leader = room_of(client, finished)
    move = {"turn": 0, "type": "discard", "card": 0}
    assert_problem(post(client, room, "hypothetical/actions", leader, move), 409, "no_hypothetical")
    state = branch(client, room, leader, 0)
    assert state["hypothetical"]["current_seat"] == 0
    # seat 0 holds cards 0-4 (5 a hand at two): card 7 is seat 1's
    refused = post(client, room, "hypothetical/actions", leader, {**move, "card": 7})
    assert_problem(refused, 409, "card_not_in_hand")
    to_self = {"turn": 0, "type": "clue", "target": 0, "rank": 1}
    assert_problem(post(client, room, "hypothetical/actions", leader, to_self), 409, "clue_to_self")
    clue = first_clue(state["hypothetical"]["legal_actions"])
    made = post(client, room, "hypothetical/actions", leader, {"turn": 0, **clue})
    assert made.status_code == 200, made.get_json()
    after = made.get_json()["hypothetical"]
    logged = {k: v for k, v in clue.items() if k != "turn"}  # a legal action holds its turn
    assert clue["turn"] == 0
    assert after["moves"] == [{"seat": 0, "action": logged}] and after["current_seat"] == 1
    assert made.get_json()["view"]["clue_tokens"] == state["view"]["clue_tokens"] - 1
    stale = post(client, room, "hypothetical/actions", leader, {"turn": 0, **clue})
    assert_problem(stale, 409, "stale_turn")
    bad = post(client, room, "hypothetical/actions", leader, {"turn": 1, "type": "jump"})
    assert_problem(bad, 400, "validation_error")
    follower = post(client, room, "followers", None, {}).get_json()["token"]
    play = {"turn": 1, "type": "play", "card": 5}
    assert_problem(post(client, room, "hypothetical/actions", follower, play), 403, "not_leader")
    # the game itself is untouched
    assert client.get(f"{finished.url}/replay").get_json()["turn"] == state["last_turn"]


def test_a_hypothetical_is_bounded(client: FlaskClient, finished: Table) -> None:
    room, leader = room_of(client, finished)
    state = branch(client, room, leader, 0)
    for turn in range(4):
        card = state["view"]["hands"][state["hypothetical"]["current_seat"]][0]["order"]
        move = {"turn": turn, "type": "play", "card": card}
        response = post(client, room, "hypothetical/actions", leader, move)
        assert response.status_code == 200, response.get_json()
        state = response.get_json()
    full = post(
        client, room, "hypothetical/actions", leader, {"turn": 4, "type": "play", "card": 0}
    )
    assert_problem(full, 409, "hypothetical_full")


def test_hidden_draws_are_hidden_from_followers(client: FlaskClient, finished: Table) -> None:
    room, leader = room_of(client, finished)
    state = branch(client, room, leader, 0, reveal=False)
    first = sum(len(hand) for hand in state["view"]["hands"])  # the first card drawn next
    card = state["view"]["hands"][0][0]["order"]
    made = post(
        client, room, "hypothetical/actions", leader, {"turn": 0, "type": "play", "card": card}
    )
    assert made.status_code == 200, made.get_json()
    led = made.get_json()
    drawn = next(c for c in led["view"]["hands"][0] if c["order"] == first)
    assert drawn["suit"] is not None  # the leader sees it
    stream = Stream(client, f"{ROOMS}/{room}/stream")
    for seen in (get(client, room), stream.until("room")[-1][2]):
        hidden = next(c for c in seen["view"]["hands"][0] if c["order"] == first)
        assert hidden["suit"] is None and hidden["rank"] is None
        assert seen["hypothetical"]["hidden"] == [first]
        for hand in seen["view"]["hands"]:
            for c in hand:
                assert c["knowledge"]["deduced"] == c["knowledge"]["possible"]
    stream.close()
    assert get(client, room, leader)["hypothetical"]["hidden"] == []


def test_hidden_draws_are_not_told_by_the_legal_moves(client: FlaskClient, finished: Table) -> None:
    """A follower's legal moves offer every clue to a hand holding a hidden card: which
    ones touch something would tell the card (the engine's own list offers a clue only
    when it touches); one that touches nothing is the engine's to refuse when sent."""
    room, leader = room_of(client, finished)
    state = branch(client, room, leader, 0, reveal=False)
    card = state["view"]["hands"][0][0]["order"]
    play = {"turn": 0, "type": "play", "card": card}
    led = post(client, room, "hypothetical/actions", leader, play).get_json()
    seen = get(client, room)
    assert seen["hypothetical"]["current_seat"] == 1 and len(seen["hypothetical"]["hidden"]) == 1
    [drawn] = [c for c in led["view"]["hands"][0] if c["order"] in seen["hypothetical"]["hidden"]]
    shown = [c for c in led["view"]["hands"][0] if c is not drawn]
    variant = client.get(f"{API}/variants/{seen['view']['variant']}").get_json()
    every = [("color", c) for c in variant["clue_colors"]] + [("rank", r) for r in range(1, 6)]
    # the clues that touch none of the cards the follower sees and not the hidden card
    # either: the engine's list leaves them out, which would tell the follower what it is
    told = [
        (kind, value)
        for kind, value in every
        if all(c["suit" if kind == "color" else "rank"] != value for c in [*shown, drawn])
    ]
    assert told  # the deal has some (else this test could not fail)
    offered = {
        ("color", a["color"]) if "color" in a else ("rank", a["rank"])
        for a in seen["hypothetical"]["legal_actions"]
        if a["type"] == "clue" and a["target"] == 0
    }
    assert offered == set(every)
    # the leader sees every card: the engine's list, and the engine refuses an empty clue
    lead = get(client, room, leader)["hypothetical"]["legal_actions"]
    to_holder = [a for a in lead if a["type"] == "clue" and a["target"] == 0]
    assert {(k, a[k]) for a in to_holder for k in ("color", "rank") if k in a}.isdisjoint(told)
    kind, value = told[0]
    empty = {"turn": 1, "type": "clue", "target": 0, kind: value}
    refused = post(client, room, "hypothetical/actions", leader, empty)
    assert_problem(refused, 409, "empty_clue")


def test_back_returns_to_the_real_game(client: FlaskClient, finished: Table) -> None:
    room, leader = room_of(client, finished)
    real = get(client, room)
    state = branch(client, room, leader, 1)
    clue = first_clue(state["hypothetical"]["legal_actions"])
    assert (
        post(client, room, "hypothetical/actions", leader, {"turn": 1, **clue}).status_code == 200
    )
    back = client.delete(f"{ROOMS}/{room}/hypothetical", headers=bearer(leader))
    assert back.status_code == 200, back.get_json()
    state = get(client, room)
    assert state["hypothetical"] is None and state["turn"] == 1
    replay = client.get(f"{finished.url}/replay?turn=1").get_json()
    assert state["view"]["hands"] == replay["hands"]
    assert real["version"] < state["version"]
    again = client.delete(f"{ROOMS}/{room}/hypothetical", headers=bearer(leader))
    assert_problem(again, 409, "no_hypothetical")


# -- leadership, limits ------------------------------------------------------------------


def test_the_lead_passes_to_a_follower(client: FlaskClient, finished: Table) -> None:
    room, leader = room_of(client, finished)
    joined = post(client, room, "followers", None, {"name": "next"}).get_json()
    missing = put(client, room, "leader", leader, {"follower": "mnobody"})
    assert_problem(missing, 404, "no_such_follower")
    passed = put(client, room, "leader", leader, {"follower": joined["member"]})
    assert passed.status_code == 200, passed.get_json()
    assert get(client, room)["leader"] == {"id": joined["member"], "name": "next"}
    assert_problem(put(client, room, "position", leader, {"turn": 0}), 403, "not_leader")
    assert put(client, room, "position", joined["token"], {"turn": 0}).status_code == 200


def test_a_room_holds_so_many_followers(client: FlaskClient, finished: Table) -> None:
    room, _ = room_of(client, finished, seat=1)
    for _ in range(2):
        assert post(client, room, "followers", None, {}).status_code == 201
    assert_problem(post(client, room, "followers", None, {}), 409, "room_full")
    assert_problem(post(client, "nosuchroom", "followers", None, {}), 404, "room_not_found")


def test_the_leader_changes_at_a_bounded_rate(client: FlaskClient, finished: Table) -> None:
    room, leader = room_of(client, finished, seat=1)
    codes = [put(client, room, "position", leader, {"turn": 0}).status_code for _ in range(41)]
    assert codes[:40] == [200] * 40
    refused = put(client, room, "position", leader, {"turn": 0})
    body = assert_problem(refused, 429, "rate_limited")
    assert 1 <= int(refused.headers["Retry-After"]) <= 60 and "replay room" in body["detail"]
    assert get(client, room)["version"] == 41  # made, then 40 changes; the refused one none


def test_a_room_ends_when_its_time_is_up(redis_url: str) -> None:
    """A room lives HANABI_REPLAY_TTL seconds from its creation: then it is gone, its
    followers' streams end, and it no longer counts against its creator."""
    app = create_app(
        {"REDIS_URL": redis_url, "HANABI_REPLAY_TTL": 1, "HANABI_REPLAY_ROOMS": 1, **FAST}
    )
    app.testing = True
    client = app.test_client()
    table = played(client, "rooms-ttl")
    room, _ = room_of(client, table)
    assert_problem(create(client, table.id, table.tokens[0]), 409, "too_many_rooms")
    stream = Stream(client, f"{ROOMS}/{room}/stream")
    stream.until("room")
    started = time.monotonic()
    assert stream.until("end", timeout=5)[-1][2] == {"reason": "gone"}
    assert time.monotonic() - started < 3
    time.sleep(0.2)
    assert_problem(client.get(f"{ROOMS}/{room}"), 404, "room_not_found")
    assert_problem(post(client, room, "followers", None, {}), 404, "room_not_found")
    assert create(client, table.id, table.tokens[0]).status_code == 201  # its place is free
