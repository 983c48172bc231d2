"""A table's lobby life in the browser (issue 48, docs/lobby.md): a password table opened
from the lobby, watched and joined with its password; a pause voted from the table; the
next game with the same seats opened by the host and taken by the guest."""

from __future__ import annotations

import re

from playwright.sync_api import expect
from web_support import Browsing, WebServer, api_table


def test_a_password_table_is_listed_locked_and_asks_its_password(
    web: Browsing, web_server: WebServer
) -> None:
    web.allow(r"status of 40[13]")  # the page's look without the password is refused
    ann = web.person()
    ann.goto("/")
    ann.get_by_label("Name", exact=True).fill("ann")
    ann.get_by_label("Table password").fill("open sesame")
    ann.get_by_label("Spectators need it too").check()
    ann.get_by_role("button", name="Create game").click()
    ann.wait_for_url(re.compile(r"/games/[^/]+$"))
    game_id = ann.url.rsplit("/", 1)[1]
    expect(ann.get_by_role("heading", name=re.compile(r"^Seats"))).to_contain_text("password")

    bob = web.person()
    bob.goto("/")
    row = bob.locator(".game-row", has=bob.get_by_text("ann"))
    expect(row.locator(".badge.lock")).to_be_visible()
    row.get_by_role("link", name="Join").click()
    bob.wait_for_url(f"**/games/{game_id}")
    expect(bob.get_by_text("This table is locked: spectators need its password.")).to_be_visible()
    bob.get_by_label("Table password").fill("wrong guess")
    bob.get_by_role("button", name="Watch").click()
    expect(bob.get_by_role("alert")).to_contain_text("not this table's password")
    bob.get_by_label("Table password").fill("open sesame")
    bob.get_by_role("button", name="Watch").click()
    expect(bob.get_by_role("heading", name=re.compile(r"^Seats"))).to_be_visible()
    ann.get_by_role("button", name="Add bot").click()  # the spectator's stream shows it
    expect(bob.locator(".seat", has_text="conventions-bot-2")).to_be_visible()
    ann.get_by_role("button", name="Remove conventions-bot-2").click()
    expect(bob.locator(".seat", has_text="conventions-bot-2")).to_have_count(0)
    bob.get_by_label("Name", exact=True).fill("bob")
    bob.get_by_label("Table password").fill("open sesame")
    bob.get_by_role("button", name="Join").click()
    expect(bob.get_by_text("You sit at seat 2 as bob.")).to_be_visible()
    expect(ann.locator(".seat", has_text="bob")).to_be_visible()
    assert "open sesame" not in ann.content() and "open sesame" not in bob.content()
    ann.goto("/")  # a table locked to spectators is among the seat's own games
    expect(ann.get_by_role("list", name="Your games").locator(".badge.lock")).to_be_visible()


def test_a_pause_is_voted_from_the_table(web: Browsing, web_server: WebServer) -> None:
    api = web_server.api()
    table = api_table(api, seed="web-pause")
    ann = web.person()
    table.sit(ann, 0)
    ann.goto(f"/games/{table.game_id}")
    ann.get_by_role("button", name="Vote to pause").click()
    expect(ann.get_by_text("1 of 2 voted to pause.")).to_be_visible()
    api.vote_pause(table.game_id, True, token=table.tokens[1])
    expect(ann.get_by_text("The game is paused: nobody moves")).to_be_visible()
    expect(ann.locator(".status").first).to_contain_text("Paused.")
    expect(ann.get_by_role("button", name="Give clue")).to_have_count(0)  # no moves
    ann.get_by_role("button", name="Vote to go on").click()
    expect(ann.get_by_text("1 of 2 voted to go on.")).to_be_visible()
    api.vote_pause(table.game_id, False, token=table.tokens[1])
    expect(ann.get_by_text("The game is paused: nobody moves")).to_have_count(0)
    expect(ann.get_by_role("button", name="Vote to pause")).to_be_visible()


def test_the_host_opens_the_next_game_and_the_guest_takes_a_seat(
    web: Browsing, web_server: WebServer
) -> None:
    api = web_server.api()
    table = api_table(api, seed="web-again")
    ann, bob = web.person(), web.person()
    table.sit(ann, 0)
    table.sit(bob, 1)
    ann.goto(f"/games/{table.game_id}")
    bob.goto(f"/games/{table.game_id}")
    table.end_by_vote()
    expect(bob.get_by_text("The host may open the next game with the same seats.")).to_be_visible()
    ann.get_by_label("Shuffle the seats").check()
    ann.get_by_role("button", name="Again, same seats").click()
    ann.wait_for_url(re.compile(r"/games/(?!" + re.escape(table.game_id) + r")[^/]+$"))
    next_id = ann.url.rsplit("/", 1)[1]
    expect(ann.get_by_text("Seats kept for: bob")).to_be_visible()
    expect(bob.get_by_text("The host opened the next game with the same seats.")).to_be_visible()
    bob.get_by_role("button", name="Take my seat").click()
    bob.wait_for_url(f"**/games/{next_id}")
    expect(bob.get_by_text(re.compile(r"You sit at seat \d as bob\."))).to_be_visible()
    expect(ann.locator(".seat", has_text="bob")).to_be_visible()
    expect(ann.get_by_text("Seats kept for: bob")).to_have_count(0)


def test_the_host_opens_a_seat_kept_for_someone_who_does_not_answer(
    web: Browsing, web_server: WebServer
) -> None:
    api = web_server.api()
    ann_seat = api.create_game("ann", max_players=3, seed="web-again-3")
    bob = api.join(ann_seat.game_id, "bob")
    carol = api.join(ann_seat.game_id, "carol")
    api.start(ann_seat.game_id, token=ann_seat.token)
    for token in (ann_seat.token, bob.token):
        api.vote(ann_seat.game_id, token=token)
    ann = web.person()
    ann.goto("/")
    ann.evaluate(
        "([id, token]) => localStorage.setItem(`hanabi.seat.${id}`,"
        " JSON.stringify({ seat: 0, token, at: Date.now() }))",
        [ann_seat.game_id, ann_seat.token],
    )
    ann.goto(f"/games/{ann_seat.game_id}")
    ann.get_by_role("button", name="Again, same seats").click()
    ann.wait_for_url(re.compile(r"/games/(?!" + re.escape(ann_seat.game_id) + r")[^/]+$"))
    expect(ann.get_by_text("Seats kept for: bob, carol")).to_be_visible()
    ann.get_by_role("button", name="Open carol's seat").click()
    expect(ann.get_by_text("Seats kept for: bob", exact=False)).to_be_visible()
    expect(ann.get_by_role("button", name="Open carol's seat")).to_have_count(0)
    expect(ann.get_by_text("free seat")).to_have_count(1)
    api.answer_rematch(ann_seat.game_id, True, token=bob.token)
    expect(ann.locator(".seat", has_text="bob")).to_be_visible()
    assert carol.token  # carol never answered: her seat is anyone's
