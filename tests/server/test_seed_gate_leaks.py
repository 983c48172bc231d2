"""Holes found in review of the seed gate (docs/seeds.md, docs/security.md): a player in
play must not learn which seed its game was dealt (it could deal a copy and see its own
cards), and a replay room's stream opened as an account stops when the account may no
longer see the seed, or its credential ends."""

from __future__ import annotations

from typing import Any

import test_seed_gate
from account_helpers import session
from api_helpers import API, bearer
from flask.testing import FlaskClient
from test_seed_gate import ROOMS, Cast, seat_table
from test_seed_gate_follow import ticket
from test_stream import Stream

app, client, cast = test_seed_gate.app, test_seed_gate.client, test_seed_gate.cast  # fixtures


def answer(client: FlaskClient, name: str, token: str) -> tuple[int, str]:
    response = client.get(f"{API}/seeds/{name}", headers=bearer(token))
    return response.status_code, response.get_json().get("code", "")


def other_name(name: str) -> str:
    head, _, number = name.rpartition("s")
    return f"{head}s{int(number) % 999_999_999 + 1}"


def test_the_seed_page_does_not_tell_a_player_the_seed_it_was_not_told(
    client: FlaskClient,
) -> None:
    store = client.application.extensions["hanabi"].store
    for mode in ("unplayed", "random"):
        (_, a), (_, b) = session(client), session(client)
        table = seat_table(client, [a, b], seed=mode)
        name = store.load(table.id).seed_name
        assert "seed" not in table.view(0)  # the seat is not told its name in play...
        # ...and the seed page answers its name as it answers any other it never finished
        assert answer(client, name, a) == answer(client, other_name(name), a)
        assert answer(client, name, a) == (403, "seed_not_played")
        table.end()
        assert answer(client, name, a)[0] == 200


def room_with_account_stream(client: FlaskClient, cast: Cast) -> tuple[str, str, Stream]:
    made = client.post(ROOMS, json={"game_id": cast.game.id}, headers=bearer(cast.ann))
    room, leader = made.get_json()["id"], made.get_json()["token"]
    url = f"{ROOMS}/{room}"
    stream = Stream(client, f"{url}/stream?ticket={ticket(client, url, cast.fin)}")
    assert stream.response.status_code == 200 and stream.until("room")
    return url, leader, stream


def after_a_move(client: FlaskClient, url: str, leader: str, stream: Stream) -> list[Any]:
    moved = client.put(f"{url}/position", json={"turn": 1}, headers=bearer(leader))
    assert moved.status_code == 200, moved.get_json()
    messages = stream.until("end")
    stream.close()
    return messages


def kinds(messages: list[Any]) -> list[str]:
    return [m[0] for m in messages if m[0] not in (None, "comment")]


def test_a_room_stream_of_an_account_ends_when_it_plays_the_seed_again(
    client: FlaskClient, cast: Cast
) -> None:
    url, leader, stream = room_with_account_stream(client, cast)
    (_, mate) = session(client)
    again = seat_table(client, [cast.fin, mate], seed=cast.seed)  # its own cards, dealt again
    messages = after_a_move(client, url, leader, stream)
    assert kinds(messages) == ["end"]
    assert messages[-1][2] == {"reason": "seed_not_played"}
    again.end()


def test_a_room_stream_of_an_account_ends_with_its_session(client: FlaskClient, cast: Cast) -> None:
    url, leader, stream = room_with_account_stream(client, cast)
    assert client.delete(f"{API}/sessions/current", headers=bearer(cast.fin)).status_code == 204
    messages = after_a_move(client, url, leader, stream)
    assert kinds(messages) == ["end"]
    assert messages[-1][2] == {"reason": "revoked"}
