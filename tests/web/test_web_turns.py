"""Turn-based play in the browser: the "New game" form's move clock, the lobby's "Your
turn" list (from GET /accounts/me/turns) and a notification when a new game awaits the
player's move (notifications granted to the browser context; the page's Notification
constructor is watched)."""

from __future__ import annotations

import re
import secrets

from playwright.sync_api import Page, expect
from web_support import Browsing, wait_until

from hanabi.client.api import Client

PASSWORD = "correct horse battery"
#: Records every notification the page raises (the real one is raised too).
WATCH_NOTIFICATIONS = """
window.__notes = [];
const Real = window.Notification;
class Watched extends Real {
  constructor(title, options) {
    super(title, options);
    window.__notes.push({ title, body: options && options.body });
  }
}
window.Notification = Watched;
"""


def register(page: Page, username: str) -> None:
    page.goto("/")
    page.get_by_role("button", name="Log in or register").click()
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password", exact=True).fill(PASSWORD)
    page.get_by_role("button", name="Register", exact=True).click()
    account = page.get_by_role("navigation", name="Account")
    expect(account.get_by_role("link", name=username)).to_be_visible()


def account_client(url: str, username: str) -> Client:
    client = Client(url, retries=0)
    client.register(username, PASSWORD)
    client.login(username, PASSWORD)
    return client


def first_clue(client: Client, game_id: str) -> None:
    view = client.game(game_id)
    clue = next(a for a in view["legal_actions"] if a["type"] == "clue")
    client.act(game_id, view["turn"], clue)


def test_the_lobby_lists_your_turns_and_notifies_a_new_one(web: Browsing) -> None:
    context = web.browser.new_context(base_url=web.base, permissions=["notifications"])
    context.set_default_timeout(15000)
    web.contexts.append(context)
    context.add_init_script(WATCH_NOTIFICATIONS)
    ann_name, bob_name = f"ann_{secrets.token_hex(4)}", f"bob_{secrets.token_hex(4)}"
    ann = web.watch(context.new_page())
    register(ann, ann_name)
    bob = account_client(web.base, bob_name)

    # A turn-based table from the form: 2 days a move.
    ann.get_by_label("Turn-based").check()
    ann.get_by_label("Time per move").fill("2")
    ann.get_by_label("Unit").select_option(label="days")
    ann.get_by_role("button", name="Create game").click()
    ann.wait_for_url(re.compile(r"/games/[^/]+$"))
    first = ann.url.rsplit("/", 1)[1]
    bob.join(first, bob_name)
    ann.get_by_role("button", name="Start", exact=True).click()
    assert bob.game(first)["options"]["move_clock"] == 2 * 86400

    ann.goto("/")
    turns = ann.get_by_role("list", name="Games awaiting your move")
    expect(turns.get_by_role("listitem")).to_have_count(1)
    expect(turns).to_contain_text("2 days a move")
    expect(turns).to_contain_text(bob_name)
    expect(turns.get_by_role("link", name="Play")).to_have_attribute("href", f"/games/{first}")
    expect(ann.get_by_role("button", name="Notify me")).to_be_hidden()  # already granted
    assert ann.evaluate("Notification.permission") == "granted"
    assert ann.evaluate("window.__notes") == []  # what was there on load is no news

    # Bob opens a second table; Ann takes a seat; Bob moves: now it is Ann's move there.
    ann_api = Client(
        web.base, token=ann.evaluate("JSON.parse(localStorage['hanabi.session']).token")
    )
    second = bob.create_game(bob_name, options={"move_clock": 3600}).game_id
    ann_api.join(second, ann_name)
    bob.start(second)
    first_clue(bob, second)
    ann.evaluate("document.dispatchEvent(new Event('visibilitychange'))")  # the tab is back
    expect(turns.get_by_role("listitem")).to_have_count(2)
    wait_until(lambda: len(ann.evaluate("window.__notes")) == 1, what="the notification")
    note = ann.evaluate("window.__notes")[0]
    assert note["title"] == "Hanabi: your move" and bob_name in note["body"]

    # In a browser that has not been asked yet, "Notify me" asks (on the click only).
    other = web.browser.new_context(base_url=web.base)
    web.contexts.append(other)
    session = ann.evaluate("localStorage['hanabi.session']")
    other.add_init_script(f"localStorage.setItem('hanabi.session', {session!r})")
    fresh = web.watch(other.new_page())
    fresh.goto("/")
    expect(
        fresh.get_by_role("list", name="Games awaiting your move").get_by_role("listitem")
    ).to_have_count(2)
    assert fresh.evaluate("Notification.permission") == "default"
    fresh.get_by_role("button", name="Notify me").click()
    expect(fresh.get_by_role("button", name="Notify me")).to_be_hidden()
    assert fresh.evaluate("Notification.permission") != "default"

    # The hour-long move comes first; once Ann has moved in the other game, it leaves.
    expect(turns.get_by_role("link", name="Play").first).to_have_attribute(
        "href", f"/games/{second}"
    )
    first_clue(ann_api, first)
    ann.reload()
    expect(turns.get_by_role("listitem")).to_have_count(1)
    expect(turns.get_by_role("link", name="Play")).to_have_attribute("href", f"/games/{second}")
