"""The page's field defects (issue 45, item 9), each as a person meets it: a sentence
about a server that did not answer stays after it answers again; an unknown address
shows problem JSON; the hints under cards are cut; a gap between the board and the
hands; the Deal hint of one choice shown under another; the Rated option off the line."""

from __future__ import annotations

import re

import requests
from playwright.sync_api import Page, expect
from web_support import Browsing, WebServer, counter_value

from hanabi.client.api import Client

SIX = ["red", "yellow", "green", "blue", "purple", "teal"]
#: ann's hand (orders 0-4), then bob's (5-9): after the clues below, ann knows her g3
#: and b4 only as "not red, not a 1": five suits of six and four ranks of five
HANDS = [("red", 1), ("red", 2), ("yellow", 1), ("green", 3), ("blue", 4),
         ("yellow", 2), ("green", 2), ("blue", 2), ("purple", 3), ("teal", 4)]  # fmt: skip
CLUES = [
    {"type": "clue", "target": 1, "rank": 2},  # ann
    {"type": "clue", "target": 0, "color": "red"},  # bob
    {"type": "clue", "target": 1, "color": "green"},  # ann
    {"type": "clue", "target": 0, "rank": 1},  # bob
]


def six_suit_game(api: Client) -> tuple[str, list[str]]:
    """A started two-seat game of 6 Suits on a known deck, four clues in: its id and the
    seats' tokens (ann to move)."""
    rest = [(s, r) for s in SIX for r in range(1, 6) for _ in range((3, 2, 2, 2, 1)[r - 1])]
    for card in HANDS:
        rest.remove(card)
    deck = [{"suit": s, "rank": r} for s, r in [*HANDS, *rest]]
    ann = api.create_game("ann", variant="6 Suits", max_players=2, deck=deck)
    bob = api.join(ann.game_id, "bob")
    api.start(ann.game_id, token=ann.token)
    tokens = [ann.token, bob.token]
    for turn, clue in enumerate(CLUES):
        api.act(ann.game_id, turn, clue, token=tokens[turn % 2])
    return ann.game_id, tokens


def sit(page: Page, game_id: str, seat: int, token: str) -> None:
    """Give ``page``'s browser the seat (as if it had opened the table) and open it."""
    page.goto("/")
    page.evaluate(
        "([id, seat, token]) => localStorage.setItem(`hanabi.seat.${id}`,"
        " JSON.stringify({ seat, token, at: Date.now() }))",
        [game_id, seat, token],
    )
    page.goto(f"/games/{game_id}")
    expect(counter_value(page, "Turn")).to_have_text(str(len(CLUES) + 1))


def test_the_sentence_about_a_silent_server_goes_when_it_answers(
    web: Browsing, web_server: WebServer
) -> None:
    game_id, tokens = six_suit_game(web_server.api())
    page = web.person()
    sit(page, game_id, 0, tokens[0])
    web.allow(r"Failed to load resource|ERR_FAILED")  # the requests the test cuts
    page.route("**/api/v1/**", lambda route: route.abort())  # the server stops answering
    page.get_by_label("Message", exact=True).fill("are you there?")
    page.get_by_role("button", name="Send", exact=True).click()
    alert = page.get_by_role("alert").filter(has_text="The server did not answer")
    expect(alert).to_be_visible()
    banner = page.locator("#banner")
    # what says so first: the page's requests, or its stream of the game (both are cut)
    silent = re.compile("The server does not answer: trying again…|Connection lost: reconnecting…")
    expect(banner).to_have_text(silent)
    page.unroute("**/api/v1/**")  # it is back: the page finds out by itself
    expect(alert).to_be_hidden(timeout=20000)
    expect(banner).not_to_have_text(silent, timeout=20000)
    page.get_by_role("button", name="Send", exact=True).click()  # and the line goes through
    expect(page.locator(".chat-lines")).to_contain_text("are you there?")


def test_an_unknown_address_is_a_page_for_a_browser_and_a_problem_for_a_program(
    web: Browsing, web_server: WebServer
) -> None:
    context = web.browser.new_context(base_url=web.base, locale="ru-RU")
    web.contexts.append(context)
    page = web.watch(context.new_page())
    web.allow(r"404")  # the page's own status, which chromium logs
    answer = page.goto("/nothing-here")
    assert answer is not None and answer.status == 404
    assert answer.headers["content-type"].startswith("text/html")
    expect(page).to_have_title(re.compile("^Страница не найдена"))
    expect(page.get_by_role("heading", name="Страница не найдена")).to_be_visible()
    expect(page.get_by_text("По этому адресу страницы нет.")).to_be_visible()
    page.get_by_role("link", name="Назад в лобби").click()
    expect(page).to_have_url(f"{web.base}/")
    expect(page.get_by_role("heading", name="Ханаби", exact=True)).to_be_visible()
    # a program gets the problem, whatever it accepts, and anything under /api/ does too
    for path, accept in [
        ("/nothing-here", "application/json"),
        ("/nothing-here", "application/problem+json"),
        ("/nothing-here", "*/*"),
        ("/api/v1/nothing-here", "text/html,application/xhtml+xml,*/*;q=0.8"),
    ]:
        got = requests.get(web.base + path, headers={"Accept": accept}, timeout=10)
        assert got.status_code == 404
        assert got.headers["Content-Type"].startswith("application/problem+json"), (path, accept)
        assert got.json()["code"] == "not_found"


def test_card_hints_show_whole_and_the_hands_follow_the_board(
    web: Browsing, web_server: WebServer
) -> None:
    game_id, tokens = six_suit_game(web_server.api())
    page = web.person(width=1200)
    sit(page, game_id, 0, tokens[0])
    # both boxes measured at once: a view from the stream may draw the table again
    # between two of the driver's questions
    board, hands = page.evaluate(
        """() => ['.panel.board', '.panel.hands'].map((s) => {
             const r = document.querySelector(s).getBoundingClientRect();
             return { y: r.y, height: r.height }; })"""
    )
    # two panels' margins apart (0.75rem each), not the height of the log beside them
    assert hands["y"] - (board["y"] + board["height"]) <= 26
    hints = page.locator(".hand .card .hint")
    expect(hints).to_have_count(10)
    cut = page.evaluate(
        """() => [...document.querySelectorAll('.hand .card .hint')].map((el) => {
             const card = el.closest('.card').getBoundingClientRect();
             const box = el.getBoundingClientRect();
             return { text: el.textContent.replace(/\\u200b/g, ''),
                      cut: el.scrollWidth > el.clientWidth + 1 || box.left < card.left
                        || box.right > card.right || box.bottom > card.bottom };
           })"""
    )
    assert {"text": "YGBPT·2345", "cut": False} in cut  # the longest: ann's g3 and b4
    assert [h for h in cut if h["cut"]] == []


def test_the_create_form_says_what_the_chosen_deal_means_and_lines_up(
    web: Browsing,
) -> None:
    page = web.person(width=1200)
    page.goto("/")
    deal = page.locator("select[name=seed]")  # "Deal"
    unplayed = page.get_by_text("Unplayed: teams who get the same seed compare scores")
    expect(deal).to_have_value("random")
    expect(unplayed).to_be_hidden()
    deal.select_option("unplayed")
    expect(unplayed).to_be_visible()
    deal.select_option("named")
    expect(unplayed).to_be_hidden()
    expect(page.get_by_label("Seed name")).to_be_visible()
    # the options sit on lines, Rated (with its hint under it) too: options that share a
    # line share its middle (the row wraps on a narrow window, each line aligned)
    names = ("Clues may touch no card", "A strikeout keeps the score", "Rated",
             "Spectators see hands", "Timed")  # fmt: skip
    boxes = {name: page.get_by_label(name, exact=True).bounding_box() for name in names}
    middles = {name: box["y"] + box["height"] / 2 for name, box in boxes.items() if box}
    assert len(middles) == len(names)
    lines: list[list[float]] = []
    for middle in sorted(middles.values()):
        if lines and middle - lines[-1][0] <= 8:
            lines[-1].append(middle)
        else:
            lines.append([middle])
    assert all(max(line) - min(line) <= 2 for line in lines), middles
    assert len(lines) <= 2, middles
