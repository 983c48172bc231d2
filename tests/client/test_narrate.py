"""Events in words, with slots as the table showed them when the event happened."""

from __future__ import annotations

from hanabi.client.narrate import Narrator, slots_text
from hanabi.client.variants import VariantInfo
from hanabi.game import VARIANTS, Action

CARDS = ["r1", "y1", "g1", "b1", "w1", "r2", "r3", "y5", "b2", "r1"]


def narrator(names=("alice", "bob")):
    return Narrator(list(names), VariantInfo.from_api(VARIANTS["no_variant"].to_dict()))


def test_every_engine_event_in_words(make_table):
    t = make_table(cards=CARDS)
    t.do(Action.clue(1, color="red"), Action.play(t.hand(1)[0]))
    t.do(Action.play(t.hand(0)[4]), Action.discard(t.hand(1)[1]))
    n = narrator()
    lines = n.feed(t.log(0))
    seen = len(t.events)
    t.do(Action.terminate(1))
    lines += n.feed(t.log(0)[seen:])
    assert lines[:5] == ["alice drew a card"] * 5
    assert lines[5:10] == [
        "bob drew R2",
        "bob drew R3",
        "bob drew Y5",
        "bob drew B2",
        "bob drew R1",
    ]
    assert [line for line in lines if "drew" not in line] == [
        "alice clued bob red, touching slots 1, 4 and 5",
        "bob played R1 from slot 1",
        "alice misplayed R1 from slot 5 (strike 1 of 3)",
        "bob discarded B2 from slot 2",
        "bob ended the game",
        "Game over (ended by vote): score 0",
    ]
    # The table and the bot print the result on their own line: not among the recent moves.
    assert n.recent(2) == ["bob discarded B2 from slot 2", "bob ended the game"]
    assert n.history()[-1] == "Game over (ended by vote): score 0"
    assert len(n.history()) == len(lines)


def test_a_five_gives_a_clue_back_and_chat_is_quoted(make_table):
    t = make_table(cards=["r1", "r2", "r3", "r4", "r5", "y1", "y2", "y3", "y4", "y5"])
    for order in (0, 1, 2, 3, 4):
        t.do(Action.play(order))  # alice plays r1 .. r5, oldest first
        if order < 4:
            t.do(t.clue_for(0))  # bob spends a clue
    n = narrator()
    lines = [line for line in n.feed(t.log(1)) if "drew" not in line]
    assert "alice played R5 from slot 5 and got a clue back" in lines
    assert n.feed(
        [{"seq": 99, "type": "chat", "turn": 3, "seat": 1, "name": "bob", "text": "nice"}]
    ) == ["<bob> nice"]


def test_final_round_and_unknown_slots():
    n = narrator()
    assert n.feed([{"type": "final_round", "turn": 40, "turns_left": 2}]) == [
        "The deck is empty: final round, 2 turns left"
    ]
    # Without the draws that put them there, a clue's slots are left out, not guessed.
    assert n.feed(
        [
            {
                "type": "clue",
                "turn": 41,
                "seat": 0,
                "target": 1,
                "color": None,
                "rank": 3,
                "touched": [7],
            }
        ]
    ) == ["alice clued bob 3"]
    assert n.feed([{"type": "mystery", "turn": 1}]) == []


def test_slots_text():
    # the tail of a clue's sentence, comma included (the web client says the same words)
    assert slots_text([]) == ", touching nothing"
    assert slots_text([2]) == ", touching slot 2"
    assert slots_text([2, 4]) == ", touching slots 2 and 4"


def test_votes_and_the_table_ends_in_words():
    n = narrator()
    n.names = ["alice", "bob"]
    assert n.feed(
        [
            {"type": "vote", "turn": 3, "end": True, "votes": 1, "needed": 2, "seq": 20},
            {"type": "vote", "turn": 3, "end": False, "votes": 0, "needed": 2, "seq": 21},
            {"type": "terminate", "turn": 3, "seq": 22},
            {"type": "terminate", "turn": 3, "seat": 1, "reason": "timeout", "seq": 23},
            {"type": "terminate", "turn": 3, "reason": "idle", "seq": 24},
            {"type": "game_over", "turn": 3, "reason": "timeout", "score": 0, "seq": 25},
        ]
    ) == [
        "Someone voted to end the game (1 of 2 needed)",
        "A vote to end the game was taken back (0 of 2 needed)",
        "The players voted to end the game",
        "bob ran out of time",
        "Nobody moved for too long: the server ended the game",
        "Game over (a clock ran out): score 0",
    ]


def test_a_program_saying_what_it_plays_in_words():
    n = narrator()
    assert n.feed(
        [
            {"type": "join", "turn": 0, "seat": 2, "name": "robo", "bot": None, "plays": "hat"},
            {"type": "plays", "turn": 0, "seat": 1, "name": "bob", "plays": "search"},
            {"type": "plays", "turn": 0, "seat": 1, "name": "bob", "plays": None},
        ]
    ) == [
        "robo joined (a hat program)",
        "bob plays search (a program)",
        "bob plays in person",
    ]


def test_a_seat_freed_in_the_lobby_does_not_rename_the_seats_that_moved_up():
    """bob leaves, carol moves up to seat 1 before the deal: the game's seat 1 is carol's
    (the log's join said seat 2 for her, and seat 1 for bob)."""
    n = narrator(("alice", "carol"))
    lobby = [
        {"type": "join", "turn": 0, "seat": 0, "name": "alice", "bot": None},
        {"type": "join", "turn": 0, "seat": 1, "name": "bob", "bot": None},
        {"type": "join", "turn": 0, "seat": 2, "name": "carol", "bot": None},
        {"type": "leave", "turn": 0, "seat": 1, "name": "bob", "bot": None, "host": 0},
        {"type": "start", "turn": 0},
    ]
    clue = {"type": "clue", "turn": 0, "seat": 0, "target": 1, "color": "red", "touched": []}
    discard = {"type": "discard", "turn": 1, "seat": 1, "card": 5, "suit": "red", "rank": 2}
    assert n.feed([*lobby, clue, discard]) == [
        "alice joined",
        "bob joined",
        "carol joined",
        "bob left",
        "The game started",
        "alice clued carol red, touching nothing",
        "carol discarded R2",
    ]
    assert n.names == ["alice", "carol"]


def test_pauses_and_a_declined_seat_in_words():
    n = narrator()
    events = [
        {"type": "pause", "seq": 1, "turn": 0, "paused": False, "changed": False, "votes": 1,
         "needed": 2},
        {"type": "pause", "seq": 2, "turn": 0, "paused": True, "changed": True, "votes": 0,
         "needed": 2},
        {"type": "pause", "seq": 3, "turn": 0, "paused": True, "changed": False, "votes": 1,
         "needed": 2},
        {"type": "pause", "seq": 4, "turn": 0, "paused": True, "changed": False, "votes": 0,
         "needed": 2},
        {"type": "decline", "seq": 5, "turn": 0, "name": "carol"},
    ]  # fmt: skip
    assert n.feed(events) == [
        "Someone voted to pause (1 of 2 needed)",
        "The game is paused",
        "Someone voted to go on (1 of 2 needed)",
        "A vote was taken back (0 of 2 needed)",
        "carol declined: the seat is open",
    ]
