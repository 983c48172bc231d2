"""Signed webhooks: setting one (its secret shown once), calls to a real local HTTP
receiver when it becomes the account's move and when a game ends, the signature, retries
with backoff, the delivery log, a slow receiver that stalls nobody, and SSRF refusals."""

from __future__ import annotations

import hashlib
import hmac
import json
import time
from collections.abc import Iterator
from typing import Any

import pytest
from account_helpers import FAST, account_table, session
from api_helpers import API, assert_problem, assert_valid, bearer
from flask import Flask
from flask.testing import FlaskClient

from hanabi.server import create_app
from hanabi.server.api.schemas.accounts import MeSchema
from hanabi.server.api.schemas.turns import DeliveryListSchema, NewWebhookSchema, WebhookSchema
from webhook_receiver import Receiver

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
    log = deliveries(hclient, b)
    assert [(d["event"], d["status"], d["outcome"]) for d in log] == [
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
    assert first["status"] is None and first["outcome"] == "retrying" and first["error"]


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
    from hanabi.server.ops import outbound

    for url in ("https://127.0.0.1:9/hook", "http://localhost:9/", "https://[fd00::1]/"):
        with pytest.raises(outbound.NotAllowed):
            outbound.post(url, b"{}", {}, 1.0, allow_private=False)
    assert outbound.is_public("93.184.216.34") and outbound.is_public("2606:4700::1111")
    for private in ("10.0.0.1", "172.16.0.1", "100.64.0.1", "169.254.169.254", "::1",
                    "fe80::1%eth0", "::ffff:10.0.0.1", "224.0.0.1", "0.0.0.0"):  # fmt: skip
        assert not outbound.is_public(private), private
