"""Friends: following accounts (bounded, private), their tables first in the lobby, and
the webhooks a friend's new table and a chat mention call (docs/chat.md, docs/turns.md)."""

from __future__ import annotations

import hashlib
import hmac
import json
import time
from collections.abc import Iterator
from typing import Any

import pytest
from account_helpers import FAST, session
from api_helpers import API, assert_problem, assert_valid, bearer
from flask import Flask
from flask.testing import FlaskClient

from hanabi.server import create_app
from hanabi.server.api.schemas.chat import FollowsSchema
from hanabi.server.api.schemas.turns import DeliveryListSchema
from hanabi.server.api.schemas.views import GamePageSchema
from webhook_receiver import Receiver

pytestmark = pytest.mark.single_redis  # its own database: its delivery threads alone
FOLLOWS = f"{API}/accounts/me/follows"


@pytest.fixture(scope="module")
def friends_app(redis_url: str) -> Iterator[Flask]:
    """Private webhook addresses allowed (the receiver is local); three follows at most."""
    url = redis_url.rsplit("/", 1)[0] + "/15"
    app = create_app({"REDIS_URL": url, **FAST, "HANABI_BOT_WORKER": 0,
                      "HANABI_WEBHOOK_PRIVATE": "on", "HANABI_MAX_FOLLOWS": 3,
                      "HANABI_WEBHOOK_TIMEOUT": 2.0})  # fmt: skip
    app.extensions["hanabi"].store.redis.flushdb()
    app.testing = True
    yield app
    app.extensions["hanabi_webhooks"].close(timeout=0)


@pytest.fixture
def client(friends_app: Flask) -> FlaskClient:
    return friends_app.test_client()


@pytest.fixture
def receiver() -> Iterator[Receiver]:
    started = Receiver()
    yield started
    started.server.shutdown()


def follow(client: FlaskClient, token: str | None, name: str) -> Any:
    return client.put(f"{FOLLOWS}/{name}", headers=bearer(token))


def open_table(client: FlaskClient, token: str | None, name: str | None = None) -> str:
    return opened(client, token, name)["id"]


def opened(client: FlaskClient, token: str | None, name: str | None = None) -> dict[str, Any]:
    """A new table: its grant (id, seat token)."""
    body = {"name": name} if name else {}
    response = client.post(f"{API}/games", json=body, headers=bearer(token))
    assert response.status_code == 201, response.get_json()
    return response.get_json()


def lobby(client: FlaskClient, token: str | None) -> list[dict[str, Any]]:
    response = client.get(f"{API}/games", query_string={"status": "lobby", "limit": 100},
                          headers=bearer(token))  # fmt: skip
    assert response.status_code == 200, response.get_json()
    assert_valid(GamePageSchema, response.get_json())
    return response.get_json()["games"]


def set_hook(client: FlaskClient, token: str, url: str) -> str:
    response = client.put(f"{API}/accounts/me/webhook", headers=bearer(token), json={"url": url})
    assert response.status_code == 200, response.get_json()
    return response.get_json()["secret"]


def verified(secret: str, headers: dict[str, str], body: bytes) -> dict[str, Any]:
    expected = "sha256=" + hmac.new(secret.encode(), body, hashlib.sha256).hexdigest()
    assert hmac.compare_digest(headers["X-Hanabi-Signature"], expected)
    return json.loads(body)


def test_following_is_bounded_and_private(client: FlaskClient) -> None:
    ann, ann_token = session(client)
    bob, bob_token = session(client)
    assert_problem(follow(client, None, bob), 401, "account_required")  # a spectator
    seat = opened(client, None, "guest")["token"]  # a seat's token is no account
    assert_problem(follow(client, seat, bob), 401, "account_required")
    assert_problem(client.get(FOLLOWS, headers=bearer(seat)), 401, "account_required")
    assert_problem(client.put(f"{API}/accounts/me/mutes/{bob}", headers=bearer(seat)), 401,
                   "account_required")  # fmt: skip
    assert follow(client, ann_token, bob).status_code == 204
    assert follow(client, ann_token, bob.upper()).status_code == 204  # again: nothing new
    listed = client.get(FOLLOWS, headers=bearer(ann_token)).get_json()
    assert_valid(FollowsSchema, listed)
    assert listed == {"follows": [bob], "limit": 3}
    # bob is not told, and sees no followers anywhere
    assert client.get(FOLLOWS, headers=bearer(bob_token)).get_json()["follows"] == []
    me = client.get(f"{API}/accounts/me", headers=bearer(bob_token)).get_json()
    assert ann not in json.dumps(me)
    assert_problem(follow(client, ann_token, ann), 400, "own_account")
    assert_problem(follow(client, ann_token, "no-such-player"), 404, "player_not_found")
    for _ in range(2):
        assert follow(client, ann_token, session(client)[0]).status_code == 204
    assert_problem(follow(client, ann_token, session(client)[0]), 409, "too_many_follows")
    assert client.delete(f"{FOLLOWS}/{bob}", headers=bearer(ann_token)).status_code == 204
    assert_problem(client.delete(f"{FOLLOWS}/{bob}", headers=bearer(ann_token)), 404,
                   "not_followed")  # fmt: skip
    assert_problem(client.get(FOLLOWS), 401, "account_required")


def test_friends_tables_come_first_and_name_them(client: FlaskClient) -> None:
    _, ann = session(client)
    bob, bob_token = session(client)
    _, stranger = session(client)
    assert follow(client, ann, bob).status_code == 204
    friends_table = open_table(client, bob_token)
    impostor = open_table(client, None, bob)  # a guest who took bob's name: no friend
    others = [open_table(client, stranger) for _ in range(2)]  # newer: listed before
    games = lobby(client, ann)
    assert games[0]["id"] == friends_table and games[0]["friends"] == [bob]
    assert all("friends" not in g for g in games[1:])
    assert {impostor, *others} <= {g["id"] for g in games}
    # a spectator, a stranger and a seat see the plain order, and no friends
    for token in (None, stranger, bob_token):
        plain = lobby(client, token)
        assert plain[0]["id"] != friends_table
        assert all("friends" not in g for g in plain)


def test_a_friends_new_table_and_a_mention_call_the_webhook(
    client: FlaskClient, receiver: Receiver
) -> None:
    ann, ann_token = session(client)
    bob, bob_token = session(client)
    _, cat_token = session(client)
    secret = set_hook(client, ann_token, receiver.url)
    assert follow(client, ann_token, bob).status_code == 204
    game_id = open_table(client, bob_token)
    headers, body, _ = receiver.wait(1)[0]
    payload = verified(secret, headers, body)
    assert headers["X-Hanabi-Event"] == "friend_table" == payload["event"]
    assert payload["game_id"] == game_id and payload["host"] == bob
    assert payload["web"] == f"/games/{game_id}" and payload["players"] == [bob]
    open_table(client, cat_token)  # not a friend: no call
    said = client.post(f"{API}/chat/lobby", json={"text": f"@{ann} want to play?"},
                       headers=bearer(bob_token))  # fmt: skip
    assert said.status_code == 201
    headers, body, _ = receiver.wait(2)[1]
    payload = verified(secret, headers, body)
    assert payload["event"] == "mention" and payload["channel"] == "lobby"
    assert payload["from"] == bob and payload["text"] == f"@{ann} want to play?"
    # muted: bob's mentions of ann call nothing more
    assert (
        client.put(f"{API}/accounts/me/mutes/{bob}", headers=bearer(ann_token)).status_code == 204
    )
    client.post(f"{API}/chat/lobby", json={"text": f"@{ann} hello?"}, headers=bearer(bob_token))
    client.post(f"{API}/chat/lobby", json={"text": f"@{ann} from cat"}, headers=bearer(cat_token))
    headers, body, _ = receiver.wait(3)[2]
    assert verified(secret, headers, body)["text"] == f"@{ann} from cat"
    assert len(receiver.calls) == 3
    # each call is logged once its answer is read: the last may land a moment after
    deadline = time.monotonic() + 10
    while True:
        logged = client.get(f"{API}/accounts/me/webhook/deliveries", headers=bearer(ann_token))
        events = [d["event"] for d in logged.get_json()["deliveries"]]
        if len(events) >= 3 or time.monotonic() > deadline:
            break
        time.sleep(0.05)
    assert_valid(DeliveryListSchema, logged.get_json())
    assert sorted(events) == ["friend_table", "mention", "mention"]
