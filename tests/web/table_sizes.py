"""The one-screen table (issue #47): tables of 2 to 6 players in the widest variants, and
what a page shows of one at a window size. Shared by the test (test_web_layout.py) and
`make screenshots` (screenshots.py)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from playwright.sync_api import Page, expect

from hanabi.bots import choose_action_from_view
from hanabi.client.api import Client

#: (width, height, name): the two screens everything must fit, and a phone.
SIZES = ((1366, 768, "laptop"), (1920, 1080, "desktop"), (390, 844, "phone"))
#: The widest tables: six suits and clue colours, one card more in every hand, the long
#: suit names of a dark suit and Up or Down's START cards.
WIDEST = ("Up or Down & Dark Orange (6 Suits)", "Muddy-Rainbow-Fives & Dark Orange (6 Suits)")

#: What must be on the screen at once, each found by a selector in the page.
MUST_SHOW = {
    "every card": ".hands .card",
    "the fireworks": ".board .fireworks",
    "the counters": ".board .counters",
    "the discard pile": ".discards h2",
    "the last move": ".last-move",
    "the log": ".log h2",
    "the newest log line": ".log-lines li:last-child",
    "the move buttons": ".controls [data-key=play], .controls [data-key=discard]",
    "the clue buttons": ".controls button.clue, .controls [data-key=give-clue]",
}

MEASURE = """(must) => {
  const d = document.documentElement;
  const hidden = [];
  for (const [what, selector] of Object.entries(must)) {
    const found = [...document.querySelectorAll(selector)];
    if (!found.length) hidden.push(`${what}: none`);
    for (const el of found) {
      const r = el.getBoundingClientRect();
      let box = { top: 0, left: 0, bottom: innerHeight, right: innerWidth };
      // clipped by a panel that scrolls is hidden too
      for (let a = el.parentElement; a; a = a.parentElement) {
        if (getComputedStyle(a).overflowY === "visible" && getComputedStyle(a).overflowX === "visible") continue;
        const b = a.getBoundingClientRect();
        box = { top: Math.max(box.top, b.top), left: Math.max(box.left, b.left),
                bottom: Math.min(box.bottom, b.bottom), right: Math.min(box.right, b.right) };
      }
      if (!r.width || r.top < box.top - 1 || r.left < box.left - 1 || r.bottom > box.bottom + 1 || r.right > box.right + 1) {
        hidden.push(`${what}: ${el.getAttribute("aria-label") || el.textContent.trim().slice(0, 30)}`);
        break;
      }
    }
  }
  return { width: d.scrollWidth, height: d.scrollHeight, hidden };
}"""


@dataclass
class SizedTable:
    game_id: str
    tokens: list[str]
    players: int
    variant: str


def widest_table(api: Client, players: int, moves: int | None = None) -> SizedTable:
    """A started table of ``players`` in a widest variant, played by the conventions bot
    for a round or two (discards, clues and a log to show) up to seat 0's turn."""
    variant = WIDEST[players % 2]
    host = api.create_game(
        "ann", variant=variant, max_players=players, options={"one_extra_card": True}
    )
    names = ["bob", "cat", "dan", "eve", "fay"]
    tokens = [host.token] + [api.join(host.game_id, names[i]).token for i in range(players - 1)]
    api.start(host.game_id, token=host.token)
    for _ in range(moves if moves is not None else 2 * players):
        bot_move(api, host.game_id, tokens)
    while api.game(host.game_id)["current_seat"] != 0:
        bot_move(api, host.game_id, tokens)
    return SizedTable(host.game_id, tokens, players, variant)


def bot_move(api: Client, game_id: str, tokens: list[str]) -> None:
    seat = api.game(game_id)["current_seat"]
    view = api.game(game_id, token=tokens[seat])
    events = api.all_events(game_id, token=tokens[seat])
    api.act(
        game_id,
        view["turn"],
        choose_action_from_view("conventions", view, events),
        token=tokens[seat],
    )


def open_seat(page: Page, table: SizedTable, seat: int = 0) -> None:
    """Open the table in ``page`` as ``seat`` (its token put where the page keeps it),
    with a partner chosen so that the clue buttons show: the tallest move panel."""
    page.evaluate(
        "([id, seat, token]) => localStorage.setItem(`hanabi.seat.${id}`,"
        " JSON.stringify({ seat, token, at: Date.now() }))",
        [table.game_id, seat, table.tokens[seat]],
    )
    page.goto(f"/games/{table.game_id}")
    expect(page.get_by_text("Your turn:")).to_be_visible()
    expect(page.locator(".log-lines li").last).to_be_visible()  # the log came
    if table.players > 2:
        page.get_by_role("button", name="Clue bob").click()
    expect(page.get_by_role("button", name="Give clue")).to_be_visible()


def measure(page: Page, width: int, height: int) -> dict[str, Any]:
    """The page at this window size: the document's scroll sizes and what must show but
    does not (off the window, or clipped by a panel)."""
    page.set_viewport_size({"width": width, "height": height})
    page.evaluate("() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))")
    return page.evaluate(MEASURE, MUST_SHOW)
