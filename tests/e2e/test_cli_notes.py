"""Notes and the last move at a real table through a pseudo-terminal: ``note`` writes on a
card and the table shows it under the hand, the other seat never gets it, the last move
is printed above the board, and a burst of chat leaves the last moves in their list."""

from __future__ import annotations

from test_cli_table import seat_two

from hanabi.client.api import Client


def test_notes_and_the_last_move_at_the_table(live_server, tmp_path):
    game_id, alice, bob = seat_two(live_server.url, tmp_path)
    try:
        alice.send("note 1 maybe W?")
        alice.expect_exact("note 1: maybe W?")
        alice.expect_exact("Your move> ")
        alice.send("note bob 2 keep")
        alice.expect_exact("note 2: keep")
        alice.expect_exact("Your move> ")
        assert "maybe W?" not in str(Client(live_server.url).game(game_id))  # a spectator's
        alice.send("c bob 2")
        table = bob.wait_turn(1, mine=True)
        assert "Last move: alice clued bob 2, touching slots 1, 2, 3, 4 and 5" in table
        assert "maybe W?" not in table and "keep" not in table
        for i in range(8):
            alice.send(f"chat line {i}")
            alice.expect_exact(f"<alice> line {i}")
        bob.expect_exact("<alice> line 7")
        bob.expect_exact("Your move> ")
        bob.send("")  # a redraw: the moves' list still holds the clue
        bob.expect_exact("Last moves:")
        bob.expect_exact("alice clued bob 2")
        bob.expect_exact("Chat:")
        bob.expect_exact("<alice> line 7")
        bob.expect_exact("Your move> ")
    finally:
        alice.kill()
        bob.kill()
