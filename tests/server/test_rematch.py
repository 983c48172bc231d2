"""Again with the same seats (issue 48): the finished game's host opens the next game; each
player confirms with the last game's token or declines (the seat opens); bots come along;
a shuffled order. Tried by seats, a spectator and a stranger."""

from __future__ import annotations

from api_helpers import API, Table, assert_problem, assert_valid, bearer, make_table
from flask.testing import FlaskClient

from hanabi.server.api.schemas.requests import SeatGrantSchema
from hanabi.server.api.schemas.views import GameViewSchema


def finished(client: FlaskClient, players: int = 3, **create) -> Table:
    table = make_table(client, players, **create)
    table.end()
    return table


def answer(table: Table, seat: int, join: bool):
    return table.post("/rematch/answer", seat, {"join": join})


def test_the_next_game_keeps_the_seats_until_each_answers(client: FlaskClient):
    old = finished(client, 3, seed="again-1", options={"idle_limit": 900})
    opened = old.post("/rematch", 0, {})
    assert opened.status_code == 201, opened.get_json()
    grant = opened.get_json()
    assert_valid(SeatGrantSchema, grant)
    new = Table(client, grant["id"], [grant["token"], "", ""])
    view = grant["game"]
    assert view["status"] == "lobby" and view["you"] == 0 and view["host"] == 0
    assert view["rematch"] == {"previous": old.id, "invited": ["p1", "p2"], "shuffle": False}
    assert view["options"]["idle_limit"] == 900 and view["max_players"] == 5
    # the finished game points at it, for everyone who looks
    for viewer in (0, 1, None):
        assert old.view(viewer)["rematch"] == {"next": new.id}
    # the seats are kept: a stranger finds the table full only past the invitations
    assert_problem(old.post("/rematch", 0, {}), 409, "rematch_open")
    p2 = answer(old, 2, True)
    assert p2.status_code == 201
    body = p2.get_json()
    assert_valid(SeatGrantSchema, body)
    assert body["id"] == new.id and body["seat"] == 1  # p1 has not answered: p2 sits next
    assert body["token"] not in old.tokens
    new.tokens[2] = body["token"]
    p1 = answer(old, 1, True).get_json()
    assert p1["seat"] == 1  # p1's place in the order is before p2's
    view = new.view(0)
    assert_valid(GameViewSchema, view)
    assert [p["name"] for p in view["players"]] == ["p0", "p1", "p2"]
    assert view["rematch"]["invited"] == []
    assert client.get(new.url, headers=bearer(body["token"])).get_json()["you"] == 2
    assert_problem(answer(old, 1, True), 409, "not_invited")  # answered already
    started = client.post(f"{new.url}/start", headers=bearer(grant["token"]))
    assert started.status_code == 200 and started.get_json()["status"] == "playing"
    assert_problem(answer(old, 2, False), 409, "game_started")


def test_a_decline_opens_the_seat_and_the_host_deals_without_those_who_did_not_answer(
    client: FlaskClient,
):
    old = finished(client, 4, seed="again-2", max_players=4)
    grant = old.post("/rematch", 0, {}).get_json()
    new_url = f"{API}/games/{grant['id']}"
    full = client.post(f"{new_url}/players", json={"name": "stranger"})
    assert_problem(full, 409, "game_full")  # three seats kept, the host's taken
    assert answer(old, 3, False).status_code == 204
    # a kept seat's name is taken: nobody else joins as p1 while p1 may still answer
    assert_problem(client.post(f"{new_url}/players", json={"name": "P1"}), 409, "name_taken")
    events = client.get(f"{new_url}/events").get_json()["events"]
    assert events[-1]["type"] == "decline" and events[-1]["name"] == "p3"
    joined = client.post(f"{new_url}/players", json={"name": "stranger"})
    assert joined.status_code == 201
    assert answer(old, 1, True).status_code == 201
    view = client.get(new_url, headers=bearer(grant["token"])).get_json()
    assert [p["name"] for p in view["players"]] == ["p0", "p1", "stranger"]
    assert view["rematch"]["invited"] == ["p2"]
    started = client.post(f"{new_url}/start", headers=bearer(grant["token"])).get_json()
    assert started["status"] == "playing" and len(started["players"]) == 3
    assert started["rematch"]["invited"] == []  # the invitation lapsed at the deal
    assert_problem(answer(old, 2, True), 409, "game_started")


def with_a_bot(client: FlaskClient) -> Table:
    """A finished game of host, a conventions bot and guest."""
    created = client.post(f"{API}/games", json={"name": "host", "max_players": 4}).get_json()
    gid, host = created["id"], created["token"]
    client.post(f"{API}/games/{gid}/bots", json={"strategy": "conventions"},
                headers=bearer(host))  # fmt: skip
    guest = client.post(f"{API}/games/{gid}/players", json={"name": "guest"}).get_json()["token"]
    old = Table(client, gid, [host, "", guest])
    old.start()
    old.post("/votes", 0, {"end": True})
    old.post("/votes", 2, {"end": True})
    assert old.view(0)["status"] == "finished"
    return old


def test_bots_come_along_and_a_shuffle_keeps_everyone(client: FlaskClient):
    orders = set()
    for _ in range(8):  # a shuffle's order is random; every seat comes along every time
        old = with_a_bot(client)
        grant = old.post("/rematch", 0, {"shuffle": True}).get_json()
        view = grant["game"]
        assert view["rematch"]["shuffle"] is True and view["rematch"]["invited"] == ["guest"]
        assert {p["name"] for p in view["players"]} == {"host", "conventions-bot-2"}
        assert [p["bot"] for p in view["players"]].count("conventions") == 1
        assert view["players"][view["host"]]["name"] == "host" and view["you"] == view["host"]
        answer(old, 2, True)
        new = client.get(f"{API}/games/{grant['id']}", headers=bearer(grant["token"])).get_json()
        order = [p["name"] for p in new["players"]]
        assert sorted(order) == ["conventions-bot-2", "guest", "host"]
        assert order[new["host"]] == "host"
        orders.add(tuple(order))
    assert len(orders) > 1  # not always the same order


def test_who_may_open_and_answer(client: FlaskClient):
    playing = make_table(client, 2, seed="again-4")
    assert_problem(playing.post("/rematch", 0, {}), 409, "game_not_finished")
    old = finished(client, 2, seed="again-5")
    assert_problem(old.post("/rematch", 1, {}), 403, "not_host")  # a seat, not the host
    spectator = client.post(f"{old.url}/rematch", json={})
    assert_problem(spectator, 401, "auth_required")
    stranger = client.post(f"{old.url}/rematch", json={}, headers=bearer(playing.tokens[0]))
    assert_problem(stranger, 403, "not_a_player")
    assert_problem(answer(old, 1, True), 404, "no_rematch")  # not opened yet
    assert old.post("/rematch", 0, None).status_code == 201  # the body is optional
    no_token = client.post(f"{old.url}/rematch/answer", json={"join": True})
    assert_problem(no_token, 401, "auth_required")
    refused = client.post(f"{old.url}/rematch/answer", json={"join": True},
                          headers=bearer(playing.tokens[1]))  # fmt: skip
    assert_problem(refused, 403, "not_a_player")
    assert_problem(answer(old, 0, True), 409, "not_invited")  # the host sits there already
    assert_problem(old.post("/rematch/answer", 1, {"join": "y"}), 400, "validation_error")


def test_a_password_table_stays_locked(client: FlaskClient):
    created = client.post(
        f"{API}/games", json={"name": "h", "password": "sesame", "max_players": 2}
    ).get_json()
    joined = client.post(f"{API}/games/{created['id']}/players",
                         json={"name": "f", "password": "sesame"}).get_json()  # fmt: skip
    old = Table(client, created["id"], [created["token"], joined["token"]])
    old.start()
    old.end()
    grant = old.post("/rematch", 0, {}).get_json()
    assert grant["game"]["lock"] == {"spectators": False}
    stranger = client.post(f"{API}/games/{grant['id']}/players", json={"name": "x"})
    assert_problem(stranger, 409, "game_full")  # f's seat is kept
    assert answer(old, 1, False).status_code == 204
    stranger = client.post(f"{API}/games/{grant['id']}/players", json={"name": "x"})
    assert_problem(stranger, 401, "password_required")


def test_the_host_opens_a_seat_kept_for_someone_who_does_not_answer(client: FlaskClient):
    old = finished(client, 3, seed="again-6", max_players=3)
    grant = old.post("/rematch", 0, {}).get_json()
    new = Table(client, grant["id"], [grant["token"]])
    kept = f"{new.url}/rematch/invited/p2"
    spectator = client.delete(kept)
    assert_problem(spectator, 401, "auth_required")
    stranger = client.delete(kept, headers=bearer(old.tokens[1]))  # a seat of the old game
    assert_problem(stranger, 403, "not_a_player")
    p1 = answer(old, 1, True).get_json()
    as_p1 = client.delete(kept, headers=bearer(p1["token"]))
    assert_problem(as_p1, 403, "not_host")  # seated there, not its host
    opened = client.delete(kept, headers=bearer(grant["token"]))
    assert opened.status_code == 200
    view = opened.get_json()
    assert_valid(GameViewSchema, view)
    assert view["rematch"]["invited"] == []
    assert_problem(client.delete(kept, headers=bearer(grant["token"])), 404, "no_kept_seat")
    assert_problem(answer(old, 2, True), 409, "not_invited")  # too late: the seat is open
    assert client.post(f"{new.url}/players", json={"name": "p2"}).status_code == 201
