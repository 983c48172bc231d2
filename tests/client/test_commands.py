"""The prompt grammar, read against real views: moves become API actions, or a reason."""

from __future__ import annotations

import pytest

from hanabi.client import i18n
from hanabi.client.commands import HELP, Command, InputError, parse
from hanabi.client.variants import VariantInfo
from hanabi.game import VARIANTS, Action

CARDS = ["r1", "y1", "g1", "b1", "w1", "r2", "r3", "y5", "b2", "r1"]


@pytest.fixture
def alice(make_table):
    """Alice to play, 3 players; returns (view, info)."""
    t = make_table(players=("alice", "bob", "bobby"), cards=CARDS)
    return t, t.view(0), VariantInfo.from_api(VARIANTS["no_variant"].to_dict())


def test_play_and_discard_name_cards_by_slot(alice):
    _, view, info = alice
    hand = [c["order"] for c in view["hands"][0]]
    assert parse("play 1", view, info).action == {"type": "play", "card": hand[0]}
    assert parse("p 5", view, info).action == {"type": "play", "card": hand[4]}
    assert parse("discard 2", view, info).action == {"type": "discard", "card": hand[1]}
    assert parse("  D   3 ", view, info).action == {"type": "discard", "card": hand[2]}


@pytest.mark.parametrize(
    ("line", "action"),
    [
        ("clue bob red", {"target": 1, "color": "red"}),
        ("c bob r", {"target": 1, "color": "red"}),
        ("c BOB Yel", {"target": 1, "color": "yellow"}),
        ("clue 2 3", {"target": 1, "rank": 3}),
        ("c 3 b", {"target": 2, "color": "blue"}),
        ("c bobby 5", {"target": 2, "rank": 5}),
        ("c bobb w", {"target": 2, "color": "white"}),
    ],
)
def test_clues_by_name_number_colour_letter_or_rank(alice, line, action):
    _, view, info = alice
    assert parse(line, view, info).action == {"type": "clue", **action}


@pytest.mark.parametrize(("tag", "word"), [("ru", "красный"), ("zh-Hans", "红色")])
def test_a_clue_takes_the_colour_as_the_board_says_it(alice, tag, word):
    """The board lists "красный (r)": the word works as well as the letter."""
    _, view, info = alice
    i18n.use(tag)
    try:
        assert parse(f"c bob {word}", view, info).action == {
            "type": "clue",
            "target": 1,
            "color": "red",
        }
    finally:
        i18n.use("en")


@pytest.mark.parametrize(
    ("line", "reason"),
    [
        ("fly 2", 'Unknown command "fly"'),
        ("play", "Which slot?"),
        ("play 0", "There is no slot 0: your slots are 1-5."),
        ("play 6", "There is no slot 6"),
        ("play two", '"two" is not a slot'),
        ("discard 1 2", "Too many words"),
        ("clue bob", "Clue whom with what?"),
        ("clue alice red", "You cannot clue yourself."),
        ("clue 1 red", "You cannot clue yourself."),
        ("clue bo red", '"bo" could be bob or bobby.'),
        ("clue carol red", 'Nobody called "carol" here'),
        ("clue 4 red", "There is no player 4"),
        ("clue bob purple", '"purple" is not a clue colour or rank.'),
        ("clue bob 6", "6 is not a rank you can clue"),
        ("chat", "Say what?"),
        ("help me", '"help" takes no arguments.'),
        ("terminate", 'type "terminate now"'),
        ("vote", 'Type "vote end"'),
        ("vote maybe", 'Type "vote end"'),
    ],
)
def test_bad_input_gets_a_one_line_reason(alice, line, reason):
    _, view, info = alice
    with pytest.raises(InputError) as caught:
        parse(line, view, info)
    assert reason in str(caught.value)
    assert "\n" not in str(caught.value)


def test_moves_out_of_turn_or_out_of_game_are_refused(alice):
    t, view, info = alice
    bob_view = t.view(1)
    with pytest.raises(InputError, match="not your turn: alice is to play"):
        parse("p 1", bob_view, info)
    with pytest.raises(InputError, match="spectators cannot move"):
        parse("p 1", t.view(None), info)
    with pytest.raises(InputError, match="not started"):
        parse("p 1", {**view, "status": "lobby"}, info)
    with pytest.raises(InputError, match="over"):
        parse("p 1", {**view, "result": {"reason": "terminated", "score": 0}}, info)


def test_other_commands(alice):
    _, view, info = alice
    assert parse("chat good luck, all!", view, info).text == "good luck, all!"
    assert parse("say hi", view, info).kind == "chat"
    for word, kind in [("help", "help"), ("?", "help"), ("h", "help"), ("history", "history"),
                       ("q", "quit"), ("quit", "quit"), ("exit", "quit"), ("start", "start"),
                       ("leave", "leave"), ("", "redraw"), ("terminate now", "vote"), ("vote end", "vote")]:  # fmt: skip
        assert parse(word, view, info).kind == kind
    # Commands other than moves work without a view (before the first one arrives).
    assert parse("help", None, None).kind == "help"
    assert "play SLOT" in HELP and "clue WHO WHAT" in HELP


def test_two_players_clue_needs_no_name(make_table):
    t = make_table(cards=CARDS)
    view = t.view(0)
    assert parse("c r", view, None).action == {"type": "clue", "target": 1, "color": "red"}
    assert parse("c 5", view, None).action == {"type": "clue", "target": 1, "rank": 5}


def test_variant_colours_and_black_is_k(make_table):
    t = make_table(players=("a", "b"), variant="black_powder", seed="1")
    info = VariantInfo.from_api(VARIANTS["black_powder"].to_dict())
    view = t.view(0)
    assert parse("c b k", view, info).action["color"] == "black"
    assert parse("c b b", view, info).action["color"] == "blue"
    assert parse("c b m", view, info).action["color"] == "multicolor"
    with pytest.raises(InputError, match=r"black \(k\)"):
        parse("c b x", view, info)


def test_wild_rainbow_play_may_name_a_firework(make_table):
    t = make_table(players=("a", "b"), variant="wild_rainbow", seed="1")
    info = VariantInfo.from_api(VARIANTS["wild_rainbow"].to_dict())
    view = t.view(0)
    action = parse("p 1 g", view, info).action
    assert action["firework"] == "green"
    with pytest.raises(InputError, match="not a firework"):
        parse("p 1 wild_rainbow", view, info)


def test_parsed_actions_are_legal_for_the_engine(make_table):
    """What the grammar produces is exactly what the engine (and server) accept."""
    t = make_table(players=("alice", "bob", "cathy"), cards=CARDS)
    for line in ("c bob r", "p 1", "c alice 1", "d 5", "c 3 r"):
        action = parse(line, t.view(t.game.current), None).action
        t.do(Action.from_dict(action))
    assert t.game.turn == 5


def test_lobby_commands_carry_their_request_body():
    assert parse("start", None, None).action == {}
    assert parse("start watch", None, None).action == {"watch": True}
    with pytest.raises(InputError, match="start watch"):
        parse("start now", None, None)
    paced = parse("start watch 1.5", None, None)
    assert paced.action == {"watch": True} and paced.pace == 1.5
    assert parse("start watch", None, None).pace is None  # the table's default pace
    for bad in ("start watch fast", "start watch -1", "start watch nan", "start 2"):
        with pytest.raises(InputError, match="start watch"):
            parse(bad, None, None)
    assert parse("bot", None, None) == Command("bot", {})
    assert parse("bot hat", None, None).action == {"strategy": "hat"}
    assert parse("bot Hat Robo the Great", None, None).action == {
        "strategy": "hat",
        "name": "Robo the Great",
    }
    assert "bot [STRATEGY] [NAME]" in HELP and "start watch" in HELP


def test_pause_resume_and_opening_a_kept_seat(alice):
    _, view, info = alice
    assert parse("pause", view, info) == Command("pause", {"paused": True})
    assert parse("Resume", view, info) == Command("pause", {"paused": False})
    assert parse("unpause", view, info).action == {"paused": False}
    with pytest.raises(InputError, match="takes no arguments"):
        parse("pause now", view, info)
    assert parse("open Bob Smith", view, info) == Command("open", text="Bob Smith")
    with pytest.raises(InputError, match="Open whose seat"):
        parse("open", view, info)
