"""The entry points others build on: registry, stateless server decisions, API clients."""

from __future__ import annotations

import pytest

from hanabi.bots import (
    DEFAULT_STRATEGY,
    STRATEGIES,
    choose_action,
    choose_action_from_view,
    get_strategy,
    play_game,
)
from hanabi.game import Action, Game, Setup, view
from hanabi.game.views import redact_event


def test_registry() -> None:
    assert DEFAULT_STRATEGY == "conventions"
    assert {"conventions"} <= set(STRATEGIES)
    assert get_strategy("conventions").name == "conventions"
    with pytest.raises(KeyError, match="unknown strategy"):
        get_strategy("nope")


def test_choose_action_refuses_when_not_the_seats_turn() -> None:
    game = Game(Setup.create("no_variant", 3, seed="x"))
    with pytest.raises(ValueError):
        choose_action("conventions", game, 1)


def api_log(game: Game, seat: int, with_deal: bool = True) -> list[dict]:
    """The event log as the REST API serves it to ``seat`` (redacted while the game is on)."""
    replay = Game(game.setup)
    log = list(replay.deal_events()) if with_deal else []
    for action in game.actions:
        log += replay.apply(action)
    return [redact_event(e, seat, game.is_over) for e in log]


@pytest.mark.parametrize("strategy", sorted(STRATEGIES))
@pytest.mark.parametrize("variant", ["no_variant", "wild_rainbow"])
def test_api_client_decides_like_the_server(strategy: str, variant: str) -> None:
    finished = play_game(Setup.create(variant, 3, seed="api"), strategy)
    for turn in (0, 1, 9, 30, len(finished.actions) - 1):
        game = Game(finished.setup)
        for action in finished.actions[:turn]:
            game.apply(action)
        seat = game.current
        expected = choose_action(strategy, game, seat)
        assert finished.actions[turn] == expected
        seat_view = view(game, seat)
        for with_deal in (True, False):
            got = choose_action_from_view(strategy, seat_view, api_log(game, seat, with_deal))
            assert Action.from_dict(got) == expected
            assert {**got, "turn": seat_view["turn"]} in seat_view["legal_actions"]


def test_api_client_ignores_lobby_and_chat_events() -> None:
    """The API's log starts with table events (joins, start) and carries chat lines."""
    finished = play_game(Setup.create("no_variant", 2, seed="lobby"), "conventions")
    game = Game(finished.setup)
    for action in finished.actions[:7]:
        game.apply(action)
    lobby = [{"type": "join", "seat": 1, "name": "bob"}, {"type": "start"}]
    log = lobby + api_log(game, game.current)
    log.insert(len(lobby) + 12, {"type": "chat", "seat": 0, "text": "nice"})
    got = choose_action_from_view("conventions", view(game, game.current), log)
    assert Action.from_dict(got) == finished.actions[7]


def test_api_client_refuses_a_stale_log() -> None:
    game = Game(Setup.create("no_variant", 2, seed="stale"))
    game.apply(choose_action("conventions", game, 0))
    log = api_log(game, 1)
    game.apply(choose_action("conventions", game, 1))
    game.apply(choose_action("conventions", game, 0))
    with pytest.raises(ValueError):
        choose_action_from_view("conventions", view(game, 1), log)
