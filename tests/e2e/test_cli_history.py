"""History through the CLI against a live server (docs/history.md): tag a finished game,
search by player and tag, a variant's page, and import a hanab.live export."""

from __future__ import annotations

import json
import secrets
import subprocess

from e2e_support import client_command, client_env

from hanabi.client.accounts import SessionStore
from hanabi.client.api import Client

PASSWORD = "a long enough password"


def run(args: list[str], env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*client_command(), *args], env=env, capture_output=True, text=True, timeout=60
    )


def test_tags_search_variant_page_and_import_from_the_cli(live_server, tmp_path):
    ann, bob = f"ann{secrets.token_hex(4)}", f"bob{secrets.token_hex(4)}"
    envs, apis = {}, {}
    for who in (ann, bob):
        envs[who] = client_env(live_server.url, tmp_path / who, HANABI_PASSWORD=PASSWORD)
        assert run(["register", who], envs[who]).returncode == 0
        assert run(["login", who], envs[who]).returncode == 0
        store = SessionStore(tmp_path / who / "config" / "hanabi-client")
        apis[who] = Client(live_server.url, token=store.load(live_server.url).token)
    seat = apis[ann].create_game(ann, max_players=2, seed="a seed of our own")
    apis[bob].join(seat.game_id, bob)
    apis[ann].start(seat.game_id)
    apis[ann].terminate(seat.game_id)
    apis[bob].terminate(seat.game_id)
    game = seat.game_id

    tagged = run(["tag", game, "#finesse"], envs[ann])
    assert tagged.returncode == 0, tagged.stderr
    assert tagged.stdout == f"Game {game}: #finesse *\n"
    refused = run(["tag", game, "two words"], envs[ann])
    assert refused.returncode == 1 and "A tag is a word" in refused.stderr
    assert run(["tags", game], envs[bob]).stdout == f"Game {game}: #finesse\n"

    found = run(["search", "--player", bob, "--tag", "finesse"], envs[bob])
    assert found.returncode == 0, found.stderr
    assert game in found.stdout and f"{ann}, {bob}" in found.stdout and "#finesse" in found.stdout
    none = run(["search", "--player", bob, "--since", "2999-01-01"], envs[bob])
    assert none.stdout == "No finished games match.\n"

    page = run(["variant-page", "0"], envs[bob])
    assert page.returncode == 0, page.stderr
    assert page.stdout.startswith("No Variant\n") and "Missing max scores:" in page.stdout

    document = tmp_path / "game.json"
    document.write_text(json.dumps(apis[ann].export(game)))
    imported = run(["import", str(document), "--json"], envs[bob])
    assert imported.returncode == 0, imported.stderr
    copy = json.loads(imported.stdout)["game_id"]
    listed = run(["search", "--player", ann, "--only", "imported", "--json"], envs[bob])
    assert [g["game_id"] for g in json.loads(listed.stdout)["games"]] == [copy]
    said = run(["import", str(document)], envs[bob])
    assert said.stdout.startswith("Imported as game ")
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    assert run(["import", str(bad)], envs[bob]).returncode == 1
