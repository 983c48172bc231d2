"""The bot strategies in words: in ``--help`` of ``bot`` and ``create`` (from the registry
of hanabi.bots, the one the server's ``GET /strategies`` reads, so the two say the same),
and the ``strategies`` command (the server's own list, for the bots it plays).

The parser is built on every run, but hanabi.bots (the rules engine and the bots, an
optional install) is imported only when a help text that lists the strategies is shown:
every other command stays a thin HTTP client.
"""

from __future__ import annotations

import argparse
import textwrap
from collections.abc import Callable, Sequence
from typing import Any

from rich.console import Console

from ..i18n import _, gettext
from .common import print_json

INSTALL_BOTS = "pip install './client[bot]' ./shared"
WIDTH = 78  # the strategy list's lines in --help (argparse's own lines fit a terminal)


class HelpParser(argparse.ArgumentParser):
    """An argument parser whose epilog may be written when its help is shown: ``explain``
    (a function) then gives it."""

    explain: Callable[[], str] | None = None

    def format_help(self) -> str:
        if self.explain is not None:
            self.epilog = self.explain()
        return super().format_help()


def registry() -> list[dict[str, Any]] | None:
    """The strategies of hanabi.bots as ``GET /strategies`` lists them (name, description
    in the client's language, default); None when hanabi.bots is not installed."""
    try:
        from hanabi.bots import DEFAULT_STRATEGY, STRATEGIES
    except ImportError:
        return None
    return [
        {"name": name, "description": gettext(cls.description), "default": name == DEFAULT_STRATEGY}
        for name, cls in STRATEGIES.items()
    ]


def strategy_lines(strategies: Sequence[dict[str, Any]], width: int = WIDTH) -> list[str]:
    """One entry per strategy, its description wrapped under it:
    ``conventions (the default): human-style conventions ...``."""
    lines = []
    for s in strategies:
        head = _("{name} (the default)", name=s["name"]) if s.get("default") else str(s["name"])
        text = f"{head}: {s['description']}" if s.get("description") else head
        lines += textwrap.wrap(text, width, initial_indent="  ", subsequent_indent="    ")
    return lines


def bot_epilog() -> str:
    """``hanabi-client bot --help``: what each strategy is for, from hanabi.bots."""
    listed = registry()
    if listed is None:
        return _(
            "The bot command plays with hanabi.bots, not installed here: {command}",
            command=INSTALL_BOTS,
        )
    return "\n".join([_("Strategies (--strategy):"), *strategy_lines(listed)])


def create_epilog() -> str:
    """``hanabi-client create --help``: the strategies the server's bots play, from
    hanabi.bots when installed (the server's own list: ``hanabi-client strategies``)."""
    listed = registry()
    if listed is None:
        return _(
            "Bot strategies (--bot-strategy): hanabi-client strategies lists the server's, "
            "and whom each plays well with."
        )
    head = _("Bot strategies (--bot-strategy; hanabi-client strategies lists the server's):")
    return "\n".join([head, *strategy_lines(listed)])


def cmd_strategies(args: argparse.Namespace, client: Any, console: Console) -> int:
    """The strategies the server's bots play, and whom each plays well with."""
    strategies = client.strategies()
    if args.json:
        print_json({"strategies": strategies})
        return 0
    console.print("\n".join(strategy_lines(strategies)))
    console.print(
        "\n"
        + _(
            "Seat one with: hanabi-client create --bots 1 --bot-strategy NAME "
            "(or bot NAME at the lobby> prompt)."
        )
    )
    return 0


def add_parser(sub: Any, common: argparse.ArgumentParser) -> None:
    p = sub.add_parser(
        "strategies", parents=[common], help=_("the bot strategies the server plays, in words")
    )
    p.set_defaults(run=cmd_strategies)
