"""``next MOVE`` at the terminal, on real engine states: it is read while another seat
is to move, and the queued move waits, is sent on the seat's turn, or is dropped when a
clue touched its card or the server would not take it then (client/premove.py)."""

from __future__ import annotations

import pytest

from hanabi.client.commands import CommandKind, InputError, parse
from hanabi.client.premove import PreMove, Verdict
from hanabi.client.render import render_plain
from hanabi.client.variants import VariantInfo
from hanabi.game import VARIANTS, Action

# alice: r1 y1 g1 b1 w1 (slot 1 = w1, the newest); bob: r2 y2 g2 b2 w2
CARDS = ["r1", "y1", "g1", "b1", "w1", "r2", "y2", "g2", "b2", "w2", "r3", "y3", "g3"]
INFO = VariantInfo.from_api(VARIANTS["no_variant"].to_dict())


@pytest.fixture
def table(make_table):
    return make_table(players=("alice", "bob"), cards=CARDS)


def test_next_reads_a_move_on_someone_elses_turn(table):
    view = table.view(1)  # alice is to move
    with pytest.raises(InputError, match="It is not your turn"):
        parse("p 1", view, INFO)
    command = parse("next p 1", view, INFO)
    assert command.kind == CommandKind.NEXT
    assert command.action == {"type": "play", "card": view["hands"][1][0]["order"]}
    assert command.text == "p 1"
    assert parse("next c alice 3", view, INFO).action == {"type": "clue", "target": 0, "rank": 3}
    assert parse("next cancel", view, INFO).action == {}
    for line, reason in [
        ("next", "Queue which move?"),
        ("next chat hi", "Only a play, a discard or a clue can be queued."),
        ("next p 9", "There is no slot 9"),
    ]:
        with pytest.raises(InputError, match=reason):
            parse(line, view, INFO)


def test_a_queued_move_waits_then_goes_or_is_dropped(table):
    bob_first = table.hand(1)[0]
    queued = PreMove.queue({"type": "play", "card": bob_first}, "p 1", table.view(1))
    assert queued.verdict(table.view(1)) == Verdict.WAIT  # alice is to move
    table.do(Action.clue(1, color="red"))  # touches bob's r2 only (slot 5)
    assert queued.verdict(table.view(1)) == Verdict.SEND
    # a clue that touches the queued card drops it
    oldest = table.hand(1)[-1]
    touched = PreMove.queue({"type": "discard", "card": oldest}, "d 5", table.view(0))
    assert touched.verdict(table.view(1)) == Verdict.SEND
    early = PreMove.queue({"type": "discard", "card": oldest}, "d 5", table.view(1))
    table.do(Action.clue(0, rank=1))  # bob clues alice: alice to move, bob's card untouched
    table.do(Action.clue(1, rank=2))  # alice clues bob's 2s: every card of his, slot 5 too
    assert early.verdict(table.view(1)) == Verdict.TOUCHED
    # a clue no card answers is not a legal move on the turn: dropped
    wrong = PreMove.queue({"type": "clue", "target": 0, "rank": 5}, "c alice 5", table.view(1))
    assert wrong.verdict(table.view(1)) == Verdict.ILLEGAL


def test_a_smart_note_narrows_the_card_under_the_hand(table):
    view = table.view(0)
    mine = view["hands"][0]
    view["notes"] = [{str(mine[1]["order"]): "r1 b1 f", str(mine[2]["order"]): "kt"}, {}]
    lines = render_plain(view, INFO).splitlines()
    assert "  note 2: r1 b1 f (may be R1 B1 · finessed)" in lines
    assert "  note 3: kt (known trash)" in lines
    view["notes"] = [{str(mine[1]["order"]): "save this"}, {}]
    assert "  note 2: save this" in render_plain(view, INFO).splitlines()  # plain words
