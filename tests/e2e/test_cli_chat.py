"""The lobby's chat and friends from the CLI against a live server: ``chat`` says and
reads (a mention of you stands out), ``mute`` hides an account's lines, ``follow`` and
``friends`` list a friend's open table, and a guest is told to log in. Accounts are made
with the library and their sessions saved as ``login`` does."""

from __future__ import annotations

import json
import secrets
import subprocess
from pathlib import Path

from e2e_support import client_command, client_env

from hanabi.client.accounts import SavedSession, SessionStore
from hanabi.client.api import Client

PASSWORD = "a long enough password"


def run(args: list[str], env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*client_command(), "--no-color", *args], env=env, capture_output=True, text=True,
        timeout=60,
    )  # fmt: skip


def logged_in(url: str, home: Path, username: str) -> Client:
    client = Client(url)
    client.register(username, PASSWORD)
    session = client.login(username, PASSWORD)
    store = SessionStore(home / "config" / "hanabi-client")
    store.save(SavedSession(url, username, session["token"], session["expires"]))
    return client


def test_chat_mute_follow_and_friends(live_server, tmp_path):
    ann, bob = f"ann{secrets.token_hex(4)}", f"bob{secrets.token_hex(4)}"
    ann_api = logged_in(live_server.url, tmp_path / ann, ann)
    logged_in(live_server.url, tmp_path / bob, bob)
    env_ann = client_env(live_server.url, tmp_path / ann)
    env_bob = client_env(live_server.url, tmp_path / bob)

    said = run(["chat", f"a game, @{bob}?"], env_ann)
    assert said.returncode == 0, said.stderr
    assert f"{ann}: a game, @{bob}?" in said.stdout
    read = run(["chat", "--limit", "50"], env_bob)
    assert read.returncode == 0, read.stderr
    mine = next(line for line in read.stdout.splitlines() if f"{ann}: a game" in line)
    assert "(mentions you)" in mine
    lines = json.loads(run(["chat", "--json"], env_bob).stdout)["lines"]
    assert lines[-1]["mentions"] == [bob]

    assert run(["mute", ann], env_bob).returncode == 0
    assert run(["mutes"], env_bob).stdout.strip() == ann
    assert f"{ann}: a game" not in run(["chat", "--limit", "50"], env_bob).stdout
    assert run(["unmute", ann], env_bob).returncode == 0

    assert run(["friends"], env_bob).stdout.startswith("You follow nobody yet")
    followed = run(["follow", ann], env_bob)
    assert followed.returncode == 0 and f"You follow {ann}" in followed.stdout
    game_id = ann_api.create_game(ann).game_id  # with her account's session
    friends = run(["friends"], env_bob)
    assert friends.returncode == 0, friends.stderr
    assert f"You follow: {ann}" in friends.stdout
    assert game_id in friends.stdout and "Join one with: hanabi-client join GAME" in friends.stdout
    refused = run(["follow", bob], env_bob)
    assert refused.returncode == 1 and "You cannot follow yourself." in refused.stderr

    guest = run(["chat", "hello"], client_env(live_server.url, tmp_path / "guest"))
    assert guest.returncode == 1 and "This needs an account" in guest.stderr
