"""A seed's deal is not seen before one's own game on it ends (docs/seeds.md, issue #39).

The cards of a finished game dealt a seed name are shown to its seats, the accounts seated
at it, and the accounts that finished that seed (with no game on it still going); everyone
else gets the game as a spectator saw it during play, and the routes that exist only to
show cards refuse them. Games with no seed name stay public.
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
    return f"p2v0s{900_000_000 + secrets.randbelow(99_999_999)}"


class Cast:
    """A finished game on a fresh seed and everyone around it."""

    def __init__(self, client: FlaskClient) -> None:
        self.seed = fresh_seed()
        (_, self.ann), (_, self.bob) = session(client), session(client)
        self.game = played(seat_table(client, [self.ann, self.bob], seed=self.seed))
        # a finisher: played the seed at another table, ended
        (_, self.fin), (_, other) = session(client), session(client)
        played(seat_table(client, [self.fin, other], seed=self.seed))
        # an account that never played it, one that holds a game on it still going
        (_, self.never), (_, self.playing), (_, mate) = (session(client) for _ in range(3))
        self.going = seat_table(client, [self.playing, mate], seed=self.seed)
        self.outsiders: list[str | None] = [None, self.never, self.playing]
        self.insiders = [self.ann, self.bob, self.fin]


@pytest.fixture
def cast(client: FlaskClient) -> Cast:
    return Cast(client)


def hidden(view: dict[str, Any]) -> bool:
    cards = [c for hand in view["hands"] for c in hand]
    assert cards
    return all(c["suit"] is None and c["rank"] is None for c in cards)


def shown(view: dict[str, Any]) -> bool:
    return all(c["suit"] is not None for hand in view["hands"] for c in hand)


def draws_hidden(events: list[dict[str, Any]]) -> bool:
    draws = [e for e in events if e["type"] == "draw"]
    assert draws
    return all(e["suit"] is None and e["rank"] is None for e in draws)


def refused(response: Any, token: str | None) -> None:
    if token is None:
        assert_problem(response, 401, "account_required")
    else:
        assert_problem(response, 403, "seed_not_played")


def test_a_finished_seed_game_shows_outsiders_what_a_spectator_saw(
    client: FlaskClient, cast: Cast
) -> None:
    url = cast.game.url
    for token in cast.outsiders:
        response = client.get(url, headers=bearer(token))
        assert response.status_code == 200, response.get_json()
        view = response.get_json()
        assert view["status"] == "finished" and view["you"] is None
        assert hidden(view) and view["cards_hidden"] == "seed_not_played"
        assert view["result"] is not None and view["score"] == cast.game.view(0)["score"]
        assert all(n == {} for n in view["notes"])
        assert "seed" not in view
        last = view["last_action"]
        assert last is None or last.get("suit") is None or last["type"] != "draw"
        events = client.get(f"{url}/events", headers=bearer(token)).get_json()["events"]
        assert draws_hidden(events)
    for token in cast.insiders + cast.game.tokens:
        view = client.get(url, headers=bearer(token)).get_json()
        assert shown(view) and "cards_hidden" not in view
        events = client.get(f"{url}/events", headers=bearer(token)).get_json()["events"]
        assert all(e["suit"] is not None for e in events if e["type"] == "draw")


def test_a_guest_seat_token_sees_its_finished_seed_game(client: FlaskClient) -> None:
    table = played(make_table(client, 2, seed=fresh_seed()))
    assert shown(table.view(0)) and shown(table.view(1))
    assert hidden(table.view(None))
    export = client.get(f"{table.url}/export", headers=bearer(table.tokens[0]))
    assert export.status_code == 200
    assert_problem(client.get(f"{table.url}/export"), 401, "account_required")


def test_the_routes_that_show_only_cards_refuse_outsiders(client: FlaskClient, cast: Cast) -> None:
    url = cast.game.url
    for token in cast.outsiders:
        refused(client.get(f"{url}/export", headers=bearer(token)), token)
        refused(client.get(f"{url}/replay?turn=1", headers=bearer(token)), token)
        refused(client.get(f"{url}/replay", headers=bearer(token)), token)
        if token is not None:  # without a credential: 401 auth_required, as before
            made = client.post(ROOMS, json={"game_id": cast.game.id}, headers=bearer(token))
            refused(made, token)
    for token in cast.insiders + cast.game.tokens:
        assert client.get(f"{url}/export", headers=bearer(token)).status_code == 200
        replay = client.get(f"{url}/replay?turn=1", headers=bearer(token))
        assert replay.status_code == 200 and shown(replay.get_json())
        made = client.post(ROOMS, json={"game_id": cast.game.id}, headers=bearer(token))
        assert made.status_code == 201, made.get_json()


def test_a_shared_room_of_a_seed_game_is_for_those_who_may_see_it(
    client: FlaskClient, cast: Cast
) -> None:
    made = client.post(ROOMS, json={"game_id": cast.game.id}, headers=bearer(cast.ann))
    room, leader = made.get_json()["id"], made.get_json()["token"]
    url = f"{ROOMS}/{room}"
    for token in cast.outsiders:
        refused(client.get(url, headers=bearer(token)), token)
        refused(client.post(f"{url}/followers", json={}, headers=bearer(token)), token)
        refused(client.get(f"{url}/stream", headers=bearer(token)), token)
    for token in [leader, cast.fin, cast.bob, cast.game.tokens[1]]:
        assert client.get(url, headers=bearer(token)).status_code == 200
    joined = client.post(f"{url}/followers", json={}, headers=bearer(cast.fin))
    assert joined.status_code == 201, joined.get_json()


def test_streams_follow_the_same_rule(client: FlaskClient, cast: Cast) -> None:
    for token, hide in ((None, True), (cast.never, True), (cast.fin, False)):
        stream = Stream(client, stream_url(cast.game.id, after=0), bearer(token))
        assert stream.response.status_code == 200
        messages = stream.until("end")
        draws = [m[2] for m in messages if m[0] == "draw"]
        views = [m[2] for m in messages if m[0] == "view"]
        assert draws and views
        if hide:
            assert all(d["suit"] is None for d in draws) and hidden(views[-1])
        else:
            assert all(d["suit"] is not None for d in draws) and shown(views[-1])
        stream.close()


def test_a_hidden_and_a_revealed_view_share_no_etag_or_cache(
    client: FlaskClient, cast: Cast
) -> None:
    url = cast.game.url
    for order in ((None, cast.fin), (cast.fin, None)):
        tags = {}
        for token in order:
            response = client.get(url, headers=bearer(token))
            tags[token] = response.headers["ETag"]
            assert hidden(response.get_json()) is (token is None)
        assert tags[None] != tags[cast.fin]
        # the other's tag is no 304
        again = client.get(url, headers={**bearer(None), "If-None-Match": tags[cast.fin]})
        assert again.status_code == 200 and hidden(again.get_json())
        again = client.get(url, headers={**bearer(cast.fin), "If-None-Match": tags[None]})
        assert again.status_code == 200 and shown(again.get_json())


def test_an_unfinished_game_on_the_seed_closes_it_again(client: FlaskClient, cast: Cast) -> None:
    assert shown(client.get(cast.game.url, headers=bearer(cast.fin)).get_json())
    (_, mate) = session(client)
    again = seat_table(client, [cast.fin, mate], seed=cast.seed)
    assert hidden(client.get(cast.game.url, headers=bearer(cast.fin)).get_json())
    again.end()
    assert shown(client.get(cast.game.url, headers=bearer(cast.fin)).get_json())


def test_games_with_no_seed_name_stay_public(client: FlaskClient) -> None:
    custom = played(make_table(client, 2, seed="friday-night"))
    view = custom.view(None)
    assert shown(view) and "cards_hidden" not in view
    assert client.get(f"{custom.url}/export").status_code == 200
    assert client.get(f"{custom.url}/replay?turn=1").status_code == 200
    events = client.get(f"{custom.url}/events").get_json()["events"]
    assert all(e["suit"] is not None for e in events if e["type"] == "draw")


def bot_table(client: FlaskClient, **create: Any) -> Table:
    table = make_table(client, 1, start=False, **create)
    for _ in range(2):
        added = table.post("/bots", 0, {"strategy": "hat"})
        assert added.status_code == 201, added.get_json()
    return table


def test_an_all_bot_table_reveals_live_only_without_a_seed_name(client: FlaskClient) -> None:
    named = bot_table(client)  # dealt a random seed: named
    started = named.post("/start", 0, {"watch": True})
    assert started.status_code == 200, started.get_json()
    assert hidden(started.get_json())
    assert hidden(named.view(None))
    (_, anyone) = session(client)
    assert hidden(client.get(named.url, headers=bearer(anyone)).get_json())
    events = client.get(f"{named.url}/events").get_json()["events"]
    assert all(e["suit"] is None for e in events if e["type"] == "draw")
    custom = bot_table(client, seed="all-bots-custom")
    assert custom.post("/start", 0, {"watch": True}).status_code == 200
    assert shown(custom.view(None))
