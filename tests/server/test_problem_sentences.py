"""A refusal's ``detail`` counts in words: "1 second", "1 waiting request", "1 more
difference" (not "1 seconds", "1 s" or "option(s)"), whatever the number."""

from __future__ import annotations

import re
import threading
import time
from typing import Any

import pytest
from api_helpers import API, assert_problem
from flask import Flask
from test_limits import _address, _app, _client

from hanabi.game import VARIANTS, Setup, SetupError
from hanabi.server import create_app
from hanabi.server.table.refusals import plural


def counted(detail: str) -> list[tuple[int, str]]:
    """Every "<number> <word>" in a sentence."""
    return [(int(n), word) for n, word in re.findall(r"\b(\d+) ([a-z]+)", detail)]


def assert_agrees(detail: str, nouns: tuple[str, ...]) -> None:
    """Each count of one of ``nouns`` takes the singular for 1, the plural otherwise."""
    found = [(n, word) for n, word in counted(detail) if word.rstrip("s") in nouns]
    assert found, detail
    for n, word in found:
        assert word.endswith("s") == (n != 1), detail


def test_plural() -> None:
    assert plural(1, "second") == "1 second" and plural(0, "second") == "0 seconds"
    assert plural(2, "more difference") == "2 more differences"
    assert (
        plural(1, "child", "children") == "1 child"
        and plural(3, "child", "children") == "3 children"
    )


def test_a_rate_limit_says_its_numbers_in_words(redis_url: str) -> None:
    client = _client(_app(redis_url, HANABI_LIMIT_CREATE="1/minute"), _address())
    assert client.post(f"{API}/games", json={"name": "ann"}).status_code == 201
    body = assert_problem(client.post(f"{API}/games", json={"name": "ann"}), 429, "rate_limited")
    assert "(at most 1 request in 60 seconds); try again in " in body["detail"], body["detail"]
    assert " s)" not in body["detail"] and not body["detail"].endswith(" s.")
    assert_agrees(body["detail"], ("request", "second"))


def test_the_waiting_cap_says_its_number_in_words(redis_url: str) -> None:
    app = _app(redis_url, HANABI_MAX_WAITING_PER_ADDRESS=1)
    address = _address()
    first = _client(app, address).get(f"{API}/games?status=lobby&limit=1")
    url = f"{API}/games?status=lobby&limit=1&wait=2"
    etag = {"If-None-Match": first.headers["ETag"]}
    holder = threading.Thread(target=lambda: _client(app, address).get(url, headers=etag))
    holder.start()
    try:
        time.sleep(0.5)  # the first request is held by now
        refused = _client(app, address).get(url, headers=etag)
    finally:
        holder.join(5)
    body = assert_problem(refused, 429, "too_many_waiting")
    assert "holds 1 waiting request (" in body["detail"], body["detail"]


def test_an_idle_limit_past_the_servers_says_its_number_in_words(redis_url: str) -> None:
    app: Flask = create_app({"REDIS_URL": redis_url, "HANABI_IDLE_MAX": 1})
    refused = app.test_client().post(
        f"{API}/games", json={"name": "ann", "options": {"idle_limit": 5}}
    )
    body = assert_problem(refused, 400, "invalid_option")
    assert body["detail"] == "idle_limit may be at most 1 second on this server."


def _deck_with(swaps: list[tuple[tuple[str, int], tuple[str, int]]]) -> list[dict[str, Any]]:
    variant = VARIANTS["no_variant"]
    cards = [variant.card(c) for c, copies in enumerate(variant.copies) for _ in range(copies)]
    for old, new in swaps:
        cards[cards.index(old)] = new
    return [{"suit": suit, "rank": rank} for suit, rank in cards]


@pytest.mark.parametrize(
    ("kinds", "tail"), [(3, "and 1 more difference."), (4, "and 3 more differences.")]
)
def test_a_wrong_deck_counts_its_other_differences_in_words(
    client: Any, kinds: int, tail: str
) -> None:
    # Each swap of a 1 for a 5 of the same suit: two kinds of card off (5 listed, the rest counted).
    suits = ["red", "yellow", "green", "blue"][:kinds]
    deck = _deck_with([((suit, 1), (suit, 5)) for suit in suits])
    body = assert_problem(
        client.post(f"{API}/games", json={"name": "ann", "deck": deck}), 400, "invalid_deck"
    )
    assert body["detail"].endswith(tail), body["detail"]


def test_unknown_options_are_named_in_the_number_they_come_in() -> None:
    with pytest.raises(SetupError, match=r"^Unknown game option: colours\.$"):
        Setup.create("no_variant", 2, {"colours": True}, "s")
    with pytest.raises(SetupError, match=r"^Unknown game options: colours, speed\.$"):
        Setup.create("no_variant", 2, {"colours": True, "speed": 1}, "s")
