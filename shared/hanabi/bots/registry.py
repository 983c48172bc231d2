"""Strategies by name, and which one a seat really plays at a given table."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from hanabi.game import Variant, get_variant

from .base import Bot
from .conventions import ConventionsBot
from .hat import HatBot
from .hat_search import HatSearchBot
from .search import SearchBot

STRATEGIES: dict[str, type[Bot]] = {
    ConventionsBot.name: ConventionsBot,
    HatBot.name: HatBot,
    SearchBot.name: SearchBot,
}
DEFAULT_STRATEGY = "conventions"
#: What a strategy plays when every seat plays it: ``search`` can then afford hat's
#: private code as its blueprint (2p self-play: hat 23.3 points against conventions 22.3).
AMONG_OWN: dict[str, type[Bot]] = {SearchBot.name: HatSearchBot}

#: Who sits at a table, seat by seat: a strategy name for a bot, None for a person (or a
#: program whose code nobody knows, e.g. another API client).
Table = Sequence[str | None]


def get_strategy(name: str) -> type[Bot]:
    """The bot class of a strategy; raises KeyError (naming the choices) if unknown."""
    try:
        return STRATEGIES[name]
    except KeyError:
        raise KeyError(f"unknown strategy {name!r} (known: {', '.join(STRATEGIES)})") from None


def describe(name: str) -> str:
    """``"hat: only with other hat bots; ..."``: a strategy and what it expects."""
    return f"{name}: {get_strategy(name).description}"


def descriptions() -> str:
    """Every strategy's one-line description, for help texts and error messages."""
    return "; ".join(describe(name) for name in STRATEGIES)


def playing(
    strategy: str, seat: int, table: Table | None, variant: Variant | str | None = None
) -> str:
    """The strategy ``seat`` really plays at ``table`` when asked to play ``strategy``.

    A strategy with a private code (``fallback`` set, like hat) only pays off when every
    other seat reads that code: next to a person, or a bot of another strategy, its clues
    would be read as something else and its partners' clues as hat sums (a table mixing
    hat and conventions bots struck out in 90-100 % of games). There it plays its
    ``fallback`` instead. The table must also say that ``seat`` itself plays it: the
    others read this seat from the same table, and an API client that never said what
    it plays is a person to them (they would not play the code with it).
    ``table=None`` means the table is not known: every seat is taken to play
    ``strategy`` (self-play, and callers from before tables were known). Given the
    ``variant``, a strategy that cannot play it its own way (``plays_variant``) plays
    its ``fallback`` there, at any table.
    """
    cls = get_strategy(strategy)
    fits = variant is None or cls.plays_variant(_variant(variant))
    if cls.fallback is not None and not fits:
        return cls.fallback  # e.g. hat where its code cannot be carried (see HatBot)
    if cls.fallback is None or table is None:
        return strategy
    if len(table) <= seat:
        raise ValueError(f"a table of {len(table)} seats has no seat {seat}")
    if _all_play(table, strategy):
        return strategy
    return cls.fallback


def make_bot(
    strategy: str,
    variant: Variant | str,
    num_players: int,
    seat: int,
    options: dict[str, Any] | None = None,
    table: Table | None = None,
) -> Bot:
    """A fresh bot for ``seat``, before the deal: of ``strategy``, or of the strategy it
    falls back to at this ``table`` (see :func:`playing`); where every seat plays it, of
    its class for that table (``AMONG_OWN``: search on hat)."""
    name = playing(strategy, seat, table, variant)
    cls = get_strategy(name)
    among_own = AMONG_OWN.get(name)
    if (
        among_own is not None
        and (table is None or _all_play(table, name))
        and among_own.plays_variant(_variant(variant))
    ):
        cls = among_own
    bot = cls(variant, num_players, seat, options)
    bot.table = list(table) if table is not None else None
    return bot


def _variant(variant: Variant | str) -> Variant:
    return get_variant(variant) if isinstance(variant, str) else variant


def _all_play(table: Table, strategy: str) -> bool:
    """Whether ``table`` says that every seat, the asking one included, plays
    ``strategy``."""
    return all(who == strategy for who in table)
