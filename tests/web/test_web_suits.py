"""Every suit drawn, and only the variant's clues offered: a six-suit game's fireworks,
cards and discards carry each suit's colour and a symbol of its own; the clue buttons are
the variant's clue colours (by name) and ranks, none for a variant without colour clues,
and only the clues the view's legal actions hold are enabled."""

from __future__ import annotations

import json
import re
from typing import Any

from playwright.sync_api import Page, expect
from web_support import ApiTable, Browsing, WebServer, counter_value

from hanabi.game import catalogue


def seated_table(web: Browsing, web_server: WebServer, variant: str, seat: int = 1) -> Page:
    """A started two-seat game of ``variant`` (ann and bob, through the API), opened in a
    browser holding ``seat``'s token."""
    api = web_server.api()
    ann = api.create_game("ann", variant=variant, max_players=2, seed="suits")
    bob = api.join(ann.game_id, "bob")
    api.start(ann.game_id, token=ann.token)
    table = ApiTable(api, ann.game_id, [ann.token, bob.token])
    page = web.person()
    table.sit(page, seat)
    page.goto(f"/games/{ann.game_id}")
    return page


def symbols(page: Page, selector: str) -> list[dict[str, Any]]:
    """Each element's suit, symbol and band background (what a person sees of the suit),
    found and read in one step: the table redraws on every change, and an element found
    before a redraw and read after it is detached (no computed style)."""
    return page.evaluate(
        """(selector) => [...document.querySelectorAll(selector)].map((el) => {
          const svg = el.querySelector("svg.pip");
          const band = el.querySelector(".band") || el;
          return { suit: el.dataset.suit, symbol: svg && svg.dataset.symbol,
                   background: getComputedStyle(band).backgroundImage,
                   color: getComputedStyle(band).backgroundColor };
        })""",
        selector,
    )


def test_a_rainbow_game_draws_every_suit_with_a_symbol_of_its_own(
    web: Browsing, web_server: WebServer
) -> None:
    page = seated_table(web, web_server, "rainbow")
    fireworks = page.get_by_role("list", name="Fireworks").get_by_role("listitem")
    expect(fireworks).to_have_count(6)
    tiles = symbols(page, ".fireworks .firework")
    by_suit = {t["suit"]: t for t in tiles}
    assert list(by_suit) == ["red", "yellow", "green", "blue", "white", "rainbow"]
    # six different shapes: a person who cannot tell red from green tells them apart
    assert len({t["symbol"] for t in tiles}) == 6, tiles
    assert None not in {t["symbol"] for t in tiles}
    # the rainbow is a gradient of its colours, the others their own colour
    assert "linear-gradient" in by_suit["rainbow"]["background"]
    assert by_suit["red"]["background"] == "none"
    assert by_suit["red"]["color"] == "rgb(230, 0, 0)"
    # ann's cards, as bob sees them: each with the symbol of its suit's firework
    cards = symbols(page, ".hands .card[data-suit]")
    assert len(cards) == 5
    for card in cards:
        assert card["symbol"] == by_suit[card["suit"]]["symbol"], card
    # bob's own cards: unknown, drawn with no suit's colour
    expect(page.locator(".hands .card:not([data-suit])")).to_have_count(5)


def clue_buttons(web: Browsing, cases: list[tuple[str, list[dict[str, Any]]]]) -> list[dict]:
    """For each (variant name, legal clue actions): the clue buttons the page's own module
    draws for that variant's catalogue description, their names and which are enabled."""
    given = [[catalogue.variant(name).describe(), clues] for name, clues in cases]
    page = web.person()
    page.goto("/")
    return page.evaluate(
        """async (given) => {
          const { clueButtons } = await import('/web/clues.js');
          const { VariantInfo } = await import('/web/words.js');
          return given.map(([variant, clues]) => {
            const info = new VariantInfo(variant);
            const view = { clues: [], clue_tokens: 8 };
            const box = document.createElement('div');
            box.append(...clueButtons(info, view, clues, null, () => {}).filter(Boolean));
            document.body.append(box);
            const buttons = [...box.querySelectorAll('button')];
            return {
              names: buttons.map((b) => b.getAttribute('aria-label')),
              enabled: buttons.filter((b) => !b.disabled).map((b) => b.getAttribute('aria-label')),
              symbols: [...box.querySelectorAll('button.color svg.pip')].map((s) => s.dataset.symbol),
              notes: box.querySelector('.clue-notes')?.textContent || '',
            };
          });
        }""",
        given,
    )


def test_clue_buttons_are_the_variants_and_only_legal_ones_are_enabled(web: Browsing) -> None:
    pink_brown, mute, odds, blind = clue_buttons(
        web,
        [
            ("Pink & Brown (6 Suits)", [{"type": "clue", "target": 0, "rank": 3}]),
            ("Color Mute (5 Suits)", [{"type": "clue", "target": 0, "rank": 1}]),
            ("Odds and Evens (5 Suits)", []),
            ("Color Blind (6 Suits)", []),
        ],
    )
    # Pink & Brown: six colours by their names, each with its suit's symbol
    colors = ["Red", "Yellow", "Green", "Blue", "Pink", "Brown"]
    assert pink_brown["names"] == [f"{c} clue" for c in colors] + [f"{r} clue" for r in range(1, 6)]
    assert pink_brown["enabled"] == ["3 clue"]
    assert len(set(pink_brown["symbols"])) == 6
    # Color Mute: no colour clue at all
    assert mute["names"] == [f"{r} clue" for r in range(1, 6)]
    assert "No colour clues" in mute["notes"]
    # Odds and Evens: the ranks are 1 and 2
    assert [n for n in odds["names"] if n[0].isdigit()] == ["1 clue", "2 clue"]
    assert odds["enabled"] == []
    # Color Blind: the colours are there (a clue that touches nothing), and said so
    assert "Colour-blind" in blind["notes"]
    assert json.dumps(blind["names"]).count("clue") == 11


def test_the_picker_finds_pink_and_brown_by_typing_and_opens_that_table(web: Browsing) -> None:
    ann = web.person()
    ann.goto("/")
    ann.get_by_label("Name", exact=True).fill("ann")
    expect(ann.locator(".variant-chosen")).to_have_text("No Variant")  # the default
    ann.get_by_label("Number of suits").select_option("6")
    box = ann.get_by_role("combobox", name="Variant")
    box.fill("pink brown")
    found = ann.get_by_role("listbox", name="Variants found")
    wanted = found.get_by_role("option", name=re.compile(r"^Pink & Brown \(6 Suits\):"))
    expect(wanted).to_be_visible()
    # each result has six suits (the filter), drawn small with their symbols
    for option in found.get_by_role("option").all():
        expect(option.locator(".chip svg.pip")).to_have_count(6)
    # by keyboard: down the list to it, Enter (the form is not sent)
    for _ in range(30):
        if wanted.get_attribute("aria-selected") == "true":
            break
        box.press("ArrowDown")
    box.press("Enter")
    expect(ann.locator(".variant-chosen")).to_have_text("Pink & Brown (6 Suits)")
    expect(found).to_be_hidden()
    ann.get_by_label("Bots", exact=True).fill("1")
    ann.get_by_role("button", name="Create game").click()
    expect(ann.get_by_role("heading", name="Pink & Brown (6 Suits), 2 players")).to_be_visible()
    ann.get_by_role("button", name="Start", exact=True).click()
    expect(ann.get_by_text("Your turn:")).to_be_visible()
    tiles = symbols(ann, ".fireworks .firework")
    assert [t["suit"] for t in tiles] == ["red", "yellow", "green", "blue", "pink", "brown"]
    assert [t["symbol"] for t in tiles][4:] == ["hash", "nu"]
    clues = ann.get_by_role("group", name="Colour clues").get_by_role("button")
    expect(clues).to_have_count(6)
    expect(ann.get_by_role("button", name="Brown clue")).to_be_visible()


def test_a_variant_without_colour_clues_has_no_colour_button(
    web: Browsing, web_server: WebServer
) -> None:
    page = seated_table(web, web_server, "Color Mute (5 Suits)", seat=0)
    expect(page.get_by_text("Your turn:")).to_be_visible()
    expect(page.get_by_role("group", name="Rank clues").get_by_role("button")).to_have_count(5)
    expect(page.get_by_role("group", name="Colour clues")).to_have_count(0)
    expect(page.get_by_text("No colour clues in this variant.")).to_be_visible()


#: What a reader takes for a digit beside a rank (the test's own list, not the page's).
DIGITISH = set("0123456789OoОоΟοIlІіӀ|ЗзЧчБбЬь〇一二三四五六七八九十零")
#: Letters of other scripts that look like a Latin one.
LOOKS = str.maketrans("АВЕКМНОРСТХУ", "ABEKMHOPCTXY")


def test_every_variant_shows_distinct_symbols_that_are_not_digits_in_every_language(
    web: Browsing,
) -> None:
    """All 2,426 variants, as the page letters their suits in English, Russian and
    Chinese: no two suits alike ("Pink & Light Pink" showed "I0 I0"), none read as a
    digit (Russian green "З4", pink "I1")."""
    suits = [
        [{k: s[k] for k in ("id", "name", "abbreviation")} for s in v.describe()["suits"]]
        for v in (catalogue.variant(n) for n in catalogue.names())
    ]
    assert len(suits) == 2426
    catalogue_suits = json.dumps(suits)
    for locale in ("en-US", "ru-RU", "zh-CN"):
        context = web.browser.new_context(base_url=web.base, locale=locale)
        web.contexts.append(context)
        page = web.watch(context.new_page())
        page.goto("/")
        # one string each way: Playwright checks and converts a structured argument value
        # by value in Python (150,000 of them here: most of this test's time)
        letters = json.loads(
            page.evaluate(
                """async (all) => {
                  const { VariantInfo } = await import("/web/words.js");
                  return JSON.stringify(JSON.parse(all).map((suits) => {
                    const info = new VariantInfo({ id: "v", name: "v", suits, clue_colors: [], clue_ranks: [] });
                    return suits.map((s) => info.letter(s.id));
                  }));
                }""",
                catalogue_suits,
            )
        )
        bad = []
        for drawn in letters:
            shapes = [c.translate(LOOKS) for c in drawn]
            if any(len(c) != 1 or c in DIGITISH for c in drawn) or len(set(shapes)) < len(drawn):
                bad.append(drawn)
        assert not bad, f"{locale}: {len(bad)} variants, e.g. {bad[:5]}"
        if locale == "ru-RU":  # green is no longer a 3
            assert "З" not in {c for drawn in letters for c in drawn}


def test_throw_it_in_a_hole_says_score_and_fireworks_are_hidden_until_the_end(
    web: Browsing, web_server: WebServer
) -> None:
    """The view hides the score and every firework (null, ``score_hidden``): the board
    says so in words, never "null of null" or a height of 0."""
    variant = next(catalogue.variants(rule="throw_it_in_a_hole", suits=5)).name
    page = seated_table(web, web_server, variant)
    expect(counter_value(page, "Score")).to_have_text("hidden until the end")
    fireworks = page.get_by_role("list", name="Fireworks").get_by_role("listitem")
    expect(fireworks).to_have_count(5)
    expect(fireworks.first).to_have_accessible_name("red firework: hidden until the end")
    faces = page.locator(".fireworks .firework .face").all_inner_texts()
    assert faces == ["R ?", "Y ?", "G ?", "B ?", "P ?"], faces
    assert "null" not in page.locator(".board").inner_text()
