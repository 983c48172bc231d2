"""Abuse limits: 429 problem+json with Retry-After past a rate, nothing done; counters in
Redis shared by every app (node); X-Forwarded-For only from trusted proxies; HANABI_LIMITS
off keeps the per-seat and per-game limits; the defaults never bother normal play.

Every test uses client addresses of its own (the counters live in the session's Redis).
"""

from __future__ import annotations

import secrets
import threading
import time
from typing import Any

from api_helpers import API, assert_problem, bearer
from flask import Flask

from hanabi.server import create_app
from hanabi.server.ops.config import SETTINGS


def _app(redis_url: str, **settings: Any) -> Flask:
    """An app with the service's default limits (the suite's environment lifts some, see
    tests/conftest.py), changed by ``settings``."""
    defaults = {name: default for name, (default, _) in SETTINGS.items() if "LIMIT" in name}
    app = create_app({"REDIS_URL": redis_url, **defaults, "HANABI_LIMITS": "on", **settings})
    app.testing = True
    return app


def _address() -> str:
    return f"10.{secrets.randbelow(250)}.{secrets.randbelow(250)}.{secrets.randbelow(250) + 1}"


def _client(app: Flask, address: str) -> Any:
    client = app.test_client()
    client.environ_base["REMOTE_ADDR"] = address  # the connection's address
    return client


def _create(client: Any, **body: Any) -> Any:
    return client.post(f"{API}/games", json={"name": "host", **body})


def test_creating_past_the_rate_is_429_with_retry_after_and_creates_nothing(redis_url: str):
    app = _app(redis_url, HANABI_LIMIT_CREATE="3/minute")
    client = _client(app, _address())
    for _ in range(3):
        assert _create(client).status_code == 201
    index = app.extensions["hanabi"].store.redis
    games_before = index.zcard("hanabi:index:all")
    refused = _create(client, seed="never")
    body = assert_problem(refused, 429, "rate_limited")
    assert 1 <= int(refused.headers["Retry-After"]) <= 60
    assert "try again in" in body["detail"]
    assert index.zcard("hanabi:index:all") == games_before  # nothing was created
    # another address is not held back
    assert _create(_client(app, _address())).status_code == 201


def test_counters_are_shared_by_every_node(redis_url: str):
    one = _app(redis_url, HANABI_LIMIT_CREATE="3/minute")
    two = _app(redis_url, HANABI_LIMIT_CREATE="3/minute")
    address = _address()
    assert _create(_client(one, address)).status_code == 201
    assert _create(_client(two, address)).status_code == 201
    assert _create(_client(one, address)).status_code == 201
    assert_problem(_create(_client(two, address)), 429, "rate_limited")


def test_joins_and_bot_seats_count_against_the_address(redis_url: str):
    app = _app(redis_url, HANABI_LIMIT_JOIN="2/minute")
    address = _address()
    client = _client(app, address)
    host = _create(client, max_players=5).get_json()
    url = f"{API}/games/{host['id']}"
    assert client.post(f"{url}/players", json={"name": "bob"}).status_code == 201
    assert client.post(f"{url}/bots", json={}, headers=bearer(host["token"])).status_code == 201
    assert_problem(client.post(f"{url}/players", json={"name": "cat"}), 429, "rate_limited")
    assert len(client.get(url).get_json()["players"]) == 3  # nothing half-done


def test_chat_per_seat_and_per_game_even_with_limits_off(redis_url: str):
    app = _app(
        redis_url,
        HANABI_LIMITS="off",
        HANABI_LIMIT_CHAT_SEAT="2/minute",
        HANABI_LIMIT_CHAT_GAME="3/minute",
    )
    client = _client(app, _address())
    host = _create(client).get_json()
    url = f"{API}/games/{host['id']}"
    guest = client.post(f"{url}/players", json={"name": "bob"}).get_json()

    def say(token: str, text: str) -> Any:
        return client.post(f"{url}/chat", json={"text": text}, headers=bearer(token))

    assert say(host["token"], "one").status_code == 201
    assert say(host["token"], "two").status_code == 201
    assert_problem(say(host["token"], "three"), 429, "rate_limited")  # this seat's rate
    assert say(guest["token"], "hello").status_code == 201
    refused = assert_problem(say(guest["token"], "again"), 429, "rate_limited")  # the table's
    assert "at this table" in refused["detail"]
    chats = [e for e in client.get(f"{url}/events").get_json()["events"] if e["type"] == "chat"]
    assert [c["text"] for c in chats] == ["one", "two", "hello"]
    # someone with no seat cannot use up the table's chat
    assert_problem(say("not-a-seat-token-at-all", "spam"), 403, "not_a_player")


def test_two_credentials_on_one_seat_share_its_chat_limit(redis_url: str):
    """A seat bound to an account answers to its seat token and to the account's session
    token and API keys: its chat rate is the seat's, whichever of them sends the line."""
    from account_helpers import FAST, session

    app = _app(redis_url, **FAST, HANABI_LIMIT_CHAT_SEAT="3/minute")
    client = _client(app, _address())
    _, account = session(client)
    key = client.post(f"{API}/accounts/me/keys", json={"name": "bot"}, headers=bearer(account))
    assert key.status_code == 201
    created = client.post(f"{API}/games", json={}, headers=bearer(account)).get_json()
    url = f"{API}/games/{created['id']}"
    guest = client.post(f"{url}/players", json={"name": "bob"}).get_json()

    def say(token: str, text: str) -> Any:
        return client.post(f"{url}/chat", json={"text": text}, headers=bearer(token))

    for token in (account, created["token"], key.get_json()["key"]):
        assert say(token, "one line each").status_code == 201
    for token in (account, created["token"], key.get_json()["key"]):
        assert_problem(say(token, "one more"), 429, "rate_limited")
    assert say(guest["token"], "the other seat's own").status_code == 201


def test_tickets_per_address(redis_url: str):
    app = _app(redis_url, HANABI_LIMIT_TICKET="2/minute")
    client = _client(app, _address())
    host = _create(client).get_json()
    url = f"{API}/games/{host['id']}/tickets"
    assert client.post(url, headers=bearer(host["token"])).status_code == 201
    assert client.post(url, headers=bearer(host["token"])).status_code == 201
    assert_problem(client.post(url, headers=bearer(host["token"])), 429, "rate_limited")


def test_waiting_requests_per_address(redis_url: str):
    app = _app(redis_url, HANABI_MAX_WAITING_PER_ADDRESS=2)
    address = _address()
    client = _client(app, address)
    game = _create(client).get_json()["id"]
    etag = client.get(f"{API}/games/{game}").headers["ETag"]
    answers: list[int] = []

    def hold() -> None:
        mine = _client(app, address)
        answers.append(
            mine.get(f"{API}/games/{game}?wait=2", headers={"If-None-Match": etag}).status_code
        )

    threads = [threading.Thread(target=hold) for _ in range(2)]
    for thread in threads:
        thread.start()
    time.sleep(0.5)
    refused = client.get(f"{API}/games/{game}?wait=2", headers={"If-None-Match": etag})
    assert_problem(refused, 429, "too_many_waiting")
    assert refused.headers["Retry-After"]
    assert_problem(client.get(f"{API}/games/{game}/stream"), 429, "too_many_waiting")
    # another address, and requests that do not wait, are not held back
    assert _client(app, _address()).get(f"{API}/games/{game}?wait=0.1",
                                         headers={"If-None-Match": etag}).status_code == 304  # fmt: skip
    assert client.get(f"{API}/games/{game}").status_code == 200
    for thread in threads:
        thread.join(10)
    assert answers == [304, 304]
    # released: this address may wait again
    again = client.get(f"{API}/games/{game}?wait=0.1", headers={"If-None-Match": etag})
    assert again.status_code == 304


def test_forwarded_for_counts_only_behind_a_trusted_proxy(redis_url: str):
    proxy = _address()
    trusting = _app(redis_url, HANABI_LIMIT_CREATE="1/minute", HANABI_TRUSTED_PROXIES=proxy)
    through = _client(trusting, proxy)
    first, second = _address(), _address()
    assert through.post(f"{API}/games", json={"name": "a"},
                        headers={"X-Forwarded-For": f"{first}, {proxy}"}).status_code == 201  # fmt: skip
    assert through.post(f"{API}/games", json={"name": "b"},
                        headers={"X-Forwarded-For": first}).status_code == 429  # fmt: skip
    assert through.post(f"{API}/games", json={"name": "c"},
                        headers={"X-Forwarded-For": second}).status_code == 201  # fmt: skip
    # Not behind a trusted proxy: the header is the client's to invent, and is ignored.
    plain = _app(redis_url, HANABI_LIMIT_CREATE="1/minute")
    direct = _client(plain, _address())
    assert direct.post(f"{API}/games", json={"name": "d"},
                       headers={"X-Forwarded-For": _address()}).status_code == 201  # fmt: skip
    assert direct.post(f"{API}/games", json={"name": "e"},
                       headers={"X-Forwarded-For": _address()}).status_code == 429  # fmt: skip


def test_limits_off_lifts_the_per_address_rates(redis_url: str):
    app = _app(redis_url, HANABI_LIMITS="off", HANABI_LIMIT_CREATE="1/minute")
    client = _client(app, _address())
    assert [_create(client).status_code for _ in range(3)] == [201, 201, 201]


def test_the_defaults_never_bother_normal_play(redis_url: str):
    """A person playing a whole game with a partner, chatting and long-polling every
    turn; a host seating bots and watching them; a front end streaming: no 429."""
    app = _app(redis_url)
    address = _address()
    client = _client(app, address)
    for _ in range(5):  # a few tables opened and left in a minute
        host = _create(client, max_players=2, seed=secrets.token_hex(4)).get_json()
    url = f"{API}/games/{host['id']}"
    guest = client.post(f"{url}/players", json={"name": "bob"}).get_json()
    tokens = [host["token"], guest["token"]]
    assert client.post(f"{url}/start", headers=bearer(tokens[0])).status_code == 200
    turns = 0
    while True:
        view = client.get(url, headers=bearer(tokens[0])).get_json()
        if view["status"] == "finished":
            break
        seat = view["current_seat"]
        mine = client.get(url, headers=bearer(tokens[seat]))
        other = client.get(
            f"{url}?wait=0.05", headers={**bearer(tokens[1 - seat]), "If-None-Match": "x"}
        )
        assert other.status_code == 200
        legal = mine.get_json()["legal_actions"]
        action = next((a for a in legal if a["type"] == "discard"), legal[0])
        answer = client.post(
            f"{url}/actions", json={"turn": view["turn"], **action}, headers=bearer(tokens[seat])
        )
        assert answer.status_code == 201, answer.get_json()
        if turns % 5 == 0 and answer.get_json()["game"]["status"] == "playing":
            said = client.post(f"{url}/chat", json={"text": "nice"}, headers=bearer(tokens[seat]))
            assert said.status_code == 201
        turns += 1
    bots = _create(client, max_players=5).get_json()
    burl = f"{API}/games/{bots['id']}"
    for _ in range(4):
        assert (
            client.post(f"{burl}/bots", json={}, headers=bearer(bots["token"])).status_code == 201
        )
    assert client.post(f"{burl}/start", json={"watch": True},
                       headers=bearer(bots["token"])).status_code == 200  # fmt: skip
    for _ in range(3):
        ticket = client.post(f"{url}/tickets", headers=bearer(tokens[0]))
        assert ticket.status_code == 201
