"""``next MOVE`` at a real table through a pseudo-terminal: a move queued during the
other seat's turn is sent the moment the turn comes, and one whose card a clue touched in
the meantime is dropped with a sentence that says so (and nothing is sent)."""

from __future__ import annotations

from test_cli_table import seat_two


def test_a_queued_move_is_sent_on_your_turn_or_dropped(live_server, tmp_path):
    # alice holds R1 Y1 G1 B1 W1 (slot 1 = W1), bob R2 Y2 G2 B2 W2
    _, alice, bob = seat_two(live_server.url, tmp_path)
    try:
        alice.send("c bob 2")
        alice.wait_turn(1, mine=False)
        alice.send("next p 1")  # W1, on bob's turn
        alice.expect_exact("Queued: p 1. It is sent when your turn comes.")
        bob.wait_turn(1, mine=True)
        bob.send("c alice r")  # touches R1 (slot 5) only
        alice.expect_exact("Your queued move was sent: p 1.")
        alice.wait_turn(3, mine=False)
        alice.send("next p 5")  # R1, which bob's next clue touches
        alice.expect_exact("Queued: p 5.")
        bob.wait_turn(3, mine=True)
        bob.send("c alice 1")
        alice.expect_exact("Your queued move (p 5) was dropped: a clue touched that card.")
        alice.expect_exact("Your move> ")  # the table was drawn just before the sentence
        alice.send("next d 2")  # on your own turn: queued, then sent at once
        alice.expect_exact("Your queued move was sent: d 2.")
        alice.wait_turn(5, mine=False)
    finally:
        alice.kill()
        bob.kill()
