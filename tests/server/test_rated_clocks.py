"""Rated games that end by a clock: a timed game's timeout and an idle game's idle limit.
Both go through the same write loop as a move, so they settle exactly like a played game:
every seated account's rating moves once, and profiles and history show it."""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import pytest
from account_helpers import FAST, account_table, profile, session
from api_helpers import API, bot_parts
from flask import Flask

from hanabi.server import create_app
from hanabi.server.table import ratings
from hanabi.server.table.bots import BotWorker

LOSS = ratings.change(1500, 25, 0)  # a game that ends by a clock scores 0


@pytest.fixture
def clock_app(redis_url: str) -> Iterator[Flask]:
    """Accounts with cheap hashing on a database of their own, clocks down to 1 s, and a
    worker (the part of a server process that enforces deadlines) that the test starts."""
    url = redis_url.rsplit("/", 1)[0] + "/12"
    app = create_app({"REDIS_URL": url, "HANABI_BOT_WORKER": 0, "HANABI_TIMER_MIN_BASE": 1, **FAST})
    app.testing = True
    app.extensions["hanabi"].store.redis.flushdb()
    worker = BotWorker(*bot_parts(app), 1, lease=1.0).start()
    yield app
    worker.stop()


def finished(client: Any, url: str, within: float) -> dict[str, Any]:
    began = time.monotonic()
    while (view := client.get(url).get_json())["status"] != "finished":
        assert time.monotonic() - began < within, "the clock did not end the game"
        time.sleep(0.05)
    return view


@pytest.mark.single_redis
@pytest.mark.parametrize(
    ("options", "reason", "within"),
    [
        ({"timer": {"base": 1, "per_turn": 0}}, "timeout", 4),
        ({"idle_limit": 5}, "idle", 8),
    ],
)
def test_a_rated_game_ended_by_a_clock_is_settled_once(
    clock_app: Flask, options: dict[str, Any], reason: str, within: float
) -> None:
    client = clock_app.test_client()
    (ann, ann_token), (bob, bob_token) = session(client), session(client)
    table = account_table(client, [ann_token, bob_token], rated=True, **options)
    view = finished(client, table.url, within)
    result = view["result"]
    assert result["reason"] == reason and result["score"] == 0
    # The ratings are recorded a moment after the end (the commit that ends the game
    # comes first): a reader in between sees the result without them.
    began = time.monotonic()
    while "rating_changes" not in (result := client.get(table.url).get_json()["result"]):
        assert time.monotonic() - began < 5, "the ratings were not recorded"
        time.sleep(0.05)
    changes = result["rating_changes"]
    assert set(changes) == {"0", "1"}
    for change in changes.values():
        assert change["before"] == 1500
        assert change["after"] == pytest.approx(1500 + LOSS)
    for name in (ann, bob):
        body = profile(client, name)
        assert body["rated_games"] == 1
        assert body["rating"] == pytest.approx(round(1500 + LOSS, 1))
        history = client.get(f"{API}/players/{name}/games").get_json()["games"]
        assert [game["id"] for game in history] == [table.id]
        assert history[0]["rating_change"]["after"] == pytest.approx(1500 + LOSS)
    # A later read (another settler, the sweeper) changes nothing.
    clock_app.extensions["hanabi"].settler.sweep()
    assert profile(client, ann)["rated_games"] == 1
