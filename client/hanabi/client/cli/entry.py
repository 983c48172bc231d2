"""The entry point of ``hanabi-client``: the argument tree, built from each command's
module, and :func:`main`, which runs the command chosen and turns its failures into a
one-line message and an exit status."""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence

from .. import i18n
from ..api import DEFAULT_SERVER, ApiError, Client
from ..i18n import _
from . import (
    accounts,
    bot,
    create,
    finished,
    history,
    join,
    listing,
    replays,
    seeds,
    social,
    strategies,
    tables,
    turns,
    variants,
    watch,
)
from .common import Fail, make_console, name_given, print_json


def build_parser() -> argparse.ArgumentParser:
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument(
        "--server",
        default=argparse.SUPPRESS,
        help=_("API server URL (default: $HANABI_SERVER, else http://127.0.0.1:8000)"),
    )
    common.add_argument(
        "--lang",
        default=argparse.SUPPRESS,
        metavar="LANG",
        help=_("language: en, zh (简体中文) or ru (русский) (default: $LANGUAGE, $LC_ALL, $LANG)"),
    )
    common.add_argument(
        "--json", action="store_true", default=argparse.SUPPRESS, help=_("machine-readable output")
    )
    common.add_argument(
        "--no-color",
        action="store_true",
        default=argparse.SUPPRESS,
        help=_("no colour (also: NO_COLOR=1)"),
    )
    parser = strategies.HelpParser(
        prog="hanabi-client",
        description=_("Play Hanabi in a terminal against a Hanabi REST server."),
        parents=[common],
    )
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    # In the order that --help lists them.
    create.add_parser(sub, common)
    listing.add_parser(sub, common)
    join.add_parser(sub, common)
    bot.add_parser(sub, common)
    watch.add_parser(sub, common)
    finished.add_parsers(sub, common)
    tables.add_parser(sub, common)
    replays.add_parsers(sub, common)
    variants.add_parser(sub, common)
    strategies.add_parser(sub, common)
    accounts.add_parsers(sub, common)
    turns.add_parsers(sub, common)
    seeds.add_parsers(sub, common)
    social.add_parsers(sub, common)
    history.add_parsers(sub, common)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    words = sys.argv[1:] if argv is None else list(argv)
    i18n.use(i18n.choose(i18n.pre_parse(words)))  # before the parser: its help is translated
    parser = build_parser()
    args, extra = parser.parse_known_args(argv)
    # Game ids may begin with "-" (they are URL-safe base64), which argparse takes for an
    # option: a lone unknown "-..." word is the id when the command still lacks one.
    if len(extra) == 1 and extra[0].startswith("-") and getattr(args, "id", "") is None:
        args.id = extra[0]
    elif extra:
        parser.error(_("unrecognized arguments: %s") % " ".join(extra))
    if getattr(args, "id", "") is None:
        parser.error(_("{command} needs a game id", command=args.command))
    args.server = getattr(args, "server", None) or os.environ.get("HANABI_SERVER") or DEFAULT_SERVER
    args.json = getattr(args, "json", False)
    args.no_color = getattr(args, "no_color", False)
    args.no_clear = getattr(args, "no_clear", False)
    console = make_console(args)
    client = Client(args.server)
    try:
        name_given(getattr(args, "name", None))  # --name '': refused, not the login name
        args.me = accounts.use_account(args, client)
        return args.run(args, client, console)
    except ApiError as exc:
        if args.json:
            print_json({"error": {"code": exc.code, "status": exc.status, "detail": exc.detail}})
        else:
            print(f"hanabi-client: {exc.detail}", file=sys.stderr)
        return 1
    except Fail as exc:
        if args.json:
            print_json({"error": {"code": "client_error", "status": None, "detail": str(exc)}})
        else:
            print(f"hanabi-client: {exc}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        return 130
