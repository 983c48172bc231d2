"""The account's webhook in the browser, on the player's own profile page: set a URL (the
secret shown once, and it is the one that signs the calls), a refused URL shows the
server's sentence, the delivery log shows a real call to a local receiver, and the
webhook is removed. The test server allows local receivers (HANABI_WEBHOOK_PRIVATE=on,
tests/web/conftest.py)."""

from __future__ import annotations

import hashlib
import hmac
import secrets
from collections.abc import Iterator

import pytest
from playwright.sync_api import expect
from test_web_turns import account_client, first_clue, register
from web_support import Browsing, wait_until

from hanabi.client.api import ApiError, Client
from webhook_receiver import Receiver


@pytest.fixture
def receiver() -> Iterator[Receiver]:
    got = Receiver()
    yield got
    got.server.shutdown()


def test_an_account_sets_its_webhook_reads_its_deliveries_and_removes_it(
    web: Browsing, receiver: Receiver
) -> None:
    ann_name, bob_name = f"ann_{secrets.token_hex(4)}", f"bob_{secrets.token_hex(4)}"
    ann = web.person()
    register(ann, ann_name)
    ann.goto(f"/players/{ann_name}")
    panel = ann.get_by_role("region", name="Webhook")
    expect(panel).to_contain_text("No webhook is set")
    expect(panel.get_by_role("list", name="Webhook deliveries")).to_contain_text("No delivery yet.")

    # A URL the server refuses: its sentence, and nothing set.
    web.allow("400")
    panel.get_by_label("Webhook URL").fill("ftp://example.org/hook")
    panel.get_by_role("button", name="Set", exact=True).click()
    expect(panel.get_by_role("alert")).to_contain_text("https://")
    expect(panel).to_contain_text("No webhook is set")

    panel.get_by_label("Webhook URL").fill(receiver.url)
    panel.get_by_role("button", name="Set", exact=True).click()
    expect(panel).to_contain_text(f"Calls go to {receiver.url}")
    secret = panel.get_by_label("Webhook secret").inner_text()
    assert len(secret) >= 32
    expect(panel.get_by_role("button", name="Remove the webhook")).to_be_visible()

    # It becomes Ann's move at a turn-based table: a call signed with that secret.
    token = ann.evaluate("JSON.parse(localStorage['hanabi.session']).token")
    ann_api, bob = Client(web.base, token=token), account_client(web.base, bob_name)
    game = bob.create_game(bob_name, options={"move_clock": 3600}).game_id
    ann_api.join(game, ann_name)
    bob.start(game)
    first_clue(bob, game)
    headers, body, _ = receiver.wait(1, within=15)[0]
    expected = "sha256=" + hmac.new(secret.encode(), body, hashlib.sha256).hexdigest()
    assert headers["X-Hanabi-Signature"] == expected
    assert headers["X-Hanabi-Event"] == "your_turn"

    # The log shows the try; a reload shows the webhook without its secret.
    log = panel.get_by_role("list", name="Webhook deliveries")

    def delivered() -> bool:
        panel.get_by_role("button", name="Refresh").click()
        return "delivered" in log.inner_text()

    wait_until(delivered, what="the delivery in the log")
    expect(log).to_contain_text("your move")
    expect(log).to_contain_text("answer 200")
    ann.reload()
    expect(panel).to_contain_text(f"Calls go to {receiver.url}")
    expect(panel.get_by_label("Webhook secret")).to_have_count(0)

    panel.get_by_role("button", name="Remove the webhook").click()
    expect(panel).to_contain_text("No webhook is set")
    with pytest.raises(ApiError) as gone:
        ann_api.webhook()
    assert gone.value.status == 404


def test_someone_elses_profile_has_no_webhook_panel(web: Browsing) -> None:
    ann_name, bob_name = f"ann_{secrets.token_hex(4)}", f"bob_{secrets.token_hex(4)}"
    account_client(web.base, bob_name)
    ann = web.person()
    register(ann, ann_name)
    ann.goto(f"/players/{bob_name}")
    expect(ann.get_by_role("heading", name=bob_name)).to_be_visible()
    expect(ann.get_by_role("region", name="Webhook")).to_have_count(0)
