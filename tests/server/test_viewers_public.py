"""Finished games are public; an account playing the same deal elsewhere sees no card of it
(table/viewers.py, docs/watching.md, issue #44).

- A finished game's view, events, export, replay and shared replay rooms (reading, joining
  and following them) are open to anyone with the link, anonymous included; an account
  not seated that is shown them spoils the seed for itself, an anonymous reader nothing.
- An account that holds a seat in a game still going on, dealt the same deal, gets the
  public board of any other game on it (finished or live) and 409 ``same_deal_elsewhere``
  from every route that exists to show cards: export, replay, rooms, a shadow. A room
  stream it opened before it sat down ends with that reason.
"""

from __future__ import annotations

import secrets
from collections.abc import Iterator
from typing import Any

import pytest
from account_helpers import FAST, played, seat_table, session
from api_helpers import API, Table, assert_problem, bearer, make_table
from flask import Flask
from flask.testing import FlaskClient
from test_stream import Stream, stream_url
from test_viewers import draws, events_of, hidden, shown, stream_views

from hanabi.server import create_app

ROOMS = f"{API}/replays"


@pytest.fixture(scope="module")
def app(redis_url: str) -> Iterator[Flask]:
    config = {
        "REDIS_URL": redis_url,
        "HANABI_KEEPALIVE": 0.3,
        "HANABI_STREAM_MAX": 20,
        "HANABI_REPLAY_ROOMS": 50,
        "HANABI_LIMIT_REPLAY": "1000/minute",
        **FAST,
    }
    app = create_app(config)
    app.testing = True
    yield app


@pytest.fixture
def client(app: Flask) -> FlaskClient:
    return app.test_client()


def fresh_seed() -> str:
    return f"p2v0s{700_000_000 + secrets.randbelow(99_999_999)}"


def account_id(app: Flask, table: Table, seat: int) -> str:
    record = app.extensions["hanabi"].store.load(table.id)
    assert record is not None and record.players[seat].account is not None
    return record.players[seat].account


def spoiled(app: Flask, account: str, seed: str) -> bool:
    first, _ = app.extensions["hanabi"].spoilers.store.since(account, seed)
    return first is not None


def room_of(client: FlaskClient, game_id: str, token: str) -> dict[str, Any]:
    made = client.post(ROOMS, json={"game_id": game_id}, headers=bearer(token))
    assert made.status_code == 201, made.get_json()
    return made.get_json()


def test_a_finished_game_is_public_to_anyone_on_every_route(
    client: FlaskClient, app: Flask
) -> None:
    seed = fresh_seed()
    (_, ann), (_, bob) = session(client), session(client)
    game = played(seat_table(client, [ann, bob], seed=seed))
    url = game.url
    (_, eve), (_, fay), (_, gus) = (session(client) for _ in range(3))
    watcher = seat_table(client, [eve, fay], seed=fresh_seed(), start=False)
    eve_id = account_id(app, watcher, 0)
    for token in (None, eve):  # anonymous, and an account that never played the seed
        view = client.get(url, headers=bearer(token)).get_json()
        assert view["status"] == "finished" and view["spectating"] == "full" and shown(view)
        assert "cards_hidden" not in view and "seed" not in view
        assert all(e["suit"] is not None for e in draws(events_of(client, game, token)))
        exported = client.get(f"{url}/export", headers=bearer(token))
        assert exported.status_code == 200 and len(exported.get_json()["deck"]) == 50
        replay = client.get(f"{url}/replay", headers=bearer(token), query_string={"turn": 1})
        assert replay.status_code == 200 and replay.get_json()["spectating"] == "full"
        assert shown(replay.get_json())
        streamed = stream_views(client, stream_url(game.id, after=0), token)
        assert shown(streamed["view"]) and all(e["suit"] for e in streamed["events"])
    assert spoiled(app, eve_id, seed)  # the account saw the seed before playing it
    assert not spoiled(app, account_id(app, watcher, 1), seed)  # fay looked at nothing
    # Shared rooms: made by a player or any account; read, joined, followed by anyone.
    assert_problem(client.post(ROOMS, json={"game_id": game.id}), 401, "auth_required")
    for maker in (ann, gus):
        room = room_of(client, game.id, maker)
        room_url = f"{ROOMS}/{room['id']}"
        read = client.get(room_url)
        assert read.status_code == 200 and shown(read.get_json()["view"])
        joined = client.post(f"{room_url}/followers", json={"name": "friend"})
        assert joined.status_code == 201 and joined.get_json()["token"]
        follow = Stream(client, f"{room_url}/stream")
        assert follow.response.status_code == 200
        kind, _, data = follow.until("room")[-1]
        assert kind == "room" and shown(data["view"])
        follow.close()


def test_an_account_playing_the_deal_elsewhere_sees_no_card_of_it(
    client: FlaskClient, app: Flask
) -> None:
    seed = fresh_seed()
    (_, ann), (_, bob) = session(client), session(client)
    done = played(seat_table(client, [ann, bob], seed=seed))
    room = room_of(client, done.id, ann)  # made before anyone sat down again
    room_url = f"{ROOMS}/{room['id']}"
    (_, cat), (_, dan), (_, eli), (_, fin) = (session(client) for _ in range(4))
    other = seat_table(client, [eli, fin], seed=seed)  # a live copy, others' seats
    live = seat_table(client, [cat, dan], seed=seed)  # cat's own live game on the deal
    assert hidden(live.view(0), 0)
    for game in (done, other):
        view = client.get(game.url, headers=bearer(cat)).get_json()
        assert view["spectating"] == "public" and hidden(view) and view["you"] is None
        assert all(n == {} for n in view["notes"])
        assert all(e["suit"] is None for e in draws(events_of(client, game, cat)))
        streamed = stream_views(client, stream_url(game.id, after=0), cat)
        assert streamed["view"]["spectating"] == "public" and hidden(streamed["view"])
        assert all(e["suit"] is None for e in streamed["events"])
        shadow = client.get(game.url, headers=bearer(cat), query_string={"shadow": 1})
        refused = assert_problem(shadow, 409, "same_deal_elsewhere")
        assert seed not in refused["detail"]
        url = stream_url(game.id, shadow=1)
        assert_problem(client.get(url, headers=bearer(cat)), 409, "same_deal_elsewhere")
        ticket = client.post(f"{game.url}/tickets", json={"shadow": 0}, headers=bearer(cat))
        assert_problem(ticket, 409, "same_deal_elsewhere")
    for route in ("export", "replay"):
        refused = client.get(f"{done.url}/{route}", headers=bearer(cat))
        assert seed not in assert_problem(refused, 409, "same_deal_elsewhere")["detail"]
    made = client.post(ROOMS, json={"game_id": done.id}, headers=bearer(cat))
    assert_problem(made, 409, "same_deal_elsewhere")
    assert_problem(client.get(room_url, headers=bearer(cat)), 409, "same_deal_elsewhere")
    joined = client.post(f"{room_url}/followers", json={}, headers=bearer(cat))
    assert_problem(joined, 409, "same_deal_elsewhere")
    follow = client.get(f"{room_url}/stream", headers=bearer(cat))
    assert_problem(follow, 409, "same_deal_elsewhere")
    ticket = client.post(f"{room_url}/tickets", headers=bearer(cat))
    assert_problem(ticket, 409, "same_deal_elsewhere")
    # Its own table is its own view; once its game ends, the deal is public to it too.
    live.end()
    assert client.get(done.url, headers=bearer(cat)).get_json()["spectating"] == "full"
    assert client.get(f"{done.url}/export", headers=bearer(cat)).status_code == 200


def test_a_room_stream_ends_when_its_account_sits_down_to_the_deal(
    client: FlaskClient,
) -> None:
    seed = fresh_seed()
    (_, ann), (_, bob), (_, gil), (_, hal) = (session(client) for _ in range(4))
    done = played(seat_table(client, [ann, bob], seed=seed))
    room = room_of(client, done.id, ann)
    follow = Stream(client, f"{ROOMS}/{room['id']}/stream", bearer(gil))
    assert follow.response.status_code == 200
    assert follow.until("room")[-1][0] == "room"
    seat_table(client, [gil, hal], seed=seed)  # gil saw the deal: spoiled, but may sit
    assert follow.until("end", timeout=5)[-1][2] == {"reason": "same_deal_elsewhere"}
    follow.close()


def test_a_spectator_account_spoils_the_seeds_whose_cards_it_sees(
    client: FlaskClient, app: Flask
) -> None:
    shown_seed, hidden_seed = fresh_seed(), fresh_seed()
    (_, ann), (_, bob), (_, cat), (_, dan), (_, eve) = (session(client) for _ in range(5))
    shows = seat_table(client, [ann, bob], seed=shown_seed)
    hides = seat_table(
        client, [cat, dan], seed=hidden_seed, options={"spectators_see_hands": False}
    )
    watcher = seat_table(client, [eve, ann], seed=fresh_seed(), start=False)
    eve_id = account_id(app, watcher, 0)
    assert client.get(hides.url, headers=bearer(eve)).get_json()["spectating"] == "public"
    assert not spoiled(app, eve_id, hidden_seed)  # the public board shows no card
    assert client.get(shows.url, headers=bearer(eve)).get_json()["spectating"] == "hands"
    assert spoiled(app, eve_id, shown_seed)
    # A seat is shown its own game: nothing spoiled for it.
    assert not spoiled(app, account_id(app, shows, 0), shown_seed)


def test_an_anonymous_room_follower_needs_no_account_and_a_guest_game_is_public(
    client: FlaskClient,
) -> None:
    game = make_table(client, 2, seed="viewers-guest-room")
    game.end()
    room = room_of(client, game.id, game.tokens[0])  # a guest who played it shares it
    room_url = f"{ROOMS}/{room['id']}"
    joined = client.post(f"{room_url}/followers")  # no body, no credential
    assert joined.status_code == 201, joined.get_json()
    assert joined.get_json()["room"]["view"]["spectating"] == "full"
    assert client.get(f"{game.url}/export").status_code == 200
