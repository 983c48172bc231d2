"""The lobby's chat and the replay rooms' chat: who may read and say (a spectator, a
stranger's account, a seat), the long-poll, mutes, reports, mentions, and the bounds and
rates (docs/chat.md)."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest
from account_helpers import FAST, session
from api_helpers import API, Table, assert_problem, assert_valid, bearer, make_table
from flask import Flask
from flask.testing import FlaskClient

from hanabi.server import create_app
from hanabi.server.api.schemas.chat import ChatLineResultSchema, ChatPageSchema, MutesSchema

pytestmark = pytest.mark.cluster  # run again on a Redis Cluster (make test-cluster)

LOBBY = f"{API}/chat/lobby"


@pytest.fixture(scope="module")
def chat_app(redis_url: str) -> Iterator[Flask]:
    """Two lines a minute per account, two reports hide a line, two mutes at most."""
    app = create_app({"REDIS_URL": redis_url, **FAST, "HANABI_BOT_WORKER": 0,
                      "HANABI_LIMIT_CHAT_ACCOUNT": "2/minute", "HANABI_CHAT_HIDE_REPORTS": 2,
                      "HANABI_MAX_MUTES": 2, "HANABI_CHAT_KEEP": 50})  # fmt: skip
    app.testing = True
    yield app


@pytest.fixture
def client(chat_app: Flask) -> FlaskClient:
    return chat_app.test_client()


def say(client: FlaskClient, token: str | None, text: str, url: str = LOBBY) -> Any:
    return client.post(url, json={"text": text}, headers=bearer(token))


def said(client: FlaskClient, token: str | None, text: str, url: str = LOBBY) -> dict[str, Any]:
    response = say(client, token, text, url)
    assert response.status_code == 201, response.get_json()
    assert_valid(ChatLineResultSchema, response.get_json())
    return response.get_json()["line"]


def read(client: FlaskClient, token: str | None, after: int = 0, url: str = LOBBY) -> Any:
    response = client.get(url, query_string={"after": after}, headers=bearer(token))
    assert response.status_code == 200, response.get_json()
    assert_valid(ChatPageSchema, response.get_json())
    return response.get_json()


def texts(page: dict[str, Any]) -> list[str]:
    return [line["text"] for line in page["lines"]]


def test_the_lobby_chat_is_for_accounts(client: FlaskClient) -> None:
    ann, ann_token = session(client)
    _, stranger = session(client)
    seat = make_table(client, 2, start=False)  # guests: a seat token is no account
    before = read(client, stranger)["last"]
    assert_problem(client.get(LOBBY), 401, "account_required")  # a spectator
    assert_problem(client.get(LOBBY, headers=bearer(seat.tokens[0])), 401, "account_required")
    assert_problem(say(client, None, "hi"), 401, "account_required")
    assert_problem(say(client, seat.tokens[1], "hi"), 401, "account_required")
    line = said(client, ann_token, "  hello lobby  ")
    assert line["name"] == ann and line["text"] == "hello lobby" and line["mentions"] == []
    assert line["seq"] > before
    page = read(client, stranger, before)
    assert texts(page) == ["hello lobby"] and page["last"] == line["seq"]
    assert "a" not in page["lines"][0]  # the author's account id stays inside
    assert read(client, stranger, page["last"])["lines"] == []


def test_a_reader_waits_on_a_socket_for_the_next_line(client: FlaskClient) -> None:
    _, ann = session(client)
    _, bob = session(client)
    after = read(client, bob)["last"]
    answers: list[Any] = []

    def wait() -> None:
        query = {"after": after, "wait": 10}
        answers.append(client.get(LOBBY, query_string=query, headers=bearer(bob)))

    waiter = threading.Thread(target=wait)
    began = time.monotonic()
    waiter.start()
    time.sleep(0.3)
    assert answers == []  # held: nothing new yet
    said(client, ann, "anyone for a 3p game?")
    waiter.join(10)
    assert time.monotonic() - began < 5
    assert texts(answers[0].get_json()) == ["anyone for a 3p game?"]
    # nothing new: a short wait answers 200 with no lines
    quiet = client.get(LOBBY, query_string={"after": answers[0].get_json()["last"], "wait": 0.3},
                       headers=bearer(bob))  # fmt: skip
    assert quiet.status_code == 200 and quiet.get_json()["lines"] == []


def test_bounds_and_rates(client: FlaskClient) -> None:
    _, ann = session(client)
    assert_problem(say(client, ann, "x" * 301), 400, "validation_error")
    assert_problem(say(client, ann, "   "), 400, "validation_error")
    huge = client.post(LOBBY, data=b'{"text": "' + b"x" * 70_000 + b'"}',
                       headers={**bearer(ann), "Content-Type": "application/json"})  # fmt: skip
    assert_problem(huge, 413, "body_too_large")
    said(client, ann, "one")
    said(client, ann, "two")
    refused = say(client, ann, "three")
    assert_problem(refused, 429, "rate_limited")
    assert 1 <= int(refused.headers["Retry-After"]) <= 60
    assert_problem(client.get(LOBBY, query_string={"wait": 99}, headers=bearer(ann)), 400,
                   "invalid_query")  # fmt: skip


def test_a_mute_hides_an_account_from_the_one_who_muted_it(client: FlaskClient) -> None:
    ann, ann_token = session(client)
    bob, bob_token = session(client)
    _, cat = session(client)
    after = read(client, cat)["last"]
    muted = client.put(f"{API}/accounts/me/mutes/{bob.upper()}", headers=bearer(ann_token))
    assert muted.status_code == 204
    said(client, bob_token, "spam from bob")
    said(client, ann_token, "ann here")
    assert texts(read(client, ann_token, after)) == ["ann here"]
    assert texts(read(client, cat, after)) == ["spam from bob", "ann here"]
    mutes = client.get(f"{API}/accounts/me/mutes", headers=bearer(ann_token)).get_json()
    assert_valid(MutesSchema, mutes)
    assert mutes == {"mutes": [bob]}
    # bounded, never oneself, never nobody; unmuting reads it again
    url = f"{API}/accounts/me/mutes/"
    assert_problem(client.put(url + ann, headers=bearer(ann_token)), 400, "own_account")
    assert_problem(client.put(url + "nobody-here", headers=bearer(ann_token)), 404,
                   "player_not_found")  # fmt: skip
    assert client.put(url + bob, headers=bearer(ann_token)).status_code == 204  # again: same
    others = [session(client)[0] for _ in range(2)]
    assert client.put(url + others[0], headers=bearer(ann_token)).status_code == 204
    assert_problem(client.put(url + others[1], headers=bearer(ann_token)), 409, "too_many_mutes")
    assert_problem(client.put(url + bob), 401, "account_required")
    assert client.delete(url + bob, headers=bearer(ann_token)).status_code == 204
    assert_problem(client.delete(url + bob, headers=bearer(ann_token)), 404, "not_muted")
    assert texts(read(client, ann_token, after)) == ["spam from bob", "ann here"]


def test_reports_hide_a_line_from_everyone(client: FlaskClient) -> None:
    _, troll = session(client)
    _, ann = session(client)
    _, bob = session(client)
    line = said(client, troll, "something rude")
    after = line["seq"] - 1
    url = f"{LOBBY}/reports"
    assert_problem(client.post(url, json={"seq": line["seq"]}), 401, "account_required")
    seat = make_table(client, 2, start=False).tokens[0]  # a guest's seat token: no account
    assert_problem(client.post(url, json={"seq": line["seq"]}, headers=bearer(seat)), 401,
                   "account_required")  # fmt: skip
    assert_problem(client.post(url, json={"seq": 10**11}, headers=bearer(ann)), 404,
                   "line_not_found")  # fmt: skip
    assert client.post(url, json={"seq": line["seq"]}, headers=bearer(ann)).status_code == 204
    assert client.post(url, json={"seq": line["seq"]}, headers=bearer(ann)).status_code == 204
    assert "something rude" in texts(read(client, bob, after))  # one reporter: not yet
    assert client.post(url, json={"seq": line["seq"]}, headers=bearer(bob)).status_code == 204
    assert "something rude" not in texts(read(client, bob, after))
    assert "something rude" not in texts(read(client, troll, after))
    queue = client.application.extensions["hanabi"].store.redis.lrange("hanabi:chat:reports", 0, 5)
    assert any(b"something rude" in entry for entry in queue)


def test_mentions_are_listed_with_their_names(client: FlaskClient) -> None:
    ann, ann_token = session(client)
    bob, _ = session(client)
    line = said(client, ann_token, f"@{bob} @nobody-at-all @{ann} mail me at x@{bob} @{bob}")
    assert line["mentions"] == [bob]  # each once; not the author, nobody, nor an address


# -- replay rooms ----------------------------------------------------------------------


@pytest.fixture
def room(client: FlaskClient) -> tuple[str, Table]:
    """A room on a finished guests' game (its own deal: no seed's gate): (room id, table)."""
    table = make_table(client, 2, seed="chat-room")
    table.end()
    response = client.post(f"{API}/replays", json={"game_id": table.id},
                           headers=bearer(table.tokens[0]))  # fmt: skip
    assert response.status_code == 201, response.get_json()
    return response.get_json()["id"], table


def test_a_replay_room_has_its_own_chat(client: FlaskClient, room: tuple[str, Table]) -> None:
    room_id, table = room
    url = f"{API}/replays/{room_id}/chat"
    ann, ann_token = session(client)
    assert read(client, None, url=url) == {"lines": [], "last": 0}  # a spectator reads
    assert_problem(say(client, None, "hi", url), 401, "account_required")
    assert_problem(say(client, table.tokens[0], "hi", url), 401, "account_required")  # a seat
    line = said(client, ann_token, "what a discard on turn 3", url)  # a stranger's account
    assert line["seq"] == 1 and line["name"] == ann
    assert texts(read(client, table.tokens[1], url=url)) == ["what a discard on turn 3"]
    assert "what a discard on turn 3" not in texts(read(client, ann_token))  # not the lobby's
    reports = f"{url}/reports"
    assert_problem(client.post(reports, json={"seq": 1}), 401, "account_required")
    assert_problem(client.post(reports, json={"seq": 1}, headers=bearer(table.tokens[0])), 401,
                   "account_required")  # fmt: skip
    assert client.post(reports, json={"seq": 1}, headers=bearer(ann_token)).status_code == 204
    missing = f"{API}/replays/nosuchroom/chat"
    assert_problem(client.get(missing), 404, "room_not_found")
    assert_problem(say(client, ann_token, "hi", missing), 404, "room_not_found")
    ttl = client.application.extensions["hanabi"].store.redis.pttl(
        "{game:chat-room-" + room_id + "}:cl"
    )
    assert 0 < ttl <= 6 * 3600 * 1000  # the lines go with the room


def test_a_seed_rooms_chat_is_for_whom_the_room_admits(client: FlaskClient) -> None:
    """A room of a finished game is public (docs/watching.md), so its chat is anyone's to
    read, the anonymous included; writing takes an account, and a stranger's account may."""
    table = make_table(client, 2)  # a random deal: a seed name
    table.end()
    made = client.post(f"{API}/replays", json={"game_id": table.id},
                       headers=bearer(table.tokens[0]))  # fmt: skip
    assert made.status_code == 201, made.get_json()
    url = f"{API}/replays/{made.get_json()['id']}/chat"
    _, stranger = session(client)
    assert client.get(url).status_code == 200  # anonymous: a finished game is public
    assert say(client, stranger, "hi", url).status_code == 201
    assert [line["text"] for line in read(client, stranger, url=url)["lines"]] == ["hi"]
    assert len(read(client, table.tokens[1], url=url)["lines"]) == 1  # a seat of the game
