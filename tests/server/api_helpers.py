"""Helpers shared by the API tests (imported by module name: pytest puts this folder on
sys.path)."""

from __future__ import annotations

from typing import Any

from flask.testing import FlaskClient
from marshmallow import Schema

API = "/api/v1"


def bearer(token: str | None) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"} if token else {}


def assert_valid(schema: type[Schema], data: Any) -> None:
    """The response body matches its marshmallow schema exactly (no missing/extra keys)."""
    errors = schema().validate(data)
    assert not errors, errors


def assert_problem(response: Any, status: int, code: str) -> dict[str, Any]:
    assert response.status_code == status, (response.status_code, response.get_data(as_text=True))
    assert response.content_type == "application/problem+json"
    body = response.get_json(force=True)
    assert body["status"] == status and body["code"] == code, body
    assert body["type"].endswith(code) and body["title"] and body["detail"]
    return body


def timeless(view: dict[str, Any]) -> dict[str, Any]:
    """A view without ``server_time`` (each answer has its own): for comparing views."""
    return {k: v for k, v in view.items() if k != "server_time"}


class Table:
    """A game driven through the API: its id and every seat's token."""

    def __init__(self, client: FlaskClient, gid: str, tokens: list[str]) -> None:
        self.client = client
        self.id = gid
        self.tokens = tokens

    @property
    def url(self) -> str:
        return f"{API}/games/{self.id}"

    def get(self, seat: int | None = None, headers: dict[str, str] | None = None, **kw: Any) -> Any:
        headers = {**bearer(self.token(seat)), **(headers or {})}
        return self.client.get(self.url, headers=headers, **kw)

    def view(self, seat: int | None = None) -> dict[str, Any]:
        response = self.get(seat)
        assert response.status_code == 200, response.get_json()
        return response.get_json()

    def token(self, seat: int | None) -> str | None:
        return None if seat is None else self.tokens[seat]

    def post(self, path: str, seat: int | None, json: Any = None) -> Any:
        return self.client.post(self.url + path, json=json, headers=bearer(self.token(seat)))

    def act(self, seat: int, turn: int | None = None, /, **action: Any) -> Any:
        """``action`` (a legal action as the view lists it, with its own turn, or made
        up) as the move of ``turn`` (default: the view's)."""
        if turn is None:
            turn = self.view(seat)["turn"]
        return self.post("/actions", seat, {**action, "turn": turn})

    def vote(self, seat: int, end: bool = True) -> Any:
        return self.post("/votes", seat, {"end": end})

    def end(self, first: int = 0) -> dict[str, Any]:
        """End the game by vote: seats from ``first`` on vote in turn until it is over; the
        answer (JSON) that ended it."""
        for i in range(len(self.tokens)):
            body = self.vote((first + i) % len(self.tokens)).get_json()
            if body["game"]["status"] == "finished":
                return body
        raise AssertionError("the votes did not end the game")

    def start(self) -> dict[str, Any]:
        response = self.post("/start", 0)
        assert response.status_code == 200, response.get_json()
        return response.get_json()


def make_table(client: FlaskClient, players: int = 2, start: bool = True, **create: Any) -> Table:
    response = client.post(f"{API}/games", json={"name": "p0", **create})
    assert response.status_code == 201, response.get_json()
    body = response.get_json()
    tokens = [body["token"]]
    for i in range(1, players):
        joined = client.post(f"{API}/games/{body['id']}/players", json={"name": f"p{i}"})
        assert joined.status_code == 201, joined.get_json()
        tokens.append(joined.get_json()["token"])
    table = Table(client, body["id"], tokens)
    if start:
        table.start()
    return table


def bot_parts(app: Any) -> tuple[Any, Any, Any, Any]:
    """What a bot worker is built from, as the app's composition made it (store, reads,
    play, deadlines): for a test's own worker."""
    services = app.extensions["hanabi"]
    return services.store, services.reads, services.play, services.deadlines
