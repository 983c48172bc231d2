"""The table as text, colour off, on fixed states (snapshots in snapshots/*.txt).

Run with UPDATE_SNAPSHOTS=1 to rewrite the snapshot files after a deliberate change, then
read the diff.
"""

from __future__ import annotations

import io
import os
from pathlib import Path

import pytest
from rich.console import Console

from hanabi.client.narrate import Narrator, player_names
from hanabi.client.render import TableRenderer, render_plain
from hanabi.client.variants import VariantInfo
from hanabi.game import VARIANTS, Action, catalogue

SNAPSHOTS = Path(__file__).parent / "snapshots"


def check_snapshot(name: str, text: str) -> None:
    path = SNAPSHOTS / f"{name}.txt"
    if os.environ.get("UPDATE_SNAPSHOTS") == "1":
        path.write_text(text + "\n", encoding="utf-8")
    assert path.exists(), f"no snapshot {path.name}: run with UPDATE_SNAPSHOTS=1 and review it"
    assert text + "\n" == path.read_text(encoding="utf-8")


def info_for(variant: str) -> VariantInfo:
    return VariantInfo.from_api(VARIANTS[variant].to_dict())


def render_with_log(table, seat, variant="no_variant"):
    view = table.view(seat)
    info = info_for(variant)
    narrator = Narrator(player_names(view), info)
    narrator.feed(table.log(seat))
    return render_plain(view, info, recent=narrator.recent(6), game_id=view["id"])


def test_mid_game_as_a_player(make_table):
    t = make_table(cards=["r1", "y1", "g1", "b1", "w1", "r2", "r3", "y5", "b2", "r1"])
    t.do(Action.clue(1, color="red"))  # alice: touches bob's r1, r3, r2 (slots 1, 4, 5)
    t.do(Action.play(t.hand(1)[0]))  # bob plays r1 from slot 1
    t.do(Action.play(t.hand(0)[4]))  # alice misplays r1 from slot 5: strike 1
    t.do(Action.discard(t.hand(1)[1]))  # bob discards b2 from slot 2
    t.do(Action.clue(1, rank=5))  # alice clues bob's y5
    t.do(Action.clue(0, rank=1))  # bob clues alice's 1s
    text = render_with_log(t, 0)
    check_snapshot("mid_game_alice", text)
    # What the snapshot must show, whatever its layout.
    assert "Strikes 1/3" in text and "Clues 6/8" in text
    assert "alice clued bob red, touching slots 1, 4 and 5" in text
    assert "alice misplayed R1 from slot 5 (strike 1 of 3)" in text
    assert "Discards  R: 1!  B: 2" in text
    assert "Your turn." in text
    # Alice never sees her own cards; she sees bob's.
    alice = text.split("2 bob")[0]
    assert "W1" not in alice and "?1*" in alice


def test_mid_game_as_the_other_player_and_a_spectator(make_table):
    t = make_table(cards=["r1", "y1", "g1", "b1", "w1", "r2", "r3", "y5", "b2", "r1"])
    t.do(Action.clue(1, color="red"), Action.play(t.hand(1)[0]))
    check_snapshot("mid_game_bob", render_with_log(t, 1))
    spectator = render_with_log(t, None)
    check_snapshot("mid_game_spectator", spectator)
    assert "bob drew" not in spectator
    assert "card " not in spectator  # no hand shows its cards to a spectator


def test_rainbow_three_players(make_table):
    t = make_table(players=("alice", "bob", "cathy"), variant="rainbow", seed="rb")
    t.do(t.clue_for(1, "color"))
    t.do(t.clue_for(2, "rank"))
    t.do(Action.discard(t.hand(2)[4]))
    text = render_with_log(t, 0, "rainbow")
    check_snapshot("rainbow_cathy_to_play", text)
    assert "Fireworks  R0 Y0 G0 B0 W0 M0" in text


def test_final_round_and_game_over(make_table):
    t = make_table(seed="end")
    game = t.game
    # Discard oldest cards until the deck runs out, then into the final round.
    while game.deck_size > 0:
        seat = game.current
        if game.clue_tokens == 8:
            t.do(t.clue_for(1 - seat))
        else:
            t.do(Action.discard(game.hands[seat][-1]))
    final = render_with_log(t, game.current)
    check_snapshot("final_round", final)
    assert "Final round: 2 turns left" in final
    assert "The deck is empty: final round, 2 turns left" in final
    t.do(
        t.clue_for(1 - game.current)
        if game.clue_tokens == 8
        else Action.discard(t.hand(game.current)[-1])
    )
    # One turn left: the count agrees with its noun.
    assert "Final round: 1 turn left" in render_with_log(t, game.current)
    while not game.is_over:
        seat = game.current
        if game.clue_tokens == 8:
            t.do(t.clue_for(1 - seat))
        else:
            t.do(Action.discard(game.hands[seat][-1]))
    over = render_with_log(t, 0)
    check_snapshot("game_over", over)
    assert "Game over (the deck ran out): final score 0/25" in over
    assert over.count("Game over") == 1  # the result line only, not among the moves too
    # Once over, every hand shows its cards, your own included.
    assert "1 alice (you, host)\n  slot" in over
    assert over.split("2 bob")[0].count("  card ") == 1


def test_lobby():
    view = lobby_view(max_players=4, you=1)
    text = render_plain(view, info_for("no_variant"), join_hint="hanabi-client join lob123")
    check_snapshot("lobby_bob", text)
    assert "Waiting for the host to start the game." in text
    host_text = render_plain({**view, "you": 0}, info_for("no_variant"))
    assert 'Type "start"' in host_text and "1 alice (you, host)" in host_text


def test_colour_is_extra_never_the_only_signal(make_table):
    """With colour on, the same letters are there; with NO_COLOR, no escape codes."""
    t = make_table(cards=["r1", "y1", "g1", "b1", "w1", "r2", "r3", "y5", "b2", "r1"])
    view = t.view(0)
    text = TableRenderer(info_for("no_variant")).render(view)
    coloured = io.StringIO()
    Console(file=coloured, force_terminal=True, color_system="standard", width=100).print(text)
    assert "\x1b[" in coloured.getvalue()
    plain = io.StringIO()
    Console(file=plain, force_terminal=True, no_color=True, width=100).print(text)
    assert "\x1b[3" not in plain.getvalue()  # no colour codes (bold may remain)
    for card in ("R2", "R3", "Y5", "B2", "R1"):
        assert card in plain.getvalue()


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_every_variant_renders_with_or_without_server_info(make_table, variant):
    t = make_table(players=("a", "b", "c"), variant=variant, seed="v")
    t.do(t.clue_for(1))
    view = t.view(2)
    with_info = render_plain(view, info_for(variant))
    guessed = render_plain(view, VariantInfo.from_view(view))
    assert with_info.splitlines()[3:] == guessed.splitlines()[3:]


def test_a_strikeout_scores_0_and_says_so_once(make_table):
    """Five cards played, then three misplays: the header and the result agree on 0."""
    t = make_table(cards=["r1", "y1", "g1", "b1", "w1", "y2", "y2", "g2", "g2", "b2"])
    for _ in range(5):  # alice plays R1 Y1 G1 B1 W1 (oldest first), bob clues her
        t.do(Action.play(t.hand(0)[-1]))
        t.do(t.clue_for(0))
    for _ in range(3):  # her newest cards: R3, R3, R4, a strike each
        t.do(Action.play(t.hand(0)[0]))
        if not t.game.is_over:
            t.do(t.clue_for(0))
    assert t.game.result == {"reason": "strikeout", "score": 0} and t.game.score == 5
    text = render_with_log(t, 1)
    assert "Score 0/25 (5 played)" in text.splitlines()[1]
    assert text.count("Game over") == 1
    assert text.endswith("Game over (three strikes): final score 0/25")


def test_scores_are_out_of_the_variants_perfect_score(make_table):
    """The view's max_score is the best still reachable; the table counts out of the
    variant's maximum (the server's, from GET /variants) and says the reachable one aside."""
    t = make_table(seed="top")
    view = {**t.view(0), "max_score": 21, "fireworks": {}}  # no fireworks to count either
    header = render_plain(view, info_for("no_variant")).splitlines()[1]
    assert header.startswith("Score 0/25 (max 21 now)")
    over = {**view, "result": {"reason": "deck_out", "score": 21}, "score": 21}
    assert render_plain(over, info_for("no_variant")).endswith("final score 21/25")
    assert info_for("black_powder").max_score == 35


def lobby_view(**over):
    return {
        "id": "lob123",
        "status": "lobby",
        "version": 3,
        "variant": "no_variant",
        "max_players": 2,
        "players": [
            {"seat": 0, "name": "alice", "bot": None},
            {"seat": 1, "name": "bob", "bot": None},
        ],
        "host": 0,
        "you": 0,
        "turn": 0,
        "current_seat": None,
        "hands": [],
        "fireworks": {},
        **over,
    }


def test_a_full_lobby_waits_for_the_host_not_for_players():
    hint = "hanabi-client join lob123 --name NAME"
    host = render_plain(lobby_view(), info_for("no_variant"), join_hint=hint)
    assert "Waiting for players" not in host and hint not in host
    assert 'Every seat is taken. Type "start" to deal' in host
    guest = render_plain(lobby_view(you=1), info_for("no_variant"), join_hint=hint)
    assert guest.endswith("Every seat is taken: waiting for the host to start the game.")
    room = render_plain(lobby_view(max_players=3), info_for("no_variant"), join_hint=hint)
    assert "Waiting for players" in room and f"Friends join with: {hint}" in room


def test_the_lobby_tags_server_bots_and_programs_that_said_what_they_play():
    players = [
        {"seat": 0, "name": "alice", "bot": None, "plays": None, "playing": None},
        {"seat": 1, "name": "robo", "bot": None, "plays": "hat", "playing": "conventions"},
        {"seat": 2, "name": "hat-bot-3", "bot": "hat", "plays": "hat", "playing": "conventions"},
        {"seat": 3, "name": "seeker", "bot": "search", "plays": "search", "playing": "search"},
    ]
    text = render_plain(lobby_view(players=players, max_players=4), info_for("no_variant"))
    assert "  1 alice (you, host)" in text
    # alice is a person: the hat seats play conventions, and the table says so
    assert "  2 robo (hat program, plays conventions here)" in text
    assert "  3 hat-bot-3 (hat bot, plays conventions here)" in text
    assert "  4 seeker (search bot)" in text
    among_hat = [dict(p, playing="hat") for p in players[1:3]]
    text = render_plain(lobby_view(players=among_hat, max_players=2), info_for("no_variant"))
    assert "  1 robo (you, host, hat program)" in text and "  2 hat-bot-3 (hat bot)" in text


def test_a_deal_the_host_chose_is_shown_at_the_table():
    chosen = render_plain(lobby_view(you=1, custom_deal=True), info_for("no_variant"))
    assert "The host chose this deal" in chosen
    for view in (lobby_view(you=1, custom_deal=False), lobby_view(you=1)):
        assert "chose this deal" not in render_plain(view, info_for("no_variant"))


def test_a_deal_the_host_chose_is_in_the_header_of_the_game(make_table):
    view = {**make_table().view(1), "custom_deal": True}
    title = render_plain(view, info_for("no_variant")).splitlines()[0]
    assert title.endswith("· turn 1 · the host chose this deal")


def test_list_marks_a_deal_the_host_chose():
    from hanabi.client.cli.listing import games_table

    players = [{"seat": 0, "name": "ann", "bot": None}]
    games = [
        {"id": "chosen", "status": "lobby", "variant": "rainbow", "max_players": 3,
         "players": players, "custom_deal": True},
        {"id": "shuffled", "status": "lobby", "variant": "no_variant", "max_players": 3,
         "players": players, "custom_deal": False},
    ]  # fmt: skip
    table = games_table(games).splitlines()
    assert table[1].split()[:4] == ["chosen", "lobby", "rainbow*", "1/3"]
    assert table[2].split()[:3] == ["shuffled", "lobby", "no_variant"]
    assert (
        table[-1] == "* the host chose this deal (a seed or a deck), so they may know every card."
    )
    assert "*" not in games_table(games[1:])


def test_throw_it_in_a_hole_says_the_score_is_hidden_until_the_end(make_table):
    """The view hides score and fireworks (null, ``score_hidden``): the table says so in
    words, never "Score None/25"."""
    name = next(catalogue.variants(rule="throw_it_in_a_hole", suits=5)).name
    t = make_table(variant=name)
    t.do(Action.play(t.hand(0)[0]))
    view = t.view(1)
    assert view["score_hidden"] == "throw_it_in_a_hole"
    info = VariantInfo.from_api(catalogue.variant(name).describe())
    text = render_plain(view, info, game_id="hole")
    assert "None" not in text and "null" not in text
    assert "Score hidden until the end" in text
    assert "Fireworks  R? Y? G? B? P?  (each hidden until the end)" in text, text
    # the list of games says the same of such a game in play (the server gives null)
    from hanabi.client.cli.listing import games_table

    players = [{"seat": 0, "name": "ann", "bot": None}, {"seat": 1, "name": "bob", "bot": None}]
    game = {"id": "hole", "status": "playing", "variant": name, "max_players": 2,
            "players": players, "score": None, "score_hidden": "throw_it_in_a_hole"}  # fmt: skip
    row = games_table([game]).splitlines()[1]
    assert row.endswith("ann, bob  hidden until the end") and "None" not in row, row
