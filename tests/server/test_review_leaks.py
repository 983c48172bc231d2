"""An attacker's review of the recent features: each test is a way a player tried to learn
what is hidden from them (their own cards, another seat's notes...) or to act where they
may not, through the real API."""

from __future__ import annotations

from account_helpers import session
from api_helpers import API, assert_problem, bearer, make_table
from flask import Flask
from flask.testing import FlaskClient

from hanabi.server import create_app
from hanabi.server.ops.config import SETTINGS
from hanabi.server.ops.times import now_ms
from hanabi.server.storage.webhooks import MAX_PER_ACCOUNT
from hanabi.server.table.seeds import parse


def test_a_seat_cannot_copy_its_random_seed_to_see_its_own_cards(client: FlaskClient) -> None:
    """The deal of a seed is the same at every table that names it: a seat that read its
    own table's seed name while the game is on could open a second table on that name and
    look at its own hand there. While the game goes on, a random seed's name stays hidden."""
    table = make_table(client, 2)
    mine = table.view(1)["hands"][0]  # seat 0's cards, as seat 1 sees them
    for seat in (0, 1):
        name = table.view(seat).get("seed")
        if name is not None and parse(name) is not None:
            copy = make_table(client, 2, seed=name)
            assert copy.view(1)["hands"][0] != mine, "seat 0 saw its own cards on a copy"
    table.end()
    assert parse(table.view(0)["seed"]) is not None  # once over, the name is the seat's


def test_a_webhook_may_not_name_a_private_address_inside_an_ipv6_one(client: FlaskClient) -> None:
    """6to4 (2002::/16) and NAT64 (64:ff9b::/96) addresses carry an IPv4 address: one
    that wraps loopback, a private network or the cloud's metadata is refused too."""
    _, token = session(client)
    for url in ("https://[2002:7f00:1::]/", "https://[2002:a9fe:a9fe::1]/latest",
                "https://[2002:a00:1::1]/", "https://[64:ff9b::a9fe:a9fe]/"):  # fmt: skip
        response = client.put(f"{API}/accounts/me/webhook", headers=bearer(token),
                              json={"url": url})  # fmt: skip
        assert_problem(response, 400, "webhook_url_refused")


def test_one_account_cannot_fill_the_webhook_queue_for_everyone(app: Flask) -> None:
    """Each move in a game of accounts queues a call of a hook; one account whose hook
    never answers, moving fast, used to fill the service's one queue (100,000 calls) so that
    every other account's calls were dropped. An account has a share of it."""
    store = app.extensions["hanabi"].webhooks.store
    later = now_ms() + 3_600_000  # due in an hour: no worker claims them meanwhile
    flood = [f"flood{i}" for i in range(MAX_PER_ACCOUNT + 5)]
    taken = [store.enqueue(d, later, {"account": "noisy", "attempt": 0}) for d in flood]
    try:
        assert taken.count(True) == MAX_PER_ACCOUNT and not any(taken[MAX_PER_ACCOUNT:])
        assert store.enqueue("quiet0", later, {"account": "quiet", "attempt": 0})
        store.finish(flood[0], "noisy")  # one delivered: room for one more
        assert store.enqueue("flood-again", later, {"account": "noisy", "attempt": 0})
        # a retry of a queued delivery takes no more room: never refused
        assert store.enqueue(flood[1], later, {"account": "noisy", "attempt": 1}, bounded=False)
    finally:
        for delivery in [*flood, "flood-again"]:
            store.finish(delivery, "noisy")
        store.finish("quiet0", "quiet")


def test_setting_a_webhook_is_rate_limited_per_address(redis_url: str) -> None:
    """Each PUT of a webhook resolves its host: without a rate, one account made the
    server look up names as fast as it could ask."""
    defaults = {name: default for name, (default, _) in SETTINGS.items() if "LIMIT" in name}
    app = create_app({"REDIS_URL": redis_url, **defaults, "HANABI_LIMITS": "on"})
    client = app.test_client()
    client.environ_base["REMOTE_ADDR"] = "10.9.8.7"
    _, token = session(client)
    answers = [
        client.put(
            f"{API}/accounts/me/webhook",
            headers=bearer(token),
            json={"url": f"https://127.0.0.{i}/"},
        ).status_code
        for i in range(1, 13)
    ]
    assert answers[:10] == [400] * 10 and answers[10:] == [429, 429], answers
