"""Bots that choose actions from exactly what their seat may see.

A bot is fed its seat's events (the opening deal and every action's events, with its own
draws redacted) and never the :class:`~hanabi.game.Game`; see :mod:`.observation`.

Entry points:

* ``STRATEGIES`` / ``get_strategy(name)`` / ``make_bot(strategy, variant, players, seat)``:
  stateful per-seat bots (``bot.observe(events)``, ``bot.act() -> Action``) for fast
  incremental play;
* ``play_game(setup, strategies) -> Game``: self-play;
* ``choose_action(strategy, game, seat) -> Action``: one decision for a stateless server,
  rebuilt from the game's log as the seat saw it;
* ``choose_action_from_view(strategy, view, events) -> dict``: one decision for an API
  client, from its JSON seat view and the redacted event log;
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
    seat_events,
)
from .registry import DEFAULT_STRATEGY, STRATEGIES, get_strategy, make_bot

__all__ = [
    "DEFAULT_STRATEGY",
    "STRATEGIES",
    "Bot",
    "Observation",
    "bot_from_events",
    "choose_action",
    "choose_action_from_view",
    "get_strategy",
    "make_bot",
    "play_game",
    "seat_events",
]
