"""A spectator's table at the terminal (issue #44): the line that says what the table
shows spectators, the shadowed seat's hand first and marked, as that seat knows it, and
``--shadow``'s player read by name or number as the table counts them."""

from __future__ import annotations

import pytest
from test_render import info_for

from hanabi.client.cli.entry import build_parser
from hanabi.client.render import render_plain
from hanabi.client.spectating import Spectating, seat_asked, shadow_seat, watching_line
from hanabi.game import Action

CARDS = ["r1", "y1", "g1", "b1", "w1", "r2", "r3", "y5", "b2", "r1"]


def hand_block(text: str, head: str) -> str:
    """The lines of one hand, from its head line to the blank line after it."""
    start = text.index(head)
    return text[start : text.index("\n\n", start)]


def test_a_shadow_shows_that_seat_first_as_it_knows_its_cards(make_table):
    t = make_table(cards=CARDS)
    t.do(Action.clue(1, color="red"))
    view = {**t.view(1), "you": None, "spectating": "shadow", "shadow_seat": 1}
    assert shadow_seat(view) == 1
    text = render_plain(view, info_for("no_variant"))
    assert text.index("2 bob (shadowed)") < text.index("1 alice")
    bob = hand_block(text, "2 bob (shadowed)")
    assert "card " not in bob and "knows" in bob and "suits" in bob  # as bob knows them
    assert "card " in hand_block(text, "1 alice")  # alice's cards, as bob sees them
    assert "Watching as bob sees the table: their own cards as they know them." in text


@pytest.mark.parametrize(
    ("spectating", "said"),
    [
        ("hands", "Watching: every hand shows (never the deck)."),
        ("full", "Watching: every card shows, as only bots sit at this table."),
        ("public", "Watching: this table hides the hands from spectators until the game is over."),
    ],
)
def test_the_line_says_what_the_table_shows(make_table, spectating, said):
    t = make_table(cards=CARDS)
    view = {**(t.view(None) if spectating == "public" else t.full()), "spectating": spectating}
    text = render_plain(view, info_for("no_variant"))
    assert said in text
    shown = "card " in text
    assert shown == (spectating != Spectating.PUBLIC)


def test_no_line_for_a_seat_a_finished_game_or_an_older_server(make_table):
    t = make_table(cards=CARDS)
    assert watching_line({**t.view(0), "spectating": None}) is None
    assert watching_line(t.view(None)) is None  # a server that does not say
    over = {**t.full(), "status": "finished", "spectating": "full"}
    assert watching_line(over) is None


def test_the_player_to_shadow_by_name_or_number():
    names = ["ann", "Bob", "cathy"]
    assert seat_asked("2", names) == 1
    assert seat_asked("bob", names) == 1
    assert seat_asked(" CATHY ", names) == 2
    assert seat_asked("0", names) is None
    assert seat_asked("4", names) is None
    assert seat_asked("dave", names) is None


def test_watch_and_create_take_the_new_options():
    args = build_parser().parse_args(["watch", "g1", "--shadow", "bob"])
    assert args.shadow == "bob"
    args = build_parser().parse_args(["create", "--hide-hands"])
    assert args.hide_hands is True
