"""A finished table in the browser: the board keeps its real maximum after a vote, the chat
closes, and the replay numbers turns as the board does, keeps the table's layout and shows
the turn it is at in the log. Games are played through the API (two programs at a
two-seat table, dealt from a seed) and looked at in the browser."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect
from web_support import Browsing, WebServer, api_table, counter_value


def test_a_table_ended_by_vote_keeps_its_max_score_and_closes_its_chat(
    web: Browsing, web_server: WebServer
) -> None:
    table = api_table(web_server.api(), seed="web-vote-max")
    table.moves(6)
    score = web_server.api().game(table.game_id)["score"]
    assert score >= 1, "the seed's first moves play a card"
    ann = web.person()
    table.sit(ann, 0)
    ann.goto(f"/games/{table.game_id}")
    expect(counter_value(ann, "Score")).to_have_text(f"{score} of 25 max possible")
    ann.get_by_role("textbox", name="Message").fill("good game")
    ann.get_by_role("button", name="Send").click()
    expect(ann.get_by_role("list", name="Chat messages")).to_contain_text("ann: good game")
    ann.get_by_role("button", name="Vote to end").click()
    expect(ann.get_by_text("1 of 2 votes to end the game")).to_be_visible()
    web_server.api().vote(table.game_id, token=table.tokens[1])
    expect(ann.get_by_role("heading", name="Game over: score 0 of 25")).to_be_visible()
    expect(ann.get_by_text("The game ended: ended by vote.")).to_be_visible()
    # the board said "Score 1 of 0 reachable": the vote's 0 had become the maximum
    expect(counter_value(ann, "Score")).to_have_text(f"{score} of 25 max possible")
    assert ann.locator(".board dt", has_text="Pace").count() == 0  # no pace once over
    # a finished game's chat is closed (the server answers 409): its lines stay, no box
    expect(ann.get_by_role("list", name="Chat messages")).to_contain_text("ann: good game")
    expect(ann.get_by_text("The chat closed when the game ended.")).to_be_visible()
    assert ann.get_by_role("textbox", name="Message").count() == 0
    assert ann.get_by_role("button", name="Send").count() == 0


def card_layout(page: Page) -> tuple[float, list[tuple[float, float]]]:
    """The hands' width, and each card's width and row (its top from the first card's),
    hand after hand: a line above the hands (what a spectator is shown) may differ, not the
    cards' rows.

    The page redraws its view when news arrives, so everything is measured in one step in
    the page, and a measure counts once two frames in a row agree. (Measured one card at a
    time, a line drawn above the hands between two measures moved the later cards: CI saw
    card 0 39 px above the rest; and a redraw left no hands to measure.)"""
    expect(page.locator(".hands .card")).to_have_count(10)
    measure = """async () => {
        const frame = () => new Promise((done) => requestAnimationFrame(done));
        const layout = () => {
            const hands = document.querySelector('.hands');
            const cards = [...document.querySelectorAll('.hands .card')].map(
                (card) => card.getBoundingClientRect());
            if (!hands || cards.length !== 10) return null;
            const top = cards[0].top;
            return [hands.getBoundingClientRect().width,
                    cards.map((box) => [box.width, box.top - top])];
        };
        let last = JSON.stringify(layout());
        for (let tries = 0; tries < 100; tries += 1) {
            await frame();
            const now = JSON.stringify(layout());
            if (now === last && now !== 'null') return JSON.parse(now);
            last = now;
        }
        return null;
    }"""
    found = page.evaluate(measure)
    assert found is not None, "the hands never held still"
    width, cards = found
    return width, [(w, top) for w, top in cards]


@pytest.mark.serial  # cards' rows measured twice: alone, no other page drawing
def test_the_replay_numbers_turns_as_the_board_and_keeps_the_cards_room(
    web: Browsing, web_server: WebServer
) -> None:
    table = api_table(web_server.api(), seed="web-replay-layout")
    table.moves(30)
    final = table.end_by_vote()
    last = final["turn"] + 1  # the board's number for the end: moves made + 1
    for width, height in ((1280, 800), (390, 844)):
        page = web.person(width=width, height=height)
        page.goto(f"/games/{table.game_id}")
        expect(counter_value(page, "Turn")).to_have_text(str(last))
        table_layout = card_layout(page)
        page.get_by_role("button", name="Watch the replay").click()
        slider = page.get_by_role("slider", name="Turn")
        expect(slider).to_have_attribute("min", "1")
        expect(slider).to_have_attribute("max", str(last))
        expect(page.locator("output")).to_have_text(f"{last} of {last} (the end)")
        expect(counter_value(page, "Turn")).to_have_text(str(last))
        # the replay's controls take no room from the hands: the same cards, the same rows
        hands, cards = card_layout(page)
        assert hands == table_layout[0], (width, "the replay squeezes the hands")
        assert cards == table_layout[1], (width, "the replay moves the cards")
        # the slider, the board and the log's mark say the same turn, from 1 (the deal)
        log = page.get_by_role("list", name="Game log")
        shown = log.locator("li[aria-current=step]")
        slider.focus()
        page.keyboard.press("Home")
        expect(page.locator("output")).to_have_text(f"1 of {last} (the deal)")
        expect(counter_value(page, "Turn")).to_have_text("1")
        expect(shown).to_have_attribute("data-turn", "1")
        for turn in (17, 5, last - 3):
            slider.fill(str(turn))
            expect(page.locator("output")).to_have_text(f"{turn} of {last}")
            expect(counter_value(page, "Turn")).to_have_text(str(turn))
            expect(shown).to_have_attribute("data-turn", str(turn))
            expect(shown.get_by_role("button")).to_have_text(f"Turn {turn}")
            # the log scrolled to it: the entry lies within the list's visible box
            entry, box = shown.bounding_box(), log.bounding_box()
            assert (
                box["y"] <= entry["y"]
                and entry["y"] + entry["height"] <= box["y"] + box["height"] + 0.5
            ), (width, turn, entry, box)
            expect(log.locator("li.later")).to_have_count(last - turn)
        # an entry's number shows its turn
        log.locator("li[data-turn='2']").get_by_role("button").click()
        expect(page.locator("output")).to_have_text(f"2 of {last}")
        expect(counter_value(page, "Turn")).to_have_text("2")
        page.keyboard.press("End")
        expect(page.locator("output")).to_have_text(f"{last} of {last} (the end)")
        expect(shown).to_contain_text("Game over (ended by vote): score 0")
