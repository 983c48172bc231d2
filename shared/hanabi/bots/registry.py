"""Strategies by name."""

from __future__ import annotations

from typing import Any

from .base import Bot
from .conventions import ConventionsBot
from .hat import HatBot

STRATEGIES: dict[str, type[Bot]] = {
    ConventionsBot.name: ConventionsBot,
    HatBot.name: HatBot,
}
DEFAULT_STRATEGY = "conventions"


def get_strategy(name: str) -> type[Bot]:
    """The bot class of a strategy; raises KeyError (naming the choices) if unknown."""
    try:
        return STRATEGIES[name]
    except KeyError:
        raise KeyError(f"unknown strategy {name!r} (known: {', '.join(STRATEGIES)})") from None


def make_bot(
    strategy: str,
    variant: str,
    num_players: int,
    seat: int,
    options: dict[str, Any] | None = None,
) -> Bot:
    """A fresh bot of ``strategy`` for ``seat``, before the deal."""
    return get_strategy(strategy)(variant, num_players, seat, options)
