"""Moves made the way a person makes them (by role and accessible name, from what the
seat's page shows), and the browser and server the tests drive."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from playwright.sync_api import Browser, BrowserContext, Locator, Page, expect

from hanabi.bots import choose_action_from_view
from hanabi.client.api import Client


def chromium_path() -> str:
    found = os.environ.get("CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"
    assert os.path.exists(found), (
        "chromium is missing (the web client's tests need it); run:\n"
        "  sudo apt-get update && sudo apt-get install -y chromium chromium-driver"
    )
    return found


@dataclass
class WebServer:
    url: str
    proc: subprocess.Popen[bytes]

    def api(self) -> Client:
        return Client(self.url, retries=1, backoff=0.05)


@dataclass
class Browsing:
    """New browser contexts (each a separate person: its own storage) whose pages fail the
    test on a console error or an uncaught exception."""

    browser: Browser
    base: str
    contexts: list[BrowserContext] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    allowed: list[re.Pattern[str]] = field(default_factory=list)
    #: Every request to the API the pages sent: (method, URL, body), for api_calls.check.
    calls: list[tuple[str, str, str | None]] = field(default_factory=list)

    def person(self, width: int = 1200, height: int = 900) -> Page:
        context = self.browser.new_context(
            base_url=self.base, viewport={"width": width, "height": height}
        )
        context.set_default_timeout(15000)
        self.contexts.append(context)
        return self.watch(context.new_page())

    def watch(self, page: Page) -> Page:
        page.on("console", lambda m: self._console(m.type, m.text))
        page.on("pageerror", lambda e: self.errors.append(f"uncaught: {e}"))
        page.on("dialog", lambda d: (self.errors.append(f"dialog: {d.message}"), d.dismiss()))
        page.on("request", lambda r: self.calls.append((r.method, r.url, r.post_data)))
        return page

    def allow(self, pattern: str) -> None:
        """A console error the test provokes on purpose (a refusal the browser logs)."""
        self.allowed.append(re.compile(pattern))

    def _console(self, kind: str, text: str) -> None:
        if kind == "error" and not any(p.search(text) for p in self.allowed):
            self.errors.append(f"console: {text}")

    def close(self) -> None:
        for context in self.contexts:
            context.close()


Check = Callable[[], bool]


def wait_until(check: Check, timeout: float = 15.0, what: str = "the page") -> None:
    deadline = time.monotonic() + timeout
    while not check():
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        time.sleep(0.05)


def create_game(
    page: Page,
    name: str,
    players: int = 2,
    bots: int = 0,
    strategy: str = "conventions",
    guest: bool = False,
    variant: str | None = None,
) -> str:
    """Open a table from the lobby; returns the game's id (from the page's address).
    ``guest``: a logged-in person sits as a guest (under ``name``); ``variant``: the name
    of a variant to pick (None: the picker's default, No Variant)."""
    page.goto("/")
    if guest:
        page.get_by_label("Play as a guest").check()
    page.get_by_label("Name", exact=True).fill(name)
    if variant is not None:
        pick_variant(page, variant)
    page.get_by_label("Players").select_option(str(players))
    page.get_by_label("Bots", exact=True).fill(str(bots))
    page.get_by_label("Bot strategy").select_option(strategy)
    page.get_by_role("button", name="Create game").click()
    page.wait_for_url(re.compile(r"/games/[^/]+$"))
    expect(page.get_by_role("heading", name=re.compile(r"^Seats"))).to_be_visible()
    return page.url.rsplit("/", 1)[1]


def pick_variant(page: Page, name: str, typed: str | None = None) -> None:
    """Choose a variant in the lobby's picker as a person does: type words of its name
    (``typed``, else the name), then click the result of that exact name."""
    box = page.get_by_role("combobox", name="Variant")
    box.fill(typed if typed is not None else name)
    page.get_by_role("option", name=re.compile(f"^{re.escape(name)}:")).click()
    expect(page.locator(".variant-chosen")).to_have_text(name)


def counter_value(page: Page, term: str) -> Locator:
    """The value of a counter on the board ("Clues", "Turn", ...)."""
    term_cell = page.locator("dt", has_text=re.compile(f"^{term}$"))
    return page.locator(".board .counter", has=term_cell).locator("dd")


def counter(page: Page, term: str) -> str:
    return counter_value(page, term).inner_text()


def my_turn(page: Page) -> bool:
    return page.get_by_text("Your turn:").is_visible()


def game_over(page: Page) -> bool:
    return page.get_by_role("heading", name=re.compile(r"^Game over")).is_visible()


def take_turn(page: Page, turn_no: int) -> None:
    """A simple, legal move from this seat's page: a clue when there are 8 tokens (or
    every third turn), otherwise discard slot 1 (by keyboard: "1" then "d")."""
    before = counter(page, "Turn")
    clues = int(counter(page, "Clues").split()[0])
    if clues == 8 or (clues > 0 and turn_no % 3 == 0):
        if page.get_by_role("group", name=re.compile(r"^Clue for ")).count() == 0:
            page.get_by_role("button", name=re.compile(r"^Clue ")).first.click()  # a partner
        options = page.get_by_role("group", name=re.compile(r"^Clue for ")).get_by_role(
            "button", name=re.compile(r" clue$")
        )
        for i in range(options.count()):
            if options.nth(i).is_enabled():
                options.nth(i).click()
                break
        page.get_by_role("button", name="Give clue").click()
    else:
        page.keyboard.press("1")
        expect(page.get_by_role("button", name="Discard")).to_be_enabled()
        page.keyboard.press("d")
    # polled every 50 ms: expect() backs off to a second between looks, and this is every turn
    wait_until(lambda: counter(page, "Turn") != before, what="the move to show")


@dataclass
class ApiTable:
    """A two-seat game played through the API (as two programs would): its id and tokens."""

    api: Client
    game_id: str
    tokens: list[str]

    def moves(self, count: int) -> None:
        """``count`` moves, each the conventions bot's choice for the seat to move."""
        for _ in range(count):
            seat = self.api.game(self.game_id)["current_seat"]
            token = self.tokens[seat]
            view = self.api.game(self.game_id, token=token)
            events = self.api.all_events(self.game_id, token=token)
            action = choose_action_from_view("conventions", view, events)
            self.api.act(self.game_id, view["turn"], action, token=token)

    def end_by_vote(self) -> dict:
        """Both people vote to end the game; its finished view."""
        for token in self.tokens:
            self.api.vote(self.game_id, token=token)
        return self.api.game(self.game_id)

    def sit(self, page: Page, seat: int) -> None:
        """Give ``page``'s browser this seat (as if it had opened the table)."""
        page.goto("/")
        page.evaluate(
            "([id, seat, token]) => localStorage.setItem(`hanabi.seat.${id}`,"
            " JSON.stringify({ seat, token, at: Date.now() }))",
            [self.game_id, seat, self.tokens[seat]],
        )


def api_table(api: Client, seed: str) -> ApiTable:
    """A started two-seat game (ann and bob) dealt from ``seed``."""
    ann = api.create_game("ann", max_players=2, seed=seed)
    bob = api.join(ann.game_id, "bob")
    api.start(ann.game_id, token=ann.token)
    return ApiTable(api, ann.game_id, [ann.token, bob.token])
