"""GET /games/{id}/stream (server-sent events) and POST /games/{id}/tickets, in-process.

A stream is read on a thread of its own (the Flask test client yields its body lazily) into
a queue, while the test acts on the game; every message is checked the way the plain reads
are: order, resume, keep-alive, the end, and that no seat's stream ever carries that seat's
own cards while the game is on.
"""

from __future__ import annotations

import json
import queue
import random
import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest
from api_helpers import API, assert_problem, bearer, make_table, timeless
from flask import Flask
from flask.testing import FlaskClient
from test_redaction import Checker, _pick

from hanabi.game import Action, Game, Setup
from hanabi.server import create_app

pytestmark = pytest.mark.cluster  # run again on a Redis Cluster (make test-cluster)


@pytest.fixture(scope="module")
def app(redis_url: str) -> Iterator[Flask]:
    # Short streams: one that a test abandons ends by itself within seconds.
    config = {"REDIS_URL": redis_url, "HANABI_KEEPALIVE": 0.3, "HANABI_STREAM_MAX": 20}
    app = create_app(config)
    app.testing = True
    yield app


@pytest.fixture
def client(app: Flask) -> FlaskClient:
    return app.test_client()


class Stream:
    """One open stream, its messages parsed into ``(event, id, data)`` on a thread."""

    def __init__(self, client: FlaskClient, url: str, headers: dict[str, str] | None = None):
        self.response = client.get(url, headers=headers or {}, buffered=False)
        self.messages: queue.Queue[tuple[str | None, int | None, Any]] = queue.Queue()
        self.raw: list[bytes] = []
        self.closing = threading.Event()
        if self.response.status_code == 200:
            threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        buffer = b""
        try:
            for chunk in self.response.response:
                if self.closing.is_set():
                    break
                self.raw.append(chunk)
                buffer += chunk
                while b"\n\n" in buffer:
                    block, buffer = buffer.split(b"\n\n", 1)
                    self.messages.put(parse(block))
        finally:
            self.response.close()  # here: a generator is closed by the thread that runs it
            self.messages.put(("<closed>", None, None))

    def next(self, timeout: float = 5) -> tuple[str | None, int | None, Any]:
        return self.messages.get(timeout=timeout)

    def until(self, kind: str, timeout: float = 5) -> list[tuple[str | None, int | None, Any]]:
        """Every message up to and including the next one of type ``kind``."""
        out = []
        while True:
            message = self.next(timeout)
            out.append(message)
            if message[0] == kind:
                return out
            assert message[0] != "<closed>", out

    def close(self) -> None:
        """Stop reading; the reader closes the stream at its next message (a keep-alive
        comes within a second)."""
        self.closing.set()


def parse(block: bytes) -> tuple[str | None, int | None, Any]:
    kind, seq, data, comment = None, None, None, None
    for line in block.decode().split("\n"):
        name, _, value = line.partition(":")
        value = value.removeprefix(" ")
        if name == "":
            comment = value
        elif name == "event":
            kind = value
        elif name == "id":
            seq = int(value)
        elif name == "data":
            data = json.loads(value)
        elif name == "retry":
            kind, data = "retry", int(value)
    if kind is None and data is None:
        return "comment", None, comment
    return kind, seq, data


def stream_url(gid: str, **query: Any) -> str:
    params = "&".join(f"{k}={v}" for k, v in query.items())
    return f"{API}/games/{gid}/stream" + (f"?{params}" if params else "")


def test_a_stream_starts_with_retry_then_the_view_then_follows_every_change(
    client: FlaskClient,
) -> None:
    table = make_table(client, 2, seed="stream-follow")
    stream = Stream(client, stream_url(table.id), bearer(table.tokens[1]))
    assert stream.response.status_code == 200
    assert stream.response.mimetype == "text/event-stream"
    assert stream.response.headers["Cache-Control"] == "no-cache"
    assert stream.next() == ("retry", None, 2000)
    kind, seq, view = stream.next()
    assert kind == "view" and timeless(view) == timeless(table.view(1))
    last_seq = client.get(f"{table.url}/events").get_json()["last_seq"]
    assert seq == last_seq

    rank = table.view(0)["hands"][1][0]["rank"]
    assert table.act(0, 0, type="clue", target=1, rank=rank).status_code == 201
    got = stream.until("view")
    assert [m[0] for m in got] == ["clue", "view"]
    assert got[0][1] == last_seq + 1 and got[0][2]["seq"] == last_seq + 1
    assert got[1][1] == last_seq + 1 and timeless(got[1][2]) == timeless(table.view(1))

    assert table.post("/chat", 0, {"text": "hi"}).status_code == 201
    got = stream.until("view")
    assert [m[0] for m in got] == ["chat", "view"] and got[0][2]["text"] == "hi"
    stream.close()


def test_the_same_events_as_the_event_log_in_order_and_resume_after_any_seq(
    client: FlaskClient,
) -> None:
    table = make_table(client, 3, seed="stream-resume")
    for _ in range(4):
        seat = table.view(0)["current_seat"]
        view = table.view(seat)
        action = _pick(random.Random(1), view["legal_actions"])
        assert table.act(seat, view["turn"], **action).status_code == 201
    log = client.get(f"{table.url}/events", headers=bearer(table.tokens[2])).get_json()
    for after in (0, 3, log["last_seq"] - 2):
        for how in ("header", "query"):
            if how == "header":
                headers = {**bearer(table.tokens[2]), "Last-Event-ID": str(after)}
                stream = Stream(client, stream_url(table.id), headers)
            else:
                stream = Stream(client, stream_url(table.id, after=after), bearer(table.tokens[2]))
            got = stream.until("view")[1:]  # after "retry"
            events = [(m[0], m[1], m[2]) for m in got[:-1]]
            expected = [e for e in log["events"] if e["seq"] > after]
            assert events == [(e["type"], e["seq"], e) for e in expected]
            assert got[-1][1] == log["last_seq"]
            stream.close()


def test_quiet_streams_get_keep_alive_comments(client: FlaskClient) -> None:
    table = make_table(client, 2, seed="stream-quiet")
    stream = Stream(client, stream_url(table.id))
    stream.until("view")
    assert stream.next(timeout=3) == ("comment", None, "keep-alive")
    stream.close()


def test_a_finished_game_streams_everything_then_ends(client: FlaskClient) -> None:
    table = make_table(client, 2, seed="stream-end")
    stream = Stream(client, stream_url(table.id), bearer(table.tokens[0]))
    stream.until("view")
    assert table.post("/terminate", 1).status_code == 200
    assert table.post("/terminate", 0).status_code == 200
    got = stream.until("end")
    assert [m[0] for m in got[-3:]] == ["game_over", "view", "end"]
    assert got[-1][2] == {"reason": "finished"}
    assert got[-2][2]["status"] == "finished"
    assert stream.next()[0] == "<closed>"
    # A new stream of a finished game: from seq 0, every card shown, then the end.
    again = Stream(client, stream_url(table.id, after=0), bearer(table.tokens[0]))
    got = again.until("end")
    draws = [m[2] for m in got if m[0] == "draw"]
    assert draws and all(d["suit"] is not None for d in draws)


def test_a_lobby_that_empties_ends_its_streams(client: FlaskClient) -> None:
    table = make_table(client, 2, start=False, seed="stream-gone")
    stream = Stream(client, stream_url(table.id), bearer(table.tokens[1]))
    stream.until("view")
    client.delete(f"{table.url}/players/1", headers=bearer(table.tokens[1]))
    assert stream.until("end")[-1][2] == {"reason": "not_a_player"}
    spectator = Stream(client, stream_url(table.id))
    spectator.until("view")
    client.delete(f"{table.url}/players/0", headers=bearer(table.tokens[0]))
    assert spectator.until("end")[-1][2] == {"reason": "gone"}


def test_stream_refusals_are_problems_before_any_byte(client: FlaskClient) -> None:
    table = make_table(client, 2, seed="stream-refuse")
    assert_problem(client.get(stream_url("nosuchgame12")), 404, "game_not_found")
    assert_problem(client.get(stream_url(table.id), headers=bearer("x" * 30)), 403, "not_a_player")
    assert_problem(
        client.get(stream_url(table.id), headers={"Accept": "application/json"}),
        406,
        "not_acceptable",
    )
    assert_problem(
        client.get(stream_url(table.id), headers={"Last-Event-ID": "abc"}), 400, "invalid_header"
    )
    both = client.get(stream_url(table.id, ticket="t" * 20), headers=bearer(table.tokens[0]))
    assert_problem(both, 401, "invalid_auth")


# -- tickets ---------------------------------------------------------------------------


def test_a_ticket_opens_its_seats_stream_once(client: FlaskClient, app: Flask) -> None:
    table = make_table(client, 2, seed="stream-ticket")
    response = client.post(f"{table.url}/tickets", headers=bearer(table.tokens[1]))
    assert response.status_code == 201
    body = response.get_json()
    assert set(body) == {"ticket", "expires"} and body["expires"].endswith("Z")
    assert table.tokens[1] not in json.dumps(body)
    stream = Stream(client, stream_url(table.id, ticket=body["ticket"]))
    _, _, view = stream.until("view")[-1]
    assert view["you"] == 1 and timeless(view) == timeless(table.view(1))
    stream.close()
    used = client.get(stream_url(table.id, ticket=body["ticket"]))
    assert_problem(used, 401, "invalid_ticket")
    # Redis keeps only the ticket's hash, and it is gone once used.
    redis = app.extensions["hanabi"].store.redis
    keys = [k.decode() for k in redis.scan_iter(match="{game:" + table.id + "}:k:*")]
    assert keys == []


def test_tickets_expire_and_belong_to_one_game(client: FlaskClient, app: Flask) -> None:
    table = make_table(client, 2, seed="stream-ticket-2")
    other = make_table(client, 2, seed="stream-ticket-3")
    ticket = client.post(f"{table.url}/tickets", headers=bearer(table.tokens[0])).get_json()
    assert_problem(client.get(stream_url(other.id, ticket=ticket["ticket"])), 401, "invalid_ticket")
    redis = app.extensions["hanabi"].store.redis
    (key,) = redis.scan_iter(match="{game:" + table.id + "}:k:*")
    assert 55 <= redis.ttl(key) <= 60
    redis.pexpire(key, 1)
    time.sleep(0.05)
    assert_problem(client.get(stream_url(table.id, ticket=ticket["ticket"])), 401, "invalid_ticket")


def test_tickets_hold_a_seat_or_watch(client: FlaskClient) -> None:
    table = make_table(client, 2, seed="stream-ticket-4")
    anonymous = client.post(f"{table.url}/tickets")  # a spectator's (docs/watching.md)
    assert anonymous.status_code == 201, anonymous.get_json()
    stream = Stream(client, stream_url(table.id, ticket=anonymous.get_json()["ticket"]))
    view = stream.until("view")[-1][2]
    assert view["you"] is None and view["spectating"] == "hands"
    stream.close()
    assert_problem(
        client.post(f"{table.url}/tickets", headers=bearer("y" * 30)), 403, "not_a_player"
    )
    assert_problem(client.post(f"{API}/games/nosuchgame12/tickets"), 404, "game_not_found")


# -- redaction ---------------------------------------------------------------------------


def _check_message(checker: Checker, seat: int, data: Any) -> None:
    """A message sent to ``seat`` shows none of the cards the seat holds now."""
    if not checker.shadow.is_over:
        checker.checked += 1
        checker.check_data(seat, data)


@pytest.mark.parametrize(
    ("variant", "players", "seed"), [("no_variant", 2, "sr1"), ("rainbow", 4, "sr2")]
)
def test_no_stream_shows_a_seat_its_own_cards(
    client: FlaskClient, variant: str, players: int, seed: str
) -> None:
    table = make_table(client, players, variant=variant, seed=seed)
    names = [p["name"] for p in table.view(0)["players"]]
    checker = Checker(Game(Setup.create(variant, names, None, seed)))
    streams = [Stream(client, stream_url(table.id, after=0), bearer(t)) for t in table.tokens]
    for seat, stream in enumerate(streams):
        for kind, _, data in stream.until("view"):
            if kind != "retry":
                _check_message(checker, seat, data)
    rng = random.Random(seed)
    while not checker.shadow.is_over:
        seat = checker.shadow.current
        view = table.view(seat)
        action = _pick(rng, view["legal_actions"])
        assert table.act(seat, view["turn"], **action).status_code == 201
        checker.shadow.apply(Action.from_dict(action), seat)
        for other, stream in enumerate(streams):
            # The hands as they are now: a card just drawn must be hidden from its holder.
            for _, _, data in stream.until("view"):
                _check_message(checker, other, data)
    assert checker.checked > 50
    for stream in streams:
        assert stream.until("end")[-1][2] == {"reason": "finished"}
