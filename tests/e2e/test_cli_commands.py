"""The one-shot commands (create, list, variants, export, replay) and their --json forms,
colour on and off, errors, and a table driven entirely through --json."""

from __future__ import annotations

import json
import re
import subprocess
import time

from e2e_support import SUITS, Terminal, client_command, client_env, full_deck, write_deck

from hanabi.client.api import Client
from hanabi.server.ops.redis_process import free_port

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
    api.vote(host.game_id, token=host.token)
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
    assert created["game"]["options"] == {
        "empty_clues": True, "strikeout_keeps_score": False, "idle_limit": 1800, "timer": None,
        "spectators_see_hands": True,  # an unrated table's default (docs/watching.md)
    }  # fmt: skip
    timed = run(["create", "--name", "tim", "--json", "--timer", "120+20", "--idle", "600"], env)
    options = json.loads(timed.stdout)["game"]["options"]
    assert options["timer"] == {"base": 120, "per_turn": 20} and options["idle_limit"] == 600
    refused = run(["create", "--name", "tim", "--timer", "2m"], env)
    assert refused.returncode == 2 and "BASE+INCREMENT" in refused.stderr
    other = run(["create", "--name", "yo", "--json", "--strikeout-keeps-score"], env).stdout
    assert json.loads(other)["game"]["options"]["strikeout_keeps_score"] is True
    assert created["join"] == f"hanabi-client join {created['id']} --name NAME"

    variants = run(["variants", "--q", "black_powder"], env).stdout
    assert "black_powder" in variants and "RYGBWMK" in variants
    # The letters are explained, each suit from the server's own data.
    legend = variants.split("Suits (")[1]
    assert "\n  R  Red\n" in legend
    assert "\n  M  Multicolor (its own clue colour, multicolor)\n" in legend
    assert "\n  K  Black (its own clue colour, black, one card of each rank)\n" in legend


def test_create_opens_a_table_for_two_as_the_web_does(live_server, tmp_path):
    """Without --players: two seats (the web form's default), or enough for the host and
    --bots; --players and a deck file that names its players still decide."""
    env = client_env(live_server.url, tmp_path)

    def seats(*args: str) -> int:
        made = run(["create", "--name", "ed", "--detach", "--json", *args], env)
        assert made.returncode == 0, made.stdout + made.stderr
        return json.loads(made.stdout)["game"]["max_players"]

    assert seats() == 2
    assert seats("--bots", "3") == 4
    assert seats("--players", "5", "--bots", "1") == 5
    three = tmp_path / "three.json"
    three.write_text(json.dumps({"players": ["a", "b", "c"], "deck": full_deck(FIRSTS)}))
    assert seats("--deck", str(three)) == 3
    helped = " ".join(run(["create", "--help"], env).stdout.split())
    assert "seats at the table, 2-6 (default 2, or enough for you and --bots)" in helped

    def eds() -> int:
        games = Client(live_server.url).list_games("lobby", limit=100).games
        return sum(1 for g in games if [p["name"] for p in g["players"]] == ["ed"])

    before = eds()
    refused = run(["create", "--name", "ed", "--bots", "-1"], env)
    assert (refused.returncode, refused.stderr) == (
        1,
        "hanabi-client: --bots needs a number of bots, 1 or more.\n",
    )
    assert eds() == before  # refused before any table was opened


def test_list_counts_the_seats_of_a_dealt_table_not_its_lobby(live_server, tmp_path):
    """An all-bot table the host deals and watches has 4 seats, not "4/5"."""
    api = Client(live_server.url)
    host = api.create_game("hostess", max_players=5)
    for _ in range(4):
        api.add_bot(host.game_id, "hat", token=host.token)
    api.start(host.game_id, watch=True, token=host.token)
    lobby = api.create_game("early", max_players=5)
    env = client_env(live_server.url, tmp_path)
    listed = run(["list", "--status", "all", "--limit", "100"], env).stdout.splitlines()
    rows = {line.split()[0]: line.split() for line in listed if line[:1].strip()}
    assert rows[host.game_id][3] == "4/4"
    assert rows[lobby.game_id][1:4] == ["lobby", "no_variant", "1/5"]


def test_list_watch_shows_the_lobby_again_when_it_changes(live_server, tmp_path):
    """`list --watch` holds one request at a time on the server (GET /games?wait=) and
    prints the table again as soon as a table opens or a seat is taken."""
    env = client_env(live_server.url, tmp_path, PYTHONUNBUFFERED="1")
    watcher = subprocess.Popen(
        [*client_command(), "list", "--watch", "--limit", "100"],
        env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    lines: list[str] = []

    def read_until(text: str) -> float:
        began = time.monotonic()
        while not any(text in line for line in lines):
            line = watcher.stdout.readline()  # type: ignore[union-attr]
            assert line, f"the watch ended: {watcher.stderr.read()}"  # type: ignore[union-attr]
            lines.append(line)
        return time.monotonic() - began

    try:
        read_until("Live: updated")
        api = Client(live_server.url)
        changed = time.monotonic()
        host = api.create_game("wanda", max_players=3)
        read_until(host.game_id)
        assert time.monotonic() - changed < 3  # shown on the change, not on a timeout
        api.join(host.game_id, "xavi")
        read_until("wanda, xavi")
        row = next(line for line in reversed(lines) if line.startswith(host.game_id))
        assert row.split()[1:4] == ["lobby", "no_variant", "2/3"]
    finally:
        watcher.terminate()
        watcher.wait(10)


def test_replay_numbers_turns_as_the_table_does(live_server, tmp_path):
    env = client_env(live_server.url, tmp_path)
    game_id = finished_game(live_server.url)  # a play, then the end: the table's turns 1-3
    for turn in ("0", "4", "999"):
        out = run(["replay", game_id, "--turn", turn], env)
        assert out.returncode == 1
        assert out.stderr == (
            f"hanabi-client: Game {game_id} has turns 1 (the deal) to 3 (the end), "
            f"numbered as its table shows them; there is no turn {turn}.\n"
        )
    deal = run(["replay", game_id, "--turn", "1"], env).stdout
    assert re.search(r"· turn 1(?!\d)", deal) and "Fireworks  R0 Y0 G0 B0 W0" in deal
    played = run(["replay", game_id, "--turn", "2"], env).stdout
    assert (
        re.search(r"· turn 2(?!\d)", played) and "W1" in played.split("Fireworks")[1].split("\n")[0]
    )
    end = run(["replay", game_id, "--turn", "3"], env).stdout
    assert re.search(r"· turn 3(?!\d)", end) and end == run(["replay", game_id], env).stdout


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

    # The file names hanab.live's variant ("No Variant", whose fifth suit is purple where
    # this service's no_variant has white): the same deal, suit by suit position.
    def deal(view):
        suits = [s["id"] for s in Client(live_server.url).variant(view["variant"])["suits"]]
        return [(suits.index(c["suit"]), c["rank"]) for c in view["hands"][0]]

    assert new["variant"] == "No Variant" and deal(new) == deal(old)


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


def test_strategies_lists_the_servers_in_words(live_server, tmp_path):
    env = client_env(live_server.url, tmp_path)
    served = Client(live_server.url).strategies()
    listed = run(["strategies"], env)
    assert listed.returncode == 0, listed.stderr
    text = " ".join(listed.stdout.split())
    for s in served:
        head = f"{s['name']} (the default)" if s["default"] else s["name"]
        assert f"{head}: {' '.join(s['description'].split())}" in text
    assert "hanabi-client create --bots 1 --bot-strategy NAME" in text
    assert json.loads(run(["strategies", "--json"], env).stdout) == {"strategies": served}


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
        # The stream may still deliver a refresh of turn 0 first (it races the play's
        # own answer); the play's view must follow, and nothing beyond it.
        turns = [next_of("view")["game"]["turn"]]
        while turns[-1] == 0 and len(turns) < 4:
            turns.append(next_of("view")["game"]["turn"])
        assert turns[-1] == 1, turns
        api.vote(game_id, token=bob.token)
        proc.stdin.write("vote end\n")
        proc.stdin.flush()
        result = next_of("result")
        assert result["result"] == {"reason": "terminated", "score": 0}
        assert proc.wait(10) == 0
    finally:
        proc.kill()


def test_joining_a_started_game_under_a_seats_name_says_how_to_come_back(live_server, tmp_path):
    """``join ID --name ALICE`` at a started game where alice sits, with no saved seat
    here: the seat is named (matched in any case), not "already started, watch it"; a
    name no seat has: no seat named so."""
    api = Client(live_server.url)
    host = api.create_game("alice", max_players=2)
    api.join(host.game_id, "bob")
    api.start(host.game_id, token=host.token)
    env = client_env(live_server.url, tmp_path)
    held = run(["join", host.game_id, "--name", "ALICE"], env)
    assert held.returncode == 1
    assert held.stderr.startswith("hanabi-client: 'alice' holds a seat at this game"), held.stderr
    assert "resume it where it was joined" in held.stderr and "watch" not in held.stderr
    late = run(["join", host.game_id, "--name", "carol"], env)
    assert late.returncode == 1 and "no seat named 'carol'" in late.stderr, late.stderr
    assert f"hanabi-client watch {host.game_id}" in late.stderr
