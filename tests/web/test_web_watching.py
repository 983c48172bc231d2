"""Watching in the browser (issue #44, docs/web.md "Watching"): "Start and watch" at a
table of bots shows their cards as they play; a spectator of an unrated table sees every
hand and may shadow a seat (the table as that seat sees it); a table that hides the hands
shows its spectators the board only and offers no shadow; the create form's "Spectators
see hands" goes while Rated is ticked; a finished game's shared replay opens and joins by
its link with no account."""

from __future__ import annotations

import re
import secrets

from playwright.sync_api import Page, expect
from test_web_accessibility import axe_violations
from web_support import Browsing, WebServer, api_table, counter_value, create_game

from hanabi.client.api import Client

PASSWORD = "correct horse battery"
FACE = re.compile(r"^Slot \d: (red|yellow|green|blue|white) [1-5]")
UNKNOWN = re.compile(r"^Slot \d: unknown")

#: Installed before the start: every time the page redraws, note whether the status says
#: "In play" while a hand's card has its face named (the bots may finish in a second, so
#: the page itself keeps what it showed).
SEEN_LIVE = """() => {
  window.seenLive = 0;
  new MutationObserver(() => {
    const status = document.querySelector(".status")?.textContent || "";
    const faces = [...document.querySelectorAll(".hands .card")]
      .filter((c) => /^Slot \\d: (red|yellow|green|blue|white) [1-5]/.test(c.getAttribute("aria-label") || ""));
    if (status.startsWith("In play") && faces.length) window.seenLive += 1;
  }).observe(document.body, { childList: true, subtree: true });
}"""


def faces(page: Page, name: str):
    """The cards of ``name``'s hand."""
    return page.get_by_role("group", name=f"{name}'s hand").locator(".card")


def test_start_and_watch_shows_the_bots_cards_as_they_play(web: Browsing) -> None:
    host = web.person()
    create_game(host, "host", players=3, bots=2)  # a random deal: a seed with a name
    host.evaluate(SEEN_LIVE)
    host.get_by_role("button", name="Start and watch").click()
    expect(host.get_by_role("heading", name=re.compile(r"^Game over"))).to_be_visible(timeout=60000)
    # while it was on, the page said so and showed every bot's cards
    assert host.evaluate("window.seenLive") > 0
    # and once over, the game is everyone's: replay and export, every card shown
    expect(host.get_by_role("button", name="Watch the replay")).to_be_visible()
    expect(host.get_by_role("button", name="hanab.live export (JSON)")).to_be_visible()
    cards = host.get_by_role("group", name=re.compile("'s hand$")).locator(".card")
    expect(cards.first).to_have_attribute("aria-label", FACE)


def test_a_spectator_sees_every_hand_and_shadows_a_seat(
    web: Browsing, web_server: WebServer
) -> None:
    table = api_table(web_server.api(), seed=f"watch-{secrets.token_hex(3)}")
    table.moves(2)
    page = web.person()
    page.goto(f"/games/{table.game_id}")
    expect(page.locator(".status")).to_contain_text("every hand shows (never the deck)")
    expect(page).to_have_title(re.compile(r"^Watching: In play"))
    for name in ("ann", "bob"):
        expect(faces(page, name)).to_have_count(5)
        for i in range(5):
            expect(faces(page, name).nth(i)).to_have_attribute("aria-label", FACE)
    assert page.get_by_role("heading", name="Your move").count() == 0

    # shadow bob: bob's cards as bob knows them, ann's with their faces
    page.get_by_label("Shadow").select_option(label="bob")
    expect(page.locator(".status")).to_contain_text("You are watching as bob sees the table")
    expect(page.get_by_role("group", name="bob's hand")).to_contain_text("shadowed")
    for i in range(5):
        expect(faces(page, "bob").nth(i)).to_have_attribute("aria-label", UNKNOWN)
        expect(faces(page, "ann").nth(i)).to_have_attribute("aria-label", FACE)
    expect(page).to_have_url(re.compile(r"\?shadow=1$"))
    assert axe_violations(page) == [], "a spectator shadowing a seat"
    # a move comes live, still as bob sees it; a reload keeps the shadow (the address)
    table.moves(1)
    expect(counter_value(page, "Turn")).to_have_text("4")  # three moves made
    # bob's cards as bob knows them now (two clues may have named one card whole)
    known = [faces(page, "bob").nth(i).get_attribute("aria-label") for i in range(5)]
    assert any(UNKNOWN.match(label or "") for label in known), known  # not their faces
    page.reload()
    expect(page.locator(".status")).to_contain_text("You are watching as bob sees the table")
    expect(page.get_by_label("Shadow")).to_have_value("1")
    for i, label in enumerate(known):
        expect(faces(page, "bob").nth(i)).to_have_attribute("aria-label", label)
    # every hand again
    page.get_by_label("Shadow").select_option(label="Nobody: every hand")
    expect(page.locator(".status")).to_contain_text("every hand shows")
    expect(faces(page, "bob").first).to_have_attribute("aria-label", FACE)
    expect(page).not_to_have_url(re.compile(r"shadow="))


def test_a_table_that_hides_the_hands_shows_the_board_only(
    web: Browsing, web_server: WebServer
) -> None:
    ann = web.person()
    ann.goto("/")
    host = f"ann-{secrets.token_hex(3)}"  # a name no other table has
    ann.get_by_label("Name", exact=True).fill(host)
    ann.get_by_label("Spectators see hands").uncheck()
    ann.get_by_role("button", name="Create game").click()
    ann.wait_for_url(re.compile(r"/games/[^/]+$"))
    game_id = ann.url.rsplit("/", 1)[1]
    api = web_server.api()
    assert api.game(game_id)["options"]["spectators_see_hands"] is False
    bob = api.join(game_id, "bob")
    ann.get_by_role("button", name="Start", exact=True).click()
    expect(ann.get_by_role("heading", name="Your move")).to_be_visible()

    page = web.person()
    # the lobby's games in play say so
    page.goto("/")
    row = page.get_by_role("list", name="Games in play").get_by_role(
        "listitem", name=f"No Variant: {host}, bob"
    )
    expect(row).to_contain_text("hands hidden from spectators", timeout=20000)
    page.goto(f"/games/{game_id}")
    expect(page.locator(".status")).to_contain_text("this table hides the hands from spectators")
    for name in (host, "bob"):
        expect(faces(page, name).first).to_be_visible()
        for i in range(faces(page, name).count()):
            expect(faces(page, name).nth(i)).not_to_have_attribute("aria-label", FACE)
    assert page.get_by_label("Shadow").count() == 0
    # the address cannot ask for one either: the server's sentence, then the board as it is
    web.allow(r"status of 403")
    page.goto(f"/games/{game_id}?shadow=1")
    expect(page.get_by_role("alert")).not_to_be_empty()
    expect(page.locator(".status")).to_contain_text("this table hides the hands")
    assert bob.token  # bob sits; nothing of his is shown


def test_the_create_form_offers_hidden_hands_except_at_rated_tables(
    web: Browsing, web_server: WebServer
) -> None:
    api = web_server.api()
    name = f"w{secrets.token_hex(4)}"
    api.register(name, PASSWORD)
    token = api.login(name, PASSWORD, use=False)["token"]
    page = web.person()
    page.goto("/")
    page.evaluate(
        "([username, token]) => localStorage.setItem('hanabi.session',"
        " JSON.stringify({ username, token }))",
        [name, token],
    )
    page.reload()
    option = page.get_by_label("Spectators see hands")
    expect(option).to_be_checked()
    page.get_by_label("Rated", exact=True).check()
    expect(option).to_be_hidden()
    page.get_by_label("Rated", exact=True).uncheck()
    expect(option).to_be_visible()


def finished_seed_game(api: Client) -> tuple[str, str, str]:
    """A finished two-seat game on a fresh seed name: (game id, ann's seat token, seed)."""
    seed = f"p2v0s{800_000_000 + secrets.randbelow(99_999_999)}"
    table = api_table(api, seed=seed)
    table.moves(4)
    table.end_by_vote()
    return table.game_id, table.tokens[0], seed


def test_a_shared_replay_opens_and_joins_by_its_link_without_an_account(
    web: Browsing, web_server: WebServer
) -> None:
    api = web_server.api()
    game, ann, _seed = finished_seed_game(api)
    made = api._request("POST", "/replays", json={"game_id": game}, token=ann).json()
    room, leader = made["id"], made["token"]

    friend = web.person()  # no account, no seat: just the link
    friend.goto(f"/replays/{room}")
    status = friend.locator(".room-status")
    expect(status).to_contain_text("ann leads")
    expect(faces(friend, "bob").first).to_have_attribute("aria-label", FACE)
    friend.get_by_role("button", name="Join to lead later").click()
    expect(friend.get_by_text(re.compile("Your follower id"))).to_be_visible()
    expect(status).to_contain_text("1 joined")
    # it follows the leader live, and after a reload as the member it became
    api._request(
        "PUT", f"/replays/{room}/position", json={"turn": 1, "highlight": []}, token=leader
    )
    expect(status).to_contain_text("turn 2 of")
    friend.reload()
    expect(friend.get_by_text(re.compile("Your follower id"))).to_be_visible()
    api._request(
        "PUT", f"/replays/{room}/position", json={"turn": 2, "highlight": []}, token=leader
    )
    expect(status).to_contain_text("turn 3 of")

    # the finished game itself: its cards, replay and export for anyone; a room's leader
    # is someone the server knows, so a visitor is told to log in to share one
    other = web.person()
    other.goto(f"/games/{game}")
    expect(other.get_by_role("heading", name=re.compile("Game over"))).to_be_visible()
    expect(faces(other, "bob").first).to_have_attribute("aria-label", FACE)
    with other.expect_download() as download:
        other.get_by_role("button", name="hanab.live export (JSON)").click()
    assert download.value.suggested_filename == f"hanabi-{game}.json"
    other.get_by_role("button", name="Watch the replay").click()
    expect(other.get_by_role("heading", name="Replay")).to_be_visible()
    expect(faces(other, "bob").first).to_have_attribute("aria-label", FACE)
    expect(other.get_by_text("Log in to share this replay with a group.")).to_be_visible()
    assert other.get_by_role("button", name="Share replay").count() == 0


def log_in(web: Browsing, api: Client) -> tuple[Page, str]:
    """A browser logged in as a new account: (its page, the session's token)."""
    name = f"w{secrets.token_hex(4)}"
    api.register(name, PASSWORD)
    token = api.login(name, PASSWORD, use=False)["token"]
    page = web.person()
    page.goto("/")
    page.evaluate(
        "([username, token]) => localStorage.setItem('hanabi.session',"
        " JSON.stringify({ username, token }))",
        [name, token],
    )
    return page, token


def test_a_logged_in_spectator_shadows_through_its_stream_ticket(
    web: Browsing, web_server: WebServer
) -> None:
    api = web_server.api()
    table = api_table(api, seed=f"watch-{secrets.token_hex(3)}")
    page, _token = log_in(web, api)
    page.goto(f"/games/{table.game_id}")
    expect(page.locator(".status")).to_contain_text("every hand shows")
    page.get_by_label("Shadow").select_option(label="ann")
    expect(page.locator(".status")).to_contain_text("You are watching as ann sees the table")
    expect(faces(page, "ann").first).to_have_attribute("aria-label", UNKNOWN)
    expect(faces(page, "bob").first).to_have_attribute("aria-label", FACE)
    table.moves(1)  # the shadow's stream (opened with a ticket that names it) goes on
    expect(counter_value(page, "Turn")).to_have_text("2")
    expect(faces(page, "ann").first).to_have_attribute("aria-label", UNKNOWN)


def test_an_account_playing_the_deal_elsewhere_gets_the_board_only(
    web: Browsing, web_server: WebServer
) -> None:
    api = web_server.api()
    finished, _ann, seed = finished_seed_game(api)
    page, token = log_in(web, api)
    # the account sits down to the same deal at another table, still going on
    live = api._request("POST", "/games", json={"seed": seed}, token=token).json()["id"]
    api.join(live, "mate")
    api.start(live, token=token)

    page.goto(f"/games/{finished}")
    expect(page.get_by_role("heading", name=re.compile("Game over"))).to_be_visible()
    expect(page.get_by_text("You are playing this deal at another table")).to_be_visible()
    assert page.get_by_role("button", name="Watch the replay").count() == 0
    assert page.get_by_role("button", name="hanab.live export (JSON)").count() == 0
    expect(faces(page, "bob").first).not_to_have_attribute("aria-label", FACE)
