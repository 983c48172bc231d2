"""A table's lobby life at a terminal (docs/lobby.md): the ``--password`` of ``create``,
``join`` and ``watch``, and ``hanabi-client again``, the next game with the same seats.

A password typed on the command line stays in the shell's history: ``--password -`` asks
for it without showing it, and so does a join or a watch that the server refuses for
want of one (when a person is at the terminal)."""

from __future__ import annotations

import argparse
import getpass
import sys
from collections.abc import Callable
from typing import Any, TypeVar

from rich.console import Console
from rich.text import Text

from ..api import ApiError, Client
from ..i18n import _
from ..tokens import SavedSeat, TokenStore
from .common import Fail, print_json, server_flag
from .seat import sit

T = TypeVar("T")


def add_password_flag(p: argparse.ArgumentParser, *, create: bool = False) -> None:
    what = (
        _("a password table: joining needs this password")
        if create
        else _("the table's password, if it has one")
    )
    p.add_argument("--password", metavar="TEXT", help=what + " " + _("(-: type it unseen)"))
    if create:
        p.add_argument(
            "--password-spectators",
            action="store_true",
            help=_("spectators need the password too"),
        )


def password_of(args: argparse.Namespace) -> str | None:
    """The ``--password`` given (``-``: typed unseen now), or None."""
    given = getattr(args, "password", None)
    if given == "-":
        return getpass.getpass(_("Table password: "))
    return given


def with_password(
    args: argparse.Namespace, attempt: Callable[[str | None], T], password: str | None = None
) -> T:
    """``attempt(password)``; when the server asks for a password (401
    password_required) and a person is at the terminal, asks for it once and tries again."""
    password = password if password is not None else password_of(args)
    try:
        return attempt(password)
    except ApiError as exc:
        if exc.code != "password_required" or password is not None or not sys.stdin.isatty():
            raise
    return attempt(getpass.getpass(_("This table is locked. Table password: ")))


def watch_locked(client: Client, args: argparse.Namespace, game_id: str) -> dict[str, Any]:
    """The spectator's first view of ``game_id``, with a pass if it is locked to
    spectators (asked for once, see :func:`with_password`)."""
    password = password_of(args)
    if password is not None:
        client.use_pass(game_id, password)
    try:
        return client.game(game_id)
    except ApiError as exc:
        if exc.code != "password_required" or password is not None or not sys.stdin.isatty():
            raise
    client.use_pass(game_id, getpass.getpass(_("This table is locked. Table password: ")))
    return client.game(game_id)


def cmd_again(args: argparse.Namespace, client: Client, console: Console) -> int:
    """The last game's host opens the next one; anyone else who sat there takes their seat
    (or, with ``--decline``, gives it up). Both with the last game's saved seat."""
    store = TokenStore()
    game_id = args.id
    saved = store.find(client.server, game_id, args.name)
    token = saved.token if saved is not None else client.token
    if token is None:
        raise Fail(_("No seat of game {game} is saved here.", game=game_id))
    view = client.game(game_id, token=token)
    following = (view.get("rematch") or {}).get("next")
    if following is None and view.get("you") == view.get("host") and not args.decline:
        seat = client.rematch(game_id, shuffle=args.shuffle, token=token)
        said = _("You opened the next game {game}: the others take their seats with:\n  {command}",
                 game=seat.game_id, command=f"hanabi-client again {game_id}{server_flag(client)}")  # fmt: skip
    elif following is None:
        raise Fail(_("The host has not opened the next game yet: try again in a moment."))
    else:
        answer = client.answer_rematch(game_id, not args.decline, token=token)
        if answer is None:
            if args.json:
                print_json({"id": following, "declined": True})
            else:
                console.print(_("You declined: your seat at {game} is open.", game=following))
            return 0
        seat = answer
        said = _("You took your seat at the next game {game}.", game=seat.game_id)
    name = seat.game["players"][seat.seat]["name"]
    kept = SavedSeat(client.server, seat.game_id, seat.seat, name, seat.token)
    store.save(kept)
    if args.json:
        print_json({"id": seat.game_id, "seat": seat.seat, "game": seat.game})
        return 0
    console.print(Text(said, style="bold"))
    return sit(client, console, args, seat.game_id, seat.token, store_seat=kept)


def add_parser(sub: Any, common: argparse.ArgumentParser) -> None:
    p = sub.add_parser(
        "again", parents=[common], help=_("the next game with the same seats (after a game)")
    )
    p.add_argument("id", metavar="ID", help=_("the finished game's id"))
    p.add_argument("--name", help=_("your seat's name there (when several are saved)"))
    p.add_argument(
        "--shuffle", action="store_true", help=_("host: seat everyone in a random order")
    )
    p.add_argument("--decline", action="store_true", help=_("give up your seat at the next game"))
    p.add_argument(
        "--no-clear", action="store_true", help=_("do not clear the screen between redraws")
    )
    p.set_defaults(run=cmd_again)
