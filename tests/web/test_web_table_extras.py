"""The table's helpers of issue #47 in the browser: pre-moves (queued during bob's turn,
sent on ann's, dropped when a clue touched the card), the efficiency counters, critical
cards marked, smart notes, the confirmation before an unknown play, the sound on your
turn and the colour-blind mode. bob moves through the API (a program at a two-seat
table); ann is the page."""

from __future__ import annotations

import re
import time

from playwright.sync_api import Page, expect
from web_support import Browsing, WebServer, api_table, counter_value


def _clue_touching(view: dict, seat: int, order: int | None, avoid: int | None) -> dict:
    """A clue to ``seat`` that touches the card ``order`` (or, with ``avoid``, one that
    does not touch that card), by rank."""
    hand = view["hands"][seat]
    ranks = {c["rank"] for c in hand}
    if order is not None:
        rank = next(c["rank"] for c in hand if c["order"] == order)
        return {"type": "clue", "target": seat, "rank": rank}
    avoided = next(c["rank"] for c in hand if c["order"] == avoid)
    rank = next(r for r in sorted(ranks) if r != avoided)
    return {"type": "clue", "target": seat, "rank": rank}


def _slot(page: Page, owner: str, slot: int):
    return (
        page.get_by_role("group", name=owner)
        .get_by_role("button", name=re.compile(f"^Slot {slot}"))
        .first
    )


def test_premoves_are_sent_on_your_turn_and_dropped_when_a_clue_touches_them(
    web: Browsing, web_server: WebServer
) -> None:
    api = web_server.api()
    table = api_table(api, seed="web-premove")
    ann_t, bob_t = table.tokens
    bob_view = api.game(table.game_id, token=bob_t)
    ann_view = api.game(table.game_id, token=ann_t)
    # ann clues bob (8 tokens: no discard yet); bob is to move
    clue = _clue_touching(ann_view, 1, ann_view["hands"][1][0]["order"], None)
    touched = api.act(table.game_id, 0, clue, token=ann_t).game["last_action"]["touched"]
    ann = web.person()
    table.sit(ann, 0)
    ann.goto(f"/games/{table.game_id}")
    expect(ann.get_by_text("Waiting for bob to move.")).to_be_visible()
    # the efficiency: the cards the clue touched, for one clue
    expect(ann.locator('[data-key="efficiency"]')).to_contain_text(f"{len(touched):.2f}")
    expect(ann.locator('[data-key="future-efficiency"]')).to_have_text(re.compile(r"^\d+\.\d\d$"))
    # bob's 5s are critical (nothing is discarded yet): marked, and said in their names
    fives = sum(1 for c in ann_view["hands"][1] if c["rank"] == 5)
    expect(ann.locator(".player:not(:first-child) .card.critical")).to_have_count(fives)
    # a queued discard of slot 1, by the keys: "1" then "d"
    first = ann_view["hands"][0][0]["order"]
    ann.keyboard.press("1")
    ann.keyboard.press("d")
    queued = ann.locator('[data-key="premove-queued"]')
    expect(queued).to_contain_text("discard slot 1")
    # bob clues another card of ann's: her discard goes at once, by itself
    api.act(table.game_id, 1, _clue_touching(bob_view, 0, None, first), token=bob_t)
    expect(ann.locator("#banner")).to_contain_text("Your queued move was sent: discard slot 1.")
    expect(counter_value(ann, "Turn")).to_have_text("4")
    assert first in [d["order"] for d in api.game(table.game_id)["discards"]]
    # a queued play of slot 1, dropped when bob's clue touches that card
    ann.keyboard.press("1")
    ann.keyboard.press("p")
    expect(queued).to_contain_text("play slot 1")
    now = api.game(table.game_id, token=bob_t)
    card = now["hands"][0][0]["order"]
    api.act(table.game_id, 3, _clue_touching(now, 0, card, None), token=bob_t)
    expect(ann.locator("#banner")).to_contain_text("was dropped: a clue touched that card")
    expect(queued).to_have_count(0)
    assert api.game(table.game_id)["turn"] == 4  # nothing was sent
    expect(ann.get_by_text("Your turn:")).to_be_visible()
    # ann discards by the keys; on bob's turn she queues a clue (the buttons, then Enter)
    ann.keyboard.press("1")
    ann.keyboard.press("d")
    expect(ann.get_by_text("Waiting for bob to move.")).to_be_visible()
    bob_now = api.game(table.game_id, token=ann_t)["hands"][1]
    rank = bob_now[0]["rank"]
    ann.get_by_role("button", name=f"{rank} clue").click()
    ann.get_by_role("button", name="Queue clue").click()
    expect(queued).to_contain_text(f"clue bob: {rank}")
    api.act(table.game_id, 5, {"type": "discard", "card": bob_now[-1]["order"]}, token=bob_t)
    expect(ann.locator("#banner")).to_contain_text(f"Your queued move was sent: clue bob: {rank}.")
    # the banner is up as the page sends it: the server may answer a moment later
    deadline = time.monotonic() + 10
    while (last := api.game(table.game_id)["last_action"])["type"] != "clue":
        assert time.monotonic() < deadline, last
        time.sleep(0.05)
    assert (last["type"], last["target"], last["rank"]) == ("clue", 1, rank)


def test_smart_notes_confirmation_sound_and_colourblind_mode(
    web: Browsing, web_server: WebServer
) -> None:
    api = web_server.api()
    table = api_table(api, seed="web-smart-notes")
    ann_t, bob_t = table.tokens
    ann_view = api.game(table.game_id, token=ann_t)
    own = ann_view["hands"][0][1]["order"]
    api.note(table.game_id, own, "r1 b1 f", token=ann_t)
    kt = ann_view["hands"][0][2]["order"]
    api.note(table.game_id, kt, "kt", token=ann_t)
    ann = web.person()
    table.sit(ann, 0)
    ann.goto(f"/games/{table.game_id}")
    # the note narrows what ann's card may be, for her: R1 or B1, finessed
    expect(ann.locator(f'[data-key="smart-{own}"]')).to_have_text("may be R1 B1 · finessed")
    expect(_slot(ann, "Your hand (ann)", 2)).to_have_attribute(
        "aria-label", re.compile(r"Note: r1 b1 f. Your note reads: may be R1 B1 · finessed$")
    )
    expect(ann.locator(f'[data-key="smart-{kt}"]')).to_have_text("known trash")
    # the confirmation: off by default; on, an unknown card asks first
    ann.get_by_label("Ask before playing a card I do not know to be playable").check()
    ann.keyboard.press("1")
    ann.get_by_role("button", name="Play", exact=True).click()
    expect(ann.get_by_role("alert")).to_contain_text("You do not know this card to be playable.")
    assert api.game(table.game_id)["turn"] == 0
    ann.get_by_role("button", name="Cancel").click()
    expect(ann.get_by_role("button", name="Play", exact=True)).to_be_visible()
    ann.reload()  # remembered in this browser
    expect(
        ann.get_by_label("Ask before playing a card I do not know to be playable")
    ).to_be_checked()
    # the sound: ann clues, bob moves, ann's turn comes back with a chime and the title
    clue = _clue_touching(ann_view, 1, ann_view["hands"][1][0]["order"], None)
    api.act(table.game_id, 0, clue, token=ann_t)
    expect(ann.get_by_text("Waiting for bob to move.")).to_be_visible()
    chimes = int(ann.evaluate("document.body.dataset.chimes || '0'"))
    bob_view = api.game(table.game_id, token=bob_t)
    api.act(
        table.game_id,
        1,
        {"type": "discard", "card": bob_view["hands"][1][-1]["order"]},
        token=bob_t,
    )
    expect(ann.get_by_text("Your turn:")).to_be_visible()
    expect(ann).to_have_title(re.compile("^Your turn"))
    expect(ann.locator("body")).to_have_attribute("data-chimes", str(chimes + 1))
    # colour-blind mode: every card and firework carries its suit's label and pattern
    ann.get_by_label("Colour-blind mode").check()
    expect(ann.locator("body")).to_have_class(re.compile("colorblind"))
    labels = ann.locator(".fireworks [data-cb]")
    expect(labels).to_have_count(5)
    assert len(set(labels.evaluate_all("els => els.map(e => e.dataset.cb)"))) == 5
    assert ann.locator(".hands .card[data-suit]:not([data-cb])").count() == 0
    # two suits that share a letter get labels of their own (the mode's rule, any variant)
    distinct = ann.evaluate(
        """async () => {
          const m = await import('/web/prefs.js');
          const suits = [{id: 'blue', name: 'Blue'}, {id: 'black', name: 'Black'},
                         {id: 'brown', name: 'Brown'}, {id: 'b2', name: 'B'}];
          m.useVariant({suits, letter: () => 'B', suitName: (id) => suits.find(s => s.id === id).name});
          const el = document.createElement('span');
          const out = [];
          for (const s of suits) { el.dataset.suit = s.id; delete el.dataset.cb;
            document.body.append(el); m.applyColorblind(); out.push(el.dataset.cb); }
          el.remove();
          return out;
        }"""
    )
    assert len(set(distinct)) == 4, distinct
    ann.reload()
    expect(ann.locator("body")).to_have_class(re.compile("colorblind"))
