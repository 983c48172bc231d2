"""History in the browser (docs/history.md): a finished game's tags on its table, the
history page's search (reached from the lobby), a variant's page, and the import button."""

from __future__ import annotations

import json
import secrets
from pathlib import Path

from playwright.sync_api import Page, expect
from web_support import Browsing, WebServer

from hanabi.client.api import Client

PASSWORD = "correct horse battery"


def accounts(web_server: WebServer) -> tuple[list[str], list[Client]]:
    names, apis = [], []
    for who in ("ann", "bob"):
        name = f"{who}{secrets.token_hex(3)}"
        api = Client(web_server.url)
        api.register(name, PASSWORD)
        api.login(name, PASSWORD)
        names.append(name)
        apis.append(api)
    return names, apis


def finished_game(names: list[str], apis: list[Client]) -> str:
    """A game of the two accounts on a seed of their own, ended by vote."""
    seat = apis[0].create_game(names[0], max_players=2, seed="a seed of our own")
    apis[1].join(seat.game_id, "ignored")
    apis[0].start(seat.game_id)
    apis[0].vote(seat.game_id)
    apis[1].vote(seat.game_id)
    return seat.game_id


def logged_in(web: Browsing, name: str, token: str) -> Page:
    page = web.person()
    page.goto("/")
    page.evaluate(
        "([username, token]) => localStorage.setItem('hanabi.session',"
        " JSON.stringify({ username, token }))",
        [name, token],
    )
    return page


def test_tag_a_finished_game_and_find_it(web: Browsing, web_server: WebServer) -> None:
    names, apis = accounts(web_server)
    game = finished_game(names, apis)
    ann = logged_in(web, names[0], apis[0].token)
    ann.goto(f"/games/{game}")
    tags = ann.get_by_role("list", name="Tags")
    expect(tags).to_contain_text("No tags yet.")
    expect(ann.get_by_role("button", name="Add tag")).to_be_visible()
    # typed and sent from the keyboard: a click lands where the button was, and the table
    # may still be redrawing under it after the page loads (CI once lost that click)
    ann.get_by_label("New tag").fill("#finesse")
    ann.get_by_label("New tag").press("Enter")
    expect(tags).to_contain_text("#finesse")
    expect(ann.get_by_role("button", name="Remove #finesse")).to_be_visible()

    ann.goto("/")
    ann.get_by_role("navigation", name="Pages").get_by_role("link", name="History").click()
    ann.wait_for_url("**/history**")
    ann.get_by_label("Player").fill(names[1])
    ann.get_by_label("Tag").fill("finesse")
    ann.get_by_role("button", name="Search", exact=True).click()
    found = ann.get_by_role("table", name="Finished games")
    expect(found).to_contain_text(f"{names[0]}, {names[1]}")
    expect(found).to_contain_text("#finesse")
    assert f"player={names[1]}" in ann.url and "tag=finesse" in ann.url
    ann.get_by_label("Tag").fill("nosuchtag" + secrets.token_hex(2))
    ann.get_by_role("button", name="Search", exact=True).click()
    expect(ann.get_by_text("No finished games match.")).to_be_visible()


def test_a_variants_page(web: Browsing, web_server: WebServer) -> None:
    names, apis = accounts(web_server)
    finished_game(names, apis)
    page = web.person()
    page.goto("/history/variants/0")
    expect(page.get_by_role("heading", name="No Variant", level=1)).to_be_visible()
    expect(page.get_by_role("heading", name="Best games")).to_be_visible()
    expect(page.get_by_role("heading", name="Missing max scores")).to_be_visible()
    expect(page.get_by_text("mean score")).to_be_visible()


def test_import_a_hanablive_game(web: Browsing, web_server: WebServer, tmp_path: Path) -> None:
    names, apis = accounts(web_server)
    game = finished_game(names, apis)
    document = tmp_path / "game.json"
    document.write_text(json.dumps(apis[0].export(game)))
    bob = logged_in(web, names[1], apis[1].token)
    bob.goto("/history")
    bob.get_by_label("hanab.live JSON").set_input_files(str(document))
    bob.get_by_role("button", name="Import").click()
    link = bob.get_by_role("link", name="game ")
    expect(link).to_be_visible()
    link.click()
    bob.wait_for_url("**/games/**")
    expect(bob.get_by_role("heading", name="Game over: score 0 of 25")).to_be_visible()
    bob.goto(f"/history?player={names[0]}")
    expect(bob.get_by_role("table", name="Finished games")).to_contain_text("(imported)")
