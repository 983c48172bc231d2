"""Knowing the table: a strategy with a private code (hat) plays it only among its own."""

from __future__ import annotations

import pytest

from hanabi.bots import (
    STRATEGIES,
    choose_action,
    choose_action_from_view,
    describe,
    descriptions,
    make_bot,
    play_game,
    playing,
    view_table,
)
from hanabi.bots.conventions import ConventionsBot
from hanabi.bots.hat import HatBot
from hanabi.game import Action, Game, Setup, view


def test_which_strategy_a_seat_plays() -> None:
    assert playing("hat", 0, ["hat", "hat", "hat"]) == "hat"
    assert playing("hat", 0, None) == "hat"  # table unknown: every seat plays it
    assert playing("hat", 1, [None, "hat"]) == "conventions"  # next to a person
    assert playing("hat", 0, ["hat", "conventions", "hat"]) == "conventions"
    assert playing("conventions", 0, [None, "hat"]) == "conventions"
    assert playing("search", 0, ["search", None]) == "search"
    assert isinstance(make_bot("hat", "no_variant", 2, 0, None, ["hat", None]), ConventionsBot)
    assert isinstance(make_bot("hat", "no_variant", 2, 0, None, ["hat", "hat"]), HatBot)
    with pytest.raises(ValueError):
        playing("hat", 3, ["hat", "hat"])


def test_strategies_say_what_they_expect() -> None:
    assert describe("hat").startswith("hat: only with other hat bots")
    assert "next to people" in describe("conventions")
    text = descriptions()
    assert all(f"{name}: " in text for name in STRATEGIES)


def conventions_game(players: int, seed: str) -> Game:
    return play_game(Setup.create("no_variant", players, seed=seed), "conventions")


@pytest.mark.parametrize(
    "table", [["hat", None], [None, "hat", "conventions"], ["conventions", "hat", "hat", "hat"]]
)
def test_a_hat_bot_with_a_person_or_conventions_bot_does_not_play_hat(table: list) -> None:
    seat = table.index("hat")
    differs = 0
    for i in range(3):
        finished = conventions_game(len(table), f"table-{i}")
        game = Game(finished.setup)
        for action in finished.actions:
            if game.current == seat:
                got = choose_action("hat", game, seat, table)
                assert got == choose_action("conventions", game, seat)
                differs += got != choose_action("hat", game, seat)  # what hat would do
            game.apply(action)
    assert differs  # so the check above is not vacuous


def test_mixed_tables_play_conventions_and_do_not_strike_out() -> None:
    for seats in (
        ["hat", "conventions"],
        ["conventions", "hat", "hat"],
        ["hat"] * 4 + ["conventions"],
    ):
        for i in range(10):
            game = play_game(Setup.create("no_variant", len(seats), seed=f"mixtable-{i}"), seats)
            assert game.result["reason"] != "strikeout"
            assert game.result["score"] >= 15


def test_an_api_bot_reads_the_table_from_the_view() -> None:
    finished = conventions_game(2, "view-table")
    game = Game(finished.setup)
    for action in finished.actions[:9]:
        game.apply(action)
    seat = game.current
    seat_view = view(game, seat)
    assert view_table(seat_view, "hat") is None  # the engine's view names players only
    log = []
    replay = Game(game.setup)
    log += replay.deal_events()
    for action in game.actions:
        log += replay.apply(action)
    from hanabi.game.views import redact_event

    log = [redact_event(e, seat, False) for e in log]
    api_view = {**seat_view, "players": [{"seat": s, "name": "x", "bot": None} for s in range(2)]}
    assert view_table(api_view, "hat") == ["hat" if s == seat else None for s in range(2)]
    with_person = Action.from_dict(choose_action_from_view("hat", api_view, log))
    assert with_person == choose_action("conventions", game, seat)
    all_hat = {**api_view, "players": [{"seat": s, "name": "x", "bot": "hat"} for s in range(2)]}
    assert Action.from_dict(choose_action_from_view("hat", all_hat, log)) == choose_action(
        "hat", game, seat
    )
    # Another API client's seat that said it plays hat (``plays``; ``bot`` is a server
    # bot's only) counts as hat too.
    declared = {
        **api_view,
        "players": [{"seat": s, "name": "x", "bot": None, "plays": "hat"} for s in range(2)],
    }
    assert view_table(declared, "hat") == ["hat", "hat"]
    assert choose_action_from_view("hat", declared, log) == choose_action_from_view(
        "hat", all_hat, log
    )
    # A seat that never said it plays hat is a person to the others, who then play the
    # conventions with it: so does it.
    unsaid = {**declared, "players": [dict(p) for p in declared["players"]]}
    unsaid["players"][seat]["plays"] = None
    assert view_table(unsaid, "hat") == [None if s == seat else "hat" for s in range(2)]
    assert Action.from_dict(choose_action_from_view("hat", unsaid, log)) == with_person
