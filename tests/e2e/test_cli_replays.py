"""``hanabi-client replay-room``: a player shares a finished game's replay from the seat they
played it in, a follower's terminal prints each of the leader's changes as it comes (a
turn with highlighted cards, a hypothetical with hidden draws, a move in it), and only the
room's leader leads."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

from e2e_support import SUITS, client_command, client_env, full_deck

from hanabi.client.api import Client
from hanabi.client.tokens import SavedSeat, TokenStore

FIRSTS = [(s, r) for r in range(1, 6) for s in SUITS]


def run(args: list[str], env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*client_command(), *args], env=env, capture_output=True, text=True, timeout=30
    )


def finished_game(url: str, config: Path) -> str:
    """A two-seat game with two moves, ended; alice's seat saved as the CLI saves it."""
    api = Client(url)
    host = api.create_game("alice", max_players=2, deck=full_deck(FIRSTS))
    bob = api.join(host.game_id, "bob")
    api.start(host.game_id, token=host.token)
    api.clue(host.game_id, 0, 1, rank=2, token=host.token)
    api.clue(host.game_id, 1, 0, rank=1, token=bob.token)
    api.vote(host.game_id, token=host.token)
    api.vote(host.game_id, token=bob.token)
    store = TokenStore(config / "hanabi-client")
    store.save(SavedSeat(url, host.game_id, 0, "alice", host.token))
    return host.game_id


def test_a_follower_prints_the_leaders_changes_as_they_come(live_server, tmp_path):
    leader_env = client_env(live_server.url, tmp_path / "leader")
    game_id = finished_game(live_server.url, tmp_path / "leader" / "config")

    made = run(["replay-room", "create", game_id], leader_env)
    assert made.returncode == 0, made.stderr
    room = made.stdout.split("Created replay room ")[1].split(":")[0]
    assert f"hanabi-client replay-room follow {room}" in made.stdout

    follower_env = client_env(live_server.url, tmp_path / "follower")
    follower = subprocess.Popen(
        [*client_command(), "replay-room", "follow", room, "--changes", "3"],
        env=follower_env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        first = follower.stdout.readline()  # the room as it is: the end of the game
        assert first.startswith(
            "[alice leads] turn 4 of 4: The players voted to end the game | score 0"
        )
        assert first.rstrip().endswith("| Game over (ended by vote): final score 0/25")
        # turns as the table numbers them: turn 2 is the board after the first move
        lit = ["--highlight", "bob:5,1:5"]  # bob's slot 5 and player 1's (alice's)
        turned = run(["replay-room", "lead", room, "turn", "2", *lit], leader_env)
        assert turned.returncode == 0, turned.stderr
        branched = run(["replay-room", "lead", room, "branch", "2", "--hide-draws"], leader_env)
        assert branched.returncode == 0, branched.stderr
        # bob's slot 1 (his newest card, order 9), as the table counts slots
        moved = run(["replay-room", "lead", room, "play", "1"], leader_env)
        assert moved.returncode == 0, moved.stderr
        out, err = follower.communicate(timeout=20)
    finally:
        follower.kill()
    assert follower.returncode == 0, err
    lines = [first, *out.splitlines()]
    # the table's words and numbers: slots and players from 1, the card a move showed
    assert (
        "turn 2 of 4: alice clued bob 2, touching slots 1, 2, 3, 4 and 5 | "
        "highlight alice's slot 5, bob's slot 5" in lines[1]
    )
    assert "hypothetical from turn 2, now turn 2, draws hidden" in lines[2]
    assert "now turn 3, draws hidden: bob misplayed W2 (strike 1 of 3)" in lines[3]
    assert "#" not in "".join(lines)

    # the follower holds no token of the room: it cannot lead
    refused = run(["replay-room", "lead", room, "back"], follower_env)
    assert refused.returncode == 1 and "only its leader may lead" in refused.stderr
    joined = run(["replay-room", "join", room, "--name", "fred"], follower_env)
    assert joined.returncode == 0, joined.stderr
    not_yet = run(["replay-room", "lead", room, "back"], follower_env)
    assert not_yet.returncode == 1 and "Only the room's leader may do that." in not_yet.stderr
    member = joined.stdout.split("as follower ")[1].rstrip(".\n")
    passed = run(["replay-room", "lead", room, "pass", member, "--json"], leader_env)
    assert json.loads(passed.stdout)["leader"] == {"id": member, "name": "fred"}
    back = run(["replay-room", "lead", room, "back"], follower_env)
    assert back.returncode == 0 and "[fred leads] turn 2 of 4" in back.stdout


def test_a_room_of_a_game_in_play_is_refused(live_server, tmp_path):
    env = client_env(live_server.url, tmp_path)
    api = Client(live_server.url)
    host = api.create_game("carl", max_players=2)
    api.join(host.game_id, "dina")
    api.start(host.game_id, token=host.token)
    TokenStore(tmp_path / "config" / "hanabi-client").save(
        SavedSeat(live_server.url, host.game_id, 0, "carl", host.token)
    )
    made = run(["replay-room", "create", host.game_id], env)
    assert made.returncode == 1
    assert "Only a finished game can be shared as a replay." in made.stderr
