"""What ends an account credential ends everything standing on it, within one request: a
logout, logging out everywhere, a password change (API keys too, unless kept), a key's
revocation and the account's deletion. Its stream tickets are refused at once, its open
event streams close at their next wake (``event: end``, reason ``revoked``), at most one
keep-alive later, and a long-poll that waited through it answers 401.

Streams are read as in test_stream.py (a thread per stream, on the Flask test client).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from account_helpers import FAST, PASSWORD, account_table, login, session
from api_helpers import API, assert_problem, bearer, make_table
from flask import Flask
from flask.testing import FlaskClient
from test_stream import Stream, stream_url

from hanabi.server import create_app

KEEPALIVE = 0.5


@pytest.fixture(scope="module")
def app(redis_url: str) -> Iterator[Flask]:
    config = {"REDIS_URL": redis_url, **FAST, "HANABI_KEEPALIVE": KEEPALIVE}
    app = create_app({**config, "HANABI_STREAM_MAX": 20})
    app.testing = True
    yield app


@pytest.fixture
def client(app: Flask) -> FlaskClient:
    return app.test_client()


def _opened(stream: Stream) -> Stream:
    assert stream.response.status_code == 200, stream.response.get_json()
    stream.until("view")
    return stream


def _revoked(stream: Stream) -> None:
    """The stream's next messages (after the revoking request was answered): at most one
    keep-alive already on its way, then the end, then the close."""
    got = stream.until("end", timeout=KEEPALIVE * 6)
    assert got[-1] == ("end", None, {"reason": "revoked"})
    assert [m[0] for m in got[:-1]] in ([], ["comment"]), got
    assert stream.next()[0] == "<closed>"


def _ticket(client: FlaskClient, gid: str, token: str) -> str:
    response = client.post(f"{API}/games/{gid}/tickets", headers=bearer(token))
    assert response.status_code == 201, response.get_json()
    return response.get_json()["ticket"]


def _key(client: FlaskClient, token: str) -> str:
    response = client.post(f"{API}/accounts/me/keys", json={"name": "bot"}, headers=bearer(token))
    assert response.status_code == 201
    return response.get_json()["key"]


def _me(client: FlaskClient, token: str) -> Any:
    return client.get(f"{API}/accounts/me", headers=bearer(token))


def test_a_logout_closes_the_sessions_streams(client: FlaskClient) -> None:
    name, ann = session(client)
    _, bob = session(client)
    table = account_table(client, [ann, bob])
    by_header = _opened(Stream(client, stream_url(table.id), bearer(ann)))
    by_ticket = _opened(Stream(client, stream_url(table.id, ticket=_ticket(client, table.id, ann))))
    unused = _ticket(client, table.id, ann)
    # Bob's stream and a spectator's are not Ann's to end.
    others = [_opened(Stream(client, stream_url(table.id), bearer(bob)))]
    others.append(_opened(Stream(client, stream_url(table.id))))
    assert client.delete(f"{API}/sessions/current", headers=bearer(ann)).status_code == 204
    _revoked(by_header)
    _revoked(by_ticket)
    assert_problem(client.get(stream_url(table.id, ticket=unused)), 401, "invalid_ticket")
    for stream in others:
        assert stream.next(timeout=KEEPALIVE * 6) == ("comment", None, "keep-alive")
        stream.close()
    assert login(client, name).status_code == 201  # a logout is no lock-out


def test_logging_out_everywhere_ends_every_session(client: FlaskClient) -> None:
    name, first = session(client)
    second = login(client, name).get_json()["token"]
    _, bob = session(client)
    table = account_table(client, [first, bob])
    stream = _opened(Stream(client, stream_url(table.id), bearer(first)))
    key = _key(client, first)
    assert_problem(
        client.delete(f"{API}/accounts/me/sessions", headers=bearer(key)), 400, "not_a_session"
    )
    assert client.delete(f"{API}/accounts/me/sessions", headers=bearer(second)).status_code == 204
    _revoked(stream)
    for token in (first, second):
        assert_problem(_me(client, token), 401, "session_expired")
    assert _me(client, key).status_code == 200  # keys are revoked one by one


def test_a_password_change_ends_the_other_sessions_tickets_streams_and_keys(
    client: FlaskClient,
) -> None:
    name, here = session(client)
    elsewhere = login(client, name).get_json()["token"]
    _, bob = session(client)
    table = account_table(client, [here, bob])
    key = _key(client, here)
    streams = [_opened(Stream(client, stream_url(table.id), bearer(t))) for t in (elsewhere, key)]
    old_tickets = [_ticket(client, table.id, t) for t in (elsewhere, key)]
    mine = _ticket(client, table.id, here)
    body = {"old_password": PASSWORD, "password": "a new password"}
    assert client.patch(f"{API}/accounts/me", json=body, headers=bearer(here)).status_code == 204
    for stream in streams:
        _revoked(stream)
    for ticket in old_tickets:
        assert_problem(client.get(stream_url(table.id, ticket=ticket)), 401, "invalid_ticket")
    assert_problem(_me(client, elsewhere), 401, "session_expired")
    assert_problem(_me(client, key), 401, "invalid_api_key")
    assert client.get(f"{API}/accounts/me/keys", headers=bearer(here)).get_json()["keys"] == []
    # The session that changed the password goes on, with its tickets.
    assert _me(client, here).status_code == 200
    _opened(Stream(client, stream_url(table.id, ticket=mine))).close()


def test_a_password_change_may_keep_the_api_keys(client: FlaskClient) -> None:
    _, token = session(client)
    _, bob = session(client)
    table = account_table(client, [token, bob])
    key = _key(client, token)
    stream = _opened(Stream(client, stream_url(table.id), bearer(key)))
    ticket = _ticket(client, table.id, key)
    body = {"old_password": PASSWORD, "password": "a new password", "keep_api_keys": True}
    assert client.patch(f"{API}/accounts/me", json=body, headers=bearer(token)).status_code == 204
    assert _me(client, key).status_code == 200
    assert stream.next(timeout=KEEPALIVE * 6) == ("comment", None, "keep-alive")
    _opened(Stream(client, stream_url(table.id, ticket=ticket))).close()
    stream.close()


def test_revoking_a_key_closes_its_streams(client: FlaskClient) -> None:
    _, token = session(client)
    _, bob = session(client)
    table = account_table(client, [token, bob])
    created = client.post(f"{API}/accounts/me/keys", json={"name": "k"}, headers=bearer(token))
    key, key_id = created.get_json()["key"], created.get_json()["id"]
    stream = _opened(Stream(client, stream_url(table.id), bearer(key)))
    gone = client.delete(f"{API}/accounts/me/keys/{key_id}", headers=bearer(token))
    assert gone.status_code == 204
    _revoked(stream)


def test_deleting_the_account_closes_its_streams(client: FlaskClient) -> None:
    _, token = session(client)
    _, bob = session(client)
    table = account_table(client, [token, bob])
    key = _key(client, token)
    streams = [_opened(Stream(client, stream_url(table.id), bearer(t))) for t in (token, key)]
    ticket = _ticket(client, table.id, key)
    deleted = client.delete(
        f"{API}/accounts/me", json={"password": PASSWORD}, headers=bearer(token)
    )
    assert deleted.status_code == 204
    for stream in streams:
        _revoked(stream)
    assert_problem(client.get(stream_url(table.id, ticket=ticket)), 401, "invalid_ticket")


def test_a_long_poll_that_waits_through_a_logout_answers_401(client: FlaskClient) -> None:
    _, token = session(client)
    _, bob = session(client)
    table = account_table(client, [token, bob])
    etag = client.get(table.url, headers=bearer(token)).headers["ETag"]
    changes = client.application.extensions["hanabi"].changes
    _until(lambda: changes.waiting == 0)  # the streams earlier tests closed are gone
    answer: list[Any] = []

    def poll() -> None:
        headers = {**bearer(token), "If-None-Match": etag}
        answer.append(client.get(f"{table.url}?wait=2", headers=headers))

    waiter = threading.Thread(target=poll)
    waiter.start()
    _until(lambda: changes.waiting == 1)  # the poll is past its credential check, waiting
    other = client.application.test_client()
    assert other.delete(f"{API}/sessions/current", headers=bearer(token)).status_code == 204
    waiter.join(10)
    assert_problem(answer[0], 401, "session_expired")


def _until(condition: Callable[[], bool], timeout: float = 10) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.01)


def test_seat_tokens_and_guests_are_untouched(client: FlaskClient) -> None:
    table = make_table(client, 2, seed="revocation-guests")
    stream = _opened(
        Stream(client, stream_url(table.id, ticket=_ticket(client, table.id, table.tokens[0])))
    )
    assert stream.next(timeout=KEEPALIVE * 6) == ("comment", None, "keep-alive")
    stream.close()
