"""What ``hanabi-client replay-room follow`` prints for a room, and how ``lead`` reads a
move: one numbering with the table (turns from 1, the deal being turn 1; players and
slots from 1), the last move in the table's words (the API test and the end-to-end test
check the rest)."""

from __future__ import annotations

from typing import Any

import pytest

from hanabi.client.cli.common import Fail
from hanabi.client.cli.replays import describe_move, describe_room, highlight_orders, lead_move
from hanabi.client.variants import VariantInfo
from hanabi.game import VARIANTS

INFO = VariantInfo.from_api(VARIANTS["no_variant"].to_dict())


def card(order: int, suit: str | None = "red", rank: int | None = 1) -> dict[str, Any]:
    return {"order": order, "suit": suit, "rank": rank}


def room(**over: Any) -> dict[str, Any]:
    view = {
        "players": [{"seat": 0, "name": "ann"}, {"seat": 1, "name": "bob"}],
        "hands": [[card(9), card(7), card(3)], [card(8), card(5, "blue", 2), card(2)]],
        "score": 2,
        "clue_tokens": 6,
        "strikes": 1,
        "current_seat": 0,
        "result": None,
        "last_action": {"type": "clue", "seat": 1, "target": 0, "color": "red", "touched": [7]},
        **over.pop("view", {}),
    }
    base = {
        "leader": {"id": "m1", "name": "ann"},
        "turn": 3,
        "last_turn": 9,
        "highlight": [],
        "last_move": {"seat": 1, "action": {"type": "clue", "target": 0, "color": "red"}},
        "hypothetical": None,
        "view": view,
    }
    return {**base, **over}


def test_the_last_move_reads_as_the_table_says_it() -> None:
    assert describe_move(room(last_move=None), INFO) == "the deal"
    assert describe_move(room(), INFO) == "bob clued ann red, touching slot 2"
    # a misplay that ended the game: what was misplayed and the strike, not "card #45"
    misplay = {"type": "misplay", "seat": 0, "card": 45, "suit": "red", "rank": 4}
    over = {"reason": "strikeout", "score": 0}
    ended = room(
        turn=9,
        last_move={"seat": 0, "action": {"type": "play", "card": 45}},
        view={"last_action": misplay, "strikes": 3, "score": 8, "result": over},
    )
    assert describe_move(ended, INFO) == "ann misplayed R4 (strike 3 of 3)"
    line = describe_room(ended, INFO)
    assert "card #45" not in line
    assert line.endswith("| Game over (three strikes): final score 0/25"), line


def test_a_room_line_numbers_turns_players_and_slots_as_the_table_does() -> None:
    assert describe_room(room(), INFO) == (
        "[ann leads] turn 4 of 10: bob clued ann red, touching slot 2 | score 2, clues 6, strikes 1"
    )
    marked = describe_room(room(highlight=[5, 9, 40]), INFO)
    assert "| highlight bob's slot 2, ann's slot 1, card #40 |" in marked
    hypo = {"turn": 3, "reveal_draws": False, "current_turn": 5, "moves": []}
    assert describe_room(room(hypothetical=hypo), INFO).startswith(
        "[ann leads] hypothetical from turn 4, now turn 6, draws hidden: bob clued ann red"
    )


def test_a_leaders_move_is_typed_as_at_the_table() -> None:
    hypo = {"turn": 3, "reveal_draws": True, "current_turn": 5, "current_seat": 1}
    at = room(hypothetical=hypo, view={"current_seat": 1})
    # slot 2 of the seat to move (bob), not card order 2
    assert lead_move(at, "play", ["2"], INFO) == {"turn": 5, "type": "play", "card": 5}
    assert lead_move(at, "discard", ["3"], INFO) == {"turn": 5, "type": "discard", "card": 2}
    # player 1 is ann, as the table lists players; by name too
    clue = {"turn": 5, "type": "clue", "target": 0, "rank": 3}
    assert lead_move(at, "clue", ["1", "3"], INFO) == clue
    assert lead_move(at, "clue", ["ann", "red"], INFO)["color"] == "red"
    with pytest.raises(Fail, match="You cannot clue yourself"):
        lead_move(at, "clue", ["2", "3"], INFO)
    with pytest.raises(Fail, match="There is no slot 4"):
        lead_move(at, "play", ["4"], INFO)
    with pytest.raises(Fail, match="Branch first"):
        lead_move(room(), "play", ["1"], INFO)


def test_highlighted_cards_are_typed_as_player_and_slot() -> None:
    view = room()["view"]
    assert highlight_orders("bob:2, 1:3, 40", view) == [5, 3, 40]
    with pytest.raises(Fail, match="Nobody called"):
        highlight_orders("cat:1", view)
    with pytest.raises(Fail, match="PLAYER:SLOT"):
        highlight_orders("bob:9", view)
