"""Whole games through hanabi-client processes in pseudo-terminals, against a live server.

The test reads each table as a player would (text on a terminal, colour off) and types
moves at the prompt. Which move to type comes from the rules engine replaying the same
fixed deck on the side, so the final score the clients print can be checked exactly.
"""

from __future__ import annotations

import json
import re

from e2e_support import SUITS, Terminal, client_env, full_deck, write_deck

from hanabi.client.api import Client
from hanabi.game import Action, Game, Setup

NAMES = ("alice", "bob")
# The first copy of every card in rank order, then the spare copies: a deal in which
# someone almost always holds a playable card.
FIRSTS = [(s, r) for r in range(1, 6) for s in SUITS]


def choose(game: Game, turn: int) -> Action:
    """The scripted opening (two clues and a safe discard), then: play what is playable,
    else clue, else discard the oldest card."""
    legal = game.legal_actions()
    clues = [a for a in legal if a.type == "clue"]
    hand = game.hands[game.current]
    if turn == 0:
        return next(a for a in clues if a.color)
    if turn == 1:
        return next(a for a in clues if a.rank)
    if turn == 2:
        return Action.discard(next(o for o in reversed(hand) if _spare(game, o)))
    for order in hand:
        suit, rank = game.variant.card(game.deck[order])
        if game.fireworks[game.variant.suit_index(suit)] == rank - 1:
            return Action.play(order)
    if clues:
        return clues[0]
    return Action.discard(hand[-1])


def _spare(game: Game, order: int) -> bool:
    card = game.deck[order]
    gone = sum(1 for o in game.discards if game.deck[o] == card)
    return game.variant.copies[card] - gone > 1


def typed(game: Game, action: Action, turn: int) -> str:
    """The action as a player types it, in long and short forms by turns."""
    short = turn % 2 == 1
    if action.type in ("play", "discard"):
        slot = game.hands[game.current].index(action.card) + 1
        return f"{action.type[0] if short else action.type} {slot}"
    who = str(action.target + 1) if turn % 4 in (1, 2) else NAMES[action.target]
    what = str(action.rank) if action.rank else action.color
    if short and action.color:
        what = action.color[0]
    return f"{'c' if short else 'clue'} {who} {what}"


def test_two_players_and_a_spectator_play_a_whole_game(live_server, tmp_path):
    deck = full_deck(FIRSTS)
    deck_file = write_deck(tmp_path / "deck.json", deck)
    env = client_env(live_server.url, tmp_path)
    alice = Terminal(["create", "--name", "alice", "--players", "2", "--deck", str(deck_file)], env)
    terminals = [alice]
    try:
        game_id = alice.expect(r"Created game (\S+) \(no_variant, up to 2 players\)").group(1)
        alice.expect_exact(f"hanabi-client join {game_id} --name NAME")
        alice.expect_exact("lobby> ")
        bob = Terminal(["join", game_id, "--name", "bob"], env)
        terminals.append(bob)
        bob.expect_exact(f"You joined game {game_id} as bob.")
        bob.expect_exact("Every seat is taken: waiting for the host to start the game.")
        alice.expect_exact("2 bob")
        alice.expect_exact("lobby> ")
        alice.send("start")
        watcher = Terminal(["watch", game_id, "--pace", "0"], env)  # every view as it comes
        terminals.append(watcher)
        watcher.expect_exact(f"Watching game {game_id}.")

        engine = Game(
            Setup.create("no_variant", list(NAMES), deck=[(c["suit"], c["rank"]) for c in deck])
        )
        players = {0: alice, 1: bob}
        turn = 0
        while not engine.is_over:
            seat = engine.current
            table = players[seat].wait_turn(turn, mine=True)
            if turn == 3:
                # What the player sees: bob's clue in words, the discard pile, the counts.
                assert "bob clued alice 1, touching slot" in table or "alice clued bob" in table
                assert "Clues 7/8" in table
            action = choose(engine, turn)
            players[seat].send(typed(engine, action, turn))
            engine.apply(action)
            turn += 1

        score = engine.result["score"]
        assert engine.result["reason"] == "perfect" and score == 25
        for terminal in terminals:
            terminal.expect(rf"Game over \(a perfect game\): final score {score}/25")
            terminal.expect_exact(f"hanabi-client export {game_id} -o {game_id}.json")
            assert terminal.end() == 0
    finally:
        for terminal in terminals:
            terminal.kill()

    # The server agrees, move for move.
    exported = Client(live_server.url).export(game_id)
    assert len(exported["actions"]) == engine.turn
    assert [c["rank"] for c in exported["deck"]] == [c["rank"] for c in deck]


def test_export_and_replay_commands_after_a_game(live_server, tmp_path):
    api = Client(live_server.url)
    host = api.create_game("alice", max_players=2, deck=full_deck(FIRSTS))
    bob = api.join(host.game_id, "bob")
    api.start(host.game_id, token=host.token)
    api.clue(host.game_id, 0, 1, rank=2, token=host.token)
    api.vote(host.game_id, token=host.token)
    api.terminate(host.game_id, token=bob.token)
    env = client_env(live_server.url, tmp_path)

    out = tmp_path / "game.json"
    term = Terminal(["export", host.game_id, "-o", str(out)], env)
    term.expect_exact(f"Saved game {host.game_id} as hanab.live JSON in {out}.")
    assert term.end() == 0
    doc = json.loads(out.read_text())
    assert doc["players"] == ["alice", "bob"] and len(doc["actions"]) == 2

    term = Terminal(["replay", host.game_id, "--turn", "1"], env)
    term.expect(r"· turn 1(?!\d)")
    term.expect_exact("1 alice")
    term.expect(r"card +W1 +B1 +G1 +Y1 +R1")  # a replay shows every card
    assert term.end() == 0

    term = Terminal(["replay", host.game_id, "--json"], env)
    term.end()
    view = json.loads(re.sub(r"\r\n", "\n", term.before))
    assert view["result"] == {"reason": "terminated", "score": 0}
