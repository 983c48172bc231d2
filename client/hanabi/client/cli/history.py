"""``hanabi-client search``, ``tag``, ``tags``, ``variant-page`` and ``import``: finished
games searched by player, variant, score, tag and date, tags on your games, a variant's
page, and a hanab.live game read in (docs/history.md)."""

from __future__ import annotations

import argparse
import json
import re
import sys
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.text import Text

from ..api import Client
from ..i18n import _, n_
from .accounts import logged_in
from .common import Fail, average_text, print_json
from .seeds import more_hint

DAY = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}")


def when(text: str | None) -> str | None:
    """``--since``/``--until``: a day (``2026-12-06``, from its midnight UTC) or a full
    RFC 3339 time."""
    if text is None:
        return None
    return text + "T00:00:00Z" if DAY.fullmatch(text) else text


def game_line(entry: dict[str, Any]) -> str:
    """``2026-12-06 21:03  <id>  No Variant  ann, bob  20/25 in 61 turns  #finesse``."""
    result = _(
        "{score}/{max} in {turns}", score=entry["score"], max=entry["max_score"],
        turns=n_("{n} turn", "{n} turns", entry["turns"]),
    )  # fmt: skip
    stamp = entry["date"][:16].replace("T", " ")
    tags = " ".join("#" + t for t in entry["tags"])
    imported = " " + _("(imported)") if entry["imported"] else ""
    line = f"{stamp}  {entry['game_id']}  {entry['variant']}  {', '.join(entry['players'])}"
    return f"{line}  {result}{imported}" + (f"  {tags}" if tags else "")


def cmd_search(args: argparse.Namespace, client: Client, console: Console) -> int:
    imported = {"imported": True, "played": False}.get(args.only or "")
    page = client.search_history(
        player=args.player, variant=args.variant, tag=args.tag, min_score=args.min_score,
        max_score=args.max_score, since=when(args.since), until=when(args.until),
        imported=imported, limit=args.limit, cursor=args.cursor,
    )  # fmt: skip
    if args.json:
        print_json(page)
        return 0
    if not page["games"]:
        console.print(_("No finished games match."))
    for entry in page["games"]:
        console.print(game_line(entry))
    flags = " ".join(
        f"--{flag.replace('_', '-')} {value}"
        for flag in ("player", "variant", "tag", "min_score", "max_score", "since", "until")
        if (value := getattr(args, flag)) is not None
    )
    hint = more_hint(page, f"search {flags}".strip())
    if hint:
        console.print(hint)
    return 0


def tags_line(body: dict[str, Any]) -> str:
    if not body["tags"]:
        return _("Game {game} has no tags.", game=body["game_id"])
    shown = ", ".join(
        f"#{t['tag']}" + (f" ×{t['count']}" if t["count"] > 1 else "") + (" *" if t["mine"] else "")
        for t in body["tags"]
    )
    return _("Game {game}: {tags}", game=body["game_id"], tags=shown)


def cmd_tag(args: argparse.Namespace, client: Client, console: Console) -> int:
    logged_in(client)
    body = client.tag_game(args.id, args.tag, remove=args.remove)
    if args.json:
        print_json(body)
    else:
        console.print(tags_line(body))
    return 0


def cmd_tags(args: argparse.Namespace, client: Client, console: Console) -> int:
    body = client.game_tags(args.id)
    if args.json:
        print_json(body)
    else:
        console.print(tags_line(body))
    return 0


def cmd_variant_page(args: argparse.Namespace, client: Client, console: Console) -> int:
    page = client.variant_page(args.name, limit=args.limit, cursor=args.cursor)
    if args.json:
        print_json(page)
        return 0
    mean = "-" if page["mean"] is None else average_text(page["mean"])
    console.print(Text(page["variant"], style="bold"))
    console.print(
        _(
            "{games}, mean {mean} of {max}",
            games=n_("{n} game", "{n} games", page["games"]),
            mean=mean,
            max=page["max_score"],
        )
    )
    if page["best"]:
        console.print(Text(_("Best games:"), style="bold"))
        for entry in page["best"]:
            console.print("  " + game_line(entry))
    console.print(
        Text(
            _(
                "Missing max scores: {missing} of {seeds}",
                missing=page["missing_total"],
                seeds=n_("{n} seed played", "{n} seeds played", page["seeds_played"]),
            ),
            style="bold",
        )
    )
    for seed in page["missing_max_scores"]:
        console.print("  " + seed)
    hint = more_hint(page, f"variant-page {json.dumps(args.name)}")
    if hint:
        console.print(hint)
    return 0


def cmd_import(args: argparse.Namespace, client: Client, console: Console) -> int:
    logged_in(client)
    try:
        text = sys.stdin.read() if args.file == "-" else Path(args.file).read_text("utf-8")
        document = json.loads(text)
    except (OSError, UnicodeDecodeError, ValueError) as exc:
        raise Fail(_("Could not read {file}: {reason}", file=args.file, reason=exc)) from None
    body = client.import_game(document)
    if args.json:
        print_json(body)
    else:
        console.print(
            _(
                "Imported as game {game}: {score} in {turns}. Replay: hanabi-client replay {game}",
                game=body["game_id"],
                score=body["score"],
                turns=n_("{n} turn", "{n} turns", body["turns"]),
            )
        )
    return 0


def add_parsers(sub: Any, common: argparse.ArgumentParser) -> None:
    p = sub.add_parser("search", parents=[common], help=_("search finished games"))
    p.add_argument("--player", help=_("a player's name"))
    p.add_argument("--variant", help=_("hanab.live id or name, or this server's id"))
    p.add_argument("--tag", help=_("a tag, with or without #"))
    p.add_argument("--min-score", type=int, help=_("at least this score"))
    p.add_argument("--max-score", type=int, help=_("at most this score"))
    p.add_argument("--since", help=_("ended on or after (2026-12-06, or an RFC 3339 time)"))
    p.add_argument("--until", help=_("ended on or before (2026-12-06, or an RFC 3339 time)"))
    p.add_argument(
        "--only", choices=("imported", "played"), help=_("only imported games, or only played here")
    )
    p.add_argument("--limit", type=int, default=20, help=_("at most this many (default {n})", n=20))
    p.add_argument("--cursor", help=_("the next page (as the last page said)"))
    p.set_defaults(run=cmd_search)

    p = sub.add_parser("tag", parents=[common], help=_("tag a finished game you played"))
    p.add_argument("id", nargs="?", metavar="GAME", help=_("the game's id"))
    p.add_argument("tag", metavar="TAG", help=_("one word: letters, digits, - and _"))
    p.add_argument("--remove", action="store_true", help=_("take your tag off instead"))
    p.set_defaults(run=cmd_tag)

    p = sub.add_parser("tags", parents=[common], help=_("a finished game's tags"))
    p.add_argument("id", nargs="?", metavar="GAME", help=_("the game's id"))
    p.set_defaults(run=cmd_tags)

    p = sub.add_parser(
        "variant-page",
        parents=[common],
        help=_("a variant's best games, mean and missing max scores"),
    )
    p.add_argument("name", metavar="VARIANT", help=_("hanab.live id or name, or this server's id"))
    p.add_argument("--limit", type=int, default=20, help=_("at most this many (default {n})", n=20))
    p.add_argument("--cursor", help=_("the next page (as the last page said)"))
    p.set_defaults(run=cmd_variant_page)

    p = sub.add_parser("import", parents=[common], help=_("import a hanab.live game (JSON)"))
    p.add_argument("file", metavar="FILE", help=_("its JSON export (- reads standard input)"))
    p.set_defaults(run=cmd_import)
