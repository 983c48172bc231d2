"""The README's and docs/web.md's pictures of the web client: `make screenshots`
(docs/img/lobby.png, docs/img/table.png, and the one-screen table at each size:
table-1366x768.png, table-1920x1080.png, table-390x844.png), taken in Debian's chromium
from a server of their own. ``--all DIR``: every table size for 2 to 6 players into DIR
too, with what each measures (to look at, not to commit)."""

from __future__ import annotations

import argparse
import os
import subprocess
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from playwright.sync_api import expect, sync_playwright
from table_sizes import SIZES, measure, open_seat, widest_table
from web_support import chromium_path, counter_value, create_game

from hanabi.bots import choose_action_from_view
from hanabi.client.api import ApiError, Client
from hanabi.server.ops.redis_process import RedisProcess, free_port
from hanabi.server.ops.serving import gunicorn_command

#: The players of the table pictured at each size (the laptop's is the fullest that must fit).
PICTURED = {"laptop": 5, "desktop": 6, "phone": 4}


@contextmanager
def serving() -> Iterator[str]:
    """A server of its own on an embedded Redis; its address."""
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    with RedisProcess() as redis:
        env = {**os.environ, "REDIS_URL": redis.url}
        server = subprocess.Popen(
            gunicorn_command(f"127.0.0.1:{port}", 1, log_level="warning"), env=env
        )
        try:
            api = Client(url, retries=0)
            for _ in range(200):
                try:
                    api.health()
                    break
                except ApiError:
                    time.sleep(0.05)
            yield url
        finally:
            server.terminate()
            server.wait()


def lobby_and_table(browser, url: str, out: Path) -> None:
    api = Client(url, retries=0)
    # a lobby with a few open tables
    api.create_game("bob", variant="rainbow", max_players=4)
    carol = api.create_game("carol", max_players=3)
    api.table(carol.game_id, carol.token).add_bot("conventions")
    page = browser.new_page(base_url=url, viewport={"width": 1366, "height": 768})
    page.goto("/")
    page.get_by_label("Name", exact=True).fill("ann")
    expect(page.get_by_role("list", name="Open tables").get_by_role("listitem")).to_have_count(2)
    page.screenshot(path=out / "lobby.png", full_page=True)
    create_game(page, "ann", players=3, bots=2)
    page.get_by_role("button", name="Start", exact=True).click()
    # ann's first moves are a conventions bot's (through the API, with her seat's token),
    # so the picture shows a game as it goes, not a test's random moves
    game_id = page.url.rsplit("/", 1)[1]
    token = page.evaluate(f"JSON.parse(localStorage.getItem('hanabi.seat.{game_id}')).token")
    for _ in range(7):
        expect(page.get_by_text("Your turn:")).to_be_visible(timeout=15000)
        view = api.game(game_id, token=token)
        action = choose_action_from_view("conventions", view, api.all_events(game_id, token=token))
        api.act(game_id, view["turn"], action, token=token)
        expect(counter_value(page, "Turn")).not_to_have_text(str(view["turn"] + 1))
    expect(page.get_by_text("Your turn:")).to_be_visible(timeout=15000)
    # a partner's card clicked: its menu, the clues that touch it, one chosen and outlined
    bot = page.get_by_role("group", name="conventions-bot-3's hand")
    bot.get_by_role("button").first.click()
    menu = page.locator(".card-menu")
    menu.locator("button.clue").first.click()
    expect(page.locator(".card.would-touch").first).to_be_visible()
    page.screenshot(path=out / "table.png")
    page.close()


def sizes(browser, url: str, out: Path, every: Path | None) -> None:
    api = Client(url, retries=0)
    page = browser.new_page(base_url=url, viewport={"width": 1366, "height": 768})
    page.goto("/")
    for players in range(2, 7):
        wanted = [s for s in SIZES if PICTURED[s[2]] == players]
        if not wanted and every is None:
            continue
        table = widest_table(api, players)
        open_seat(page, table)
        for width, height, name in SIZES:
            found = measure(page, width, height)
            if PICTURED[name] == players:
                page.screenshot(path=out / f"table-{width}x{height}.png")
            if every is not None:
                page.screenshot(path=every / f"{players}p-{width}x{height}.png")
                print(players, width, height, found)
    page.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("out", nargs="?", default="docs/img", type=Path)
    parser.add_argument("--all", type=Path, default=None, dest="every")
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    if args.every is not None:
        args.every.mkdir(parents=True, exist_ok=True)
    with serving() as url, sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium_path(), headless=True)
        lobby_and_table(browser, url, args.out)
        sizes(browser, url, args.out, args.every)
        browser.close()
    print(f"wrote the pictures in {args.out}")


if __name__ == "__main__":
    main()
