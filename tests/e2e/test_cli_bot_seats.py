"""Server-side bot seats from the terminal: ``create --bots``, ``bot`` and ``start watch``
at the lobby prompt, in pseudo-terminals against a live server that plays the bots."""

from __future__ import annotations

import re

from e2e_support import SUITS, Terminal, client_env, full_deck, write_deck

from hanabi.client.api import Client
from hanabi.client.tokens import TokenStore

FIRSTS = [(s, r) for r in range(1, 6) for s in SUITS]


def row(table: str, label: str) -> list[str]:
    return re.search(rf"{label} +([^\r]*)", table).group(1).split()


def my_move(table: str) -> str:
    """A legal move from what the person sees: play a card that must be playable (every
    suit and rank it may still be is next on its firework); else clue the bot a rank it
    can play now; else discard the oldest card (with all 8 clues: clue any rank)."""
    clues = int(re.search(r"Clues (\d+)/", table).group(1))
    fireworks = {s: int(r) for s, r in (c for c in row(table, "Fireworks"))}
    for slot, (suits, ranks) in enumerate(zip(row(table, "suits"), row(table, "ranks")), 1):
        if all(fireworks[s] == int(r) - 1 for s in suits for r in ranks):
            return f"play {slot}"
    cards = [(c[0], int(c[1])) for c in row(table, "card")]
    playable = [rank for suit, rank in cards if fireworks[suit] == rank - 1]
    if clues and playable:
        return f"clue 2 {playable[0]}"
    if clues < 8:
        return "discard 5"
    return f"clue 2 {cards[0][1]}"


def test_a_person_and_a_server_bot_play_a_whole_game(live_server, tmp_path):
    deck = write_deck(tmp_path / "deck.json", full_deck(FIRSTS))
    env = client_env(live_server.url, tmp_path)
    args = ["create", "--name", "alice", "--players", "2", "--bots", "1", "--deck", str(deck)]
    alice = Terminal(args, env)
    try:
        game_id = alice.expect(r"Created game (\S+) ").group(1)
        alice.expect_exact("Bots the server plays: conventions-bot-2 (conventions bot).")
        alice.expect_exact("2 conventions-bot-2 (conventions bot)")
        alice.expect_exact("lobby> ")
        alice.send("start")
        over = r"Game over \([^)]*\): final score \d+/25"
        turn, moves = 0, 0
        # alice moves on even turns; the server plays the bot's in between, on its own.
        while alice.child.expect([rf"· turn {turn + 1}(?!\d)", over]) == 0:
            if alice.child.expect(["Your move> ", over]) == 1:
                break
            alice.send(my_move(alice.before))
            turn, moves = turn + 2, moves + 1
        over = alice.child.after
        assert alice.end() == 0
    finally:
        alice.kill()
    final = Client(live_server.url).replay(game_id)
    assert f"final score {final['result']['score']}/25" in over
    assert [p["bot"] for p in final["players"]] == [None, "conventions"]
    assert moves >= 10 and final["turn"] in (2 * moves - 1, 2 * moves)
    assert final["result"]["score"] >= 10  # alice's plays and clues, the bot's plays


def test_the_host_seats_bots_at_the_lobby_prompt_then_starts_and_watches(live_server, tmp_path):
    env = client_env(live_server.url, tmp_path)
    alice = Terminal(["create", "--name", "alice", "--players", "3", "--seed", "watch-1"], env)
    bob = None
    try:
        game_id = alice.expect(r"Created game (\S+) ").group(1)
        alice.expect_exact("lobby> ")
        alice.send("bot nosuch")
        # The refusal lists the strategies, each with what it expects of its table.
        alice.expect(
            r"The server refused: The request body is not valid:\s+strategy: Use one of:"
            r"\s+conventions,\s+hat,\s+search\s+\(conventions: "
        )
        alice.expect_exact("only with other hat bots")
        alice.expect_exact("lobby> ")
        alice.send("start watch")
        alice.expect_exact("The server refused: A game needs at least 2 players.\r\nlobby> ")
        bob = Terminal(["join", game_id, "--name", "bob"], env)
        bob.expect_exact("lobby> ")
        bob.send("bot hat")
        bob.expect_exact("The server refused: Only the host may do that.\r\nlobby> ")
        bob.send("leave")
        assert bob.end() == 0
        alice.send("bot hat")
        alice.expect_exact("hat-bot-2 (a bot the server plays) took seat 2.")
        alice.send("bot HAT Robo the Great")
        # alice is a person: hat plays conventions next to her, and the seat says so
        alice.expect_exact("3 Robo the Great (hat bot, plays conventions here)")
        alice.expect_exact("Robo the Great (a bot the server plays) took seat 3.")
        alice.expect_exact("lobby> ")
        alice.send("start watch 0")  # no pace: every view as it comes
        alice.expect_exact("You gave up your seat: watching the game.")
        over = alice.expect(r"Game over \([^)]*\): final score (\d+)/25")
        alice.expect_exact(f"hanabi-client export {game_id}")
        assert alice.end() == 0
    finally:
        for terminal in (alice, bob):
            if terminal is not None:
                terminal.kill()
    final = Client(live_server.url).replay(game_id)
    assert [p["name"] for p in final["players"]] == ["hat-bot-2", "Robo the Great"]
    assert int(over.group(1)) == final["result"]["score"] > 0
    # The seat was given up at the deal, so its saved token is forgotten.
    assert TokenStore(tmp_path / "config" / "hanabi-client").seats(live_server.url, game_id) == []


def test_create_with_bots_refused_leaves_no_table(live_server, tmp_path):
    env = client_env(live_server.url, tmp_path)
    term = Terminal(["create", "--name", "alice", "--players", "2", "--bots", "2"], env)
    term.expect_exact("Cannot seat the bots: ")
    term.expect_exact("The new table is gone.")
    assert term.end() == 1
    term = Terminal(["create", "--name", "alice", "--bots", "1", "--bot-strategy", "x"], env)
    term.expect(r"strategy: Use one of:\s+conventions,\s+hat,\s+search\s+\(")
    term.expect_exact("The new table is gone.")
    assert term.end() == 1
