"""Password tables (issue 48): listed with a lock, a password to join and, if the host says
so, to watch; kept as a salted scrypt hash, never shown or logged; guesses limited. Each
route is tried by a seat, a spectator and a stranger."""

from __future__ import annotations

import logging
import secrets
from typing import Any

import pytest
from api_helpers import API, Table, assert_problem, assert_valid, bearer
from flask import Flask
from flask.testing import FlaskClient

from hanabi.server import create_app
from hanabi.server.api.schemas.requests import SeatGrantSchema
from hanabi.server.api.schemas.tables import PassSchema
from hanabi.server.api.schemas.views import GamePageSchema, GameViewSchema

PASSWORD = "correct horse battery"


def locked(client: FlaskClient, spectators: bool = False, **create: Any) -> Table:
    body = {"name": "host", "password": PASSWORD, "password_spectators": spectators, **create}
    response = client.post(f"{API}/games", json=body)
    assert response.status_code == 201, response.get_json()
    grant = response.get_json()
    assert_valid(SeatGrantSchema, grant)
    return Table(client, grant["id"], [grant["token"]])


def join(table: Table, name: str, password: str | None = None) -> Any:
    body = {"name": name} if password is None else {"name": name, "password": password}
    return table.client.post(f"{table.url}/players", json=body)


def test_a_locked_table_is_listed_with_its_lock_and_never_its_password(client: FlaskClient):
    table = locked(client)
    page = client.get(f"{API}/games?status=lobby&limit=100").get_json()
    assert_valid(GamePageSchema, page)
    listed = next(g for g in page["games"] if g["id"] == table.id)
    assert listed["lock"] == {"spectators": False}
    for viewer in (0, None):
        view = table.view(viewer)
        assert_valid(GameViewSchema, view)
        assert view["lock"] == {"spectators": False}
    stored = client.application.extensions["hanabi"].store.load(table.id)
    assert stored.password is not None and PASSWORD not in repr(stored.password)
    for raw in (str(page), str(table.view(0)), str(table.view(None))):
        assert PASSWORD not in raw and stored.password["hash"] not in raw
    assert stored.password["salt"] and stored.password["n"] >= 2**14  # a real, salted scrypt
    open_table = client.post(f"{API}/games", json={"name": "h"}).get_json()
    assert open_table["game"]["lock"] is None


def test_joining_needs_the_password_checked_in_full(client: FlaskClient):
    table = locked(client)
    assert_problem(join(table, "stranger"), 401, "password_required")
    assert_problem(join(table, "stranger", "correct horse"), 403, "wrong_password")
    assert_problem(join(table, "stranger", PASSWORD + " "), 403, "wrong_password")
    assert len(table.view(0)["players"]) == 1  # nothing was done
    joined = join(table, "friend", PASSWORD)
    assert joined.status_code == 201, joined.get_json()
    table.tokens.append(joined.get_json()["token"])
    assert [p["name"] for p in table.view(0)["players"]] == ["host", "friend"]
    assert table.start()["status"] == "playing"
    # an open table ignores no password, and asks none
    plain = client.post(f"{API}/games", json={"name": "h"}).get_json()
    assert client.post(f"{API}/games/{plain['id']}/players", json={"name": "x"}).status_code == 201


def test_spectators_of_a_table_locked_to_them_show_a_pass(client: FlaskClient):
    table = locked(client, spectators=True)
    joined = join(table, "friend", PASSWORD)
    table.tokens.append(joined.get_json()["token"])
    table.start()
    # a stranger: the view, the events, the stream are refused without a pass
    assert_problem(table.get(None), 401, "password_required")
    assert_problem(client.get(f"{table.url}/events"), 401, "password_required")
    stream = client.get(f"{table.url}/stream", headers={"Accept": "text/event-stream"})
    assert_problem(stream, 401, "password_required")
    assert_problem(table.get(None, {"X-Table-Pass": "forged"}), 403, "wrong_pass")
    # the seats need nothing
    assert table.view(0)["lock"] == {"spectators": True}
    assert table.view(1)["you"] == 1
    # a pass for the password
    wrong = client.post(f"{table.url}/passes", json={"password": "nope"})
    assert_problem(wrong, 403, "wrong_password")
    granted = client.post(f"{table.url}/passes", json={"password": PASSWORD})
    assert granted.status_code == 201
    body = granted.get_json()
    assert_valid(PassSchema, body)
    assert body["header"] == "X-Table-Pass" and PASSWORD not in body["pass"]
    headers = {"X-Table-Pass": body["pass"]}
    watched = table.get(None, headers)
    assert watched.status_code == 200
    view = watched.get_json()
    assert view["you"] is None and len(view["hands"][0]) == 5
    assert client.get(f"{table.url}/events", headers=headers).status_code == 200
    # the pass is this table's only
    other = locked(client, spectators=True)
    assert_problem(other.get(None, headers), 403, "wrong_pass")
    # a seat's token holding no seat here stays 403 not_a_player, pass or not
    assert_problem(client.get(other.url, headers=bearer(table.tokens[0])), 403, "not_a_player")
    # once over (an archived game), the lock holds for its view, export and replay
    table.end()
    assert_problem(table.get(None), 401, "password_required")
    assert_problem(client.get(f"{table.url}/export"), 401, "password_required")
    assert_problem(client.get(f"{table.url}/replay?turn=0"), 401, "password_required")
    seeded = client.get(f"{table.url}/export", headers=headers)  # past the lock, a finished
    assert seeded.status_code == 200, seeded.get_json()  # game is public (watching.md)
    assert table.get(0).status_code == 200


def test_a_table_locked_to_joins_only_is_watched_freely(client: FlaskClient):
    table = locked(client, spectators=False)
    assert table.get(None).status_code == 200
    assert_problem(client.post(f"{API}/games/nope/passes", json={"password": "x"}), 404,
                   "game_not_found")  # fmt: skip
    plain = client.post(f"{API}/games", json={"name": "h"}).get_json()
    no_lock = client.post(f"{API}/games/{plain['id']}/passes", json={"password": "x"})
    assert_problem(no_lock, 409, "not_locked")


def _limited_app(redis_url: str, **settings: Any) -> Flask:
    app = create_app({"REDIS_URL": redis_url, "HANABI_LIMITS": "on", **settings})
    app.testing = True
    return app


def _from(app: Flask) -> FlaskClient:
    client = app.test_client()
    client.environ_base["REMOTE_ADDR"] = f"10.48.{secrets.randbelow(250)}.{secrets.randbelow(250)}"
    return client


def test_guesses_are_limited_per_address_and_per_table(redis_url: str):
    app = _limited_app(
        redis_url, HANABI_LIMIT_PASSWORD="3/minute", HANABI_LIMIT_PASSWORD_GAME="5/minute"
    )
    guesser = _from(app)
    table = locked(guesser)
    for i in range(3):
        assert_problem(join(table, f"g{i}", f"guess{i}"), 403, "wrong_password")
    refused = join(table, "g9", PASSWORD)  # even the right one, past the rate
    assert_problem(refused, 429, "rate_limited")
    assert refused.headers["Retry-After"]
    # another address still may, until the table's own count is reached
    other = Table(_from(app), table.id, [])
    assert_problem(join(other, "o1", "guess"), 403, "wrong_password")
    assert join(other, "o2", PASSWORD).status_code == 201
    third = Table(_from(app), table.id, [])
    assert_problem(join(third, "t1", PASSWORD), 429, "rate_limited")
    passes = third.client.post(f"{table.url}/passes", json={"password": PASSWORD})
    assert_problem(passes, 429, "rate_limited")


def test_the_password_is_never_logged(client: FlaskClient, caplog: pytest.LogCaptureFixture):
    caplog.set_level(logging.DEBUG)
    table = locked(client, spectators=True)
    join(table, "x", "a wrong guess")
    join(table, "y", PASSWORD)
    client.post(f"{table.url}/passes", json={"password": PASSWORD})
    text = "\n".join(r.getMessage() + str(r.__dict__) for r in caplog.records)
    assert PASSWORD not in text and "a wrong guess" not in text


def test_an_account_shares_no_replay_of_a_table_locked_to_spectators(aclient: FlaskClient):
    from account_helpers import session

    _, token = session(aclient)
    table = locked(aclient, spectators=True)
    table.tokens.append(join(table, "friend", PASSWORD).get_json()["token"])
    table.start()
    table.end()
    room = aclient.post(f"{API}/replays", json={"game_id": table.id}, headers=bearer(token))
    assert_problem(room, 401, "password_required")  # a stranger's account
    mine = aclient.post(f"{API}/replays", json={"game_id": table.id},
                        headers=bearer(table.tokens[0]))  # fmt: skip
    assert mine.status_code == 201  # a seat shares it as it likes


def test_another_origin_may_send_a_spectator_pass(client: FlaskClient):
    preflight = client.options(
        f"{API}/games/abc",
        headers={
            "Origin": "https://ui.example",
            "Access-Control-Request-Method": "GET",
            "Access-Control-Request-Headers": "X-Table-Pass",
        },
    )
    assert preflight.status_code == 200
    assert "x-table-pass" in preflight.headers["Access-Control-Allow-Headers"].lower()
