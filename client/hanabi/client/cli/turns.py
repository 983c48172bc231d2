"""``hanabi-client turns``: the games where it is your move (turn-based tables and live
ones), most urgent first; and ``hanabi-client webhook``: the account's signed webhook
(docs/turns.md). Both act as the logged-in account; ``join <game>`` resumes any of them."""

from __future__ import annotations

import argparse
import time
from datetime import datetime
from typing import Any

from rich.console import Console
from rich.text import Text

from ..api import ApiError, Client
from ..i18n import N_, _, n_
from .common import Fail, print_json, server_flag

UNITS = {"m": 60, "h": 3600, "d": 86400}


def move_clock(text: str) -> int:
    """``"36h"``, ``"2d"``, ``"90m"`` or seconds -> seconds (``create --move-clock``)."""
    text = text.strip().lower()
    unit = UNITS.get(text[-1:], 0)
    try:
        amount = float(text[:-1]) if unit else float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(
            _("{text} is not a duration like 36h or 2d", text=repr(text))
        ) from None
    seconds = int(amount * (unit or 1))
    if seconds <= 0:
        raise argparse.ArgumentTypeError(_("a move clock is longer than nothing"))
    return seconds


def duration(seconds: float) -> str:
    """A short human duration: 2d 3h, 5h 10m, 42m, 30s."""
    seconds = max(0, int(seconds))
    days, rest = divmod(seconds, 86400)
    hours, rest = divmod(rest, 3600)
    minutes, secs = divmod(rest, 60)
    if days:
        return _("{days}d {hours}h", days=days, hours=hours) if hours else _("{days}d", days=days)
    if hours:
        if minutes:
            return _("{hours}h {minutes}m", hours=hours, minutes=minutes)
        return _("{hours}h", hours=hours)
    return _("{minutes}m", minutes=minutes) if minutes else _("{seconds}s", seconds=secs)


def left_until(stamp: str | None, now: float) -> str:
    if not stamp:
        return _("no deadline")
    when = datetime.fromisoformat(stamp.replace("Z", "+00:00")).timestamp()
    return _("{duration} left", duration=duration(when - now))


def require_login(args: argparse.Namespace) -> None:
    if not args.me:
        raise Fail(_("This needs an account: hanabi-client login USERNAME"))


def cmd_turns(args: argparse.Namespace, client: Client, console: Console) -> int:
    require_login(args)
    found = client.my_turns(limit=args.limit)
    if args.json:
        print_json(found)
        return 0
    games = found["games"]
    if not games:
        console.print(_("No game awaits your move."))
        return 0
    total = found["total"]
    console.print(
        Text(n_("Your move in {n} game:", "Your move in {n} games:", total), style="bold")
    )
    now = time.time()
    for game in games:
        score = _("hidden until the end") if game.get("score_hidden") else game["score"]
        where = _("turn {turn}, score {score}", turn=game["turn"] + 1, score=score)
        if game.get("move_clock"):
            where += ", " + _("{duration}/move", duration=duration(game["move_clock"]))
        console.print(
            f"  {game['game_id']}  {game['variant']}  {', '.join(game['players'])}  "
            f"{where}  {left_until(game.get('deadline'), now)}"
        )
    command = f"hanabi-client join GAME{server_flag(client)}"
    console.print(_("Resume one with: {command}", command=command))
    return 0


#: The delivery log's events and outcomes in words (the web panel's words: webhook.js).
EVENTS = {"your_turn": N_("your move"), "game_over": N_("game over"), "mention": N_("a mention"),
          "friend_table": N_("a friend's new table")}  # fmt: skip
OUTCOMES = {"delivered": N_("delivered"), "retrying": N_("will be retried"),
            "failed": N_("failed"), "refused": N_("refused")}  # fmt: skip


def delivery_line(d: dict[str, Any]) -> str:
    """One try: ``  2026-12-07T03:31:32Z  your move  try 1  500  will be retried``."""
    event, outcome = EVENTS.get(d["event"]), OUTCOMES.get(d["outcome"])
    attempt = _("try {attempt}", attempt=d["attempt"])  # not in the f-string: extracted
    answer = d["status"] if d["status"] is not None else d.get("error") or _("no answer")
    event = _(event) if event else d["event"]
    outcome = _(outcome) if outcome else d["outcome"]
    return f"  {d['at']}  {event}  {attempt}  {answer}  {outcome}"


def cmd_webhook(args: argparse.Namespace, client: Client, console: Console) -> int:
    require_login(args)
    out: Any
    if args.action == "set":
        if not args.url:
            raise Fail(_("webhook set needs the URL: hanabi-client webhook set https://..."))
        out = client.set_webhook(args.url)
        text = _(
            "Webhook set to {url}.\nIts secret (shown this once; it signs every call, "
            "X-Hanabi-Signature):\n  {secret}",
            url=out["url"],
            secret=out["secret"],
        )
    elif args.action == "delete":
        client.delete_webhook()
        out, text = {"deleted": True}, _("Webhook removed.")
    elif args.action == "deliveries":
        out = {"deliveries": client.webhook_deliveries(limit=args.limit)}
        lines = [delivery_line(d) for d in out["deliveries"]]
        text = "\n".join(lines) or _("No delivery yet.")
    else:
        try:
            out = client.webhook()
        except ApiError as exc:
            if exc.code != "no_webhook" or args.json:
                raise
            command = "hanabi-client webhook set https://..." + server_flag(client)
            raise Fail(
                _(
                    "No webhook is set: nothing is called when it becomes your move. "
                    "Set one with: {command}",
                    command=command,
                )
            ) from None
        text = _("Webhook: {url} (set {created}).", url=out["url"], created=out["created"])
    if args.json:
        print_json(out)
    else:
        console.print(text, highlight=False)
    return 0


def add_parsers(sub: Any, common: argparse.ArgumentParser) -> None:
    p = sub.add_parser("turns", parents=[common], help=_("the games where it is your move"))
    p.add_argument("--limit", type=int, default=50, help=_("at most this many (default 50)"))
    p.set_defaults(run=cmd_turns)
    p = sub.add_parser("webhook", parents=[common], help=_("your account's signed webhook"))
    p.add_argument("action", nargs="?", default="show",
                   choices=("show", "set", "delete", "deliveries"),
                   help=_("default: show"))  # fmt: skip
    p.add_argument("url", nargs="?", help=_("for set: an https:// URL"))
    p.add_argument("--limit", type=int, default=20, help=_("deliveries shown (default 20)"))
    p.set_defaults(run=cmd_webhook)
