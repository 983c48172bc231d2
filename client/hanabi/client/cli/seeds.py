"""``hanabi-client seeds NAME``, ``leaderboard`` and ``stats``: every team's result on a seed
(once you finished it), a variant and table size's best games, and a player's counts."""

from __future__ import annotations

import argparse
from typing import Any

from rich.console import Console
from rich.text import Text

from ..api import Client
from ..i18n import _, n_
from .common import Fail, average_text, print_json


def result_line(entry: dict[str, Any]) -> str:
    """One ranked game: ``  1. 25/25 in 61 turns  ann, bob  2026-12-06 21:03  <id>``."""
    bots = n_(" (+{n} bot)", " (+{n} bots)", entry["bots"]) if entry.get("bots") else ""
    result = _(
        "{score}/{max} in {turns}", score=entry["score"], max=entry["max_score"],
        turns=n_("{n} turn", "{n} turns", entry["turns"]),
    )  # fmt: skip
    when = entry["date"][:16].replace("T", " ")
    return f"{entry['rank']:>4}. {result}  {', '.join(entry['players'])}{bots}  {when}  {entry['game_id']}"


def more_hint(page: dict[str, Any], command: str) -> str | None:
    cursor = page.get("next_cursor")
    more = f"hanabi-client {command} --cursor {cursor}"
    return None if cursor is None else _("More: {command}", command=more)


def cmd_seeds(args: argparse.Namespace, client: Client, console: Console) -> int:
    page = client.seed(args.name, limit=args.limit, cursor=args.cursor)
    if args.json:
        print_json(page)
        return 0
    title = _(
        "Seed {seed}: {variant}, {players}, {teams}", seed=page["seed"], variant=page["variant"],
        players=n_("{n} player", "{n} players", page["players"]),
        teams=n_("{n} team", "{n} teams", page["total"]),
    )  # fmt: skip
    console.print(Text(title, style="bold"))
    for entry in page["results"]:
        console.print(result_line(entry))
    hint = more_hint(page, f"seeds {page['seed']}")
    if hint:
        console.print(hint)
    return 0


def cmd_leaderboard(args: argparse.Namespace, client: Client, console: Console) -> int:
    page = client.leaderboard(
        variant=args.variant,
        players=args.players,
        kind=args.kind,
        limit=args.limit,
        cursor=args.cursor,
    )
    if args.json:
        print_json(page)
        return 0
    order = _("fewest turns at the max score") if page["kind"] == "turns" else _("best scores")
    title = _(
        "{variant}, {players}: {order}", variant=page["variant"],
        players=n_("{n} player", "{n} players", page["players"]), order=order,
    )  # fmt: skip
    console.print(Text(title, style="bold"))
    if not page["entries"]:
        console.print(_("No games on this board yet."))
    for entry in page["entries"]:
        console.print(result_line(entry))
    flags = f"leaderboard --variant {args.variant or '0'} --players {page['players']}"
    hint = more_hint(page, f"{flags} --kind {page['kind']}")
    if hint:
        console.print(hint)
    return 0


def cmd_stats(args: argparse.Namespace, client: Client, console: Console) -> int:
    name = args.name or args.me
    if not name:
        raise Fail(_("Whose? Give a NAME, or log in."))
    body = client.player_stats(name)
    if args.json:
        print_json(body)
        return 0
    console.print(Text(f"{body['username']}", style="bold"))
    if not body["variants"]:
        console.print(_("No games that count yet (a random deal, people only, standard rules)."))
    for v in body["variants"]:
        counts = _(
            "{games}, {max_scores} ({rate}%), average {average}",
            games=n_("{n} game", "{n} games", v["games"]),
            max_scores=n_("{n} max score", "{n} max scores", v["max_scores"]),
            rate=format(v["win_rate"] * 100, ".0f"), average=average_text(v["average"]),
        )  # fmt: skip
        console.print(f"  {v['variant']}: {counts}")
    return 0


def add_parsers(sub: Any, common: argparse.ArgumentParser) -> None:
    p = sub.add_parser(
        "seeds", parents=[common], help=_("every team's result on a seed you finished")
    )
    p.add_argument("name", metavar="NAME", help=_("a seed's name, e.g. p2v0s1"))
    p.add_argument("--limit", type=int, default=20, help=_("at most this many (default {n})", n=20))
    p.add_argument("--cursor", help=_("the next page (as the last page said)"))
    p.set_defaults(run=cmd_seeds)

    p = sub.add_parser("leaderboard", parents=[common], help=_("a variant's best games"))
    p.add_argument("--variant", help=_("hanab.live id or name, or this server's id (default 0)"))
    p.add_argument("--players", type=int, help=_("table size (default 2)"))
    p.add_argument(
        "--kind",
        choices=("score", "turns"),
        help=_("score: best scores (default); turns: fewest turns at the max score"),
    )
    p.add_argument("--limit", type=int, default=20, help=_("at most this many (default {n})", n=20))
    p.add_argument("--cursor", help=_("the next page (as the last page said)"))
    p.set_defaults(run=cmd_leaderboard)

    p = sub.add_parser(
        "stats", parents=[common], help=_("a player's games, max scores and average per variant")
    )
    p.add_argument("name", nargs="?", metavar="NAME", help=_("default: you"))
    p.set_defaults(run=cmd_stats)
