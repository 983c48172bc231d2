"""``hanabi-client join``: take a seat at a table in its lobby, or come back to yours."""

from __future__ import annotations

import argparse
import unicodedata
from typing import Any

from rich.console import Console
from rich.text import Text

from ..api import ApiError, Client
from ..i18n import _
from ..tokens import SavedSeat, TokenStore
from .common import Fail, default_name, server_flag
from .seat import sit, still_seated
from .tables import add_password_flag, with_password


def cmd_join(args: argparse.Namespace, client: Client, console: Console) -> int:
    store = TokenStore()
    game_id = args.id
    saved = store.find(client.server, game_id, args.name)
    if saved is None and args.name is None:
        mine = store.seats(client.server, game_id)
        if len(mine) > 1:
            names = ", ".join(s.name for s in mine)
            raise Fail(
                _(
                    "You hold several seats at {game} ({names}): choose with --name.",
                    game=game_id,
                    names=names,
                )
            )
    saved = still_seated(client, store, saved)
    if saved is not None:
        if not args.json:
            console.print(
                Text(
                    _(
                        "Welcome back, {name}: resuming your seat at {game}.",
                        name=saved.name,
                        game=game_id,
                    ),
                    style="bold",
                )
            )
        return sit(client, console, args, game_id, saved.token, store_seat=saved)
    if args.me and resumable(client, game_id):  # a seat of the account's, saved or not
        if not args.json:
            said = _("Resuming your seat at {game} as {name}.", game=game_id, name=args.me)
            console.print(Text(said, style="bold"))
        return sit(client, console, args, game_id, client.token, store_seat=None)
    name = args.me or args.name or default_name()
    try:
        seat = with_password(args, lambda password: client.join(game_id, name, password=password))
    except ApiError as exc:
        if exc.status == 409 and exc.code == "seat_held":
            # that seat is someone's: its token is on the computer that joined with it
            mine = ", ".join(s.name for s in store.seats(client.server, game_id))
            hint = (
                _("Your seats saved here: {names}.", names=mine)
                if mine
                else _("No seat of this game is saved here: resume it where it was joined.")
            )
            said = _(
                "{name} holds a seat at this game, which has started: come back to it from "
                "where it joined, or log in as its account, not by joining again.",
                name=repr(held_name(client, game_id, name)),
            )
            raise Fail(f"{said} {hint}") from None
        if exc.status == 409 and "start" in exc.code:
            command = f"hanabi-client watch {game_id}{server_flag(client)}"
            raise Fail(f"{exc.detail} " + _("Watch it with: {command}", command=command)) from None
        raise
    saved = SavedSeat(client.server, game_id, seat.seat, name, seat.token)
    store.save(saved)
    if not args.json:
        console.print(
            Text(_("You joined game {game} as {name}.", game=game_id, name=name), style="bold")
        )
    return sit(client, console, args, game_id, seat.token, store_seat=saved)


def resumable(client: Client, game_id: str) -> bool:
    """Whether the logged-in account holds a seat at ``game_id`` (its session stands for
    the seat: a game joined elsewhere, e.g. from ``hanabi-client turns``, resumes too)."""
    try:
        return client.game(game_id).get("you") is not None
    except ApiError as exc:
        if exc.status == 404:
            raise
        return False


def add_parser(sub: Any, common: argparse.ArgumentParser) -> None:
    p = sub.add_parser("join", parents=[common], help=_("join a table, or come back to your seat"))
    p.add_argument("id", nargs="?", metavar="ID", help=_("game id"))
    p.add_argument(
        "--name", help=_("your name (default: your saved seat, else $HANABI_NAME or login)")
    )
    p.add_argument("--guest", action="store_true", help=_("play as a guest, not as your account"))
    add_password_flag(p)
    p.add_argument(
        "--no-clear", action="store_true", help=_("do not clear the screen between redraws")
    )
    p.set_defaults(run=cmd_join)


def held_name(client: Client, game_id: str, name: str) -> str:
    """The seat's own name that ``name`` matched, as the table matches names (NFKC, any
    case: "ALICE" and "Ａｌｉｃｅ" find "alice"); ``name`` itself if it cannot be told."""
    key = unicodedata.normalize("NFKC", name).casefold()
    try:
        players = client.game(game_id).get("players") or []
    except ApiError:
        return name
    found = (p.get("name") for p in players if isinstance(p, dict))
    return next((n for n in found if unicodedata.normalize("NFKC", n).casefold() == key), name)
