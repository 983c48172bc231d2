"""At the table through a pseudo-terminal: bad input, refusals, chat, quitting and
resuming, a server that goes away, a stale turn after a network retry."""

from __future__ import annotations

import pytest
from e2e_support import SUITS, FaultProxy, Terminal, client_env, full_deck, write_deck

from hanabi.client.api import Client

# alice is dealt R1 Y1 G1 B1 W1 (slot 1 = W1, the newest), bob R2 Y2 G2 B2 W2.
FIRSTS = [(s, r) for r in range(1, 6) for s in SUITS]


def seat_two(
    server_url: str,
    tmp_path,
    *,
    alice_server: str | None = None,
    create: tuple[str, ...] = (),
    term: str = "dumb",
):
    """alice creates (through ``alice_server`` if given), bob joins, alice starts.

    Returns (game id, alice, bob), both at the prompt of turn 0.
    """
    deck = write_deck(tmp_path / "deck.json", full_deck(FIRSTS))
    env = client_env(server_url, tmp_path, TERM=term)
    args = ["create", "--name", "alice", "--players", "2", "--deck", str(deck), *create]
    if alice_server:
        args += ["--server", alice_server]
    alice = Terminal(args, env)
    game_id = alice.expect(r"Created game (\S+) ").group(1)
    alice.expect_exact("lobby> ")
    bob = Terminal(["join", game_id, "--name", "bob"], env)
    bob.expect_exact("lobby> ")
    alice.expect_exact("2 bob")
    alice.send("start")
    alice.wait_turn(0, mine=True)
    bob.wait_turn(0, mine=False)
    return game_id, alice, bob


def test_bad_input_gets_a_reason_and_the_prompt_again(live_server, tmp_path):
    deck = write_deck(tmp_path / "deck.json", full_deck(FIRSTS))
    env = client_env(live_server.url, tmp_path)
    alice = Terminal(["create", "--name", "alice", "--players", "2", "--deck", str(deck)], env)
    bob = None
    try:
        game_id = alice.expect(r"Created game (\S+) ").group(1)
        alice.expect_exact("lobby> ")
        alice.send("p 1")
        alice.expect_exact("The game has not started yet.\r\nlobby> ")
        bob = Terminal(["join", game_id, "--name", "bob"], env)
        bob.expect_exact("lobby> ")
        bob.send("start")
        bob.expect_exact("The server refused: Only the host may do that.\r\nlobby> ")
        alice.send("start")
        alice.wait_turn(0, mine=True)
        bob.wait_turn(0, mine=False)

        for line, reason in [
            ("fly", 'Unknown command "fly". Type "help" for the commands.'),
            ("p 9", "There is no slot 9: your slots are 1-5."),
            ("play x", '"x" is not a slot, a number from 1 to 5.'),
            ("c alice r", "You cannot clue yourself."),
            ("clue bob purple", '"purple" is not a clue colour or rank.'),
            ("c 3 1", "There is no player 3: players are 1-2."),
            ("terminate", 'This votes to end the game with score 0: type "terminate now".'),
            # Well-formed, but the rules say no: the server's own sentence.
            (
                "d 1",
                "The server refused: You cannot discard while all 8 clue tokens are available.",
            ),
            (
                "c bob 1",
                "The server refused: That clue would touch no card, and empty clues are off.",
            ),
        ]:
            alice.send(line)
            alice.expect_exact(reason)
            alice.expect_exact("Your move> ")
        bob.send("p 1")
        bob.expect_exact("It is not your turn: alice is to play.\r\nWaiting for alice to play")
        bob.expect_exact("> ")
        alice.send("help")
        alice.expect_exact("clue WHO WHAT")
        alice.expect_exact("Your move> ")

        bob.send("chat good luck, alice")
        alice.expect_exact("<bob> good luck, alice")
        alice.expect_exact("Your move> ")
        alice.send("history")
        alice.expect_exact("alice drew a card\r\n")  # her own cards stay hidden
        alice.expect_exact("bob drew W2\r\n")
        alice.expect_exact("<bob> good luck, alice\r\nYour move> ")

        # A good move after all that; nothing before it was applied.
        alice.send("c bob 2")
        bob.wait_turn(1, mine=True)
        assert Client(live_server.url).game(game_id)["turn"] == 1

        # Quit, come back with the saved token, leave with Ctrl-C.
        alice.send("quit")
        # This config dir holds both seats: the hint names the one to take back.
        alice.expect_exact(
            f"Left the table. Resume with: hanabi-client join {game_id} --name alice"
        )
        assert alice.end() == 0
        # Both seats were taken from this config dir (two terminals, one user): say which.
        again = Terminal(["join", game_id], env)
        again.expect_exact(f"You hold several seats at {game_id} (alice, bob): choose with --name.")
        assert again.end() == 1
        alice = Terminal(["join", game_id, "--name", "alice"], env)
        alice.expect_exact(f"Welcome back, alice: resuming your seat at {game_id}.")
        alice.wait_turn(1, mine=False)
        alice.child.sendintr()
        alice.expect_exact(
            f"Left the table. Resume with: hanabi-client join {game_id} --name alice\r\n"
        )
        assert alice.end() == 130

        # A stranger cannot join a started game: no seat has that name; told how to watch it.
        carol = Terminal(["join", game_id, "--name", "carol"], env)
        carol.expect_exact("has no seat named 'carol'")
        carol.expect_exact(f"Watch it with: hanabi-client watch {game_id}")
        assert carol.end() == 1
    finally:
        alice.kill()
        if bob:
            bob.kill()


@pytest.mark.serial  # a restart and a reconnect timed: alone
def test_a_server_that_goes_away_mid_game(own_server, tmp_path):
    game_id, alice, bob = seat_two(own_server.url, tmp_path)
    env = client_env(own_server.url, tmp_path)
    try:
        alice.send("p 1")
        bob.wait_turn(1, mine=True)

        own_server.crash()
        for player, name in ((alice, "alice"), (bob, "bob")):
            player.expect_exact(f"Lost the server at {own_server.url} (")
            player.expect_exact(f"`hanabi-client join {game_id} --name {name}` resumes later.")
        bob.send("c alice r")
        bob.expect_exact(f"Cannot reach the server at {own_server.url}: connection refused.")
        bob.expect_exact("Your clue was not sent; the table will refresh when the server is back.")
        bob.expect_exact("Your move> ")
        bob.send("chat anyone?")  # what was lost, in words (not "Your chat")
        bob.expect_exact("Your chat line was not sent; the table will refresh")
        bob.expect_exact("Your move> ")
        bob.child.sendintr()  # bob gives up on this terminal
        bob.expect_exact(f"Resume with: hanabi-client join {game_id}")
        assert bob.end() == 130

        own_server.start()  # same port, same Redis: the games are all there
        alice.expect_exact("Reconnected to the server.", timeout=45)  # its backoff, a busy machine
        bob = Terminal(["join", game_id, "--name", "bob"], env)
        bob.expect_exact(f"Welcome back, bob: resuming your seat at {game_id}.")
        bob.wait_turn(1, mine=True)
        bob.send("c alice r")
        table = alice.wait_turn(2, mine=True)
        assert "bob clued alice red, touching slots 1 and 5" in table
        alice.send("vote end")
        bob.send("vote end")
        for player in (alice, bob):
            player.expect_exact("Game over (ended by vote): final score 0/25")
            assert player.end() == 0
    finally:
        alice.kill()
        bob.kill()


def test_a_stale_turn_after_a_network_retry(live_server, proxy: FaultProxy, tmp_path):
    """alice's play goes through but every answer is lost; bob moves; alice, whose table
    has not caught up, tries another move for the old turn: refused as stale, table
    refreshed, and the server applied each move once."""
    game_id, alice, bob = seat_two(live_server.url, tmp_path, alice_server=proxy.url)
    try:

        def lose_answers(phase: str, method: str, target: str) -> str:
            if phase == "request":
                return "forward"
            if method == "GET" and "wait=" in target:
                return "hold"  # alice's table does not hear about any change
            return "drop" if method == "POST" else "deliver"

        proxy.set(lose_answers)
        alice.send("p 1")
        alice.expect_exact(f"Cannot reach the server at {proxy.url}: the connection was closed.")
        alice.expect_exact("Your play may or may not have reached it;")
        alice.expect_exact("Your move> ")

        bob.wait_turn(1, mine=True)  # it did: bob sees alice's W1 played
        bob.send("c alice r")
        bob.wait_turn(2, mine=False)  # bob's clue is made

        def hold_table_updates(phase: str, method: str, target: str) -> str:
            if phase == "request":
                return "forward"
            return "hold" if "wait=" in target else "deliver"

        proxy.set(hold_table_updates)  # alice's moves get answers again; her table still lags
        alice.send("d 5")
        # The refreshed table: turn 2 (shown as 3), alice to play again, after bob's clue.
        table = alice.wait_turn(2, mine=True)
        assert "The game had moved on before your move arrived, so it was not made" in table
        assert "alice played W1 from slot 1" in table and "bob clued alice red" in table
        proxy.release()

        api = Client(live_server.url)
        events = api.events(game_id)
        assert [e["type"] for e in events if e["type"] in ("play", "discard", "clue")] == [
            "play",
            "clue",
        ]
        alice.send("terminate now")
        bob.send("vote end")
        alice.expect_exact("final score 0/25")
    finally:
        proxy.release()
        alice.kill()
        bob.kill()


def test_a_lost_answer_is_retried_and_the_move_made_once(live_server, proxy, tmp_path):
    game_id, alice, bob = seat_two(live_server.url, tmp_path, alice_server=proxy.url)
    try:
        dropped = []

        def drop_one(phase: str, method: str, target: str) -> str:
            if phase == "response" and method == "POST" and not dropped:
                dropped.append(target)
                return "drop"
            return "forward" if phase == "request" else "deliver"

        proxy.set(drop_one)
        alice.send("p 1")
        alice.expect_exact(
            "(The server had already made that move: its first answer was lost on the way.)"
        )
        alice.expect_exact("Waiting for bob to play")
        assert (
            dropped
            and [e["type"] for e in Client(live_server.url).events(game_id)].count("play") == 1
        )
    finally:
        alice.kill()
        bob.kill()


def test_lobby_comings_and_goings(live_server, tmp_path):
    """bob leaves with `leave` (his saved seat is forgotten), joins again, and is then
    removed by the host: his table says so and his token is forgotten too."""
    from hanabi.client.tokens import TokenStore

    env = client_env(live_server.url, tmp_path)
    store = TokenStore(tmp_path / "config" / "hanabi-client")
    api = Client(live_server.url)
    host = api.create_game("alice", max_players=3)
    game_id = host.game_id
    bob = Terminal(["join", game_id, "--name", "bob"], env)
    try:
        bob.expect_exact("lobby> ")
        assert store.find(live_server.url, game_id, "bob") is not None
        bob.send("leave")
        bob.expect_exact("You left the table.")
        assert bob.end() == 0
        assert store.find(live_server.url, game_id, "bob") is None
        assert [p["name"] for p in api.game(game_id)["players"]] == ["alice"]

        bob = Terminal(["join", game_id, "--name", "bob"], env)
        bob.expect_exact("You joined game")
        bob.expect_exact("lobby> ")
        api.leave(game_id, 1, token=host.token)  # the host frees bob's seat
        bob.expect_exact("You no longer hold a seat at this table (the host may have removed you).")
        assert bob.end() == 1
        assert store.seats(live_server.url, game_id) == []
    finally:
        bob.kill()


def test_a_timed_table_counts_the_clock_down_and_both_vote_to_end(live_server, tmp_path):
    """The clocks line under the score: the running clock counts down in place between
    answers (no move is made); then both vote and the game ends by vote."""
    _, alice, bob = seat_two(live_server.url, tmp_path, create=("--timer", "30+5"), term="xterm")
    try:
        alice.expect_exact("▶ alice 0:30")
        bob.expect_exact("▶ alice 0:28", timeout=5)  # redrawn in place, nobody moved
        alice.send("vote end")
        alice.expect_exact("Someone voted to end the game (1 of 2 needed)")
        bob.send("vote end")
        for player in (alice, bob):
            player.expect_exact("Game over (ended by vote): final score 0/25")
            assert player.end() == 0
    finally:
        alice.kill()
        bob.kill()
