"""A shared replay in two browsers: a player shares a finished game's replay from its
replay page, a follower opens the room's link, and each of the leader's changes (a turn,
a highlighted card, a hypothetical and a move in it, going back) shows on the follower's
page as it comes, while the follower has no leader's controls. The lead then passes."""

from __future__ import annotations

import re

from playwright.sync_api import expect
from web_support import Browsing, WebServer, api_table


def test_the_follower_page_follows_the_leader(web: Browsing, web_server: WebServer) -> None:
    table = api_table(web_server.api(), seed="web-shared-replay")
    table.moves(6)
    final = table.end_by_vote()
    last = final["turn"] + 1  # the board's number of the end

    ann = web.person()
    table.sit(ann, 0)
    ann.goto(f"/games/{table.game_id}")
    ann.get_by_role("button", name="Watch the replay").click()
    ann.get_by_role("button", name="Share replay").click()
    expect(ann).to_have_url(re.compile(r"/replays/[A-Za-z0-9]+$"))
    expect(ann.get_by_role("heading", name="You lead")).to_be_visible()
    room_url = ann.url

    fred = web.person()
    fred.goto(room_url)
    status = fred.locator(".room-status")
    expect(status).to_have_text(f"ann leads · turn {last} of {last} · 0 joined")
    assert fred.get_by_role("heading", name="You lead").count() == 0
    assert fred.get_by_role("button", name="Branch from here").count() == 0

    # the turn: the leader steps back, the follower's board follows
    ann.get_by_role("button", name="Previous turn").click()
    expect(status).to_have_text(f"ann leads · turn {last - 1} of {last} · 0 joined")
    # a highlighted card: the leader clicks one of bob's cards
    first_card = ann.get_by_role("group", name="bob's hand").locator(".card").first
    order = first_card.get_attribute("data-key")
    first_card.click()
    expect(fred.locator(f".card[data-key='{order}']")).to_have_class(re.compile("selected"))
    expect(fred.locator(".card.selected")).to_have_count(1)

    # a hypothetical from turn 2, with a move the engine allows, then back
    # Set and announce in one step: the page redraws the slider whenever the room changes
    # (the highlight's answer may come in between), so a fill and a later change event
    # could reach two different sliders, the second still at the old turn.
    ann.get_by_role("slider", name="Turn").evaluate(
        "(el) => { el.value = '2'; el.dispatchEvent(new Event('change')); }"
    )
    expect(status).to_have_text(f"ann leads · turn 2 of {last} · 0 joined")
    ann.get_by_role("button", name="Branch from here").click()
    expect(status).to_have_text("ann leads · hypothetical from turn 2 · 0 joined")
    expect(ann.get_by_text("bob to move:")).to_be_visible()  # one move made: bob's turn
    moves = ann.locator(".moves button")
    expect(moves.first).to_be_visible()
    # the buttons number as the table does: bob's slots from 1, never a card's order
    labels = moves.all_inner_texts()
    assert not [t for t in labels if "#" in t], labels
    assert "Play slot 1" in labels and "Discard slot 1" in labels, labels
    moves.first.click()
    expect(fred.get_by_label("Last move")).to_contain_text(
        re.compile(r"^Last move: bob (played|misplayed|discarded|clued) ")
    )
    expect(status).to_have_text("ann leads · hypothetical from turn 2 · 0 joined")
    ann.get_by_role("button", name="Back to the game").click()
    expect(status).to_have_text(f"ann leads · turn 2 of {last} · 0 joined")

    # the follower joins, the leader passes the lead, and the controls change hands
    fred.get_by_role("button", name="Join to lead later").click()
    joined = fred.get_by_text(re.compile(r"Your follower id: m[0-9a-f]+"))
    expect(joined).to_be_visible()
    member = re.search(r"m[0-9a-f]+", joined.inner_text()).group(0)
    expect(ann.locator(".room-status")).to_have_text(f"ann leads · turn 2 of {last} · 1 joined")
    ann.get_by_label("Follower id").fill(member)
    ann.get_by_role("button", name="Pass the lead").click()
    expect(fred.get_by_role("heading", name="You lead")).to_be_visible()
    expect(ann.locator(".room-status")).to_contain_text("follower leads")
    assert ann.get_by_role("heading", name="You lead").count() == 0


def test_cards_drawn_in_a_hidden_hypothetical_are_hidden_from_followers(
    web: Browsing, web_server: WebServer
) -> None:
    table = api_table(web_server.api(), seed="web-shared-hidden")
    table.moves(2)
    table.end_by_vote()
    ann = web.person()
    table.sit(ann, 0)
    ann.goto(f"/games/{table.game_id}")
    ann.get_by_role("button", name="Watch the replay").click()
    ann.get_by_role("button", name="Share replay").click()
    expect(ann.get_by_role("heading", name="You lead")).to_be_visible()
    room_id = ann.url.rsplit("/", 1)[1]
    fred = web.person()
    fred.goto(ann.url)
    ann.get_by_role("button", name="Previous turn").click()  # before the vote that ended it
    expect(fred.locator(".room-status")).to_contain_text("turn 3 of 4")
    ann.get_by_label("hide drawn cards from followers").check()
    ann.get_by_role("button", name="Branch from here").click()
    expect(fred.locator(".room-status")).to_contain_text("hypothetical")
    ann.locator(".moves button", has_text="Play slot 1").click()
    # the move as the table says it: the card it showed, not its order ("card #12")
    expect(fred.get_by_label("Last move")).to_contain_text(re.compile(r"played|misplayed"))
    assert "#" not in fred.get_by_label("Last move").inner_text()
    room = web_server.api()._request("GET", f"/replays/{room_id}").json()
    (drawn,) = room["hypothetical"]["hidden"]
    key = f".card[data-key='order-{drawn}'] .face"
    expect(fred.locator(key)).to_have_text("?")  # the follower sees the card, not its face
    expect(ann.locator(key)).not_to_have_text("?")  # the leader sees it
