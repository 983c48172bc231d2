"""Clocks the server enforces: timed games, idle games, deadlines across restarts and the
race between a last-moment move and its deadline."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from datetime import datetime
from typing import Any

import pytest
from api_helpers import Table, assert_problem, assert_valid, bearer, bot_parts, make_table
from flask import Flask
from flask.testing import FlaskClient

from hanabi.server import create_app
from hanabi.server.api.schemas.views import GameViewSchema
from hanabi.server.table.bots import BotWorker


def seconds(stamp: str) -> float:
    return datetime.fromisoformat(stamp.replace("Z", "+00:00")).timestamp()


def any_move(view: dict[str, Any]) -> dict[str, Any]:
    """A harmless move: a clue, else a discard (never a play that could strike out)."""
    legal = view["legal_actions"]
    return next((a for a in legal if a["type"] == "clue"), None) or next(
        a for a in legal if a["type"] == "discard"
    )


def move(table: Table, seat: int) -> Any:
    view = table.view(seat)
    return table.act(seat, view["turn"], **any_move(view))


def wait_finished(table: Table, within: float) -> tuple[dict[str, Any], float]:
    began = time.monotonic()
    while (view := table.view(None))["status"] != "finished":
        assert time.monotonic() - began < within, "the game did not end in time"
        time.sleep(0.02)
    return view, time.monotonic() - began


@pytest.fixture
def timed_app(redis_url: str) -> Iterator[Flask]:
    """An app on its own database, timers down to 1 s, and no bot worker of its own:
    tests start one (a worker also enforces deadlines) when they want deadlines kept."""
    url = redis_url.rsplit("/", 1)[0] + "/11"
    app = create_app({"REDIS_URL": url, "HANABI_BOT_WORKER": 0, "HANABI_TIMER_MIN_BASE": 1})
    app.extensions["hanabi"].store.redis.flushdb()
    yield app


@pytest.fixture
def worker(timed_app: Flask) -> Iterator[BotWorker]:
    started = BotWorker(*bot_parts(timed_app), 1, lease=1.0).start()
    yield started
    started.stop()


def test_timing_options_and_their_limits(client: FlaskClient) -> None:
    table = make_table(
        client, 2, options={"idle_limit": 600, "timer": {"base": 120, "per_turn": 20}}
    )
    view = table.view(0)
    assert_valid(GameViewSchema, view)
    assert view["options"]["idle_limit"] == 600
    assert view["options"]["timer"] == {"base": 120, "per_turn": 20}
    assert view["clocks"] == [pytest.approx(120, abs=1)] * 2
    assert seconds(view["deadline"]) - seconds(view["server_time"]) == pytest.approx(120, abs=1)
    plain = make_table(client, 2)
    view = plain.view(1)
    assert view["options"]["idle_limit"] == 1800 and view["options"]["timer"] is None
    assert view["clocks"] is None
    assert seconds(view["deadline"]) - seconds(view["server_time"]) == pytest.approx(1800, abs=1)
    lobby = make_table(client, 2, start=False).view(0)
    assert lobby["clocks"] is None and lobby["deadline"] is None and lobby["server_time"]
    create = "/api/v1/games"
    for options, code in [
        ({"timer": {"base": 5, "per_turn": 0}}, "invalid_option"),  # below the server's 10
        ({"timer": {"base": 3601, "per_turn": 0}}, "validation_error"),
        ({"timer": {"base": 60, "per_turn": 301}}, "validation_error"),
        ({"timer": {"base": 60}}, "validation_error"),
        ({"idle_limit": 4}, "validation_error"),
        ({"idle_limit": 7 * 24 * 3600 + 1}, "invalid_option"),
    ]:
        response = client.post(create, json={"name": "a", "options": options})
        assert_problem(response, 400, code)


@pytest.mark.single_redis
def test_a_clock_runs_only_on_its_turn_and_gains_the_increment(timed_app: Flask) -> None:
    table = make_table(timed_app.test_client(), 2, options={"timer": {"base": 30, "per_turn": 5}})
    time.sleep(0.4)
    assert move(table, 0).status_code == 201
    view = table.view(1)
    assert view["clocks"][0] == pytest.approx(30 - 0.4 + 5, abs=0.25)
    assert view["clocks"][1] == pytest.approx(30, abs=0.25)
    time.sleep(0.3)
    later = table.view(0)  # the running clock counts down between commits
    assert later["clocks"][1] == pytest.approx(30 - 0.3, abs=0.25)
    assert later["clocks"][0] == view["clocks"][0]
    assert later["deadline"] == view["deadline"] and later["version"] == view["version"]


@pytest.mark.single_redis
@pytest.mark.serial  # measures time: alone, not beside another worker
def test_a_timed_game_ends_by_timeout_with_no_client_activity(
    timed_app: Flask, worker: BotWorker
) -> None:
    client = timed_app.test_client()
    table = make_table(client, 2, options={"timer": {"base": 1, "per_turn": 0}})
    deadline = seconds(table.view(1)["deadline"])
    woken: list[dict[str, Any]] = []
    version = table.view(1)["version"]

    def long_poll() -> None:
        etag = f'"{version}.1"'
        woken.append(
            table.get(1, headers={"If-None-Match": etag}, query_string={"wait": 5}).get_json()
        )

    poller = threading.Thread(target=long_poll)
    poller.start()
    view, _ = wait_finished(table, 5)
    ended = time.time()
    poller.join(5)
    assert view["result"] == {"reason": "timeout", "score": 0}
    assert ended - deadline < 1.0  # within 1 s of the deadline
    assert woken and woken[0]["status"] == "finished"  # the long-poll was woken by it
    events = client.get(f"{table.url}/events").get_json()["events"]
    assert events[-2] == {"type": "terminate", "turn": 0, "seat": 0, "reason": "timeout",
                          "seq": events[-2]["seq"]}  # fmt: skip
    assert events[-1]["reason"] == "timeout"
    assert view["clocks"] is None and view["deadline"] is None
    exported = client.get(f"{table.url}/export", headers=bearer(table.tokens[0])).get_json()
    assert exported["actions"][-1]["value"] == 3  # (a seat: the deal is a seed's)
    assert_problem(table.act(0, 1, type="discard", card=0), 409, "game_over")


@pytest.mark.single_redis
def test_an_idle_game_ends(timed_app: Flask, worker: BotWorker) -> None:
    table = make_table(timed_app.test_client(), 3, options={"idle_limit": 5})
    assert move(table, 0).status_code == 201
    view, waited = wait_finished(table, 7)
    assert view["result"] == {"reason": "idle", "score": 0}
    assert 4 < waited < 6.2
    events = timed_app.test_client().get(f"{table.url}/events").get_json()["events"]
    assert events[-2]["type"] == "terminate" and "seat" not in events[-2]
    assert events[-2]["reason"] == "idle"


@pytest.mark.single_redis
def test_bots_never_time_out(timed_app: Flask, worker: BotWorker) -> None:
    client = timed_app.test_client()
    table = make_table(client, 1, start=False, options={"timer": {"base": 2, "per_turn": 1}})
    assert table.post("/bots", 0, {}).status_code == 201
    table.start()
    for _ in range(2):  # each of the person's moves is answered by the bot's
        view = table.view(0)
        assert view["current_seat"] == 0
        assert table.act(0, view["turn"], **any_move(view)).status_code == 201
        began = time.monotonic()
        while (after := table.view(0))["current_seat"] == 1:
            assert time.monotonic() - began < 3, "the bot did not move"
            time.sleep(0.02)
        if after["status"] == "finished":  # the bot may strike out: never by its clock
            assert after["result"]["reason"] != "timeout"
            return
    view = table.view(0)
    assert view["clocks"][1] == 2  # the bot's clock never ran
    assert view["clocks"][0] > 2  # the person's gained 1 s a move


@pytest.mark.single_redis
def test_a_deadline_missed_while_every_process_was_down(timed_app: Flask) -> None:
    """No worker runs (every process down) when the deadline passes: the first worker
    to start ends the game at once."""
    table = make_table(timed_app.test_client(), 2, options={"timer": {"base": 1, "per_turn": 0}})
    time.sleep(1.5)
    assert table.view(0)["status"] == "playing"  # nobody enforced it yet
    began = time.monotonic()
    restarted = BotWorker(*bot_parts(timed_app), 1, lease=1.0).start()
    try:
        view, _ = wait_finished(table, 3)
    finally:
        restarted.stop()
    assert time.monotonic() - began < 1.0
    assert view["result"]["reason"] == "timeout"


@pytest.mark.single_redis
def test_a_move_in_time_wins_over_its_expiry(timed_app: Flask) -> None:
    service = timed_app.extensions["hanabi"]
    table = make_table(timed_app.test_client(), 2, options={"timer": {"base": 1, "per_turn": 0}})
    assert service.deadlines.expire(table.id) is False  # not due: nothing changes
    assert move(table, 0).status_code == 201
    time.sleep(0.5)  # seat 0's old deadline passes; seat 1's (1 s from the move) not yet
    assert service.deadlines.expire(table.id) is False
    assert table.view(0)["current_seat"] == 1
    time.sleep(0.6)
    assert service.deadlines.expire(table.id) is True  # seat 1's own clock ran out
    events = timed_app.test_client().get(f"{table.url}/events").get_json()["events"]
    assert events[-2]["seat"] == 1 and table.view(0)["result"]["reason"] == "timeout"
    assert service.deadlines.expire(table.id) is False  # once


@pytest.mark.single_redis
def test_a_move_after_the_deadline_loses(timed_app: Flask) -> None:
    service = timed_app.extensions["hanabi"]
    table = make_table(timed_app.test_client(), 2, options={"timer": {"base": 1, "per_turn": 0}})
    time.sleep(1.1)
    assert_problem(move(table, 0), 409, "deadline_passed")
    assert table.view(0)["status"] == "playing"  # not yet enforced...
    assert service.deadlines.expire(table.id) is True  # ...then ended, by timeout
    assert table.view(0)["result"]["reason"] == "timeout"


@pytest.mark.single_redis
@pytest.mark.parametrize("attempt", range(6))
def test_a_move_racing_its_deadline_either_wins_never_both(timed_app: Flask, attempt: int) -> None:
    service = timed_app.extensions["hanabi"]
    table = make_table(timed_app.test_client(), 2, options={"timer": {"base": 1, "per_turn": 0}})
    view = table.view(0)
    action = {"turn": 0, **any_move(view)}
    due = seconds(view["deadline"]) - time.time()
    outcomes: dict[str, Any] = {}

    def mover() -> None:
        outcomes["move"] = table.post("/actions", 0, action).status_code

    def expirer() -> None:
        while "ended" not in outcomes and time.time() < seconds(view["deadline"]) + 1:
            if service.deadlines.expire(table.id):
                outcomes["ended"] = True
            time.sleep(0.001)

    time.sleep(max(0.0, due - 0.01 + attempt * 0.004))
    threads = [threading.Thread(target=mover), threading.Thread(target=expirer)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(5)
    final = table.view(0)
    events = timed_app.test_client().get(f"{table.url}/events").get_json()["events"]
    moves = [e for e in events if e["type"] in ("clue", "play", "discard")]
    ends = [e for e in events if e["type"] == "terminate"]
    if outcomes["move"] == 201:  # the move won: the expiry of seat 0 never happened
        assert len(moves) == 1
        assert final["status"] == "playing" or final["result"]["reason"] == "timeout"
        assert all(e["seat"] == 1 for e in ends)
    else:  # the deadline won: the move was refused and the game ended by seat 0's clock
        assert outcomes["move"] == 409 and outcomes.get("ended")
        assert moves == [] and final["result"]["reason"] == "timeout"
        assert [e["seat"] for e in ends] == [0]
