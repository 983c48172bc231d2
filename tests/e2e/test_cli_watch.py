"""Watching at a pace, in pseudo-terminals: an all-bot game shown one move at a time
(the moves the poll skipped come from the finished game's replay), and pause, step and
quit keys while watching a game people play."""

from __future__ import annotations

import re
import time

import pexpect
import pytest
from e2e_support import SUITS, Terminal, client_env, full_deck

from hanabi.client.api import Client

FIRSTS = [(s, r) for r in range(1, 6) for s in SUITS]


@pytest.mark.serial  # bots paced at 0.02 s a move: alone
def test_start_watch_shows_every_move_once_in_order(live_server, tmp_path):
    env = client_env(live_server.url, tmp_path)
    # a custom seed: a deal with no name, whose replay is anyone's (docs/seeds.md)
    args = ["create", "--name", "al", "--players", "3", "--bots", "2", "--bot-strategy", "hat"]
    args += ["--seed", "watch-me"]
    host = Terminal(args, env, timeout=30)
    try:
        game_id = host.expect(r"Created game (\S+) ").group(1)
        host.expect_exact("lobby> ")
        host.send("start watch 0.02")
        host.expect(r"Game over \([^)]*\): final score \d+/25")
        shown = host.before
        assert "You gave up your seat: watching the game." in shown
        assert host.end() == 0
    finally:
        host.kill()
    final = Client(live_server.url).replay(game_id)
    turns = [int(t) for t in re.findall(TITLE_TURN, shown)]
    # One frame per move, from the deal to the end, numbered as the table numbers them.
    assert turns == list(range(1, final["turn"] + 2))
    assert shown.count("one move every 0.02 s: space pauses, n steps, q quits") >= len(turns) - 1
    # Each frame tells the moves up to its own turn: the deal's frame none yet.
    first = re.split(turn_line(2), shown)[0]
    assert "Last moves" not in re.split(turn_line(1), first)[1]


#: The title line's turn (a game with a chosen deal says so after it).
TITLE_TURN = r"· turn (\d+)(?: · [^\r]*)?\r\n"


def turn_line(turn: int) -> str:
    return rf"· turn {turn}(?: · [^\r]*)?\r\n"


def test_watch_pauses_steps_and_quits(live_server, tmp_path):
    api = Client(live_server.url)
    alice = api.create_game("alice", max_players=2, deck=full_deck(FIRSTS))
    bob = api.join(alice.game_id, "bob")
    api.start(alice.game_id, token=alice.token)
    game_id = alice.game_id
    tokens = [alice.token, bob.token]

    def clue(turn: int, **what: object) -> None:  # alice holds the 1s, bob the 2s
        what = what or {"rank": 2 - turn % 2}
        api.clue(game_id, turn, 1 - turn % 2, **what, token=tokens[turn % 2])

    env = client_env(live_server.url, tmp_path)
    watcher = Terminal(["watch", game_id, "--pace", "0.2"], env)
    try:
        watcher.expect_exact(
            f"Watching game {game_id}, one move every 0.2 s: space pauses, n steps, q quits."
        )
        watcher.expect(turn_line(1))
        watcher.expect_exact("Turn 1, one move every 0.2 s")
        clue(0)
        watcher.expect(turn_line(2))
        watcher.child.send(" ")  # a key, no Enter needed
        watcher.expect_exact("Paused at turn 2: space plays on, n shows the next move, q quits.")
        clue(1)
        # A live game's frames are its views: two moves made faster than the watcher hears
        # of the first arrive as one view (of the later turn). Space them, so that each move
        # has its own frame to step to.
        time.sleep(0.5)
        clue(2, color="red")
        # Paused: the moves wait; n shows the next one only.
        assert watcher.child.expect([TITLE_TURN, pexpect.TIMEOUT], timeout=1) == 1
        watcher.child.send("n")
        watcher.expect(turn_line(3))
        watcher.expect_exact("Paused at turn 3")
        frame = watcher.before
        assert "bob clued alice 1" in frame and "alice clued bob red" not in frame
        watcher.child.send(" ")
        watcher.expect(turn_line(4))
        watcher.expect_exact("alice clued bob red")
        watcher.expect_exact("Turn 4, one move every 0.2 s")
        watcher.child.send("q")
        watcher.expect_exact(f"Stopped watching. Watch again with: hanabi-client watch {game_id}")
        assert watcher.end() == 0
    finally:
        watcher.kill()


def test_watching_a_finished_game_names_the_players_as_they_sat(live_server, tmp_path):
    """bob leaves a 3-seat lobby, so carol moves up to seat 2 before the deal: the moves of
    her seat are hers, not those of bob, who sat there when he joined."""
    api = Client(live_server.url)
    alice = api.create_game("alice", max_players=3, deck=full_deck(FIRSTS))
    game_id = alice.game_id
    bob = api.join(game_id, "bob")
    carol = api.join(game_id, "carol")
    api.leave(game_id, bob.seat, token=bob.token)
    api.start(game_id, token=alice.token)
    # alice holds R1 Y1 G1 B1 W1 (orders 0-4, W1 newest), carol R2 Y2 G2 B2 W2 (5-9).
    api.clue(game_id, 0, 1, rank=2, token=alice.token)
    api.discard(game_id, 1, 5, token=carol.token)
    api.vote(game_id, token=alice.token)
    api.vote(game_id, token=carol.token)

    env = client_env(live_server.url, tmp_path)
    watcher = Terminal(["watch", game_id, "--pace", "0"], env)
    try:
        watcher.expect_exact("Game over (ended by vote): final score 0/25")
        table = watcher.before
        assert watcher.end() == 0
    finally:
        watcher.kill()
    moves = table.split("Last moves:")[1]
    assert "alice clued carol 2, touching slots 1, 2, 3, 4 and 5" in moves
    assert "carol discarded R2 from slot 5" in moves
    assert "bob" not in moves


def test_a_spectator_has_a_prompt_of_its_own(live_server, tmp_path):
    """Not lobby> (nor the players' "> "): watching> at a lobby and at a game in play, and
    a paced watcher of a lobby is told it waits for the deal, not "Turn 1"."""
    api = Client(live_server.url)
    alice = api.create_game("alice", max_players=2, deck=full_deck(FIRSTS))
    game_id = alice.game_id
    env = client_env(live_server.url, tmp_path)
    watcher = Terminal(["watch", game_id, "--pace", "0"], env)
    paced = Terminal(["watch", game_id], env)
    try:
        watcher.expect_exact("Waiting for the host to start the game.\r\nwatching> ")
        paced.expect_exact("Watching the lobby: the game shows here once it is dealt; q quits.")
        watcher.send("start")
        watcher.expect_exact("You are watching: spectators can only look.\r\nwatching> ")
        api.join(game_id, "bob")
        api.start(game_id, token=alice.token)
        watcher.expect_exact("Waiting for alice to play… (history, help, quit)\r\nwatching> ")
        paced.expect_exact("Turn 1, one move every 1 s: space pauses, n steps, q quits.")
        watcher.send("p 1")
        watcher.expect_exact("You are watching: spectators cannot move.\r\nWaiting for alice")
        watcher.expect_exact("watching> ")
        watcher.send("quit")
        watcher.expect_exact(f"Watch again with: hanabi-client watch {game_id}")
        assert watcher.end() == 0
        paced.child.send("q")
        assert paced.end() == 0
    finally:
        watcher.kill()
        paced.kill()


def test_start_watch_of_a_seed_table_ends_on_the_table_it_may_see(live_server, tmp_path):
    """A table dealt a seed (random: named): the watcher, no seat and no account that
    finished it, is refused the replay of the moves it missed (docs/seeds.md) and the
    watch goes on to the final table instead of waiting for it."""
    env = client_env(live_server.url, tmp_path)
    args = ["create", "--name", "al", "--players", "3", "--bots", "2", "--bot-strategy", "hat"]
    host = Terminal(args, env, timeout=30)
    try:
        host.expect(r"Created game (\S+) ")
        host.expect_exact("lobby> ")
        host.send("start watch 0.02")
        host.expect(r"Game over \([^)]*\): final score \d+/25")
        assert "Traceback" not in host.before
        assert host.end() == 0
    finally:
        host.kill()
