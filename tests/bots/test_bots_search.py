"""The search layer: sampled worlds agree with what the seat knows, the clock caps a move,
and with no budget it is the conventions bot."""

from __future__ import annotations

import random
import time

import pytest

from hanabi.bots import choose_action, make_bot, play_game, seat_events
from hanabi.bots.search import SearchBot
from hanabi.game import Game, Setup


def search_bot_mid_game(seed: str, players: int, turns: int) -> tuple[Game, SearchBot]:
    finished = play_game(Setup.create("no_variant", players, seed=seed), "conventions")
    game = Game(finished.setup)
    for action in finished.actions[:turns]:
        game.apply(action)
    seat = game.current
    bot = make_bot("search", "no_variant", players, seat)
    assert isinstance(bot, SearchBot)
    replay = Game(game.setup)
    bot.observe(seat_events(replay.deal_events(), seat))
    for action in game.actions:
        bot.observe(seat_events(replay.apply(action), seat))
    return game, bot


@pytest.mark.parametrize("players", [2, 4])
def test_sampled_decks_fit_what_the_seat_knows(players: int) -> None:
    game, bot = search_bot_mid_game("sample", players, 21)
    obs = bot.obs
    copies = obs.variant.copies
    rng = random.Random(1)
    for _ in range(20):
        deck = bot._sample_deck(rng)
        assert deck is not None
        assert sorted(deck) == sorted(c for c, n in enumerate(copies) for _ in range(n))
        for order in obs.hands[obs.me]:
            assert obs.told[order] >> deck[order] & 1  # every clue it got holds
        for seat, hand in enumerate(game.hands):
            if seat != obs.me:
                assert [deck[o] for o in hand] == [game.deck[o] for o in hand]
        gone = game.discards + [o for stack in game.stacks for o in stack]
        assert all(deck[o] == game.deck[o] for o in gone)


def test_without_a_budget_it_plays_the_blueprint(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(SearchBot, "SAMPLES", 0)
    for seed in ("blue-1", "blue-2"):
        finished = play_game(Setup.create("no_variant", 2, seed=seed), "search")
        assert finished.actions == play_game(finished.setup, "conventions").actions


def test_the_clock_caps_a_move(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(SearchBot, "SAMPLES", 100_000)
    monkeypatch.setattr(SearchBot, "SECONDS", 0.2)
    monkeypatch.setattr(SearchBot, "DECK_AT", 99)  # search every move
    for turns in (5, 20, 35):
        game, _ = search_bot_mid_game("clock", 2, turns)
        t0 = time.perf_counter()
        action = choose_action("search", game, game.current)
        assert time.perf_counter() - t0 < 1.0
        assert action in game.legal_actions()


def test_it_searches_and_sometimes_deviates(monkeypatch: pytest.MonkeyPatch) -> None:
    """With a real budget the search does change moves (else it would be dead weight),
    and the same position always gives the same move."""
    monkeypatch.setattr(SearchBot, "SAMPLES", 16)
    deviations = 0
    for i in range(3):
        finished = play_game(Setup.create("no_variant", 2, seed=f"deviate-{i}"), "conventions")
        game = Game(finished.setup)
        for action in finished.actions:
            if game.deck_size <= SearchBot.DECK_AT and game.turn % 2 == 0:
                got = choose_action("search", game, game.current)
                assert got == choose_action("search", game, game.current)
                deviations += got != action
            game.apply(action)
    assert deviations
