"""A seed's finished game in the browser (docs/seeds.md, "Who sees a seed's deal"): an
account that finished the seed at another table opens a team's game on it and sees its
hands, its replay and its export; a logged-in account that never played the seed, and
anyone not logged in, see the hidden line and no replay. A shared room of that game: the
finisher reads and follows it with their session (the stream opened with a ticket), joins
it, and keeps following as its member; others get the server's sentence."""

from __future__ import annotations

import re
import secrets

from playwright.sync_api import Page, expect
from web_support import Browsing, WebServer, api_table

from hanabi.client.api import Client

PASSWORD = "correct horse battery"


def account(api: Client) -> tuple[str, str]:
    """A new account and a session token for it: (username, token)."""
    name = f"sg{secrets.token_hex(4)}"
    api.register(name, PASSWORD)
    return name, api.login(name, PASSWORD, use=False)["token"]


def finish_seed(api: Client, seed: str, token: str) -> None:
    """The account plays ``seed`` at a table of its own (with a guest) and ends it."""
    game = api._request("POST", "/games", json={"seed": seed}, token=token).json()["id"]
    guest = api.join(game, "mate")
    api.start(game, token=token)
    for seat in (token, guest.token):
        api.vote(game, token=seat)


def log_in(page: Page, username: str, token: str) -> None:
    """This browser holds the account's session (as the header's login keeps it)."""
    page.goto("/")
    page.evaluate(
        "([username, token]) => localStorage.setItem('hanabi.session',"
        " JSON.stringify({ username, token }))",
        [username, token],
    )


def seed_game(web_server: WebServer) -> tuple[str, str, str]:
    """A finished team game on a fresh seed name: (seed, game id, ann's seat token)."""
    seed = f"p2v0s{800_000_000 + secrets.randbelow(99_999_999)}"
    table = api_table(web_server.api(), seed=seed)
    table.moves(4)
    table.end_by_vote()
    return seed, table.game_id, table.tokens[0]


HIDDEN = "This game's cards stay hidden until you finish a game on its seed."


def test_a_finisher_sees_the_cards_and_others_the_hidden_view(
    web: Browsing, web_server: WebServer
) -> None:
    api = web_server.api()
    seed, game, _ = seed_game(web_server)
    fin_name, fin = account(api)
    finish_seed(api, seed, fin)
    never_name, never = account(api)

    page = web.person()
    log_in(page, fin_name, fin)
    page.goto(f"/games/{game}")
    expect(page.get_by_role("heading", name=re.compile("Game over"))).to_be_visible()
    assert page.get_by_text(HIDDEN).count() == 0
    hand = page.get_by_role("group", name="bob's hand")
    expect(hand.locator(".card").first).to_be_visible()
    expect(page.get_by_role("button", name="hanab.live export (JSON)")).to_be_visible()
    with page.expect_download() as download:
        page.get_by_role("button", name="hanab.live export (JSON)").click()
    assert download.value.suggested_filename == f"hanabi-{game}.json"
    page.get_by_role("button", name="Watch the replay").click()
    expect(page.get_by_role("heading", name="Replay")).to_be_visible()
    expect(page.get_by_role("button", name="Share replay")).to_be_visible()
    # the deal's cards, as the seats saw them: a card of bob's with its suit named
    cards = page.get_by_role("group", name="bob's hand").locator(".card")
    expect(cards.first).to_be_visible()
    assert "unknown" not in (cards.first.get_attribute("aria-label") or "").lower()

    for who in ((never_name, never), None):
        other = web.person()
        if who is not None:
            log_in(other, *who)
        other.goto(f"/games/{game}")
        expect(other.get_by_text(HIDDEN)).to_be_visible()
        assert other.get_by_role("button", name="Watch the replay").count() == 0
        assert other.get_by_role("button", name="hanab.live export (JSON)").count() == 0


def test_a_seed_room_for_its_finisher_and_its_members(web: Browsing, web_server: WebServer) -> None:
    api = web_server.api()
    seed, game, ann_token = seed_game(web_server)
    fin_name, fin = account(api)
    finish_seed(api, seed, fin)
    never_name, never = account(api)
    made = api._request("POST", "/replays", json={"game_id": game}, token=ann_token).json()
    room, leader = made["id"], made["token"]

    # refused: the server's sentence, no blank page
    web.allow(r"status of 40[13]")
    anonymous = web.person()
    anonymous.goto(f"/replays/{room}")
    expect(anonymous.get_by_role("alert")).to_contain_text("Send an account's session token")
    expect(anonymous.get_by_role("heading", name="Shared replay")).to_be_visible()
    outsider = web.person()
    log_in(outsider, never_name, never)
    outsider.goto(f"/replays/{room}")
    expect(outsider.get_by_role("alert")).to_contain_text("players who finished a game on it")

    # the finisher reads and follows with their session, then as the member they became
    page = web.person()
    log_in(page, fin_name, fin)
    page.goto(f"/replays/{room}")
    status = page.locator(".room-status")
    expect(status).to_contain_text("ann leads")
    api._request(
        "PUT", f"/replays/{room}/position", json={"turn": 1, "highlight": []}, token=leader
    )
    expect(status).to_contain_text("turn 2 of")
    page.get_by_role("button", name="Join to lead later").click()
    expect(page.get_by_text(re.compile("Your follower id"))).to_be_visible()
    expect(status).to_contain_text("1 joined")
    # the session gone from this browser: the member token alone still reads and follows
    page.evaluate("() => localStorage.removeItem('hanabi.session')")
    page.reload()
    expect(status).to_contain_text("turn 2 of")
    api._request(
        "PUT", f"/replays/{room}/position", json={"turn": 2, "highlight": []}, token=leader
    )
    expect(status).to_contain_text("turn 3 of")
