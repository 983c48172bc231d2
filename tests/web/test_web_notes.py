"""Card notes and the last move in the browser: a seat writes a note on a card (note mode,
a click on the card, type, Enter), sees it marked there after a reload, cancels another
with Escape; the other seat
never gets it; the last clue's cards are outlined and a play's card is shown above the
board. Moves are made through the API (two programs at a two-seat table)."""

from __future__ import annotations

import re

from playwright.sync_api import expect
from web_support import Browsing, WebServer, api_table


def test_a_note_is_written_on_a_card_and_the_last_move_is_highlighted(
    web: Browsing, web_server: WebServer
) -> None:
    api = web_server.api()
    table = api_table(api, seed="web-notes")
    bob_view = api.game(table.game_id, token=table.tokens[1])
    ann_view = api.game(table.game_id, token=table.tokens[0])
    rank = ann_view["hands"][1][0]["rank"]
    clue = api.act(
        table.game_id, 0, {"type": "clue", "target": 1, "rank": rank}, token=table.tokens[0]
    )
    touched = clue.game["last_action"]["touched"]
    ann = web.person()
    table.sit(ann, 0)
    ann.goto(f"/games/{table.game_id}")
    expect(ann.locator('[data-key="last-move"]')).to_contain_text("ann clued bob")
    expect(ann.locator(".hands .card.last-touched")).to_have_count(len(touched))
    # a note on bob's newest card: note mode, a click on the card, type, Enter
    order = ann_view["hands"][1][0]["order"]
    ann.get_by_role("button", name="✎ Write notes").click()
    bobs = ann.get_by_role("group", name="bob's hand").get_by_role(
        "button", name=re.compile("^Slot")
    )
    expect(bobs).to_have_count(5)  # the hand's buttons are its cards, as ever
    bobs.first.click()
    box = ann.get_by_role("textbox", name="Your note on this card (Enter saves, Escape cancels)")
    box.fill("save this 5")
    box.press("Enter")
    expect(ann.locator(f'[data-key="note-{order}"]')).to_have_text("save this 5")
    expect(ann.locator(f'.card-wrap[data-order="{order}"] .card.noted')).to_have_count(1)
    # Escape leaves the note as it was
    bobs.first.click()
    box.fill("changed my mind")
    box.press("Escape")
    expect(ann.locator(f'[data-key="note-{order}"]')).to_have_text("save this 5")
    ann.get_by_role("button", name="Done with notes").click()
    bobs.first.click()  # out of note mode a click is the card's own again: no editor
    assert box.count() == 0
    ann.reload()
    expect(ann.locator(f'[data-key="note-{order}"]')).to_have_text("save this 5")
    # the other seat does not see it
    assert "save this 5" not in str(api.game(table.game_id, token=table.tokens[1]))
    # bob plays his oldest card: the card shows above ann's board
    card = bob_view["hands"][1][-1]["order"]
    api.act(table.game_id, 1, {"type": "play", "card": card}, token=table.tokens[1])
    expect(ann.locator('[data-key="last-move"]')).to_contain_text("bob ")
    expect(ann.locator('[data-key="last-move"] .last-card')).to_have_count(1)
    # in the page's ink, the suit on its border: a yellow letter on white cannot be read
    ink = ann.locator('[data-key="last-move"] .last-card').evaluate(
        "el => [getComputedStyle(el).color, getComputedStyle(document.body).color]"
    )
    assert ink[0] == ink[1], ink
    expect(ann.locator(".hands .card.last-touched")).to_have_count(0)
    # after the end everyone's notes are on the cards, with their author, in the replay too
    table.end_by_vote()
    expect(ann.locator(f'[data-key="note-{order}"]')).to_have_text("ann: save this 5")
    ann.get_by_role("button", name="Watch the replay").click()
    expect(ann.get_by_role("heading", name="Replay")).to_be_visible()
    expect(ann.locator(f'[data-key="note-{order}"]')).to_have_text("ann: save this 5")
