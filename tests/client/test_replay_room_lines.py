"""What ``hanabi-client replay-room follow`` prints for a room: one line per state, from
the room's JSON as the server sends it (the API test and the end-to-end test check the
rest)."""

from __future__ import annotations

from typing import Any

from hanabi.client.cli.replays import describe_move, describe_room

NAMES = ["ann", "bob"]


def room(**over: Any) -> dict[str, Any]:
    base = {
        "leader": {"id": "m1", "name": "ann"},
        "turn": 3,
        "last_turn": 9,
        "highlight": [],
        "last_move": {"seat": 1, "action": {"type": "clue", "target": 0, "color": "red"}},
        "hypothetical": None,
        "view": {
            "players": [{"seat": 0, "name": "ann"}, {"seat": 1, "name": "bob"}],
            "score": 2,
            "clue_tokens": 6,
            "strikes": 1,
        },
    }
    return {**base, **over}


def test_each_kind_of_move_reads_as_a_sentence() -> None:
    assert describe_move(None, NAMES) == "the deal"
    assert describe_move({"seat": 0, "action": {"type": "play", "card": 4}}, NAMES) == (
        "ann played card #4"
    )
    assert describe_move({"seat": 1, "action": {"type": "discard", "card": 7}}, NAMES) == (
        "bob discarded card #7"
    )
    clue = {"seat": 0, "action": {"type": "clue", "target": 1, "rank": 3}}
    assert describe_move(clue, NAMES) == "ann clued bob 3s"
    ended = {"seat": None, "action": {"type": "terminate", "reason": "terminated"}}
    assert describe_move(ended, NAMES) == "the table ended the game"


def test_a_room_line_says_who_leads_where_and_what_is_pointed_at() -> None:
    assert describe_room(room()) == (
        "[ann leads] turn 3 of 9: bob clued ann red | score 2, clues 6, strikes 1"
    )
    marked = describe_room(room(highlight=[5, 12]))
    assert "| highlight #5, #12 |" in marked
    hypo = {"turn": 3, "reveal_draws": False, "current_turn": 5, "moves": []}
    assert describe_room(room(hypothetical=hypo)).startswith(
        "[ann leads] hypothetical from turn 3, now turn 5, draws hidden: bob clued ann red"
    )
