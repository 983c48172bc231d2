"""``hanabi-client list``: the tables on the server (in their lobby by default), once or
live (``--watch``: the server answers each request once the listing changes)."""

from __future__ import annotations

import argparse
import time
from typing import Any

from rich.cells import cell_len
from rich.console import Console
from rich.text import Text

from ..api import Client, GamePage
from ..codes import GameStatus
from ..i18n import N_, _
from ..narrate import player_names
from ..render import CUSTOM_DEAL
from .common import print_json, server_flag

#: ``--status``: a game status, or every game.
STATUSES = (*GameStatus, "all")


def cmd_list(args: argparse.Namespace, client: Client, console: Console) -> int:
    status = None if args.status == "all" else args.status
    if not args.watch:
        show_games(args, client, console, status, client.list_games(status, limit=args.limit))
        return 0
    # --watch: the server holds each request until the listing changes (a live lobby).
    clear = console.is_terminal and not console.is_dumb_terminal and not args.json
    for page in client.watch_games(status, limit=args.limit):
        if clear:
            console.clear()
        show_games(args, client, console, status, page)
        if not args.json:
            said = _("Live: updated {time}; Ctrl-C to stop.", time=time.strftime("%H:%M:%S"))
            console.print(f"\n[dim]{said}[/]")
    return 0


def show_games(
    args: argparse.Namespace, client: Client, console: Console, status: str | None, page: GamePage
) -> None:
    if args.json:
        print_json({"games": page.games, "next_cursor": page.cursor})
        return
    if not page.games:
        command = "hanabi-client create"
        if status is None:
            console.print(_("No games. Start one with: {command}", command=command))
        else:
            said = _("No {status} games. Start one with: {command}", status=status, command=command)
            console.print(said)
        return
    console.print(Text(games_table(page.games)))
    if any(g.get("status") == GameStatus.LOBBY for g in page.games):
        command = f"hanabi-client join ID --name NAME{server_flag(client)}"
        console.print("\n" + _("Join one with: {command}", command=command))


#: The listing's columns, in capitals as headings (each language writes them its way).
COLUMNS = (N_("ID"), N_("STATUS"), N_("VARIANT"), N_("SEATS"), N_("PLAYERS"), N_("SCORE"))


#: The mark of a password table in the listing.
LOCK = "🔒"


def pad(text: str, width: int) -> str:
    """``text`` padded with spaces to ``width`` terminal cells."""
    return text + " " * (width - cell_len(text))


def games_table(games: list[dict[str, Any]]) -> str:
    """Game summaries as aligned rows, a deal the host chose marked and explained."""
    rows = [tuple(_(title) for title in COLUMNS)]
    for g in games:
        names = ", ".join(player_names(g))
        seated = len(g.get("players") or [])
        # Once dealt, the table has as many seats as players (a host who deals and
        # watches gives theirs up): only a lobby has seats to fill.
        lobby = g.get("status") == GameStatus.LOBBY
        seats = f"{seated}/{g.get('max_players', '?') if lobby else seated}"
        seats += LOCK if g.get("lock") else ""  # a password table (docs/lobby.md)
        score = "" if lobby else str(g.get("score", ""))
        if not lobby and g.get("score_hidden"):  # Throw It in a Hole: nobody sees it yet
            score = _("hidden until the end")
        variant = str(g.get("variant", "")) + ("*" if g.get("custom_deal") else "")
        rows.append((g["id"], g.get("status", ""), variant, seats, names, score))
    # Widths in terminal cells: a Chinese character takes two.
    widths = [max(cell_len(str(r[i])) for r in rows) for i in range(len(rows[0]))]
    lines = ["  ".join(pad(str(c), w) for c, w in zip(r, widths)).rstrip() for r in rows]
    if any(g.get("custom_deal") for g in games):
        lines.append(f"\n* {CUSTOM_DEAL[:1].lower()}{CUSTOM_DEAL[1:]}")
    if any(g.get("lock") for g in games):
        lines.append(LOCK + " " + _("a password table: join asks for its password"))
    return "\n".join(lines)


def add_parser(sub: Any, common: argparse.ArgumentParser) -> None:
    p = sub.add_parser("list", parents=[common], help=_("list open tables"))
    p.add_argument("--status", choices=STATUSES, default=GameStatus.LOBBY, help=_("default: lobby"))
    p.add_argument("--limit", type=int, default=20, help=_("at most this many (default {n})", n=20))
    p.add_argument(
        "--watch", action="store_true", help=_("stay and show the list again whenever it changes")
    )
    p.set_defaults(run=cmd_list)
