"""Hat's own rules, checked on positions of real hat games."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from hanabi.bots import Bot, make_bot, seat_events
from hanabi.bots.hat import HatBot
from hanabi.game import Action, Game, Setup


def _play(
    prefix: str,
    games: int,
    turn: Callable[[Game, HatBot], Action],
    players: int = 2,
    after: Callable[[Game, list[Bot]], None] | None = None,
) -> None:
    """Hat games (two players unless told) on seeds ``prefix-i``: ``turn`` sees each
    position (the game and the bot to act) and returns the move, which every bot then
    observes; ``after`` sees the game and the bots once they have."""
    for i in range(games):
        game = Game(Setup.create("no_variant", players, seed=f"{prefix}-{i}"))
        bots = [make_bot("hat", "no_variant", players, seat) for seat in range(players)]
        for seat, bot in enumerate(bots):
            bot.observe(seat_events(game.deal_events(), seat))
        while not game.is_over:
            bot = bots[game.current]
            assert isinstance(bot, HatBot)
            events = game.apply(turn(game, bot))
            for seat, b in enumerate(bots):
                b.observe(seat_events(events, seat))
            if after is not None:
                after(game, bots)


def _act_with(monkeypatch: pytest.MonkeyPatch, bot: HatBot, name: str, value: object) -> Action:
    """The move ``bot`` would make with hat's ``name`` set to ``value`` (a rule turned
    off), the bot itself unchanged."""
    with monkeypatch.context() as m:
        m.setattr(HatBot, name, value)
        return bot.act()


def _changes(
    monkeypatch: pytest.MonkeyPatch,
    prefix: str,
    games: int,
    rule_off: tuple[str, object],
    check: Callable[[HatBot, Action, Action], None],
) -> int:
    """Plays ``_play`` games and counts the moves that a rule changed (hat's attribute
    ``rule_off[0]`` set to ``rule_off[1]`` turns it off); ``check`` sees each such
    position with the move and the move without the rule."""
    changed = 0

    def turn(game: Game, bot: HatBot) -> Action:
        nonlocal changed
        action = bot.act()
        without = _act_with(monkeypatch, bot, *rule_off)
        if without != action:
            check(bot, action, without)
            changed += 1
        return action

    _play(prefix, games, turn)
    return changed


def test_hat_clues_rather_than_throw_away_a_likely_last_copy(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """With more than ``STALL_TOKENS`` tokens, a hat bot whose cheapest discard is
    expected to cost more than ``STALL_COST`` points gives a clue instead; without the
    rule it would have discarded there."""

    def check(bot: HatBot, action: Action, without: Action) -> None:
        obs = bot.obs
        w = bot.priv_weights()
        masks = [bot.private(o, w) for o in obs.hands[obs.me]]
        assert action.type == "clue" and without.type == "discard"
        assert obs.clue_tokens > HatBot.STALL_TOKENS
        assert bot.safest_discard(masks, w)[1] > HatBot.STALL_COST

    assert _changes(monkeypatch, "stall", 4, ("STALL_TOKENS", 99), check)


def test_hat_warns_before_a_play_when_the_next_player_would_throw_away_a_last_copy(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A hat bot that knows a playable card still clues first (with a token left and
    cards in the deck) when the next player, knowing nothing to play, would discard a
    last copy: the play can wait a turn, the card cannot. The clue says the hat sum, as
    every clue does, and is one after which that player keeps its last copies."""
    warned = 0
    check = False  # whether this move follows a warning

    def turn(game: Game, bot: HatBot) -> Action:
        nonlocal warned, check
        obs = bot.obs
        action = bot.act()
        if check and action.type == "discard":
            last = obs.critical & ~obs.dead
            assert not last >> game.card(action.card) & 1, "warned, and threw it away"
        w = bot.priv_weights()
        knows = any(
            total and good == total
            for good, total in (
                bot.prob(bot.private(o, w), obs.playable, w) for o in obs.hands[obs.me]
            )
        )
        without = _act_with(monkeypatch, bot, "warning", lambda self: None)
        check = knows and without.type == "play" and action != without
        if check:
            nxt = (obs.me + 1) % 2
            assert action.type == "clue" and action.target == nxt
            assert obs.clue_tokens > 0 and obs.deck_size > 0
            masks = [bot.pub[o] for o in obs.hands[nxt]]
            assert bot.will_discard_critical(nxt, masks, bot.pub_weights())
            warned += 1
        return action

    _play("warn", 6, turn)
    assert warned, "the rule never applied in these games"


def test_hat_spends_its_tokens_on_clues_at_the_end_of_a_two_player_game(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """At two players, once the tokens reach two thirds of the deck, a hat bot that
    would have discarded (even a useless card) gives a clue instead: tokens held at the
    end are wasted, and a discard draws one of the last cards. Nowhere else does the
    rule change its move."""

    def check(bot: HatBot, action: Action, without: Action) -> None:
        obs = bot.obs
        assert bot.spend_tokens()
        assert without.type == "discard" and action.type == "clue"
        assert 0 < obs.deck_size <= obs.clue_tokens * HatBot.LATE_CLUES

    assert _changes(monkeypatch, "late", 6, ("LATE_CLUES", 0), check)


def test_hat_keeps_its_discards_at_three_players_and_more(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The late clues are a two-player rule: at three players (where they measured a
    little worse) no move changes with them, and the rule's test says no."""
    checked = 0

    def turn(game: Game, bot: HatBot) -> Action:
        nonlocal checked
        action = bot.act()
        with monkeypatch.context() as m:
            m.setattr(HatBot, "LATE_CLUES_UP_TO", 3)
            late = bot.spend_tokens()  # late enough, were it a two-player game
        if late:
            assert not bot.spend_tokens()
            assert _act_with(monkeypatch, bot, "LATE_CLUES", 0) == action
            checked += 1
        return action

    _play("late3", 3, turn, players=3)
    assert checked, "no position of these games was late enough"


def test_a_clue_other_than_hats_leaves_both_seats_the_same_public_knowledge() -> None:
    """A search may give another clue than hat's, so another hat sum: the partner then
    reads a wrong answer. The giver must record what the partner read, not the truth, or
    the two seats' "public" knowledge parts (and with it every later clue's meaning).
    Before, it parted at the first such clue."""
    deviations = 0

    def turn(game: Game, bot: HatBot) -> Action:
        nonlocal deviations
        action = bot.act()
        if action.type == "clue" and game.turn % 3 == 0:
            value = _hat_value(bot, action)
            for other in _clues(bot, action.target):
                if _hat_value(bot, other) not in (None, value):
                    deviations += 1
                    return other
        return action

    def after(game: Game, bots: list[Bot]) -> None:
        a, b = (bot for bot in bots if isinstance(bot, HatBot))
        for hand in game.snapshot()["hands"]:
            for order in hand:
                assert a.pub[order] == b.pub[order], f"parted at turn {game.turn}"

    _play("deviate", 6, turn, after=after)
    assert deviations, "no clue was swapped"


def _clues(bot: HatBot, target: int) -> list[Action]:
    return [Action.clue(target, color=c) for c, _ in bot.color_clues] + [
        Action.clue(target, rank=r) for r, _ in bot.rank_clues
    ]


def _hat_value(bot: HatBot, clue: Action) -> int | None:
    """The hat value ``clue`` says from ``bot``'s seat (None: it touches no card)."""
    obs = bot.obs
    mask = dict(bot.rank_clues)[clue.rank] if clue.rank else dict(bot.color_clues)[clue.color]
    touched = [o for o in obs.hands[clue.target] if mask >> obs.card[o] & 1]
    if not touched:
        return None
    return bot.decode(obs.me, clue.target, clue.rank is not None, touched)[1]
