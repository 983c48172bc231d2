"""Notes and the last move at the terminal, on real engine states: ``note`` names a card
by slot (yours, or a player's), the table draws the notes under the hands and the last
move above the board, and chat is listed apart so it never pushes a move out."""

from __future__ import annotations

import pytest

from hanabi.client.commands import CommandKind, InputError, parse
from hanabi.client.narrate import Narrator, player_names
from hanabi.client.notes import last_move
from hanabi.client.render import render_plain
from hanabi.client.variants import VariantInfo
from hanabi.game import VARIANTS, Action

CARDS = ["r1", "y1", "g1", "b1", "w1", "r2", "r3", "y5", "b2", "r1"]
INFO = VariantInfo.from_api(VARIANTS["no_variant"].to_dict())


@pytest.fixture
def table(make_table):
    return make_table(players=("alice", "bob"), cards=CARDS)


def test_note_names_a_card_by_slot_in_your_hand_or_a_players(table):
    view = table.view(0)
    mine = [c["order"] for c in view["hands"][0]]
    bobs = [c["order"] for c in view["hands"][1]]
    command = parse("note 2  chop, probably ", view, INFO)
    assert command.kind == CommandKind.NOTE
    assert (command.action, command.text) == ({"card": mine[1]}, "chop, probably")
    assert parse("note bob 5 save", view, INFO).action == {"card": bobs[4]}
    assert parse("note b 1 x", view, INFO).text == "x"
    assert parse("note 3", view, INFO).text == ""  # no text: delete the note


@pytest.mark.parametrize(
    ("line", "reason"),
    [
        ("note", "Which card?"),
        ("note 9 x", "There is no slot 9: slots are 1-5."),
        ("note carol 1 x", 'Nobody called "carol" here'),
        ("note bob x", "Which of their cards?"),
        ("note 1 " + "x" * 101, "A note holds at most 100 characters"),
    ],
)
def test_a_bad_note_gets_a_reason(table, line, reason):
    with pytest.raises(InputError, match=reason):
        parse(line, table.view(0), INFO)


def test_spectators_keep_no_notes(table):
    with pytest.raises(InputError, match="spectators keep no notes"):
        parse("note 1 x", table.view(None), INFO)


def test_the_table_shows_your_notes_and_the_last_move(table):
    clue = table.clue_for(1)
    table.do(clue)
    view = table.view(1)
    touched = table.game.clues[-1]["touched"]
    view["last_action"] = {**table.game.clues[-1], "touched": touched}
    view["notes"] = [{}, {str(view["hands"][1][0]["order"]): "maybe a 5?"}]
    text = render_plain(view, INFO)
    lines = text.splitlines()
    moved = next(i for i, line in enumerate(lines) if line.startswith("Last move: alice clued bob"))
    board = next(i for i, line in enumerate(lines) if "bob (you)" in line)
    assert moved < board  # above the board
    # the note's "5" is read as a smart note: the clue says 1, so none of the 5s fits
    assert "  note 1: maybe a 5? (none of these)" in lines
    assert last_move(view, INFO).startswith(f"alice clued bob {clue.rank}, touching slot")


def test_a_played_card_is_named_in_the_last_move(table):
    order = table.hand(0)[-1]
    table.do(Action.play(order))
    view = table.view(1)
    suit, rank = table.game.variant.card(table.game.deck[order])
    view["last_action"] = {
        "type": "play",
        "turn": 0,
        "seat": 0,
        "card": order,
        "suit": suit,
        "rank": rank,
    }
    assert last_move(view, INFO) == f"alice played {INFO.letter(suit)}{rank}"


def test_chat_never_pushes_the_last_moves_out(table):
    table.do(table.clue_for(1))
    view = table.view(0)
    narrator = Narrator(player_names(view), INFO)
    narrator.feed(table.events)
    narrator.feed(
        [{"type": "chat", "seat": 1, "name": "bob", "text": f"line {i}"} for i in range(9)]
    )
    assert narrator.recent(6)[-1].startswith("alice clued bob")
    assert narrator.chat(4) == [f"<bob> line {i}" for i in range(5, 9)]
    text = render_plain(view, INFO, recent=narrator.recent(6), chat=narrator.chat(4))
    assert "Last moves:" in text and "Chat:" in text and "<bob> line 8" in text
    assert "<bob> line 8" in narrator.history()[-1]
