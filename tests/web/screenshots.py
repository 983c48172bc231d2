"""The README's pictures of the web client: `make screenshots` (docs/img/lobby.png and
docs/img/table.png), taken in Debian's chromium from a server of their own."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

from playwright.sync_api import expect, sync_playwright
from web_support import chromium_path, counter_value, create_game

from hanabi.bots import choose_action_from_view
from hanabi.client.api import ApiError, Client
from hanabi.server.ops.redis_process import RedisProcess, free_port
from hanabi.server.ops.serving import gunicorn_command


def main(out: Path) -> None:
    out.mkdir(parents=True, exist_ok=True)
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
            # a lobby with a few open tables
            api.create_game("bob", variant="rainbow", max_players=4)
            carol = api.create_game("carol", max_players=3)
            api.table(carol.game_id, carol.token).add_bot("conventions")
            with sync_playwright() as p:
                browser = p.chromium.launch(executable_path=chromium_path(), headless=True)
                page = browser.new_page(base_url=url, viewport={"width": 1100, "height": 900})
                page.goto("/")
                page.get_by_label("Name", exact=True).fill("ann")
                expect(
                    page.get_by_role("list", name="Open tables").get_by_role("listitem")
                ).to_have_count(2)
                page.screenshot(path=out / "lobby.png", full_page=True)
                create_game(page, "ann", players=3, bots=2)
                page.get_by_role("button", name="Start", exact=True).click()
                # ann's first moves are a conventions bot's (through the API, with her seat's
                # token), so the picture shows a game as it goes, not a test's random moves
                game_id = page.url.rsplit("/", 1)[1]
                token = page.evaluate(
                    f"JSON.parse(localStorage.getItem('hanabi.seat.{game_id}')).token"
                )
                for _ in range(7):
                    expect(page.get_by_text("Your turn:")).to_be_visible(timeout=15000)
                    view = api.game(game_id, token=token)
                    action = choose_action_from_view(
                        "conventions", view, api.all_events(game_id, token=token)
                    )
                    api.act(game_id, view["turn"], action, token=token)
                    expect(counter_value(page, "Turn")).not_to_have_text(str(view["turn"] + 1))
                expect(page.get_by_text("Your turn:")).to_be_visible(timeout=15000)
                page.get_by_role("group", name="Your hand (ann)").get_by_role("button").nth(
                    1
                ).click()
                page.get_by_role("group", name="conventions-bot-3's hand").get_by_role(
                    "button"
                ).first.click()
                page.screenshot(path=out / "table.png", full_page=True)
                browser.close()
        finally:
            server.terminate()
            server.wait()
    print(f"wrote {out / 'lobby.png'} and {out / 'table.png'}")


if __name__ == "__main__":
    main(Path(sys.argv[1] if len(sys.argv) > 1 else "docs/img"))
