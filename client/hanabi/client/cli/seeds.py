"""``hanabi-client seeds NAME``, ``leaderboard`` and ``stats``: every team's result on a seed
(once you finished it), a variant and table size's best games, and a player's counts."""

from __future__ import annotations

import argparse
from typing import Any

from rich.console import Console
from rich.text import Text

from ..api import Client
from .common import Fail, print_json


def result_line(entry: dict[str, Any]) -> str:
    """One ranked game: ``  1. 25/25 in 61 turns  ann, bob  2026-12-06 21:03  <id>``."""
    bots = f" (+{entry['bots']} bots)" if entry.get("bots") else ""
    return (
        f"{entry['rank']:>4}. {entry['score']}/{entry['max_score']} in {entry['turns']} turns  "
        f"{', '.join(entry['players'])}{bots}  {entry['date'][:16].replace('T', ' ')}  "
        f"{entry['game_id']}"
    )


def more_hint(page: dict[str, Any], command: str) -> str | None:
    cursor = page.get("next_cursor")
    return None if cursor is None else f"More: hanabi-client {command} --cursor {cursor}"


def cmd_seeds(args: argparse.Namespace, client: Client, console: Console) -> int:
    page = client.seed(args.name, limit=args.limit, cursor=args.cursor)
    if args.json:
        print_json(page)
        return 0
    console.print(
        Text(
            f"Seed {page['seed']}: {page['variant']}, {page['players']} players, "
            f"{page['total']} teams",
            style="bold",
        )
    )
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
    order = "fewest turns at the max score" if page["kind"] == "turns" else "best scores"
    console.print(Text(f"{page['variant']}, {page['players']} players: {order}", style="bold"))
    if not page["entries"]:
        console.print("No games on this board yet.")
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
        raise Fail("Whose? Give a NAME, or log in.")
    body = client.player_stats(name)
    if args.json:
        print_json(body)
        return 0
    console.print(Text(f"{body['username']}", style="bold"))
    if not body["variants"]:
        console.print("No games that count yet (a random deal, people only, standard rules).")
    for v in body["variants"]:
        console.print(
            f"  {v['variant']}: {v['games']} games, {v['max_scores']} max scores "
            f"({v['win_rate'] * 100:.0f}%), average {v['average']:.2f}"
        )
    return 0


def add_parsers(sub: Any, common: argparse.ArgumentParser) -> None:
    p = sub.add_parser("seeds", parents=[common], help="every team's result on a seed you finished")
    p.add_argument("name", metavar="NAME", help="a seed's name, e.g. p2v0s1")
    p.add_argument("--limit", type=int, default=20)
    p.add_argument("--cursor", help="the next page (as the last page said)")
    p.set_defaults(run=cmd_seeds)

    p = sub.add_parser("leaderboard", parents=[common], help="a variant's best games")
    p.add_argument("--variant", help="hanab.live id or name, or this server's id (default 0)")
    p.add_argument("--players", type=int, help="table size (default 2)")
    p.add_argument(
        "--kind",
        choices=("score", "turns"),
        help="score: best scores (default); turns: fewest turns at the max score",
    )
    p.add_argument("--limit", type=int, default=20)
    p.add_argument("--cursor", help="the next page (as the last page said)")
    p.set_defaults(run=cmd_leaderboard)

    p = sub.add_parser(
        "stats", parents=[common], help="a player's games, max scores and average per variant"
    )
    p.add_argument("name", nargs="?", metavar="NAME", help="default: you")
    p.set_defaults(run=cmd_stats)
