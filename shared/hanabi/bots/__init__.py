"""Bots that choose actions from exactly what their seat may see.

A bot is fed its seat's events (the opening deal and every action's events, with its own
draws redacted) and never the :class:`~hanabi.game.Game`; see :mod:`.observation`.

Entry points:

* ``STRATEGIES`` / ``get_strategy(name)`` / ``make_bot(strategy, variant, players, seat)``:
  stateful per-seat bots (``bot.observe(events)``, ``bot.act() -> Action``) for fast
  incremental play;
* ``describe(name)`` / ``descriptions()``: what a strategy expects of its table, in a line;
* ``playing(strategy, seat, table)``: the strategy a seat really plays at a table (a hat
  bot plays hat only when every other seat is a hat bot, else conventions); ``make_bot``
  also gives ``search`` hat as its blueprint where every seat is a search bot;
* ``play_game(setup, strategies) -> Game``: self-play, or a mixed table of bots;
  ``run_game(setup, bots)`` plays ready-made bot objects;
* ``choose_action(strategy, game, seat, table=None) -> Action``: one decision for a
  stateless server, rebuilt from the game's log as the seat saw it; ``table`` lists each
  seat's strategy (None for a person);
* ``choose_action_from_view(strategy, view, events) -> dict``: one decision for an API
  client, from its JSON seat view (whose ``players[].bot`` tell the table) and the
  redacted event log;
* ``bot_from_events(strategy, variant, players, seat, events)``: a bot that has watched a
  (seat-redacted) event log, to keep playing incrementally.

Example: ``play_game(Setup.create("no_variant", 3, seed="1"), "conventions").result``.
"""

from .base import Bot
from .observation import Observation
from .play import (
    bot_from_events,
    choose_action,
    choose_action_from_view,
    play_game,
    run_game,
    seat_events,
    view_table,
)
from .registry import (
    DEFAULT_STRATEGY,
    STRATEGIES,
    Table,
    describe,
    descriptions,
    get_strategy,
    make_bot,
    playing,
)
from .wording import StrategyList

__all__ = [
    "DEFAULT_STRATEGY",
    "STRATEGIES",
    "Bot",
    "Observation",
    "StrategyList",
    "Table",
    "bot_from_events",
    "choose_action",
    "choose_action_from_view",
    "describe",
    "descriptions",
    "get_strategy",
    "make_bot",
    "play_game",
    "playing",
    "run_game",
    "seat_events",
    "view_table",
]
