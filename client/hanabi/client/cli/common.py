"""What every ``hanabi-client`` command shares: the one-line failure, the default player
name, the ``--server`` flag in commands we print, the console and JSON output."""

from __future__ import annotations

import argparse
import getpass
import json
import os
import sys
from typing import Any

from rich.console import Console

from ..accounts import SessionStore
from ..api import DEFAULT_SERVER, Client
from ..i18n import _
from ..tokens import TokenStore


class Fail(Exception):
    """A command that cannot go on: a one-line reason for the user, exit status 1."""


def default_name() -> str:
    try:
        return os.environ.get("HANABI_NAME") or getpass.getuser()
    except Exception:  # no login name (containers): any name will do
        return "player"


def average_text(average: float | None) -> str:
    """An average score as ``profile`` and ``stats`` both print it: two decimals, and
    0.00 where no game scored (the profile has none to average: every game ended at 0)."""
    return format(average or 0, ".2f")


def name_given(name: str | None) -> str | None:
    """``--name`` as given: None when absent; a blank one refused (it would otherwise seat
    you under your login name, as if no name had been given)."""
    if name is not None and not name.strip():
        raise Fail(_("--name needs a name: it cannot be empty or only spaces."))
    return name


def server_flag(client: Client) -> str:
    """``--server URL`` when the server is not the default one, for commands we print."""
    default = os.environ.get("HANABI_SERVER") or DEFAULT_SERVER
    return "" if client.server == default.rstrip("/") else f" --server {client.server}"


def make_console(args: argparse.Namespace) -> Console:
    return Console(
        highlight=False,
        no_color=True if args.no_color else None,
        soft_wrap=True,
        emoji=False,
    )


def print_json(data: Any) -> None:
    """``--json``: one JSON document on standard output."""
    sys.stdout.write(json.dumps(data, indent=2) + "\n")


def viewer_token(client: Client, game_id: str) -> str | None:
    """Who looks at a game: a seat saved for it, else the saved account (the server notes
    the seeds whose cards an account saw before playing them, and refuses the cards of a
    deal it plays at another table: docs/watching.md), else nobody (a finished game is
    anyone's)."""
    seats = TokenStore().seats(client.server, game_id)
    if seats:
        return seats[0].token
    saved = SessionStore().load(client.server)
    return None if saved is None else saved.token
