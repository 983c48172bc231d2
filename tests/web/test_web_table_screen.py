"""The table of issue #47, items 1 to 3, in the browser: one screen for 2 to 6 players (the
document never scrolls at 1366x768 and 1920x1080, and every hand, the board, the discards,
the log and the moves show at once; a phone scrolls down only), play on the cards (a
card's menu, the cards a clue would touch outlined before it is sent, hanab.live's keys),
and the earlier turns as the seat saw them, nothing sent."""

from __future__ import annotations

import re

from playwright.sync_api import Page, expect
from table_sizes import SIZES, measure, open_seat, widest_table
from test_web_accessibility import axe_violations
from web_support import Browsing, WebServer, api_table, counter_value


def test_the_table_fits_one_screen_for_2_to_6_players(web: Browsing, web_server: WebServer) -> None:
    api = web_server.api()
    page = web.person(1366, 768)
    page.goto("/")
    for players in range(2, 7):
        table = widest_table(api, players)
        open_seat(page, table)
        for width, height, name in SIZES:
            found = measure(page, width, height)
            where = f"{players} players, {table.variant}, {width}x{height}"
            assert found["width"] <= width, f"sideways scroll: {where}: {found}"
            if name != "phone":
                assert found["height"] <= height, f"scrolls down: {where}: {found}"
                assert found["hidden"] == [], f"not on the screen: {where}: {found}"
        # a menu on the last card of the last hand stays inside a phone's screen
        page.locator(".player:last-child .hand .card").last.click()
        expect(page.locator(".card-menu")).to_be_visible()
        found = measure(page, 390, 844)
        assert found["width"] <= 390, f"a card's menu scrolls sideways: {players}: {found}"
        page.keyboard.press("Escape")


def _hand(page: Page, owner: str):
    return page.get_by_role("group", name=owner)


def _slot(page: Page, owner: str, slot: int):
    return _hand(page, owner).get_by_role("button", name=re.compile(f"^Slot {slot}:")).first


def test_play_on_the_cards_and_by_hanab_lives_keys(web: Browsing, web_server: WebServer) -> None:
    api = web_server.api()
    table = api_table(api, seed="web-on-the-cards")
    ann_t, bob_t = table.tokens
    ann = web.person()
    table.sit(ann, 0)
    ann.goto(f"/games/{table.game_id}")
    expect(ann.get_by_text("Your turn:")).to_be_visible()
    bob_hand = api.game(table.game_id, token=ann_t)["hands"][1]
    # a card of yours: its menu says Play and Discard on it (no discard at 8 clues)
    _slot(ann, "Your hand (ann)", 2).click()
    menu = ann.get_by_role("group", name="Your slot 2")
    expect(menu.get_by_role("button", name="Play slot 2")).to_be_enabled()
    expect(menu.get_by_role("button", name="Discard slot 2")).to_be_disabled()
    expect(menu.get_by_role("button", name="Play slot 2")).to_be_focused()
    ann.keyboard.press("Escape")
    expect(menu).to_have_count(0)
    expect(_slot(ann, "Your hand (ann)", 2)).to_be_focused()
    # a partner's card: the clues that touch it; hovering one outlines every card it touches
    rank = bob_hand[0]["rank"]
    touched = [i + 1 for i, c in enumerate(bob_hand) if c["rank"] == rank]
    _slot(ann, "bob's hand", 1).click()
    menu = ann.get_by_role("group", name="bob's slot 1")
    clue = menu.get_by_role("button", name=f"{rank} clue")
    clue.hover()
    outlined = _hand(ann, "bob's hand").locator(".card.would-touch")
    expect(outlined).to_have_count(len(touched))
    clue.click()
    said = ", ".join(map(str, touched))
    expect(menu.locator(".touch-line")).to_have_text(re.compile(f"touch(es)? slots? {said}\\.$"))
    expect(outlined).to_have_count(len(touched))  # the chosen clue stays outlined
    # the move panel's clue buttons outline theirs too, while focused, and say it
    other = next((c["rank"] for c in bob_hand if c["rank"] != rank), None)
    if other is not None:
        ann.locator(".controls").get_by_role("button", name=f"{other} clue").focus()
        count = sum(1 for c in bob_hand if c["rank"] == other)
        expect(outlined).to_have_count(count)
        expect(ann.locator(".controls .touch-preview")).to_contain_text(f"{other} clue touches")
    assert axe_violations(ann) == [], "a card's menu"
    menu.get_by_role("button", name="Give clue").click()
    expect(counter_value(ann, "Turn")).to_have_text("2")
    last = api.game(table.game_id)["last_action"]
    assert (last["type"], last["rank"], sorted(last["touched"])) == (
        "clue",
        rank,
        sorted(bob_hand[i - 1]["order"] for i in touched),
    )
    # bob discards while ann types in the chat: the table is drawn again, her words stay
    chat = ann.get_by_role("textbox", name="Message")
    chat.click()
    ann.keyboard.type("well ")
    now = api.game(table.game_id, token=bob_t)
    api.act(
        table.game_id, 1, {"type": "discard", "card": now["hands"][1][-1]["order"]}, token=bob_t
    )
    expect(counter_value(ann, "Turn")).to_have_text("3")
    ann.keyboard.type("played")
    expect(chat).to_be_focused()
    expect(chat).to_have_value("well played")
    chat.fill("")
    ann.locator("h1").click()
    # ann plays by keys: a, then the slot
    mine = api.game(table.game_id, token=bob_t)["hands"][0]
    ann.keyboard.press("a")
    expect(ann.locator(".key-mode")).to_contain_text("Play which slot?")
    ann.keyboard.press("3")
    expect(counter_value(ann, "Turn")).to_have_text("4")
    last = api.game(table.game_id)["last_action"]
    assert last["type"] in ("play", "misplay") and last["card"] == mine[2]["order"]
    # bob clues; ann clues by keys: ; picks bob, a digit the rank, Ctrl+Enter gives it
    now = api.game(table.game_id, token=bob_t)
    api.act(
        table.game_id,
        3,
        {"type": "clue", "target": 0, "rank": now["hands"][0][0]["rank"]},
        token=bob_t,
    )
    expect(counter_value(ann, "Turn")).to_have_text("5")
    rank = api.game(table.game_id, token=ann_t)["hands"][1][0]["rank"]
    ann.keyboard.press(";")
    ann.keyboard.press(str(rank))
    expect(ann.locator(".controls").get_by_role("button", name=f"{rank} clue")).to_have_attribute(
        "aria-pressed", "true"
    )
    ann.keyboard.press("Control+Enter")
    expect(counter_value(ann, "Turn")).to_have_text("6")
    last = api.game(table.game_id)["last_action"]
    assert (last["type"], last["target"], last["rank"]) == ("clue", 1, rank)


def test_earlier_turns_as_the_seat_saw_them_and_back_to_live(
    web: Browsing, web_server: WebServer
) -> None:
    api = web_server.api()
    table = api_table(api, seed="web-in-game-replay")
    table.moves(5)  # bob is to move at turn 6
    ann_t = table.tokens[0]
    ann = web.person()
    table.sit(ann, 0)
    ann.goto(f"/games/{table.game_id}")
    expect(counter_value(ann, "Turn")).to_have_text("6")
    sent = len([c for c in web.calls if c[0] != "GET"])
    # ← steps back: turn 5 as ann saw it then, from the seat's own past
    ann.keyboard.press("ArrowLeft")
    where = ann.locator('[data-key="history-where"]')
    expect(where).to_contain_text("Turn 5 of 6, as you saw it then.")
    expect(counter_value(ann, "Turn")).to_have_text("5")
    # the log stops there too: its last line is the last move shown
    expect(ann.locator(".last-move")).to_contain_text(
        ann.locator(".log-lines li").last.inner_text()
    )
    then = api.past(table.game_id, 4, token=ann_t)
    for i, card in enumerate(then["hands"][1]):
        expect(_slot(ann, "bob's hand", i + 1)).to_have_attribute(
            "aria-label", re.compile(f"^Slot {i + 1}: ")
        )
        assert card["suit"] is not None
    # ann's own cards then: unknown, as they were (named from what she knew then)
    labels = _hand(ann, "Your hand (ann)").get_by_role("button", name=re.compile("^Slot ")).all()
    assert len(labels) == len(then["hands"][0])
    # nothing can be chosen or sent from here: no move panel, cards not pressable
    expect(ann.get_by_role("heading", name="Your move")).to_have_count(0)
    expect(_slot(ann, "Your hand (ann)", 1)).not_to_have_attribute("aria-pressed", "true")
    assert axe_violations(ann) == [], "earlier turns"
    # Home: the deal; → a turn on; the board follows
    ann.keyboard.press("Home")
    expect(where).to_contain_text("Turn 1 of 6")
    expect(counter_value(ann, "Turn")).to_have_text("1")
    expect(ann.locator(".discards")).to_contain_text("Nothing discarded yet.")
    ann.get_by_role("button", name="Next turn").click()
    expect(where).to_contain_text("Turn 2 of 6")
    # the live game goes on meanwhile; the page stays where it is, then comes back
    table.moves(1)
    expect(where).to_contain_text("Turn 2 of 7")
    expect(ann.locator(".history-turn")).to_have_text("It is your turn on the live table.")
    ann.keyboard.press("End")
    expect(where).to_have_count(0)
    expect(counter_value(ann, "Turn")).to_have_text("7")
    expect(ann.get_by_text("Your turn:")).to_be_visible()
    assert len([c for c in web.calls if c[0] != "GET"]) == sent, "looking back sent something"
    assert all("/past" not in c[1] or c[0] == "GET" for c in web.calls)
    # the button beside the log opens it too; Back to the live turn closes it
    ann.get_by_role("button", name="◀ Earlier turns").click()
    expect(where).to_contain_text("Turn 6 of 7")
    ann.get_by_role("button", name="Back to the live turn").click()
    expect(ann.get_by_text("Your turn:")).to_be_visible()
