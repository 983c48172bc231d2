"""``hanabi-client export`` and ``replay``: a finished game as hanab.live JSON, or as its
table at any turn."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from rich.console import Console

from ..api import Client
from ..i18n import _
from ..render import TableRenderer
from ..variants import variant_info
from .common import Fail, print_json, viewer_token


def cmd_export(args: argparse.Namespace, client: Client, console: Console) -> int:
    client.token = viewer_token(client, args.id)
    doc = client.export(args.id)
    text = json.dumps(doc, indent=2) + "\n"
    if args.output and args.output != "-":
        Path(args.output).write_text(text, encoding="utf-8")
        if args.json:
            print_json({"id": args.id, "file": args.output})
        else:
            console.print(
                _("Saved game {game} as hanab.live JSON in {file}.", game=args.id, file=args.output)
            )
    else:
        sys.stdout.write(text)
    return 0


def cmd_replay(args: argparse.Namespace, client: Client, console: Console) -> int:
    # The table numbers turns from 1 (the deal) to the end, moves made + 1; the API
    # counts moves made. Users only ever see the table's numbers.
    client.token = viewer_token(client, args.id)
    view = client.replay(args.id)
    last = int(view.get("turn") or 0) + 1
    if args.turn is not None:
        if not 1 <= args.turn <= last:
            raise Fail(
                _(
                    "Game {game} has turns 1 (the deal) to {last} (the end), "
                    "numbered as its table shows them; there is no turn {turn}.",
                    game=args.id,
                    last=last,
                    turn=args.turn,
                )
            )
        if args.turn != last:
            view = client.replay(args.id, args.turn - 1)
    if args.json:
        print_json(view)
        return 0
    renderer = TableRenderer(variant_info(client, view))
    console.print(renderer.render(view, game_id=args.id))
    return 0


def add_parsers(sub: Any, common: argparse.ArgumentParser) -> None:
    p = sub.add_parser("export", parents=[common], help=_("a finished game as hanab.live JSON"))
    p.add_argument("id", nargs="?", metavar="ID", help=_("game id"))
    p.add_argument("-o", "--output", metavar="FILE", help=_("write to FILE (default: stdout)"))
    p.set_defaults(run=cmd_export)

    p = sub.add_parser("replay", parents=[common], help=_("show a finished game at any turn"))
    p.add_argument("id", nargs="?", metavar="ID", help=_("game id"))
    p.add_argument(
        "--turn",
        type=int,
        metavar="N",
        help=_("the table at turn N as it numbers them (1: the deal; default: the end)"),
    )
    p.set_defaults(run=cmd_replay)
