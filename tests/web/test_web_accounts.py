"""Accounts and clocks in the browser: register, log in and out, play as the account or
as a guest, the profile with its history, a timed game's clocks counting down."""

from __future__ import annotations

import re
import secrets
import time

from playwright.sync_api import Page, expect
from web_support import Browsing, create_game


def account_form(page: Page, username: str, password: str, button: str) -> None:
    """Fill the header's account form and press ``button`` ("Log in", "Register")."""
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password", exact=True).fill(password)
    page.get_by_role("button", name=button, exact=True).click()


def logged_in(page: Page, username: str) -> None:
    account = page.get_by_role("navigation", name="Account")
    expect(account.get_by_role("link", name=username)).to_be_visible()


def register(page: Page, username: str, password: str) -> None:
    page.goto("/")
    page.get_by_role("button", name="Log in or register").click()
    account_form(page, username, password, "Register")
    logged_in(page, username)


def test_an_account_plays_a_timed_game_and_finds_it_in_its_history(web: Browsing) -> None:
    username = f"web_{secrets.token_hex(4)}"
    ann = web.person()
    register(ann, username, "correct horse battery")
    expect(ann.get_by_text(f"You play as {username}.")).to_be_visible()
    ann.get_by_label("Bots", exact=True).fill("1")
    ann.get_by_label("Timed").check()
    ann.get_by_label("Minutes on each clock").fill("2")
    ann.get_by_label("Seconds added a move").fill("5")
    ann.get_by_role("button", name="Create game").click()
    ann.wait_for_url(re.compile(r"/games/[^/]+$"))
    # the seat carries the account's name, not a guest's
    expect(ann.get_by_role("list", name="Seats")).to_contain_text(username)
    ann.get_by_role("button", name="Start", exact=True).click()
    clock = ann.get_by_label(f"{username}'s clock")
    expect(clock).to_have_text(re.compile(r"^[12]:\d\d$"))
    first = clock.inner_text()
    time.sleep(1.6)
    assert clock.inner_text() != first, "the clock of the seat to move does not count down"
    expect(ann.get_by_label("conventions-bot-2's clock")).to_have_text("2:00")
    ann.get_by_role("button", name="Vote to end").click()
    expect(ann.get_by_role("heading", name=re.compile(r"^Game over"))).to_be_visible()

    # the profile lists the game (opened from the header's link)
    ann.get_by_role("navigation", name="Account").get_by_role("link", name=username).click()
    ann.wait_for_url(f"**/players/{username}")
    expect(ann.get_by_role("heading", name=username, exact=True)).to_be_visible()
    expect(ann.get_by_role("list", name="Games").get_by_role("listitem")).to_have_count(1)
    # the count of rated games in words (none: it was not rated)
    expect(ann.locator(".counter", has_text="Played")).to_have_text("Played0 rated games")
    expect(ann.get_by_role("list", name="Games")).to_contain_text("ended by vote")

    # log out; log in again from the header
    ann.get_by_role("button", name="Log out").click()
    expect(ann.get_by_role("button", name="Log in or register")).to_be_visible()
    ann.get_by_role("button", name="Log in or register").click()
    web.allow(r"401")
    account_form(ann, username, "wrong password!", "Log in")
    alert = ann.get_by_role("form", name="Account").get_by_role("alert")
    expect(alert).to_have_text(re.compile(r"\w"))
    account_form(ann, username, "correct horse battery", "Log in")
    logged_in(ann, username)


def test_an_account_may_sit_as_a_guest(web: Browsing) -> None:
    username = f"web_{secrets.token_hex(4)}"
    ann = web.person()
    register(ann, username, "correct horse battery")
    create_game(ann, "annie", players=2, bots=1, guest=True)
    seats = ann.get_by_role("list", name="Seats")
    expect(seats).to_contain_text("annie")
    expect(seats).not_to_contain_text(username)


def test_a_rated_game_shows_the_rating_changes(web: Browsing) -> None:
    names = [f"web_{secrets.token_hex(4)}" for _ in range(2)]
    ann, bob = web.person(), web.person()
    register(ann, names[0], "correct horse battery")
    register(bob, names[1], "correct horse battery")
    ann.get_by_label("Rated").check()
    ann.get_by_role("button", name="Create game").click()
    ann.wait_for_url(re.compile(r"/games/[^/]+$"))
    bob.goto(ann.url)
    expect(bob.get_by_text(f"You will sit as {names[1]}.")).to_be_visible()
    bob.get_by_role("button", name="Join").click()
    expect(ann.get_by_role("list", name="Seats")).to_contain_text(names[1])
    ann.get_by_role("button", name="Start", exact=True).click()
    expect(bob.get_by_text(re.compile(r"Rated game\."))).to_be_visible()
    # both vote to end: a rated game ended early counts as a score of 0
    ann.get_by_role("button", name="Vote to end").click()
    expect(bob.get_by_text("1 of 2 votes to end the game")).to_be_visible()
    bob.get_by_role("button", name="Vote to end").click()
    for page in (ann, bob):
        end = page.get_by_role("region", name=re.compile(r"^Game over"))
        expect(end).to_contain_text("ended by vote")
        ratings = end.get_by_role("listitem").filter(has_text=re.compile(r": rating \d"))
        expect(ratings).to_have_count(2, timeout=20000)
        expect(end).to_contain_text(re.compile(rf"{names[0]}: rating 1500 → 1\d\d\d"))
    bob.goto(f"/players/{names[1]}")
    expect(bob.get_by_role("list", name="Games")).to_contain_text(
        re.compile(r"rated · rating 1500 → ")
    )
