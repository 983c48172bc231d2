"""Accounts through the CLI and the library against a live server: register, login (the
session saved 0600), whoami, a rated game, profile and history, a bot on an API key,
logout."""

from __future__ import annotations

import json
import secrets
import stat
import subprocess
import time

from e2e_support import client_command, client_env

from hanabi.client.accounts import SessionStore
from hanabi.client.api import ApiError, Client

PASSWORD = "a long enough password"


def run(args: list[str], env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*client_command(), *args], env=env, capture_output=True, text=True, timeout=60
    )


def name(prefix: str) -> str:
    return f"{prefix}{secrets.token_hex(4)}"


def test_accounts_and_a_rated_game_from_the_cli(live_server, tmp_path):
    ann, bob = name("ann"), name("bob")
    env_ann = client_env(live_server.url, tmp_path / "ann", HANABI_PASSWORD=PASSWORD)
    env_bob = client_env(live_server.url, tmp_path / "bob", HANABI_PASSWORD=PASSWORD)
    for who, env in ((ann, env_ann), (bob, env_bob)):
        made = run(["register", who], env)
        assert made.returncode == 0, made.stderr
        assert f"Created the account {who}." in made.stdout
        logged = run(["login", who], env)
        assert logged.returncode == 0, logged.stderr
    session_file = tmp_path / "ann" / "config" / "hanabi-client" / "sessions"
    saved = next(session_file.glob("*.json"))
    assert stat.S_IMODE(saved.stat().st_mode) == 0o600
    assert run(["whoami"], env_ann).stdout == f"{ann}: rating 1500.0, 0 rated games\n"

    wrong = run(["login", ann], {**env_ann, "HANABI_PASSWORD": "not the password"})
    assert wrong.returncode == 1 and "Unknown username or wrong password" in wrong.stderr

    created = run(["create", "--rated", "--detach", "--json", "--players", "2"], env_ann)
    assert created.returncode == 0, created.stderr
    body = json.loads(created.stdout)
    game_id = body["id"]
    assert body["game"]["options"]["rated"] is True
    assert body["game"]["players"][0]["name"] == ann

    # Bob takes the second seat with the library and his saved session; Ann's session
    # (not her seat token) starts the game; both vote to end it.
    bob_store = SessionStore(tmp_path / "bob" / "config" / "hanabi-client")
    bob_api = Client(live_server.url, token=bob_store.load(live_server.url).token)
    assert bob_api.join(game_id, "ignored").seat == 1
    ann_api = Client(live_server.url, token=json.loads(saved.read_text())["token"])
    ann_api.start(game_id)
    bob_api.terminate(game_id)  # a vote: one of the two needed
    over = ann_api.terminate(game_id)
    changes = over["result"]["rating_changes"]
    assert changes["0"]["before"] == 1500 and round(changes["0"]["after"], 2) == 1491.06

    profile = run(["profile"], env_ann)
    assert profile.returncode == 0, profile.stderr
    assert f"{ann}: rating 1491.1 (1 rated game)" in profile.stdout  # counts agree
    # the average as stats says it (0.00), not "-" for a game that ended at 0
    line = "no_variant: 1 game, best 2p 0, average 0.00, strikeouts 0%, 1 rated game (-8.9)"
    assert line in profile.stdout
    assert f"{ann}: rating 1491.1, 1 rated game\n" == run(["whoami"], env_ann).stdout
    said = run(["history", bob], env_ann).stdout
    assert f"{game_id}  no_variant  {ann}, {bob}  score 0 (ended by vote)  rating" in said
    history = run(["history", bob, "--json"], env_ann)
    games = json.loads(history.stdout)["games"]
    assert [g["id"] for g in games] == [game_id]
    assert games[0]["players"] == [ann, bob] and games[0]["reason"] == "terminated"

    assert run(["logout"], env_ann).returncode == 0
    assert not saved.exists()
    gone = run(["whoami"], env_ann)
    assert gone.returncode == 1 and "not logged in" in gone.stderr
    try:
        ann_api.me()
        raise AssertionError("the session still works after logout")
    except ApiError as exc:
        assert exc.status == 401


def test_a_bot_plays_as_its_account_with_an_api_key(live_server, tmp_path):
    robo = name("robo")
    api = Client(live_server.url)
    api.register(robo, PASSWORD, bot=True)
    api.login(robo, PASSWORD)
    key = api.create_api_key("e2e")
    assert [k["name"] for k in api.api_keys()] == ["e2e"]
    host = Client(live_server.url).create_game("host", max_players=2)
    env = client_env(live_server.url, tmp_path, HANABI_API_KEY=key["key"])
    proc = subprocess.Popen(
        [*client_command(), "bot", host.game_id, "--json"],
        env=env,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        deadline = time.monotonic() + 30
        players: list = []
        while time.monotonic() < deadline and len(players) < 2:
            players = api.game(host.game_id, token=host.token)["players"]
            time.sleep(0.1)
        assert [p["name"] for p in players] == ["host", robo]
        # The account's key acts for the bot's seat.
        assert Client(live_server.url, token=key["key"]).game(host.game_id)["you"] == 1
        api.start(host.game_id, token=host.token)
        # Ending takes both people's votes: the host's, and the bot account's (its key).
        api.terminate(host.game_id, token=host.token)
        api.terminate(host.game_id, token=key["key"])
        out, err = proc.communicate(timeout=30)
        assert proc.returncode == 0, out + err
        assert json.loads(out.splitlines()[0])["name"] == robo
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()
    # The bot account's statistics count the game; never rated.
    profile = api.profile(robo)
    assert profile["bot"] is True and profile["rated_games"] == 0
    assert profile["stats"]["no_variant"]["games"] == 1
    api.delete_api_key(key["id"])
    try:
        Client(live_server.url, token=key["key"]).me()
        raise AssertionError("a revoked key still works")
    except ApiError as exc:
        assert exc.code == "invalid_api_key"


def _refused(client: Client, code: str) -> None:
    try:
        client.me()
    except ApiError as exc:
        assert exc.code == code, exc.code
    else:
        raise AssertionError("the credential still works")


def test_password_and_logout_everywhere_from_the_cli(live_server, tmp_path):
    ann = name("ann")
    env = client_env(live_server.url, tmp_path, HANABI_PASSWORD=PASSWORD)
    assert run(["register", ann.upper()], env).returncode == 0
    logged = run(["login", ann.upper()], env)  # any case: saved as the server keeps it
    assert logged.returncode == 0 and f"Logged in as {ann}." in logged.stdout
    library = Client(live_server.url)
    library.login(ann, PASSWORD)
    keys = [library.create_api_key(k)["key"] for k in ("kept", "revoked")]

    new = {**env, "HANABI_NEW_PASSWORD": "another long password"}
    kept = run(["password", "--keep-api-keys"], new)
    assert kept.returncode == 0, kept.stderr
    assert "API keys were kept" in kept.stdout
    _refused(library, "session_expired")  # every other session ended
    assert Client(live_server.url, token=keys[0]).me()["username"] == ann
    assert run(["whoami"], env).returncode == 0  # the CLI's own session goes on

    back = {**env, "HANABI_PASSWORD": "another long password", "HANABI_NEW_PASSWORD": PASSWORD}
    changed = run(["password"], back)
    assert changed.returncode == 0 and "revoked" in changed.stdout
    for key in keys:
        _refused(Client(live_server.url, token=key), "invalid_api_key")

    library.login(ann, PASSWORD)
    assert run(["logout", "--all"], env).returncode == 0
    _refused(library, "session_expired")
    assert "not logged in" in run(["whoami"], env).stderr


def test_a_newcomers_slips_get_a_sentence_not_a_traceback(live_server, tmp_path):
    """No password on standard input, a server address without http://, an empty --name,
    a webhook never set: each a sentence (and exit status 1), or the expected result."""
    who = name("nia")
    env = client_env(live_server.url, tmp_path)
    assert run(["register", who], {**env, "HANABI_PASSWORD": PASSWORD}).returncode == 0
    nothing = subprocess.run(
        [*client_command(), "login", who],
        env=env,
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert nothing.returncode == 1, nothing.stderr
    assert nothing.stderr == (
        "hanabi-client: No password given: type it at the prompt, or set HANABI_PASSWORD.\n"
    )
    # a script may pipe the password in
    piped = subprocess.run(
        [*client_command(), "login", who],
        env=env,
        input=PASSWORD + "\n",
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert piped.returncode == 0 and f"Logged in as {who}." in piped.stdout, piped.stderr

    # host:port without a scheme is a plain-HTTP address
    bare = live_server.url.removeprefix("http://")
    listed = run(["variants", "--server", bare, "--q", "pink", "--suits", "6"], env)
    assert listed.returncode == 0 and "Pink (6 Suits)" in listed.stdout, listed.stderr

    # --name '' is refused, not replaced by the login name
    host = Client(live_server.url).create_game("host", max_players=3)
    for words in (["join", host.game_id], ["create", "--detach"]):
        empty = run([*words, "--name", " "], env)
        assert empty.returncode == 1
        assert empty.stderr == (
            "hanabi-client: --name needs a name: it cannot be empty or only spaces.\n"
        )
    assert len(Client(live_server.url).game(host.game_id)["players"]) == 1

    # no webhook: how to set one with this client, not the API's "PUT one first"
    none = run(["webhook", "show"], env)
    assert none.returncode == 1 and "PUT" not in none.stderr
    assert "Set one with: hanabi-client webhook set https://..." in none.stderr
