"""Accessibility (issue #47, item 8): the lobby, the table in play, the replay and the
leaderboards pass axe-core with no serious or critical violation, and moves are made with
the keyboard alone, by the roles and names a screen reader announces.

axe-core is vendored as its one released file, ``tests/web/vendor/axe.min.js`` (4.10.2,
unmodified, MPL-2.0: its licence beside it, ``axe-core.LICENSE``), so that the test needs
no network: it is evaluated in each page and run there.
"""

from __future__ import annotations

import re
from pathlib import Path

from playwright.sync_api import Page, expect
from web_support import Browsing, WebServer, api_table, counter_value

AXE = Path(__file__).parent / "vendor" / "axe.min.js"


def axe_violations(page: Page) -> list[str]:
    """The serious and critical violations axe finds on the page as it is now."""
    # evaluated by the driver (the page's policy allows no script it did not serve)
    page.evaluate(AXE.read_text(encoding="utf-8") + "\n;0")
    found = page.evaluate(
        """async () => {
          const r = await axe.run(document);
          return [r.passes.length, r.violations.filter(v => ['serious', 'critical'].includes(v.impact))
            .map(v => `${v.id} (${v.impact}): ${v.help} at ` +
                 v.nodes.slice(0, 3).map(n => n.target.join(' ')).join(', '))];
        }"""
    )
    passes, bad = found
    assert passes > 10, "axe did not run its rules"  # it ran: a test that can fail
    return list(bad)


def test_pages_pass_axe(web: Browsing, web_server: WebServer) -> None:
    api = web_server.api()
    table = api_table(api, seed="web-axe")
    table.moves(3)
    ann = web.person()
    ann.goto("/")
    expect(ann.get_by_role("button", name="Create game")).to_be_visible()
    assert axe_violations(ann) == [], "lobby"
    table.sit(ann, 0)
    ann.goto(f"/games/{table.game_id}")
    expect(counter_value(ann, "Turn")).to_have_text("4")
    assert axe_violations(ann) == [], "table"
    table.end_by_vote()
    ann.get_by_role("button", name="Watch the replay").click()
    expect(ann.get_by_role("heading", name="Replay")).to_be_visible()
    assert axe_violations(ann) == [], "replay"
    ann.goto("/leaderboards")
    expect(ann.get_by_role("heading", name=re.compile("Leaderboards"))).to_be_visible()
    assert axe_violations(ann) == [], "leaderboards"


def tab_to(page: Page, role: str, name: re.Pattern[str] | str, most: int = 120) -> None:
    """Press Tab until the focused element has this role and accessible name (as a
    screen reader would announce it)."""
    for _ in range(most):
        page.keyboard.press("Tab")
        focused = page.evaluate(
            """() => { const e = document.activeElement;
              return [e.getAttribute('role') || e.tagName.toLowerCase(),
                      e.getAttribute('aria-label') || e.textContent.trim(), e.disabled === true]; }"""
        )
        kind, label, disabled = focused
        matches = name.search(label) if isinstance(name, re.Pattern) else label == name
        if kind == role and matches and not disabled:
            return
    raise AssertionError(f"no {role} {name!r} reached with Tab")


def test_moves_by_keyboard_alone(web: Browsing, web_server: WebServer) -> None:
    api = web_server.api()
    table = api_table(api, seed="web-keyboard")
    ann = web.person()
    table.sit(ann, 0)
    ann.goto(f"/games/{table.game_id}")
    expect(ann.get_by_text("Your turn:")).to_be_visible()
    # a clue: Tab to a rank clue of bob's, Enter, Tab to "Give clue", Enter
    tab_to(ann, "button", re.compile(r"^\d clue$"))
    ann.keyboard.press("Enter")
    tab_to(ann, "button", "Give clue")
    ann.keyboard.press("Enter")
    expect(counter_value(ann, "Turn")).to_have_text("2")
    expect(ann.get_by_text("Waiting for bob to move.")).to_be_visible()
    # on bob's turn ann queues a discard by keys: 1, d; bob moves, it goes
    ann.keyboard.press("1")
    ann.keyboard.press("d")
    expect(ann.locator('[data-key="premove-queued"]')).to_contain_text("discard slot 1")
    table.moves(1)
    expect(counter_value(ann, "Turn")).to_have_text("4")
    # a play by keys: 2 selects slot 2 (its button says it is pressed), p plays it
    table.moves(1)
    expect(ann.get_by_text("Your turn:")).to_be_visible()
    ann.keyboard.press("2")
    expect(
        ann.get_by_role("group", name="Your hand (ann)").get_by_role(
            "button", name=re.compile("^Slot 2"), pressed=True
        )
    ).to_have_count(1)
    ann.keyboard.press("p")
    expect(counter_value(ann, "Turn")).to_have_text("6")
    # every card is a button with a name, every hand a named group
    expect(
        ann.get_by_role("group", name="bob's hand").get_by_role(
            "button", name=re.compile("^Slot \\d: ")
        )
    ).to_have_count(5)
