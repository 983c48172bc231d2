"""Password guessing: every login is counted before its password is checked, so parallel
guesses cannot slip past the limits; a stranger locked out of an account from their
address does not lock its owner out; a guesser with many addresses meets the account's
own cap; POST /sessions has its per-address rate.

The race is run for real: 40 logins released at once against gunicorn (2 gevent worker
processes), each on its own connection. Client addresses come from X-Forwarded-For,
which the server reads because 127.0.0.1 is named a trusted proxy.
"""

from __future__ import annotations

import os
import secrets
import subprocess
import threading
from collections import Counter
from collections.abc import Iterator
from typing import Any

import pytest
from account_helpers import FAST, PASSWORD, login, register, username
from api_helpers import API, assert_problem
from flask import Flask
from process_helpers import Http, _stop, _wait_healthy

from hanabi.server import create_app
from hanabi.server.ops.redis_process import free_port
from hanabi.server.ops.serving import gunicorn_command
from hanabi.server.table.login_limits import counted_address


def _address() -> str:
    return f"10.{secrets.randbelow(250)}.{secrets.randbelow(250)}.{secrets.randbelow(250) + 1}"


@pytest.fixture(scope="module")
def port(redis_url: str) -> Iterator[int]:
    port = free_port()
    env = {
        **os.environ,
        **{k: str(v) for k, v in FAST.items()},
        # A hash of ~10 ms: long enough that guesses overlap (as real ones, of ~0.5 s, do).
        "HANABI_ARGON2_MEMORY": "8192",
        "REDIS_URL": redis_url,
        "HANABI_TRUSTED_PROXIES": "127.0.0.1",
        "HANABI_BOT_WORKER": "0",
    }
    proc = subprocess.Popen(gunicorn_command(f"127.0.0.1:{port}", 2, log_level="warning"), env=env)
    try:
        _wait_healthy(port, proc)
        yield port
    finally:
        _stop(proc)


def _logins_at_once(port: int, name: str, password: str, address: str, n: int) -> list[Any]:
    """``n`` logins released together, each on its own (already open) connection."""
    clients = [Http(port) for _ in range(n)]
    for client in clients:
        client("GET", "/health")
    barrier = threading.Barrier(n)
    results: list[Any] = [None] * n
    body = {"username": name, "password": password}

    def run(i: int) -> None:
        barrier.wait()
        results[i] = clients[i]("POST", "/sessions", body, **{"X-Forwarded-For": address})

    threads = [threading.Thread(target=run, args=(i,)) for i in range(n)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    return results


def test_forty_parallel_wrong_logins_get_at_most_ten_401s(port: int) -> None:
    http = Http(port)
    name = username()
    status, _, _ = http("POST", "/accounts", {"username": name, "password": PASSWORD})
    assert status == 201
    stranger = _address()
    results = _logins_at_once(port, name, "not the password", stranger, 40)
    statuses = Counter(status for status, _, _ in results)
    assert set(statuses) <= {401, 429}, statuses
    assert 1 <= statuses[401] <= 10, statuses
    for status, headers, body in results:
        if status == 429:
            assert body["code"] == "too_many_failed_logins"
            assert int(headers["Retry-After"]) >= 1
    # The stranger stays locked out of the account, right password or not ...
    status, _, body = http(
        "POST",
        "/sessions",
        {"username": name, "password": PASSWORD},
        **{"X-Forwarded-For": stranger},
    )
    assert (status, body["code"]) == (429, "too_many_failed_logins")
    # ... while its owner, elsewhere, logs in.
    status, _, body = http(
        "POST",
        "/sessions",
        {"username": name, "password": PASSWORD},
        **{"X-Forwarded-For": _address()},
    )
    assert status == 201 and body["token"].startswith("hs.")


def _app(redis_url: str, **settings: Any) -> Flask:
    app = create_app({"REDIS_URL": redis_url, **FAST, **settings})
    app.testing = True
    return app


def test_the_account_cap_holds_over_many_addresses(redis_url: str) -> None:
    app = _app(redis_url, HANABI_LOGIN_FAILS_USER=4, HANABI_LOGIN_FAILS_PAIR=3)
    client = app.test_client()
    name = register(client)
    # One guess from each of four addresses: under every pair's limit, at the account's.
    for _ in range(4):
        wrong = login(client, name, "nope nope", environ_base={"REMOTE_ADDR": _address()})
        assert_problem(wrong, 401, "invalid_credentials")
    refused = login(client, name, PASSWORD, environ_base={"REMOTE_ADDR": _address()})
    body = assert_problem(refused, 429, "too_many_failed_logins")
    assert "for this account" in body["detail"] and "address" not in body["detail"]
    assert 1 <= int(refused.headers["Retry-After"]) <= 86_400
    # Refused attempts are not counted: the counter is still at its limit, not past it.
    registry = app.extensions["hanabi"].accounts
    assert int(registry.store.redis.get(f"hanabi:login:user:{name}")) == 4


def test_a_right_password_gives_its_attempt_back(redis_url: str) -> None:
    app = _app(redis_url, HANABI_LOGIN_FAILS_PAIR=3)
    client = app.test_client()
    name = register(client)
    env = {"REMOTE_ADDR": _address()}
    for _ in range(2):
        assert_problem(
            login(client, name, "nope nope", environ_base=env), 401, "invalid_credentials"
        )
    # The owner logs in from there: the pair's failures are forgotten, the account's and
    # the address's keep the wrong ones only.
    assert login(client, name, environ_base=env).status_code == 201
    redis = app.extensions["hanabi"].accounts.store.redis
    assert redis.get(f"hanabi:login:pair:{name}|{env['REMOTE_ADDR']}") is None
    assert int(redis.get(f"hanabi:login:user:{name}")) == 2
    for _ in range(3):
        assert_problem(
            login(client, name, "nope nope", environ_base=env), 401, "invalid_credentials"
        )
    assert_problem(login(client, name, environ_base=env), 429, "too_many_failed_logins")


def test_a_password_check_counts_like_a_login(redis_url: str) -> None:
    app = _app(redis_url, HANABI_LOGIN_FAILS_PAIR=2)
    client = app.test_client()
    name = register(client)
    token = login(client, name).get_json()["token"]
    headers = {"Authorization": f"Bearer {token}"}
    body = {"old_password": "nope nope", "password": "a new password"}
    for _ in range(2):
        assert_problem(
            client.patch(f"{API}/accounts/me", json=body, headers=headers),
            401,
            "invalid_credentials",
        )
    body["old_password"] = PASSWORD
    refused = client.patch(f"{API}/accounts/me", json=body, headers=headers)
    assert_problem(refused, 429, "too_many_failed_logins")


def test_the_login_form_of_a_name_is_its_stored_form(redis_url: str) -> None:
    app = _app(redis_url, HANABI_LOGIN_FAILS_PAIR=2)
    client = app.test_client()
    name = register(client)
    env = {"REMOTE_ADDR": _address()}
    # "NAME" and its full-width form are the same account, counted on the same counters.
    wide = "".join(chr(ord(c) + 0xFEE0) if c.isalnum() else c for c in name.upper())
    for form in (name.upper(), wide):
        assert_problem(
            login(client, form, "nope nope", environ_base=env), 401, "invalid_credentials"
        )
    assert_problem(login(client, name, environ_base=env), 429, "too_many_failed_logins")
    assert login(client, wide, environ_base={"REMOTE_ADDR": _address()}).status_code == 201


def test_ipv6_clients_are_counted_by_their_64() -> None:
    assert counted_address("2001:db8:1:2:aaaa::1") == counted_address("2001:db8:1:2:bbbb::9")
    assert counted_address("2001:db8:1:2::1") == "2001:db8:1:2::/64"
    assert counted_address("2001:db8:1:3::1") != counted_address("2001:db8:1:2::1")
    assert counted_address("::ffff:10.1.2.3") == "10.1.2.3"
    assert counted_address("10.1.2.3") == "10.1.2.3"


def test_logins_are_rate_limited_per_address(redis_url: str) -> None:
    app = _app(redis_url, HANABI_LIMITS="on", HANABI_LIMIT_LOGIN="3/minute")
    client = app.test_client()
    env = {"REMOTE_ADDR": _address()}
    client.environ_base.update(env)
    name = register(client)
    for _ in range(3):  # right passwords too: the rate is of asking
        assert login(client, name, environ_base=env).status_code == 201
    refused = login(client, name, environ_base=env)
    assert_problem(refused, 429, "rate_limited")
    assert 1 <= int(refused.headers["Retry-After"]) <= 60
    assert login(client, name, environ_base={"REMOTE_ADDR": _address()}).status_code == 201
