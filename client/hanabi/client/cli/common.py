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

from ..api import DEFAULT_SERVER, Client


class Fail(Exception):
    """A command that cannot go on: a one-line reason for the user, exit status 1."""


def default_name() -> str:
    try:
        return os.environ.get("HANABI_NAME") or getpass.getuser()
    except Exception:  # no login name (containers): any name will do
        return "player"


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
