"""A table's lobby life at a terminal (issue 48, docs/lobby.md): a password table created,
joined and watched with the password typed unseen, a pause voted and ended, and the next
game with the same seats opened by the host and taken by the guest."""

from __future__ import annotations

from e2e_support import Terminal, client_env

from hanabi.client.api import ApiError, Client


def test_password_pause_and_again_at_the_terminal(live_server, tmp_path):
    alice_env = client_env(live_server.url, tmp_path / "alice")
    bob_env = client_env(live_server.url, tmp_path / "bob")
    terminals: list[Terminal] = []
    try:
        alice = Terminal(
            ["create", "--name", "alice", "--players", "2", "--password", "-",
             "--password-spectators"], alice_env,
        )  # fmt: skip
        terminals.append(alice)
        alice.expect_exact("Table password: ")
        alice.send("open sesame")
        game_id = alice.expect(r"Created game (\S+) ").group(1)
        alice.expect_exact("lobby> ")
        listed = Terminal(["list", "--limit", "100"], bob_env)
        listed.expect(rf"{game_id} +lobby +no_variant +1/2🔒 +alice")
        listed.expect_exact("🔒 a password table: join asks for its password")
        assert listed.end() == 0
        api = Client(live_server.url, retries=1)
        try:
            api.game(game_id)
            raise AssertionError("a spectator saw a table locked to spectators")
        except ApiError as exc:
            assert exc.code == "password_required"

        wrong = Terminal(["join", game_id, "--name", "bob"], bob_env)
        terminals.append(wrong)
        wrong.expect_exact("This table is locked. Table password: ")
        wrong.send("open says me")
        wrong.expect_exact("That is not this table's password.")
        assert wrong.end() != 0

        bob = Terminal(["join", game_id, "--name", "bob", "--password", "open sesame"], bob_env)
        terminals.append(bob)
        bob.expect_exact(f"You joined game {game_id} as bob.")
        alice.expect_exact("2 bob")
        alice.expect_exact("lobby> ")

        watcher = Terminal(["watch", game_id, "--pace", "0"], client_env(live_server.url,
                                                                          tmp_path / "w"))  # fmt: skip
        terminals.append(watcher)
        watcher.expect_exact("This table is locked. Table password: ")
        watcher.send("open sesame")
        watcher.expect_exact(f"Watching game {game_id}.")

        alice.send("start")
        alice.expect_exact("Your move> ")
        watcher.expect(r"· turn 1(?!\d)")  # the spectator's pass opens the stream too
        alice.send("pause")
        alice.expect_exact("Your vote counts: 1 of 2.")
        bob.send("pause")
        bob.expect_exact("The game is paused.")
        alice.expect_exact("Paused: type resume to vote to go on.")
        bob.send("resume")
        bob.expect_exact("Your vote counts: 1 of 2.")
        alice.send("resume")
        alice.expect_exact("The game goes on.")
        alice.expect_exact("Your move> ")
        alice.send("vote end")
        bob.send("vote end")
        alice.expect_exact(f"Again, same seats: hanabi-client again {game_id}")
        assert alice.end() == 0
        bob.expect_exact(f"Again, same seats: hanabi-client again {game_id}")
        assert bob.end() == 0
        watcher.kill()

        again = Terminal(["again", game_id], alice_env)
        terminals.append(again)
        new_id = again.expect(r"You opened the next game (\S+):").group(1)
        again.expect_exact(f"hanabi-client again {game_id}")
        again.expect_exact("Seats kept for: bob")
        again.expect_exact("lobby> ")
        bob_again = Terminal(["again", game_id], bob_env)
        terminals.append(bob_again)
        bob_again.expect_exact(f"You took your seat at the next game {new_id}.")
        again.expect_exact("2 bob")
        again.send("start")
        again.expect_exact("Your move> ")
    finally:
        for term in terminals:
            term.kill()
