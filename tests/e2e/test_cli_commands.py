"""The one-shot commands (create, list, variants, export, replay) and their --json forms,
colour on and off, errors, and a table driven entirely through --json."""

from __future__ import annotations

import json
import subprocess

from e2e_support import SUITS, Terminal, client_command, client_env, full_deck, write_deck

from hanabi.client.api import Client
from hanabi.server.redis_process import free_port

FIRSTS = [(s, r) for r in range(1, 6) for s in SUITS]


def run(args: list[str], env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*client_command(), *args], env=env, capture_output=True, text=True, timeout=30
    )


def finished_game(url: str) -> str:
    api = Client(url)
    host = api.create_game("alice", max_players=2, deck=full_deck(FIRSTS))
    bob = api.join(host.game_id, "bob")
    api.start(host.game_id, token=host.token)
    newest = api.game(host.game_id, token=host.token)["hands"][0][0]["order"]
    api.play(host.game_id, 0, newest, token=host.token)
    api.terminate(host.game_id, token=bob.token)
    return host.game_id


def test_create_detached_list_and_json(live_server, tmp_path):
    env = client_env(live_server.url, tmp_path)
    made = run(
        ["create", "--name", "zoe", "--players", "3", "--variant", "rainbow", "--detach"], env
    )
    assert made.returncode == 0, made.stderr
    game_id = made.stdout.split("Created game ")[1].split()[0]
    assert f"hanabi-client join {game_id} --name NAME" in made.stdout
    assert f"Take your seat with:\n  hanabi-client join {game_id}" in made.stdout

    listed = run(["list"], env)
    assert listed.returncode == 0
    row = next(line for line in listed.stdout.splitlines() if line.startswith(game_id))
    assert row.split()[1:5] == ["lobby", "rainbow", "1/3", "zoe"]
    as_json = json.loads(run(["list", "--json", "--limit", "100"], env).stdout)
    assert game_id in [g["id"] for g in as_json["games"]]

    created = json.loads(run(["create", "--name", "yan", "--json", "--empty-clues"], env).stdout)
    assert created["seat"] == 0
    assert created["game"]["options"] == {"empty_clues": True, "strikeout_keeps_score": False}
    other = run(["create", "--name", "yo", "--json", "--strikeout-keeps-score"], env).stdout
    assert json.loads(other)["game"]["options"]["strikeout_keeps_score"] is True
    assert created["join"] == f"hanabi-client join {created['id']} --name NAME"

    variants = run(["variants"], env).stdout
    assert "black_powder" in variants and "RYGBWMK" in variants


def test_a_hanablive_export_deals_the_same_game_again(live_server, tmp_path):
    env = client_env(live_server.url, tmp_path)
    game_id = finished_game(live_server.url)
    exported = tmp_path / "old.json"
    assert run(["export", game_id, "-o", str(exported)], env).returncode == 0
    again = json.loads(
        run(["create", "--name", "ann", "--deck", str(exported), "--json"], env).stdout
    )
    assert again["game"]["max_players"] == 2  # the file's player count
    api = Client(live_server.url)
    bob = api.join(again["id"], "bo")
    api.start(again["id"], token=_host_token(tmp_path, live_server.url, again["id"]))
    old = api.replay(game_id, 0)
    new = api.game(again["id"], token=bob.token)
    assert [c["suit"] for c in new["hands"][0]] == [c["suit"] for c in old["hands"][0]]


def _host_token(home, url: str, game_id: str) -> str:
    """The host's token, as the CLI saved it in the config dir."""
    from hanabi.client.tokens import TokenStore

    return TokenStore(home / "config" / "hanabi-client").find(url, game_id).token


def test_colour_and_no_color(live_server, tmp_path):
    game_id = finished_game(live_server.url)
    coloured = client_env(live_server.url, tmp_path, TERM="xterm-256color")
    del coloured["NO_COLOR"]
    term = Terminal(["replay", game_id], coloured)
    term.end()
    assert "\x1b[" in term.before and "\x1b[1;31mR" in term.before  # red cards in red
    plain = client_env(live_server.url, tmp_path, TERM="xterm-256color")  # NO_COLOR=1
    term = Terminal(["replay", game_id], plain)
    term.end()
    assert "\x1b[3" not in term.before and "\x1b[1;3" not in term.before  # no colours at all
    assert "R1" in term.before  # the letters carry it
    flag = client_env(live_server.url, tmp_path, TERM="xterm-256color")
    del flag["NO_COLOR"]
    term = Terminal(["replay", game_id, "--no-color"], flag)
    term.end()
    assert "\x1b[3" not in term.before and "\x1b[1;3" not in term.before


def test_errors_are_one_line_and_json_when_asked(live_server, tmp_path):
    env = client_env(live_server.url, tmp_path)
    gone = run(["watch", "nosuchgame"], env)
    assert gone.returncode == 1
    assert gone.stderr == "hanabi-client: There is no game 'nosuchgame' (or it expired).\n"
    as_json = json.loads(run(["export", "nosuchgame", "--json"], env).stdout)
    assert as_json["error"]["code"] == "game_not_found" and as_json["error"]["status"] == 404
    nobody = run(["list", "--server", f"http://127.0.0.1:{free_port()}"], env)
    assert nobody.returncode == 1 and "Cannot reach the server" in nobody.stderr
    assert "Traceback" not in nobody.stderr
    bad_deck = tmp_path / "bad.json"
    bad_deck.write_text("[1, 2]")
    refused = run(["create", "--deck", str(bad_deck)], env)
    assert refused.returncode == 1 and "is not a suit and a rank" in refused.stderr
    turn0 = run(["replay", finished_game(live_server.url), "--turn", "0"], env)
    assert "Turns are numbered from 1" in turn0.stderr


def test_a_table_driven_through_json_lines(live_server, tmp_path):
    """--json at the table: one JSON object per line out, the same commands in."""
    env = client_env(live_server.url, tmp_path)
    deck = write_deck(tmp_path / "deck.json", full_deck(FIRSTS))
    made = json.loads(
        run(
            ["create", "--name", "ada", "--players", "2", "--deck", str(deck), "--json"], env
        ).stdout
    )
    game_id = made["id"]
    api = Client(live_server.url)
    bob = api.join(game_id, "bob")
    proc = subprocess.Popen(
        [*client_command(), "join", game_id, "--name", "ada", "--json"],
        env=env,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert proc.stdin and proc.stdout

        def next_of(kind: str) -> dict:
            for line in proc.stdout:
                msg = json.loads(line)
                if msg["type"] == kind:
                    return msg
            raise AssertionError(f"no {kind} line")

        assert next_of("view")["game"]["status"] == "lobby"
        proc.stdin.write("start\n")
        proc.stdin.flush()
        view = next_of("view")["game"]
        assert view["status"] == "playing" and view["you"] == 0
        proc.stdin.write("fly\n")
        proc.stdin.flush()
        assert next_of("message")["code"] == "bad_input"
        proc.stdin.write("p 1\n")
        proc.stdin.flush()
        assert next_of("view")["game"]["turn"] == 1
        api.terminate(game_id, token=bob.token)
        result = next_of("result")
        assert result["result"] == {"reason": "terminated", "score": 0}
        assert proc.wait(10) == 0
    finally:
        proc.kill()
