"""Seeds and leaderboards through the CLI against a live server: a table on an unplayed
seed, its results hidden until the game ends, then listed; the board and a player's
counts."""

from __future__ import annotations

import json

from e2e_support import client_env
from test_cli_accounts import PASSWORD, name, run

from hanabi.client.accounts import SessionStore
from hanabi.client.api import Client


def test_seeds_leaderboard_and_stats_from_the_cli(live_server, tmp_path):
    ann, bob = name("ann"), name("bob")
    envs = {}
    for who in (ann, bob):
        envs[who] = client_env(live_server.url, tmp_path / who, HANABI_PASSWORD=PASSWORD)
        assert run(["register", who], envs[who]).returncode == 0
        assert run(["login", who], envs[who]).returncode == 0
    created = run(["create", "--seed", "unplayed", "--detach", "--json"], envs[ann])
    assert created.returncode == 0, created.stderr
    game_id = json.loads(created.stdout)["id"]
    apis = {
        who: Client(
            live_server.url,
            token=SessionStore(tmp_path / who / "config" / "hanabi-client")
            .load(live_server.url)
            .token,
        )
        for who in (ann, bob)
    }
    apis[bob].join(game_id, "ignored")
    assert "seed" not in apis[ann].start(game_id)  # the name is shown once it is over
    seed = "p2v0s1"  # unplayed, for two new accounts: the lowest

    # while it is on, the page does not tell its players which seed it is
    hidden = run(["seeds", seed], envs[bob])
    assert hidden.returncode == 1 and "only to players who finished" in hidden.stderr

    apis[bob].terminate(game_id)
    apis[ann].terminate(game_id)
    assert apis[ann].game(game_id)["seed"] == seed
    shown = run(["seeds", seed], envs[bob])
    assert shown.returncode == 0, shown.stderr
    assert shown.stdout.startswith(f"Seed {seed}: No Variant, 2 players, ")
    assert f"{ann}, {bob}" in shown.stdout and game_id in shown.stdout

    board = run(["leaderboard", "--variant", "no_variant", "--players", "2"], envs[ann])
    assert board.returncode == 0, board.stderr
    assert board.stdout.startswith("No Variant, 2 players: best scores\n")
    page = json.loads(run(["leaderboard", "--kind", "turns", "--json"], envs[ann]).stdout)
    assert page["kind"] == "turns" and page["players"] == 2

    stats = run(["stats", bob], envs[ann])
    assert stats.returncode == 0, stats.stderr
    assert stats.stdout == f"{bob}\n  No Variant: 1 game, 0 max scores (0%), average 0.00\n"
    unknown = run(["leaderboard", "--variant", "no such variant"], envs[ann])
    assert unknown.returncode == 1 and "There is no variant" in unknown.stderr
