"""Turn-based play from the CLI against a live server: ``create --move-clock``, ``turns``
(the games where it is your move) and ``join <game>`` resuming an account's seat that
this config never saved; ``webhook set`` refuses a private address (the server's
default). Accounts are made with the library and their sessions saved as ``login`` does
(fewer processes: each costs a second or two on a busy machine)."""

from __future__ import annotations

import json
import secrets
import subprocess
from pathlib import Path

from e2e_support import Terminal, client_command, client_env

from hanabi.client.accounts import SavedSession, SessionStore
from hanabi.client.api import Client

PASSWORD = "a long enough password"


def run(args: list[str], env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*client_command(), *args], env=env, capture_output=True, text=True, timeout=60
    )


def logged_in(url: str, home: Path, username: str) -> Client:
    """An account, logged in, its session saved in ``home``'s config as ``login`` saves it."""
    client = Client(url)
    client.register(username, PASSWORD)
    session = client.login(username, PASSWORD)
    store = SessionStore(home / "config" / "hanabi-client")
    store.save(SavedSession(url, username, session["token"], session["expires"]))
    return client


def test_turns_lists_your_moves_and_join_resumes_any(live_server, tmp_path):
    ann, bob = f"ann{secrets.token_hex(4)}", f"bob{secrets.token_hex(4)}"
    ann_api = logged_in(live_server.url, tmp_path / ann, ann)
    bob_api = logged_in(live_server.url, tmp_path / bob, bob)
    env_ann = client_env(live_server.url, tmp_path / ann)
    env_bob = client_env(live_server.url, tmp_path / bob)

    made = run(["create", "--move-clock", "36h", "--detach", "--json"], env_ann)
    assert made.returncode == 0, made.stderr
    game_id = json.loads(made.stdout)["id"]
    assert json.loads(made.stdout)["game"]["options"]["move_clock"] == 36 * 3600
    bob_api.join(game_id, bob)  # with his account: his config saves no seat
    ann_api.start(game_id)

    listed = run(["turns"], env_ann)
    assert listed.returncode == 0, listed.stderr
    assert "Your move in 1 game:" in listed.stdout
    assert f"{game_id}  no_variant  {ann}, {bob}  turn 1, score 0, 1d 12h/move" in listed.stdout
    assert "1d 11h left" in listed.stdout or "1d 12h left" in listed.stdout
    assert "Resume one with: hanabi-client join GAME" in listed.stdout
    assert run(["turns"], env_bob).stdout == "No game awaits your move.\n"

    view = ann_api.game(game_id)
    ann_api.act(game_id, 0, next(a for a in view["legal_actions"] if a["type"] == "clue"))
    as_json = json.loads(run(["turns", "--json"], env_bob).stdout)
    assert as_json["total"] == 1 and as_json["games"][0]["game_id"] == game_id
    assert ann_api.my_turns() == {"games": [], "total": 0}

    # join resumes Bob's seat from his account, though this config never saved it.
    bob_term = Terminal(["join", game_id], env_bob)
    try:
        bob_term.expect_exact(f"Resuming your seat at {game_id} as {bob}.")
        bob_term.expect_exact("Your move> ")
    finally:
        bob_term.kill()

    refused = run(["webhook", "set", "http://127.0.0.1:9/hook"], env_ann)
    assert refused.returncode == 1 and "must start with https://" in refused.stderr
