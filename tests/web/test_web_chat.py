"""Chat where people are, and friends, in the browser (docs/chat.md): the lobby's chat
panel (a line said, a mention that notifies, a mute), a shared replay room's chat read by
a guest and said by an account, and a profile's Follow button that puts the friend's new
table first in the lobby with a notification (notifications granted to the browser
context; the page's Notification constructor is watched)."""

from __future__ import annotations

import secrets

import pytest
from playwright.sync_api import Page, expect
from test_web_turns import WATCH_NOTIFICATIONS, account_client, register
from web_support import Browsing, wait_until

from hanabi.client.api import Client


def notified(web: Browsing) -> Page:
    context = web.browser.new_context(base_url=web.base, permissions=["notifications"])
    context.set_default_timeout(15000)
    web.contexts.append(context)
    context.add_init_script(WATCH_NOTIFICATIONS)
    return web.watch(context.new_page())


def test_the_lobby_chat_says_notifies_a_mention_and_mutes(web: Browsing) -> None:
    ann_name, bob_name = f"ann_{secrets.token_hex(4)}", f"bob_{secrets.token_hex(4)}"
    ann = notified(web)
    register(ann, ann_name)
    bob = account_client(web.base, bob_name)
    log = ann.get_by_role("log", name="Lobby chat")
    expect(log).to_be_visible()
    ann.get_by_label("Message").fill(f"hello, anyone for a game? @{bob_name}")
    ann.get_by_role("button", name="Send").click()
    expect(log).to_contain_text(f"{ann_name}: hello, anyone for a game?", timeout=15000)
    assert bob.read_chat()["lines"][-1]["mentions"] == [bob_name]

    bob.say_in_chat(f"@{ann_name} sure, 3 players?")
    mention = log.locator(".chat-line.mention")
    expect(mention).to_contain_text(f"{bob_name}: @{ann_name} sure, 3 players?", timeout=15000)
    wait_until(lambda: len(ann.evaluate("window.__notes")) == 1, what="the notification")
    note = ann.evaluate("window.__notes")[0]
    assert note["title"] == f"Hanabi: {bob_name} mentioned you"
    assert note["body"] == f"@{ann_name} sure, 3 players?"

    ann.get_by_role("button", name=f"Mute {bob_name}").first.click()
    expect(log).not_to_contain_text(f"{bob_name}:")
    ann_api = Client(
        web.base, token=ann.evaluate("JSON.parse(localStorage['hanabi.session']).token")
    )
    assert ann_api.mutes() == [bob_name]
    ann.reload()
    expect(log).to_contain_text(f"{ann_name}: hello", timeout=15000)
    expect(log).not_to_contain_text(f"{bob_name}:")

    # a guest is asked to log in: no chat without an account
    guest = web.person()
    guest.goto("/")
    expect(guest.get_by_text("Log in to chat with everyone in the lobby.")).to_be_visible()


@pytest.mark.serial  # the lobby's first table: no other test's tables
def test_following_puts_a_friends_new_table_first_and_notifies(web: Browsing) -> None:
    ann_name, bob_name = f"ann_{secrets.token_hex(4)}", f"bob_{secrets.token_hex(4)}"
    ann = notified(web)
    register(ann, ann_name)
    bob = account_client(web.base, bob_name)
    ann.goto(f"/players/{bob_name}")
    follow = ann.get_by_role("button", name="Follow")
    follow.click()
    expect(ann.get_by_role("button", name="Unfollow")).to_have_attribute("aria-pressed", "true")
    ann_api = Client(
        web.base, token=ann.evaluate("JSON.parse(localStorage['hanabi.session']).token")
    )
    assert ann_api.follows()["follows"] == [bob_name]

    ann.goto("/")
    tables = ann.get_by_role("list", name="Open tables")
    expect(tables).to_be_visible()
    ann.wait_for_timeout(500)  # the first listing came: what was open is no news
    game_id = bob.create_game(bob_name).game_id
    Client(web.base, retries=0).create_game(f"guest{secrets.token_hex(3)}")  # newer, no friend
    first = tables.get_by_role("listitem").first
    expect(first).to_contain_text(f"Friends: {bob_name}", timeout=15000)
    expect(first.get_by_role("button", name="Join")).to_be_visible()
    wait_until(lambda: len(ann.evaluate("window.__notes")) >= 1, what="the notification")
    assert ann.evaluate("window.__notes")[0]["title"] == f"Hanabi: {bob_name} opened a table"
    assert game_id in first.get_by_role("link", name="Look").get_attribute("href")


def test_a_shared_replay_room_has_a_chat(web: Browsing) -> None:
    api = Client(web.base, retries=0)
    host = api.create_game("p0", seed=f"chatroom-{secrets.token_hex(3)}")
    guest_seat = api.join(host.game_id, "p1")
    api.start(host.game_id, token=host.token)
    for seat in (host, guest_seat):
        api._request("POST", f"/games/{host.game_id}/votes", json={"end": True}, token=seat.token)
    room = api._request("POST", "/replays", json={"game_id": host.game_id}, token=host.token).json()
    ann_name = f"ann_{secrets.token_hex(4)}"
    ann = web.person()
    register(ann, ann_name)
    ann.goto(f"/replays/{room['id']}")
    log = ann.get_by_role("log", name="Room chat")
    expect(log).to_contain_text("Nobody has said anything here yet.", timeout=15000)
    expect(ann.get_by_role("button", name="Send")).to_be_visible()
    # sent with Enter from its field: the room redraws when its stream's first view comes,
    # which can move the button under a click (CI once lost it: no line was posted)
    ann.get_by_label("Message").fill("look at turn 3")
    ann.get_by_label("Message").press("Enter")
    expect(log).to_contain_text(f"{ann_name}: look at turn 3", timeout=15000)

    watcher = web.person()  # no account: reads, says nothing
    watcher.goto(f"/replays/{room['id']}")
    expect(watcher.get_by_role("log", name="Room chat")).to_contain_text(
        f"{ann_name}: look at turn 3", timeout=15000
    )
    expect(watcher.get_by_text("Log in to chat.")).to_be_visible()
    Client(
        web.base, token=ann.evaluate("JSON.parse(localStorage['hanabi.session']).token")
    ).say_in_chat("and turn 5", room=room["id"])
    expect(watcher.get_by_role("log", name="Room chat")).to_contain_text(
        f"{ann_name}: and turn 5", timeout=15000
    )
