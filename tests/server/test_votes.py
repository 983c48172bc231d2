"""Ending a game by vote: at least half the seated people (both of two), bots don't vote,
counts shown but not who."""

from __future__ import annotations

import pytest
from api_helpers import API, Table, assert_problem, assert_valid, bearer, make_table
from flask.testing import FlaskClient

from hanabi.server.api.schemas.events import ActionResultSchema

#: people at the table -> votes that end the game
NEEDED = {2: 2, 3: 2, 4: 2, 5: 3}


def votes_of(table: Table, seat: int | None) -> dict:
    return table.view(seat)["votes"]


@pytest.mark.parametrize("people", [2, 3, 4, 5])
def test_half_of_the_people_end_the_game(client: FlaskClient, people: int) -> None:
    table = make_table(client, people, seed=f"votes-{people}")
    needed = NEEDED[people]
    for seat in range(needed - 1):
        body = table.vote(seat).get_json()
        assert_valid(ActionResultSchema, body)
        assert body["game"]["status"] == "playing"
        assert body["events"] == [
            {"type": "vote", "turn": 0, "end": True, "votes": seat + 1, "needed": needed,
             "seq": body["events"][0]["seq"]}
        ]  # fmt: skip
        assert "seat" not in body["events"][0]  # who voted is not shown
    assert votes_of(table, None) == {"end": needed - 1, "needed": needed, "mine": None}
    assert votes_of(table, 0)["mine"] is True
    assert votes_of(table, people - 1) == {"end": needed - 1, "needed": needed, "mine": False}
    last = table.vote(people - 1)
    assert last.status_code == 200
    body = last.get_json()
    assert_valid(ActionResultSchema, body)
    assert body["game"]["status"] == "finished"
    assert body["game"]["result"] == {"reason": "terminated", "score": 0}
    assert [e["type"] for e in body["events"]] == ["vote", "terminate", "game_over"]
    assert "seat" not in body["events"][1]  # the table ended it, not the last voter
    assert body["game"]["votes"] == {"end": needed, "needed": needed, "mine": True}
    # the archive keeps the votes in place, and the export says terminated
    events = client.get(f"{table.url}/events").get_json()["events"]
    assert [e["type"] for e in events[-(needed + 2) :]] == ["vote"] * needed + [
        "terminate", "game_over"
    ]  # fmt: skip
    assert [e["seq"] for e in events] == list(range(1, len(events) + 1))
    doc = client.get(f"{table.url}/export").get_json()
    assert doc["actions"][-1]["value"] == 4
    assert_problem(table.vote(0), 409, "game_over")


def test_a_vote_taken_back_no_longer_counts(client: FlaskClient) -> None:
    table = make_table(client, 2, seed="back")
    assert table.vote(0).get_json()["game"]["votes"]["end"] == 1
    again = table.vote(0).get_json()  # voting twice changes nothing
    assert again["events"] == [] and again["game"]["votes"]["end"] == 1
    back = table.vote(0, False).get_json()
    assert back["events"][0]["end"] is False and back["events"][0]["votes"] == 0
    assert votes_of(table, 0) == {"end": 0, "needed": 2, "mine": False}
    assert table.vote(1).get_json()["game"]["status"] == "playing"  # 1 of 2
    assert table.vote(0).get_json()["game"]["status"] == "finished"


def test_votes_still_stand_after_moves(client: FlaskClient) -> None:
    table = make_table(client, 3, seed="later")
    table.vote(2)
    view = table.view(0)
    table.act(0, 0, type="clue", target=1, rank=view["hands"][1][0]["rank"])
    assert votes_of(table, 1)["end"] == 1
    assert table.vote(1).get_json()["game"]["result"]["reason"] == "terminated"


def test_terminate_is_a_vote(client: FlaskClient) -> None:
    table = make_table(client, 3, seed="terminate-vote")
    assert_problem(table.post("/terminate", None), 401, "auth_required")
    first = table.post("/terminate", 0).get_json()
    assert first["game"]["status"] == "playing" and first["game"]["votes"]["end"] == 1
    second = table.post("/terminate", 2).get_json()
    assert second["game"]["result"] == {"reason": "terminated", "score": 0}


@pytest.mark.parametrize(("people", "bots", "needed"), [(1, 2, 1), (2, 1, 2), (3, 2, 2)])
def test_bots_do_not_vote(client: FlaskClient, people: int, bots: int, needed: int) -> None:
    table = make_table(client, people, start=False, seed="bots-vote")
    for _ in range(bots):
        added = table.post("/bots", 0, {})
        assert added.status_code == 201, added.get_json()
    table.start()
    assert votes_of(table, 0)["needed"] == needed
    for seat in range(needed):
        body = table.vote(seat).get_json()
    assert body["game"]["status"] == "finished"
    assert body["game"]["result"]["reason"] == "terminated"


def test_who_may_vote(client: FlaskClient) -> None:
    lobby = make_table(client, 2, start=False)
    assert_problem(lobby.vote(0), 409, "game_not_started")
    table = make_table(client, 2)
    assert_problem(table.post("/votes", None, {"end": True}), 401, "auth_required")
    other = make_table(client, 2)
    response = client.post(
        f"{table.url}/votes", json={"end": True}, headers=bearer(other.tokens[0])
    )
    assert_problem(response, 403, "not_a_player")
    assert_problem(table.post("/votes", 0, {"end": "yes"}), 400, "validation_error")
    assert_problem(table.post("/votes", 0, {}), 400, "validation_error")
    assert_problem(client.post(f"{API}/games/nosuch/votes", json={"end": True},
                               headers=bearer(table.tokens[0])), 404, "game_not_found")  # fmt: skip


def test_a_game_ended_by_vote_keeps_its_max_score(client: FlaskClient) -> None:
    # the board said "Score 1 of 0 reachable": the vote's score 0 had become the maximum
    table = make_table(client, 2, seed="vote-max")
    ones = [c for c in table.view(0)["hands"][1] if c["rank"] == 1]
    assert ones, "the seed deals seat 1 a 1"
    assert table.act(0, type="clue", target=1, rank=1).status_code == 201
    assert table.act(1, type="play", card=ones[0]["order"]).status_code == 201
    table.end()
    for view in (table.view(0), table.view(None), client.get(f"{table.url}/replay").get_json()):
        assert view["result"] == {"reason": "terminated", "score": 0}
        assert (view["score"], view["max_score"], view["pace"]) == (1, 25, None)
