"""The turn and end-of-game rules of docs/rules.md, each on an exact deal."""

from __future__ import annotations

import pytest

from hanabi.game import Action, Game, IllegalAction, Setup

# Two hands where nothing is playable and nothing is a 5: safe filler for "pass" turns.
DULL = ["r2 r2 r3 r3 r4", "y2 y2 y3 y3 y4"]


def idle(game: Game) -> list[dict]:
    """A turn that plays nothing: discard the oldest card, or clue when tokens are full."""
    if game.clue_tokens == 8:
        return game.apply(next(a for a in game.legal_actions() if a.type == "clue"))
    return game.apply(Action.discard(game.hands[game.current][-1]))


def clue_back_and_forth(game: Game, turns: int) -> None:
    """Spend ``turns`` turns on rank clues that touch something (2s are in every DULL hand)."""
    for _ in range(turns):
        game.apply(Action.clue((game.current + 1) % game.num_players, rank=2))


def test_a_clue_costs_a_token_and_clues_stop_at_zero(kit):
    game = kit.game("no_variant", 2, hands=DULL)
    for tokens in range(7, -1, -1):
        clue_back_and_forth(game, 1)
        assert game.clue_tokens == tokens
    assert not [a for a in game.legal_actions() if a.type == "clue"]
    with pytest.raises(IllegalAction) as info:
        game.apply(Action.clue(1, rank=2))
    assert info.value.code == "no_clue_tokens"


def test_discard_is_refused_at_eight_tokens_and_regains_one(kit):
    game = kit.game("no_variant", 2, hands=DULL, draws="g1")
    assert not [a for a in game.legal_actions() if a.type == "discard"]
    with pytest.raises(IllegalAction) as info:
        game.apply(Action.discard(0))
    assert info.value.code == "clue_tokens_full"
    clue_back_and_forth(game, 2)  # 6 tokens, seat 0 to move
    events = game.apply(Action.discard(0))
    assert game.clue_tokens == 7
    assert events[0]["clue_tokens"] == 7
    assert game.discards == [0]
    assert game.hands[0] == [10, 4, 3, 2, 1]  # drew the top card (order 10), newest first
    assert kit.identity(game, 10) == ("green", 1)


def test_empty_clue_is_refused_by_default(kit):
    game = kit.game("no_variant", 2, hands=DULL)
    for clue in ({"color": "blue"}, {"rank": 5}, {"rank": 1}):
        with pytest.raises(IllegalAction) as info:
            game.apply(Action.clue(1, **clue))
        assert info.value.code == "empty_clue"
    legal = game.legal_actions()
    assert Action.clue(1, color="blue") not in legal
    assert Action.clue(1, color="yellow") in legal
    assert game.clue_tokens == 8


def test_empty_clue_is_allowed_by_the_option(kit):
    game = kit.game("no_variant", 2, hands=DULL, options={"empty_clues": True})
    assert Action.clue(1, color="blue") in game.legal_actions()
    events = game.apply(Action.clue(1, color="blue"))
    assert events[0]["touched"] == []
    assert game.clue_tokens == 7
    # It still says something: none of the cards is blue.
    assert all(not game.told[o] & game.variant.color_masks["blue"] for o in game.hands[1])


def test_a_played_five_regains_a_token(kit):
    game = kit.game("no_variant", 2, hands=["r1 r2 r3 r4 r5", "y2 y2 y3 y3 y4"])
    game.apply(Action.play(0))  # r1
    game.apply(Action.clue(0, rank=5))  # 7 tokens
    for order in (1, 2, 3):
        game.apply(Action.play(order))
        game.apply(Action.clue(0, rank=5))
    assert game.clue_tokens == 4
    events = game.apply(Action.play(4))  # r5
    assert [e["type"] for e in events] == ["play", "clue_token", "draw"]
    assert events[1]["clue_tokens"] == 5
    assert game.clue_tokens == 5
    assert game.fireworks[0] == 5


def test_a_played_five_never_raises_tokens_above_eight(kit):
    game = kit.game("no_variant", 2, hands=["r1 r2 r3 r4 r5", "y2 y2 y3 y3 y4"])
    game.apply(Action.play(0))
    game.apply(Action.clue(0, rank=5))
    game.apply(Action.play(1))
    game.apply(Action.discard(5))  # back to 8
    game.apply(Action.play(2))
    game.apply(Action.clue(0, rank=5))
    game.apply(Action.play(3))
    game.apply(Action.discard(6))  # 8 again
    assert game.clue_tokens == 8
    events = game.apply(Action.play(4))
    assert [e["type"] for e in events] == ["play", "draw"]
    assert game.clue_tokens == 8
    assert game.score == 5


def test_a_misplay_strikes_discards_and_draws(kit):
    game = kit.game("no_variant", 2, hands=["r2 r1 r1 r1 g1", "y2 y2 y3 y3 y4"], draws="w3")
    events = game.apply(Action.play(0))
    assert [e["type"] for e in events] == ["misplay", "strike", "draw"]
    assert game.strikes == 1
    assert game.discards == [0]
    assert game.misplays == {0}
    assert game.fireworks == [0, 0, 0, 0, 0]
    assert game.hands[0][0] == 10
    assert game.clue_tokens == 8  # a misplay does not regain a token


@pytest.mark.parametrize(("keeps_score", "final"), [(False, 0), (True, 2)])
def test_third_strike_ends_the_game_at_once(kit, keeps_score, final):
    game = kit.game(
        "no_variant",
        3,
        hands=["g1 g2 r3 r4 r5", "y2 y2 y3 y3 y4", "b2 b2 b3 b3 b4"],
        options={"strikeout_keeps_score": keeps_score},
    )

    def others_pass():  # seats 1 and 2 clue each other's 2s
        game.apply(Action.clue(2, rank=2))
        game.apply(Action.clue(1, rank=2))

    game.apply(Action.play(0))  # g1
    others_pass()
    game.apply(Action.play(1))  # g2: score 2
    others_pass()
    for order in (2, 3):
        game.apply(Action.play(order))  # misplays
        others_pass()
    assert game.strikes == 2 and not game.is_over
    events = game.apply(Action.play(4))
    assert events[-1] == {
        "type": "game_over",
        "turn": game.turn - 1,
        "reason": "strikeout",
        "score": final,
    }
    assert game.is_over
    assert game.result == {"reason": "strikeout", "score": final}
    assert game.score == 2  # the fireworks stay as they were
    assert game.final_score() == final
    # the best score the cards allow, whatever the final score: the only red 5 is gone
    assert game.max_score_possible() == 24
    assert game.legal_actions() == []
    with pytest.raises(IllegalAction) as info:
        game.apply(Action.clue(1, rank=2), seat=game.current)
    assert info.value.code == "game_over"


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_final_round_gives_everyone_one_more_turn_drawer_included(players):
    game = Game(Setup.create("no_variant", players, seed=f"final-{players}"))
    # Spend the deck with discards (and clues to regain room for the discards).
    while game.deck_size:
        assert game.turns_left is None
        events = idle(game)
    drawer = (game.current - 1) % players
    assert events[-2]["type"] == "draw" and events[-2]["seat"] == drawer
    assert events[-1] == {"type": "final_round", "turn": game.turn - 1, "turns_left": players}
    assert game.turns_left == players
    seats = []
    while not game.is_over:
        seats.append(game.current)
        assert game.turns_left == players - len(seats) + 1
        events = idle(game)
        assert not [e for e in events if e["type"] == "draw"]
    assert sorted(seats) == list(range(players))
    assert seats[-1] == drawer  # the drawer plays last, once more
    assert events[-1]["type"] == "game_over"
    assert game.result == {"reason": "deck_out", "score": 0}
    assert game.turns_left == 0


def test_final_round_starts_on_a_play_that_draws_the_last_card(kit):
    game = kit.game("no_variant", 2, hands=DULL)
    while game.deck_size > 1:
        idle(game)
    # Whether the play succeeds or not, it draws the last card.
    seat = game.current
    events = game.apply(Action.play(game.hands[seat][0]))
    assert [e["type"] for e in events][-2:] == ["draw", "final_round"]
    assert game.turns_left == 2
    idle(game)
    assert not game.is_over
    events = idle(game)
    assert game.result["reason"] == "deck_out"
    assert events[-1]["type"] == "game_over"


def test_strikeout_in_the_final_round_is_a_strikeout(kit):
    game = kit.game("no_variant", 2, hands=["r2 r3 r4 g2 g3", "y2 y2 y3 y3 y4"])
    game.apply(Action.play(0))
    game.apply(Action.clue(0, rank=2))
    game.apply(Action.play(1))
    assert game.strikes == 2
    while game.deck_size:
        idle(game)
    assert game.turns_left == 2
    seat = game.current
    unplayable = next(o for o in game.hands[seat] if not kit.playable(game, o))
    events = game.apply(Action.play(unplayable))
    assert events[-1]["reason"] == "strikeout"
    assert game.result == {"reason": "strikeout", "score": 0}


@pytest.mark.parametrize("variant_id", ["no_variant", "six_suits", "black_powder", "wild_rainbow"])
@pytest.mark.parametrize("players", [2, 5])
def test_a_perfect_game_ends_at_once(kit, variant_id, players):
    variant = Game(Setup.create(variant_id, players)).variant
    # One of every card, ones first, then twos...; duplicates after: a full-knowledge
    # team plays everything in order long before the deck runs out.
    ranked = sorted(
        {variant.card(c) for c in variant.deck()},
        key=lambda card: (card[1], variant.suit_index(card[0])),
    )
    game = Game(Setup.create(variant_id, players, deck=kit.deck(variant_id, ranked)))
    while not game.is_over:
        events = game.apply(kit.cheat(game))
    assert events[-1] == {
        "type": "game_over",
        "turn": game.turn - 1,
        "reason": "perfect",
        "score": variant.max_score,
    }
    assert game.result == {"reason": "perfect", "score": variant.max_score}
    assert game.score == variant.max_score
    assert game.deck_size > 0  # ended before the deck ran out
    assert game.turns_left is None


def test_a_perfect_game_in_the_final_round_ends_at_once(kit):
    # Seat 1 holds r5 from the start; the second red 4 is the last card of the deck, so
    # whoever plays the first red 4 starts the final round, and seat 1 then plays r5.
    top = "r1 y1 g1 b1 w1 r5 r2 y2 g2 b2 r3 y3 g3 b3 w2 w3 y4 g4 b4 w4 y5 g5 b5 w5"
    deck = kit.deck("no_variant", top)
    deck.remove(("red", 4))
    deck.remove(("red", 4))
    deck += [("red", 4), ("red", 4)]
    game = Game(Setup.create("no_variant", 2, deck=deck))
    while not game.is_over:
        before = game.turns_left
        events = game.apply(kit.cheat(game))
    assert events[0]["type"] == "play" and events[0]["suit"] == "red" and events[0]["rank"] == 5
    assert before == 1  # one turn of the final round was still to come
    assert game.result == {"reason": "perfect", "score": 25}
    assert events[-1]["reason"] == "perfect"


def test_terminate_ends_the_game_with_score_zero_by_any_seat(kit):
    game = kit.game("no_variant", 3, hands=["r1 r2 r3 r4 r5", "y1 y2 y3 y4 y5", "g1 g2 g3 g4 g5"])
    game.apply(Action.play(0))
    events = game.apply(Action.terminate(2))  # seat 1 is to move; seat 2 ends it
    assert events == [
        {"type": "terminate", "turn": 1, "seat": 2},
        {"type": "game_over", "turn": 1, "reason": "terminated", "score": 0},
    ]
    assert game.result == {"reason": "terminated", "score": 0}
    assert game.turn == 2
    assert game.actions[-1] == Action.terminate(2)
    with pytest.raises(IllegalAction) as info:
        game.apply(Action.terminate(0))
    assert info.value.code == "game_over"


@pytest.mark.parametrize("reason", ["timeout", "idle", "terminated"])
def test_the_table_ends_a_game_for_a_reason(kit, reason):
    """A vote, an idle game or a clock run out: the table ends it (no seat, or the seat
    whose clock ran out), score 0, with that reason."""
    game = kit.game("no_variant", 3, hands=["r1 r2 r3 r4 r5", "y1 y2 y3 y4 y5", "g1 g2 g3 g4 g5"])
    game.apply(Action.play(0))
    seat = 1 if reason == "timeout" else None
    events = game.apply(Action.terminate(seat, reason))
    head = {"type": "terminate", "turn": 1}
    if seat is not None:
        head["seat"] = seat
    if reason != "terminated":
        head["reason"] = reason
    assert events == [head, {"type": "game_over", "turn": 1, "reason": reason, "score": 0}]
    assert game.result == {"reason": reason, "score": 0}
