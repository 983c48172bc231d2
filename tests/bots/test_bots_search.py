"""The search layer: sampled worlds agree with what the seat knows, the clock caps a move,
and with no budget it is its blueprint: the conventions next to anyone, hat among search
bots only."""

from __future__ import annotations

import random
import time
from typing import Any

import pytest

from hanabi.bots import choose_action, make_bot, play_game, seat_events
from hanabi.bots.hat import HatBot
from hanabi.bots.hat_search import HatSearch, HatSearchBot
from hanabi.bots.search import Search, SearchBot
from hanabi.game import Action, Game, Setup

WITH_PERSON = "person"  # a table where seat 0 is a person: search on conventions
AMONG_OWN = "search"  # every seat a search bot: search on hat


def table_of(kind: str, players: int) -> list[str | None]:
    return ["search"] * players if kind == AMONG_OWN else [None] + ["search"] * (players - 1)


def search_bot_mid_game(
    seed: str, players: int, turns: int, kind: str = WITH_PERSON
) -> tuple[Game, SearchBot | HatSearchBot]:
    finished = play_game(Setup.create("no_variant", players, seed=seed), "conventions")
    game = Game(finished.setup)
    for action in finished.actions[:turns]:
        game.apply(action)
    seat = game.current
    if kind == WITH_PERSON and seat == 0:
        game.apply(finished.actions[turns])
        seat = game.current
    bot = make_bot("search", "no_variant", players, seat, table=table_of(kind, players))
    assert isinstance(bot, SearchBot if kind == WITH_PERSON else HatSearchBot)
    replay = Game(game.setup)
    bot.observe(seat_events(replay.deal_events(), seat))
    for action in game.actions:
        bot.observe(seat_events(replay.apply(action), seat))
    return game, bot


@pytest.mark.parametrize("kind", [WITH_PERSON, AMONG_OWN])
@pytest.mark.parametrize("players", [2, 4])
def test_sampled_decks_fit_what_the_seat_knows(players: int, kind: str) -> None:
    game, bot = search_bot_mid_game("sample", players, 21, kind)
    obs = bot.obs
    copies = obs.variant.copies
    rng = random.Random(1)
    for _ in range(20):
        deck = bot.search._sample_deck(rng)
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
    monkeypatch.setattr(Search, "SAMPLES", 0)
    for seed in ("blue-1", "blue-2"):
        finished = play_game(Setup.create("no_variant", 2, seed=seed), "search")
        assert finished.actions == play_game(finished.setup, "hat").actions
        mixed = play_game(finished.setup, ["search", "conventions"])
        assert mixed.actions == play_game(finished.setup, "conventions").actions


def test_search_plays_hat_only_among_search_bots() -> None:
    assert isinstance(make_bot("search", "no_variant", 2, 0, table=["search", "search"]), HatBot)
    for table in (["search", None], ["search", "hat"], ["search", "conventions", "search"]):
        bot = make_bot("search", "no_variant", len(table), 0, table=table)
        assert isinstance(bot, SearchBot) and not isinstance(bot, HatBot)


@pytest.mark.parametrize("kind", [WITH_PERSON, AMONG_OWN])
def test_the_clock_caps_a_move(monkeypatch: pytest.MonkeyPatch, kind: str) -> None:
    monkeypatch.setattr(Search, "SAMPLES", 100_000)
    monkeypatch.setattr(Search, "SECONDS", 0.2)
    monkeypatch.setattr(Search, "DECK_AT", 99)  # search every move
    for turns in (5, 20, 35):
        game, _ = search_bot_mid_game("clock", 2, turns, kind)
        t0 = time.perf_counter()
        action = choose_action("search", game, game.current, table_of(kind, 2))
        assert time.perf_counter() - t0 < 1.0
        assert action in game.legal_actions()


def test_the_check_of_a_rival_gets_time_of_its_own(monkeypatch: pytest.MonkeyPatch) -> None:
    """Under the clock the race may not take it all: the winner's check on fresh samples
    has ``1 - RACE_SHARE`` of it (a rival left unchecked is never played). The clock
    leaves it several times what two samples take, even on a loaded machine."""
    monkeypatch.setattr(Search, "SAMPLES", 100_000)
    monkeypatch.setattr(Search, "SECONDS", 0.4)
    monkeypatch.setattr(Search, "DECK_AT", 99)  # search every move
    checks: list[dict] = []
    race = Search._race

    def recording(self: Search, blueprint: Action, rivals: list[Action], *args: Any) -> dict:
        out = race(self, blueprint, rivals, *args)
        if args[-1] is None:  # no pruning: the check of one rival
            checks.append(out)
        return out

    monkeypatch.setattr(Search, "_race", recording)
    for kind in (WITH_PERSON, AMONG_OWN):
        for turns in (5, 20, 35, 50):
            game, _ = search_bot_mid_game("check", 2, turns, kind)
            choose_action("search", game, game.current, table_of(kind, 2))
    assert checks, "no rival was worth a check in these positions"
    assert all(checks), "a check ran out of time before two samples"


@pytest.mark.parametrize(("kind", "blueprint"), [(WITH_PERSON, "conventions"), (AMONG_OWN, "hat")])
def test_it_searches_and_sometimes_deviates(
    monkeypatch: pytest.MonkeyPatch, kind: str, blueprint: str
) -> None:
    """With a real budget the search does change moves (else it would be dead weight),
    and the same position always gives the same move. On hat it deviates rarely (about
    1 late move in 100), mostly in the last few cards: those are the positions tried."""
    monkeypatch.setattr(Search, "SAMPLES", 16 if kind == WITH_PERSON else 10)
    table = table_of(kind, 2)
    last = Search.DECK_AT if kind == WITH_PERSON else 6
    for i in range(12):
        finished = play_game(Setup.create("no_variant", 2, seed=f"deviate-{i}"), blueprint)
        game = Game(finished.setup)
        for action in finished.actions:
            if game.deck_size <= last and game.current == 1:
                got = choose_action("search", game, 1, table)
                assert got == choose_action("search", game, 1, table)
                if got != action:
                    return  # a deviation, reproducible
            game.apply(action)
    pytest.fail("the search never left its blueprint")


def test_candidates_that_cannot_reach_the_gain_are_dropped() -> None:
    on_hat = make_bot("search", "no_variant", 2, 0, table=["search", "search"])
    on_conventions = make_bot("search", "no_variant", 2, 0, table=["search", None])
    assert isinstance(on_hat, HatSearchBot) and isinstance(on_conventions, SearchBot)
    same = [0, 0, 0, 0]  # the move changes nothing: no sample will make it worth 0.25
    better = [1, 0, 2, 1]
    hopeless = [-2, -1, -3, -2]
    assert not on_hat.search._keep(same, 4, 0.25)
    assert on_hat.search._keep(better, 4, 0.25)
    assert not on_hat.search._keep(hopeless, 4, 0.25)
    # On conventions only a clear loss drops a candidate (PRUNE_Z unset).
    assert on_conventions.search._keep(same, 4, 0.25)
    assert not on_conventions.search._keep(hopeless, 4, 0.25)


def test_on_hat_it_searches_the_last_cards_with_a_finer_budget(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """On hat the search looks only at the last ``DECK_AT`` cards (rollouts from there are
    short) and takes ``SAMPLE_FACTOR`` times the samples and smaller gains; on
    conventions the base budget."""
    monkeypatch.setattr(HatSearch, "DECK_AT", 30)  # the default, not the tests' 20
    on_hat = make_bot("search", "no_variant", 2, 0, table=["search", "search"])
    on_conventions = make_bot("search", "no_variant", 2, 0, table=["search", None])
    assert isinstance(on_hat, HatSearchBot) and isinstance(on_conventions, SearchBot)
    assert on_hat.search._budget() == (Search.SAMPLES * HatSearch.SAMPLE_FACTOR, 0.15)
    assert (
        on_conventions.search._budget()
        == (Search.SAMPLES, Search.MIN_GAIN)
        == (Search.SAMPLES, 0.25)
    )

    searched: list[int] = []
    search = Search._search

    def recording(self: Search, *args: Any) -> Action:
        searched.append(self.obs.deck_size)
        return search(self, *args)

    monkeypatch.setattr(Search, "_search", recording)
    finished = play_game(Setup.create("no_variant", 2, seed="budget"), "hat")
    game = Game(finished.setup)
    on_hat.observe(seat_events(game.deal_events(), 0))
    decks = []
    for action in finished.actions:
        if game.current == 0:
            decks.append(game.deck_size)
            on_hat.act()
        on_hat.observe(seat_events(game.apply(action), 0))
    assert max(decks) > 30 and searched and max(searched) <= 30


def test_on_hat_a_certain_play_is_searched_while_the_next_player_may_lose_a_last_copy() -> None:
    """A play known to succeed is not searched, unless a token is left and the next
    player holds a last copy that it does not know (a clue now may be what keeps it)."""
    bot = make_bot("search", "no_variant", 2, 0, table=["search", "search"])
    assert isinstance(bot, HatSearchBot)
    finished = play_game(Setup.create("no_variant", 2, seed="warn-before-play"), "hat")
    game = Game(finished.setup)
    bot.observe(seat_events(game.deal_events(), 0))
    searched = skipped = 0
    for action in finished.actions:
        obs = bot.obs
        if game.current == 0 and obs.deck_size:
            for order in obs.hands[0]:
                known = obs.told[order] & bot.private(order, bot.priv_weights())
                if not known or known & ~obs.playable:
                    continue  # not a certain play
                at_risk = any(
                    (obs.critical & ~obs.dead) >> obs.card[o] & 1
                    and bot.pub[o] & ~obs.playable
                    and bot.pub[o].bit_count() > 1
                    for o in obs.hands[1]
                )
                certain = bot.certain_play(Action.play(order))
                assert certain == (obs.clue_tokens == 0 or not at_risk)
                searched += not certain
                skipped += certain
        bot.observe(seat_events(game.apply(action), 0))
    assert searched and skipped
