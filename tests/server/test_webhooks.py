"""Signed webhooks: setting one (its secret shown once), calls to a real local HTTP
receiver when it becomes the account's move and when a game ends, the signature, retries
with backoff, the delivery log, a slow receiver that stalls nobody, a receiver that drips
its answer cut off at the call's deadline and held to its account's share of the workers,
and SSRF refusals (every special-purpose range: test_webhook_addresses.py)."""

from __future__ import annotations

import hashlib
import hmac
import json
import time
from collections.abc import Iterator
from typing import Any

import pytest
import redis
from account_helpers import FAST, account_table, session
from api_helpers import API, assert_problem, assert_valid, bearer
from flask import Flask
from flask.testing import FlaskClient

from hanabi.server import create_app
from hanabi.server.api.schemas.accounts import MeSchema
from hanabi.server.api.schemas.turns import (
    ERROR_CODES,
    DeliveryListSchema,
    NewWebhookSchema,
    WebhookSchema,
)
from hanabi.server.ops import exchange, outbound
from hanabi.server.storage.webhooks import BUSY, DUE, WebhookStore
from hanabi.server.table.webhooks import ERROR_WORDS, DeliveryError, WebhookEvent
from webhook_receiver import DripReceiver, Receiver

pytestmark = pytest.mark.single_redis  # its own database: its delivery threads alone


@pytest.fixture(scope="module")
def hook_app(redis_url: str) -> Iterator[Flask]:
    """Private addresses allowed (the receiver is local), a 0.2 s first retry, 3 tries."""
    url = redis_url.rsplit("/", 1)[0] + "/13"
    app = create_app({"REDIS_URL": url, **FAST, "HANABI_BOT_WORKER": 0,
                      "HANABI_WEBHOOK_PRIVATE": "on", "HANABI_WEBHOOK_BACKOFF": 0.2,
                      "HANABI_WEBHOOK_ATTEMPTS": 3, "HANABI_WEBHOOK_TIMEOUT": 1.0})  # fmt: skip
    app.extensions["hanabi"].store.redis.flushdb()
    app.testing = True
    yield app
    app.extensions["hanabi_webhooks"].close(timeout=0)


@pytest.fixture
def hclient(hook_app: Flask) -> FlaskClient:
    return hook_app.test_client()


@pytest.fixture
def receiver() -> Iterator[Receiver]:
    started = Receiver()
    yield started
    started.server.shutdown()


@pytest.fixture
def drip() -> Iterator[DripReceiver]:
    """A receiver that answers a byte every 0.4 s: within the 1 s a read may wait."""
    started = DripReceiver(every=0.4)
    yield started
    started.close()


def set_hook(client: FlaskClient, token: str, url: str) -> str:
    response = client.put(f"{API}/accounts/me/webhook", headers=bearer(token), json={"url": url})
    assert response.status_code == 200, response.get_json()
    body = response.get_json()
    assert_valid(NewWebhookSchema, body)
    return body["secret"]


def deliveries(client: FlaskClient, token: str) -> list[dict[str, Any]]:
    response = client.get(f"{API}/accounts/me/webhook/deliveries", headers=bearer(token))
    assert response.status_code == 200, response.get_json()
    assert_valid(DeliveryListSchema, response.get_json())
    return response.get_json()["deliveries"]


def verified(secret: str, headers: dict[str, str], body: bytes) -> dict[str, Any]:
    """The body, once its signature is checked as a receiver would."""
    expected = "sha256=" + hmac.new(secret.encode(), body, hashlib.sha256).hexdigest()
    assert hmac.compare_digest(headers["X-Hanabi-Signature"], expected)
    payload = json.loads(body)
    assert int(headers["X-Hanabi-Timestamp"]) == payload["sent_at"]
    assert abs(payload["sent_at"] - time.time()) < 10
    assert headers["X-Hanabi-Delivery"] == payload["delivery"]
    return payload


def no_cards(payload: dict[str, Any]) -> None:
    text = json.dumps(payload)
    for hidden in ("hand", "card", "deck", "suit", "rank", "clues_received", "seed"):
        assert hidden not in text, (hidden, payload)


def test_a_signed_call_when_it_becomes_your_move_and_when_the_game_ends(
    hclient: FlaskClient, receiver: Receiver
) -> None:
    _, a = session(hclient)
    _, b = session(hclient)
    secret = set_hook(hclient, b, receiver.url)
    got = hclient.get(f"{API}/accounts/me/webhook", headers=bearer(b))
    assert got.status_code == 200 and "secret" not in got.get_json()
    assert_valid(WebhookSchema, got.get_json())
    table = account_table(hclient, [a, b], move_clock=3600)
    assert receiver.calls == []  # a's move: b is not called
    view = table.view(0)
    clue = next(x for x in view["legal_actions"] if x["type"] == "clue")
    assert table.act(0, 0, **clue).status_code == 201
    headers, body, _ = receiver.wait(1)[0]
    payload = verified(secret, headers, body)
    assert payload["event"] == "your_turn" and headers["X-Hanabi-Event"] == "your_turn"
    assert payload["game_id"] == table.id and payload["turn"] == 1 and payload["seat"] == 1
    assert payload["move_clock"] == 3600 and payload["deadline"]
    no_cards(payload)
    table.end()
    headers, body, _ = receiver.wait(2)[1]
    over = verified(secret, headers, body)
    assert over["event"] == "game_over" and over["game_id"] == table.id
    assert over["reason"] == "terminated" and over["score"] == 0
    no_cards(over)
    # Each call is logged once its answer is read: the two entries may land in either order
    # (the pool promises one call of an account at a time, not the order of the log's writes).
    deadline = time.monotonic() + 5
    while len(log := deliveries(hclient, b)) < 2 and time.monotonic() < deadline:
        time.sleep(0.05)
    assert sorted((d["event"], d["status"], d["outcome"]) for d in log) == [
        ("game_over", 200, "delivered"), ("your_turn", 200, "delivered")]  # fmt: skip
    # A new secret on every PUT; a deleted hook is called no more.
    assert set_hook(hclient, b, receiver.url) != secret
    assert hclient.delete(f"{API}/accounts/me/webhook", headers=bearer(b)).status_code == 204
    assert_problem(hclient.get(f"{API}/accounts/me/webhook", headers=bearer(b)), 404, "no_webhook")
    assert_problem(hclient.delete(f"{API}/accounts/me/webhook", headers=bearer(b)), 404,
                   "no_webhook")  # fmt: skip
    again = account_table(hclient, [b, a])
    again.end()
    time.sleep(0.5)
    assert len(receiver.calls) == 2


def test_a_failed_call_is_retried_with_backoff_then_delivered(
    hclient: FlaskClient, receiver: Receiver
) -> None:
    _, a = session(hclient)
    secret = set_hook(hclient, a, receiver.url)
    receiver.answers = [500, 503]
    _, b = session(hclient)
    account_table(hclient, [a, b])  # a's move at once
    calls = receiver.wait(3)
    assert len({verified(secret, h, body)["delivery"] for h, body, _ in calls}) == 1
    first, second, third = (at for _, _, at in calls)
    assert second - first >= 0.2 and third - second >= 0.4  # 0.2 s, then doubled
    log = deliveries(hclient, a)
    assert [(d["attempt"], d["status"], d["outcome"]) for d in log] == [
        (3, 200, "delivered"), (2, 503, "retrying"), (1, 500, "retrying")]  # fmt: skip
    assert "next_try" in log[1]


def test_attempts_are_bounded(hclient: FlaskClient, receiver: Receiver) -> None:
    _, a = session(hclient)
    set_hook(hclient, a, receiver.url)
    receiver.answers = [500] * 10
    _, b = session(hclient)
    account_table(hclient, [a, b])
    receiver.wait(3)
    time.sleep(1.0)
    assert len(receiver.calls) == 3  # HANABI_WEBHOOK_ATTEMPTS
    assert [d["outcome"] for d in deliveries(hclient, a)] == ["failed", "retrying", "retrying"]


@pytest.mark.serial  # measures time: alone, not beside another worker
def test_a_slow_receiver_stalls_no_move(hclient: FlaskClient, receiver: Receiver) -> None:
    _, a = session(hclient)
    _, b = session(hclient)
    set_hook(hclient, b, receiver.url)
    receiver.delay = 1.5  # past HANABI_WEBHOOK_TIMEOUT (1 s)
    table = account_table(hclient, [a, b])
    view = table.view(0)
    clue = next(x for x in view["legal_actions"] if x["type"] == "clue")
    began = time.monotonic()
    assert table.act(0, 0, **clue).status_code == 201
    assert time.monotonic() - began < 0.5  # the move did not wait for the receiver
    receiver.wait(1)
    began = time.monotonic()
    while not deliveries(hclient, b):
        assert time.monotonic() - began < 5
        time.sleep(0.05)
    first = deliveries(hclient, b)[-1]
    assert first["status"] is None and first["outcome"] == "retrying"
    assert first["error_code"] == "timeout" and first["error"] == ERROR_WORDS[DeliveryError.TIMEOUT]


@pytest.mark.serial  # measures time: alone, not beside another worker
def test_a_call_has_one_deadline_however_slowly_the_receiver_drips() -> None:
    """Each read of a call used to wait up to the timeout, so a receiver that sent its
    answer (or, over TLS, its handshake) a byte at a time was never cut off. The call now
    ends at its deadline, whatever arrives in between."""
    for tls in (False, True):
        drip = DripReceiver(every=0.1, tls_like=tls)
        try:
            began = time.monotonic()
            with pytest.raises(exchange.DeadlineExceeded) as raised:
                outbound.post(drip.url, b"{}", {}, True, deadline=0.6, connect_timeout=0.5)
            assert 0.55 < time.monotonic() - began < 1.2, tls
            assert raised.value.phase is (exchange.Phase.TLS if tls else exchange.Phase.ANSWER)
        finally:
            drip.close()


@pytest.mark.serial  # measures time: alone, not beside another worker
def test_one_accounts_dripping_receiver_delays_no_one_elses_turn(
    hook_app: Flask, hclient: FlaskClient, receiver: Receiver, drip: DripReceiver
) -> None:
    """Issue 45: a receiver answering one byte every few seconds held the delivery thread
    for good, and a victim's your_turn came 421 s late. Account A's hook drips, 40 of its
    calls are due first; B's your_turn still arrives within seconds: each of A's calls ends
    at the call's deadline (1 s here), and A's calls hold at most its share of the pool
    (HANABI_WEBHOOK_SHARE: one at a time). Without the share, 40 calls of 1 s each ahead
    of B's would hold 4 threads for 10 s."""
    _, a = session(hclient)
    _, b = session(hclient)
    _, c = session(hclient)
    set_hook(hclient, a, drip.url)
    set_hook(hclient, b, receiver.url)
    a_id = hclient.get(f"{API}/accounts/me", headers=bearer(a)).get_json()["id"]
    webhooks = hook_app.extensions["hanabi"].webhooks
    try:
        for game in range(40):  # as 40 moves of A's games would (the commit's own path)
            webhooks.notify(a_id, WebhookEvent.YOUR_TURN, {"game_id": f"drip{game}"})
        table = account_table(hclient, [c, b], move_clock=3600)
        clue = next(x for x in table.view(0)["legal_actions"] if x["type"] == "clue")
        began = time.monotonic()
        assert table.act(0, 0, **clue).status_code == 201  # B's move now
        headers, _, _ = receiver.wait(1, within=10.0)[0]
        assert headers["X-Hanabi-Event"] == "your_turn"
        assert time.monotonic() - began < 10.0
        # A's first call was cut off at its deadline, said in words in the log
        while not (log := deliveries(hclient, a)):
            assert time.monotonic() - began < 10.0
            time.sleep(0.05)
        cut = log[-1]
        assert cut["status"] is None and cut["outcome"] == "retrying"
        assert cut["error_code"] == "timeout" and cut["ms"] < 2000
        assert cut["error"] == ERROR_WORDS[DeliveryError.TIMEOUT]
        russian = hclient.get(f"{API}/accounts/me/webhook/deliveries",
                              headers={**bearer(a), "Accept-Language": "ru"})  # fmt: skip
        said = russian.get_json()["deliveries"][-1]
        assert said["error_code"] == "timeout" and said["error"] != cut["error"]
        assert russian.headers["Content-Language"] == "ru"
        assert drip.most_at_once() == 1  # A's share of the pool, never more
    finally:
        hclient.delete(f"{API}/accounts/me/webhook", headers=bearer(a))  # its calls end


def test_private_and_odd_urls_are_refused(client: FlaskClient) -> None:
    """The default server (HANABI_WEBHOOK_PRIVATE off) reaches public https hosts only."""
    _, token = session(client)
    for url in ("http://127.0.0.1:8080/hook", "https://127.0.0.1/hook", "https://localhost/x",
                "https://10.1.2.3/", "https://192.168.0.1/", "https://169.254.169.254/latest",
                "https://[::1]/", "https://[::ffff:127.0.0.1]/", "https://0.0.0.0/",
                "ftp://example.org/", "https://user:pw@example.org/", "example.org",
                "https://no-such-host.invalid/"):  # fmt: skip
        response = client.put(f"{API}/accounts/me/webhook", headers=bearer(token),
                              json={"url": url})  # fmt: skip
        assert_problem(response, 400, "webhook_url_refused")
    assert_problem(client.put(f"{API}/accounts/me/webhook", json={"url": "https://x.org/"}), 401,
                   "account_required")  # fmt: skip
    assert_problem(client.get(f"{API}/accounts/me/webhook", headers=bearer(token)), 404,
                   "no_webhook")  # fmt: skip


def test_the_account_says_its_webhook_or_null(hclient: FlaskClient, receiver: Receiver) -> None:
    """``GET /accounts/me`` carries the webhook (never its secret) or null: a settings page
    knows without asking for one that may not exist."""
    _, token = session(hclient)

    def me() -> dict[str, Any]:
        response = hclient.get(f"{API}/accounts/me", headers=bearer(token))
        assert response.status_code == 200
        assert_valid(MeSchema, response.get_json())
        return response.get_json()

    assert me()["webhook"] is None
    secret = set_hook(hclient, token, receiver.url)
    hook = me()["webhook"]
    assert hook["url"] == receiver.url and secret not in json.dumps(me())
    assert hook == hclient.get(f"{API}/accounts/me/webhook", headers=bearer(token)).get_json()
    assert hclient.delete(f"{API}/accounts/me/webhook", headers=bearer(token)).status_code == 204
    assert me()["webhook"] is None


def test_every_delivery_checks_the_address_again() -> None:
    """A URL accepted once is checked again when it is called: a host that resolves to a
    private address by then is not connected to (no request is made)."""
    for url in ("https://127.0.0.1:9/hook", "http://localhost:9/", "https://[fd00::1]/",
                "https://[fec0::1]/", "https://192.0.0.8/"):  # fmt: skip
        with pytest.raises(outbound.NotAllowed):
            outbound.post(url, b"{}", {}, False, deadline=1.0, connect_timeout=1.0)
    assert outbound.is_public("93.184.216.34") and outbound.is_public("2606:4700::1111")
    for private in ("10.0.0.1", "172.16.0.1", "100.64.0.1", "169.254.169.254", "::1",
                    "fe80::1%eth0", "::ffff:10.0.0.1", "224.0.0.1", "0.0.0.0"):  # fmt: skip
        assert not outbound.is_public(private), private


def test_an_account_past_its_share_waits_in_its_place_while_others_pass(redis_url: str) -> None:
    """The queue's side of the share (real Redis, its own database: no worker claims from
    it): with one call of account A under way, A's next due calls are set aside and B's,
    due after them, is claimed; when A's call is settled (done, or put back for a retry)
    A's next in line comes back, and a claim whose worker died is claimed again once its
    lease runs out."""
    client = redis.Redis.from_url(redis_url.rsplit("/", 1)[0] + "/14")
    client.flushdb()
    store = WebhookStore(client, 10, share=1)
    t = 1_000_000
    for i in range(3):
        assert store.enqueue(f"a{i}", t + i, {"account": "A", "attempt": 0})
    assert store.enqueue("b0", t + 10, {"account": "B", "attempt": 0})

    def claimed(now: int) -> str | None:
        found = store.claim(now, 5000)
        return None if found is None else found[0]

    assert claimed(t + 100) == "a0"
    assert claimed(t + 100) == "b0"  # a1 and a2 set aside: B's passes them
    assert claimed(t + 100) is None
    store.finish("b0", "B", t + 200)
    store.finish("a0", "A", t + 200)  # A's place is free: its next in line comes back
    assert claimed(t + 200) == "a1"
    assert claimed(t + 300) is None  # a2 waits for a1
    assert claimed(t + 5100) is None  # ... for as long as a1's lease lasts
    assert claimed(t + 200 + 5000) == "a1"  # its worker died: claimed again
    store.retry("a1", t + 60_000, {"account": "A", "attempt": 1}, t + 5300)
    assert claimed(t + 5300) == "a2"  # a1 put back for its retry: A's next comes
    store.finish("a2", "A", t + 5400)
    assert claimed(t + 60_000) == "a1"
    store.finish("a1", "A", t + 60_100)
    assert client.zcard(DUE) == 0 and not client.hgetall(BUSY)
    client.flushdb()


def test_every_error_code_of_the_log_is_documented_and_worded() -> None:
    assert set(ERROR_CODES) == {code.value for code in DeliveryError} == set(ERROR_WORDS)
