"""``hanabi-client watch``: follow a game as a spectator, one move at a time."""

from __future__ import annotations

import argparse
from typing import Any

from rich.console import Console
from rich.text import Text

from ..api import Client
from ..i18n import _
from ..pacing import DEFAULT_PACE
from ..spectating import seat_asked
from .common import Fail, server_flag, viewer_token
from .seat import sit
from .tables import add_password_flag, watch_locked


def cmd_watch(args: argparse.Namespace, client: Client, console: Console) -> int:
    # As the saved account, if any (what it watches is its own business: the server notes
    # the seeds whose cards it saw before playing them, docs/watching.md); a finished game
    # with a seat saved for it is looked at as that seat.
    view = watch_locked(client, args, args.id)  # fail early and plainly on an unknown game
    if view.get("you") is not None and view["status"] == "playing":
        # the account sits here: the server shows it nothing but its own seat's view
        command = f"hanabi-client join {args.id}{server_flag(client)}"
        raise Fail(_("You sit at this game: {command} takes you to your seat.", command=command))
    if view["status"] == "finished":
        client.token = viewer_token(client, args.id)
    args.shadow_seat = None
    if args.shadow is not None:
        names = [p.get("name", "") for p in view.get("players") or []]
        seat = seat_asked(args.shadow, names)
        if seat is None:
            raise Fail(
                _(
                    "Game {game} has no player {player}: name one, or give their number "
                    "from 1 as the table counts them ({players}).",
                    game=args.id,
                    player=args.shadow,
                    players=_(", ").join(f"{i + 1} {n}" for i, n in enumerate(names)),
                )
            )
        client.game(args.id, shadow=seat)  # a table that hides the hands refuses, plainly
        args.shadow_seat = seat
    if not args.json:
        if args.pace > 0:
            said = _(
                "Watching game {game}, one move every {pace} s: space pauses, n steps, q quits.",
                game=args.id,
                pace=format(args.pace, "g"),
            )
        else:
            said = _("Watching game {game}. Ctrl-C or quit to stop.", game=args.id)
        console.print(Text(said, style="bold"))
    return sit(client, console, args, args.id, None, store_seat=None)


def pace_seconds(text: str) -> float:
    """``--pace``: seconds per move, 0 to 60."""
    try:
        pace = float(text)
    except ValueError:
        pace = -1.0
    if not 0 <= pace <= 60:
        raise argparse.ArgumentTypeError(_("seconds per move, 0 to 60 (0: as they come)"))
    return pace


def add_parser(sub: Any, common: argparse.ArgumentParser) -> None:
    p = sub.add_parser("watch", parents=[common], help=_("watch a game as a spectator"))
    p.add_argument("id", nargs="?", metavar="ID", help=_("game id"))
    p.add_argument(
        "--pace",
        type=pace_seconds,
        default=DEFAULT_PACE,
        metavar="SECONDS",
        help=_(
            "seconds per move (default {pace}; 0: as they come); "
            "keys: space pauses, n steps, q quits",
            pace=format(DEFAULT_PACE, "g"),
        ),
    )
    add_password_flag(p)
    p.add_argument(
        "--shadow",
        metavar="PLAYER",
        help=_(
            "watch the table as PLAYER sees it (a name, or a number from 1): what they "
            "know of their own cards, and the other hands"
        ),
    )
    p.add_argument(
        "--no-clear", action="store_true", help=_("do not clear the screen between redraws")
    )
    p.set_defaults(run=cmd_watch)
