"""``hanabi-client bot``: a seat at a table played by a bot of :mod:`hanabi.bots` over the
public API (the player itself is :class:`hanabi.client.bot.BotPlayer`)."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from rich.console import Console
from rich.text import Text

from ..api import ApiError, Client
from ..i18n import N_, _
from ..tokens import SavedSeat, TokenStore
from . import strategies
from .common import Fail, server_flag
from .seat import still_seated

BOT_NEEDS_CORE_WORDS = N_(
    "The bot command plays with hanabi.bots, from the hanabi-core package, which is not "
    "installed (it is on no package index). From a clone of the repository: "
    "{command}"
)
INSTALL_BOTS = "pip install './client[bot]' ./shared"
BOT_NEEDS_CORE = BOT_NEEDS_CORE_WORDS.format(command=INSTALL_BOTS)  # in English


def cmd_bot(args: argparse.Namespace, client: Client, console: Console) -> int:
    # Only this command needs the bots (and the rules engine under them): import them here,
    # so the rest of the client stays a thin HTTP client.
    try:
        from hanabi.bots import DEFAULT_STRATEGY, STRATEGIES
    except ImportError:
        raise Fail(_(BOT_NEEDS_CORE_WORDS, command=INSTALL_BOTS)) from None
    strategy = args.strategy or DEFAULT_STRATEGY
    if strategy not in STRATEGIES:
        raise Fail(
            _(
                'No strategy "{strategy}": choose from {strategies}.',
                strategy=strategy,
                strategies=", ".join(sorted(STRATEGIES)),
            )
        )
    from ..bot import BotPlayer

    store = TokenStore()
    game_id = args.id
    defaulted = args.name is None and not args.me
    name = args.me or args.name or f"{strategy}-bot"
    # Resume only the seat saved under this bot's own name, never a person's seat.
    saved = still_seated(client, store, store.find(client.server, game_id, name))
    resumed = saved is not None
    if saved is None:
        seat = None
        for attempt in range(1, 10 if defaulted else 2):
            try_name = name if attempt == 1 else f"{name}-{attempt}"
            try:
                seat = client.join(game_id, try_name, plays=strategy)
            except ApiError as exc:
                if exc.code == "name_taken" and defaulted:
                    continue
                if exc.status == 409 and "start" in exc.code:
                    said = _(
                        "A bot can only join a table in its lobby "
                        "(or resume its own seat with --name)."
                    )
                    raise Fail(f"{exc.detail} {said}") from None
                raise
            name = try_name
            break
        if seat is None:
            raise Fail(
                _(
                    "Every bot name up to {name}-9 is taken at {game}: choose --name.",
                    name=name,
                    game=game_id,
                )
            )
        saved = SavedSeat(client.server, game_id, seat.seat, name, seat.token)
        store.save(saved)
    if args.json:
        sys.stdout.write(
            json.dumps(
                {
                    "type": "seat",
                    "game_id": game_id,
                    "seat": saved.seat,
                    "name": name,
                    "strategy": strategy,
                    "resumed": resumed,
                },
                separators=(",", ":"),
            )
            + "\n"
        )
        sys.stdout.flush()
    else:
        values = {"name": name, "strategy": strategy, "game": game_id, "seat": saved.seat + 1}
        if resumed:
            said = _(
                "{name} ({strategy} bot) is back at its seat at game {game}, seat {seat}.", **values
            )
        else:
            said = _("{name} ({strategy} bot) joined at game {game}, seat {seat}.", **values)
        console.print(Text(said))
    seat_to_forget = saved
    resume = f"hanabi-client bot {game_id} --strategy {strategy} --name {name}{server_flag(client)}"
    player = BotPlayer(
        client,
        game_id,
        saved.token,
        strategy,
        console=console,
        json_mode=args.json,
        name=name,
        on_leave=lambda: TokenStore().forget(seat_to_forget),
        resume_hint=_("Resume with: {command}", command=resume),
    )
    return player.run()


def add_parser(sub: Any, common: argparse.ArgumentParser) -> None:
    p = sub.add_parser(
        "bot",
        parents=[common],
        help=_("seat a bot that joins a table and plays it to the end"),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.explain = strategies.bot_epilog
    p.add_argument("id", nargs="?", metavar="ID", help=_("game id"))
    p.add_argument(
        "--strategy",
        metavar="S",
        help=_("the bot's strategy (default: conventions; see below)"),
    )
    p.add_argument(
        "--name",
        help=_("the bot's name at the table, and the seat it resumes (default: STRATEGY-bot)"),
    )
    p.add_argument(
        "--api-key",
        metavar="KEY",
        help=_("play as the account of this API key (default: $HANABI_API_KEY; else a guest)"),
    )
    p.set_defaults(run=cmd_bot)
