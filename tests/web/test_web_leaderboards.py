"""Seeds and leaderboards in the browser: three accounts finish a game on an unplayed seed
(played through the API); the finished table shows the seed's results to its player, the
lobby leads to the leaderboards page, whose filters pick the board, and a player's counts
show; the create form offers the deal's choices."""

from __future__ import annotations

import secrets

from playwright.sync_api import expect
from web_support import Browsing, WebServer

from hanabi.client.api import Client

PASSWORD = "correct horse battery"


def test_leaderboards_page_and_a_seeds_results(web: Browsing, web_server: WebServer) -> None:
    names, apis = [], []
    for who in ("ann", "bob", "cid"):
        name = f"{who}{secrets.token_hex(3)}"
        api = Client(web_server.url)
        api.register(name, PASSWORD)
        api.login(name, PASSWORD)
        names.append(name)
        apis.append(api)
    seat = apis[0].create_game(names[0], max_players=3, seed="unplayed")
    for api in apis[1:]:
        api.join(seat.game_id, "ignored")
    assert "seed" not in apis[0].start(seat.game_id)  # the name is shown once it is over
    for api in apis:  # half the seats' votes end it
        if api.vote(seat.game_id)["status"] == "finished":
            break
    seed = apis[0].game(seat.game_id)["seed"]
    assert seed.startswith("p3v0s")

    ann = web.person()
    ann.goto("/")
    ann.evaluate(
        "([username, token]) => localStorage.setItem('hanabi.session',"
        " JSON.stringify({ username, token }))",
        [names[0], apis[0].token],
    )
    ann.evaluate(
        "([id, token]) => localStorage.setItem(`hanabi.seat.${id}`,"
        " JSON.stringify({ seat: 0, token, at: Date.now() }))",
        [seat.game_id, apis[0].token],
    )
    # the finished table: the seed's results, this game among them
    ann.goto(f"/games/{seat.game_id}")
    results = ann.get_by_role("table", name=f"Results on seed {seed}")
    expect(results).to_contain_text(", ".join(names))

    # the lobby's link, then the filters
    ann.goto("/")
    deal = ann.get_by_label("Deal")
    deal.select_option("named")
    expect(ann.get_by_label("Seed name")).to_be_visible()
    ann.get_by_role("navigation", name="Pages").get_by_role("link", name="Leaderboards").click()
    ann.wait_for_url("**/leaderboards**")
    expect(ann.get_by_role("heading", name="Leaderboards", exact=True)).to_be_visible()
    ann.locator("select[name=players]").select_option("3")
    board = ann.get_by_role("table", name="Leaderboard")
    expect(ann.get_by_role("heading", name="No Variant, 3 players: Best scores")).to_be_visible()
    expect(board).to_contain_text(", ".join(names))
    ann.locator("select[name=kind]").select_option("turns")
    expect(ann.get_by_role("heading", name="No Variant, 3 players: Fewest turns")).to_be_visible()
    expect(board).not_to_contain_text(names[0])  # a score of 0 is not the max
    assert "players=3" in ann.url and "kind=turns" in ann.url

    ann.get_by_label("Player", exact=True).fill(names[1])
    ann.get_by_role("button", name="Show").click()
    counts = ann.get_by_role("table", name=f"{names[1]}'s games")
    expect(counts).to_contain_text("No Variant")
    expect(counts.locator("td").nth(1)).to_have_text("1")
