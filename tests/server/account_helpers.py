"""Helpers for the account tests (imported by module name, like api_helpers)."""

from __future__ import annotations

import secrets
from typing import Any

from api_helpers import API, Table, bearer
from flask.testing import FlaskClient

#: Cheap argon2 for tests (the cost is measured in bench/logins.py, not here).
FAST = {
    "HANABI_ARGON2_TIME": 1,
    "HANABI_ARGON2_MEMORY": 1024,
    "HANABI_ARGON2_PARALLELISM": 1,
    "HANABI_SETTLE_SWEEP": 0,  # tests sweep when they mean to
}
PASSWORD = "correct horse"


def username(prefix: str = "u") -> str:
    return f"{prefix}{secrets.token_hex(5)}"


def register(client: FlaskClient, name: str | None = None, bot: bool = False) -> str:
    name = name or username()
    response = client.post(
        f"{API}/accounts", json={"username": name, "password": PASSWORD, "bot": bot}
    )
    assert response.status_code == 201, response.get_json()
    return name


def login(client: FlaskClient, name: str, password: str = PASSWORD, **kw: Any) -> Any:
    return client.post(f"{API}/sessions", json={"username": name, "password": password}, **kw)


def session(client: FlaskClient, name: str | None = None, bot: bool = False) -> tuple[str, str]:
    """A new account and a session token for it: (username, token)."""
    name = register(client, name, bot)
    response = login(client, name)
    assert response.status_code == 201, response.get_json()
    return name, response.get_json()["token"]


def account_table(
    client: FlaskClient, tokens: list[str], start: bool = True, **options: Any
) -> Table:
    """A table whose every seat is taken with an account credential (``tokens``), with
    these table ``options``."""
    return seat_table(client, tokens, start, **({"options": options} if options else {}))


def seat_table(client: FlaskClient, tokens: list[str], start: bool = True, **create: Any) -> Table:
    """A table whose every seat is taken with an account credential (``tokens``), created
    with ``create`` (``seed``, ``variant``, ``options``...)."""
    created = client.post(f"{API}/games", json=create, headers=bearer(tokens[0]))
    assert created.status_code == 201, created.get_json()
    gid = created.get_json()["id"]
    for token in tokens[1:]:
        joined = client.post(f"{API}/games/{gid}/players", json={}, headers=bearer(token))
        assert joined.status_code == 201, joined.get_json()
    table = Table(client, gid, list(tokens))
    if start:
        table.start()
    return table


def played(table: Table) -> Table:
    """A few real moves (each seat's first legal one; a draw each), then ended by vote."""
    for turn in range(2):
        seat = turn % 2
        action = table.view(seat)["legal_actions"]
        move = next(a for a in action if a["type"] in ("play", "discard"))
        assert table.act(seat, turn, **move).status_code == 201
    table.end()
    return table


def profile(client: FlaskClient, name: str) -> dict[str, Any]:
    response = client.get(f"{API}/players/{name}")
    assert response.status_code == 200, response.get_json()
    return response.get_json()
