"""No English in what the terminal client prints against a live server, the commands
``test_cli_live_no_english.py`` does not read (docs/i18n.md, "The no-English audit"):
``create`` and ``join`` at a table in its lobby (the prompt: a refused move, a bot seated,
a refused start, the start), ``bot`` (a bot process through a game), the account commands
(``register`` at its password prompt, ``login``, ``whoami``, ``profile``, ``history``,
``password``, ``logout``) and ``replay-room`` (``create``, ``join``, ``follow``, ``lead``
and a refused lead). Its fixture, runner and allowed words are that audit's."""

from __future__ import annotations

import json
import re
import secrets
import subprocess
from concurrent.futures import ThreadPoolExecutor

import pytest
import test_cli_live_no_english as live
from e2e_support import Terminal, client_command, client_env
from test_cli_bot import play_as_human
from test_cli_live_no_english import World, allowed_names, run

from hanabi.client.api import Client
from no_english import KEPT, english, in_short_form

PASSWORD = "a long enough password"
world = live.world  # that audit's fixture: a server of this module's own, and its data


@pytest.mark.parametrize("lang", ["zh", "ru"])
def test_no_english_at_the_lobby_the_bot_the_accounts_and_the_rooms(
    world: World, lang: str, tmp_path, request: pytest.FixtureRequest
) -> None:
    in_short_form(request, lang, "zh")
    with ThreadPoolExecutor(4) as pool:
        jobs = {
            "create/join": pool.submit(lobby, world, lang, tmp_path),
            "bot": pool.submit(bot, world, lang, tmp_path),
            "accounts": pool.submit(accounts, world, lang, tmp_path),
            "replay-room": pool.submit(rooms, world, lang, tmp_path),
        }
        printed: dict[str, str] = {}
        typed, names = allowed_names(world)
        for done in jobs.values():
            said, chosen = done.result()
            printed |= said
            names |= chosen
    # "bot" and "lobby" are typed at the lobby prompt, but not read there: "(бот hat)",
    # and the prompt itself
    typed, kept = typed - {"bot"}, KEPT - {"lobby"}
    quoted = re.compile(r'"[^"]*"')  # what the lobby's hints say to type: "start watch"
    found = {what: english(quoted.sub(" ", text), typed, names, kept)
             for what, text in printed.items()}  # fmt: skip
    found = {what: words for what, words in found.items() if words}
    assert not found, "\n".join(
        f"{what}: {sorted(words)}\n{printed[what]}" for what, words in found.items()
    )


def name(prefix: str) -> str:
    return f"{prefix}{secrets.token_hex(3)}"


def lobby(world: World, lang: str, tmp_path) -> tuple[dict[str, str], set[str]]:
    """The host at the lobby prompt (a move refused, a bot seated, the start), a guest who
    joins (a start refused); both see the table, then leave."""
    url = world.server.url
    host, guest = name("host"), name("guest")
    env = {**client_env(url, tmp_path / "lobby"), "LANGUAGE": ""}
    alice = Terminal(["--lang", lang, "create", "--name", host, "--players", "3"], env)
    bob = None
    try:
        alice.expect_exact("> ")
        said = {"create": alice.before}
        alice.send("p 1")
        alice.expect_exact("> ")
        said["create: p 1"] = alice.before
        seats = tmp_path / "lobby" / "config" / "hanabi-client" / "seats"
        game_id = json.loads(next(seats.glob("*/*/*.json")).read_text())["game_id"]
        bob = Terminal(["--lang", lang, "join", game_id, "--name", guest], env)
        bob.expect_exact("> ")
        said["join"] = bob.before
        bob.send("start")
        bob.expect_exact("> ")
        said["join: start"] = bob.before
        alice.send("bot conventions")
        alice.expect(r"conventions-bot-3[^\r]*\r\n")
        alice.expect_exact("> ")
        said["create: bot"] = alice.before
        alice.send("start")
        alice.expect(r"\d+/25")
        alice.expect_exact("> ")
        said["create: start"] = alice.before
        for who, term in (("create", alice), ("join", bob)):
            term.send("quit")
            term.end()
            said[f"{who}: quit"] = term.before
        return said, {host, guest, game_id}
    finally:
        for term in (alice, bob):
            if term:
                term.kill()


def bot(world: World, lang: str, tmp_path) -> tuple[dict[str, str], set[str]]:
    """A bot process at a person's table, from its seat to the end of the game."""
    url = world.server.url
    api = Client(url, retries=1, backoff=0.05)
    hana = name("hana")
    host = api.create_game(hana, max_players=2, seed="bot-e2e-1")
    env = client_env(url, tmp_path / "bot")
    robo = name("robo")
    args = ["--lang", lang, "bot", host.game_id, "--strategy", "hat", "--name", robo]
    proc = subprocess.Popen(
        [*client_command(), *args],
        env=env,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        head = proc.stdout.readline() + proc.stdout.readline()  # seated, then waiting
        api.start(host.game_id, token=host.token)
        play_as_human(api, host.game_id, host.token)
        out, err = proc.communicate(timeout=30)
    finally:
        proc.kill()
    assert proc.returncode == 0, err
    return {"bot": f"{head}{out}\n{err}"}, {hana, robo, host.game_id}


def accounts(world: World, lang: str, tmp_path) -> tuple[dict[str, str], set[str]]:
    """register at its password prompt, then login, whoami, profile, history, password,
    logout, and a refused login and whoami."""
    url = world.server.url
    who = name("acct")
    env = {**client_env(url, tmp_path / "acct"), "LANGUAGE": ""}
    said: dict[str, str] = {}
    term = Terminal(["--lang", lang, "register", who], env)
    try:
        term.expect(r"[:：] ?")
        said["register: password"] = term.before + term.child.after
        term.send(PASSWORD)
        term.expect(r"[:：] ?")
        said["register: again"] = term.before + term.child.after
        term.send(PASSWORD)
        term.end()
        said["register"] = term.before
    finally:
        term.kill()
    env |= {"HANABI_PASSWORD": PASSWORD, "HANABI_NEW_PASSWORD": PASSWORD + "!"}
    steps = {
        "login": ["login", who],
        "whoami": ["whoami"],
        "profile": ["profile"],
        "history": ["history"],
        "password": ["password", "--keep-api-keys"],
        "logout": ["logout"],
        "logout (refused)": ["logout"],
        "whoami (refused)": ["whoami"],
        "login (refused)": ["login", who],  # the old password
    }
    for what, args in steps.items():
        ran = run(["--lang", lang, *args], env)
        assert (ran.returncode != 0) == ("(refused)" in what), (what, ran)
        said[what] = f"{ran.stdout}\n{ran.stderr}"
    return said, {who}


def rooms(world: World, lang: str, tmp_path) -> tuple[dict[str, str], set[str]]:
    """bob's room on the short game: a follower's terminal, the leader's changes, a
    follower who joins, a refused lead, the lead passed."""
    bob = world.envs["bob"]
    fan = client_env(world.server.url, tmp_path / "fan")
    said: dict[str, str] = {}

    def room(what: str, args: list[str], env: dict[str, str], ok: bool = True) -> str:
        ran = run(["--lang", lang, "replay-room", *args], env)
        assert (ran.returncode == 0) == ok, (what, ran)
        if "--json" not in args:  # what a program reads
            said[what] = f"{ran.stdout}\n{ran.stderr}"
        return ran.stdout

    made = room("replay-room create --json", ["create", world.finished, "--json"], bob)
    code = json.loads(made)["id"]
    room("replay-room create (text)", ["create", world.finished], bob)
    follower = subprocess.Popen(
        [*client_command(), "--lang", lang, "replay-room", "follow", code, "--changes", "4"],
        env=fan,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        first = follower.stdout.readline()
        room("replay-room lead turn", ["lead", code, "turn", "1", "--highlight", "5,0"], bob)
        room("replay-room lead branch", ["lead", code, "branch", "1", "--hide-draws"], bob)
        room("replay-room lead play", ["lead", code, "play", "5"], bob)
        room("replay-room lead back", ["lead", code, "back"], bob)
        out, err = follower.communicate(timeout=20)
    finally:
        follower.kill()
    said["replay-room follow"] = f"{first}{out}\n{err}"
    room("replay-room lead (refused)", ["lead", code, "back"], fan, ok=False)
    fred, fay = name("fred"), name("fay")
    room("replay-room join", ["join", code, "--name", fred], fan)
    member = json.loads(
        room("replay-room join --json", ["join", code, "--name", fay, "--json"], fan)
    )
    room("replay-room lead pass", ["lead", code, "pass", member["member"]], bob)
    return said, {code, fred, fay, member["member"]}
