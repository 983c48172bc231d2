"""``hanabi-client chat``: the lobby's chat (or a replay room's, ``--room``), read, said,
followed live (``--follow``: a long-poll at a time, new lines as they come) and reported;
``mute``/``unmute``/``mutes``; ``follow``/``unfollow``/``friends``: the accounts you follow
and their open tables (docs/chat.md). All act as the logged-in account."""

from __future__ import annotations

import argparse
from datetime import datetime
from typing import Any

from rich.console import Console
from rich.text import Text

from ..api import Client
from ..i18n import _
from .common import print_json, server_flag
from .turns import require_login

#: Seconds each long-poll of ``chat --follow`` waits on the server.
FOLLOW_WAIT = 25.0


def clock(stamp: str) -> str:
    """``HH:MM`` in the terminal's time zone."""
    try:
        return datetime.fromisoformat(stamp.replace("Z", "+00:00")).astimezone().strftime("%H:%M")
    except ValueError:
        return stamp


def line_text(line: dict[str, Any], me: str | None) -> Text:
    """``  [21:04] ann: text  #12``, bold when it mentions you."""
    text = Text(f"  [{clock(line['at'])}] ")
    text.append(line["name"], style="bold cyan")
    text.append(": " + line["text"])
    text.append(f"  #{line['seq']}", style="dim")
    if me is not None and me in line.get("mentions", ()):
        text.stylize("bold")
        text.append("  " + _("(mentions you)"), style="bold yellow")
    return text


def cmd_chat(args: argparse.Namespace, client: Client, console: Console) -> int:
    room = args.room
    if room is None or args.text or args.report is not None:
        require_login(args)  # a room's chat is read by anyone who may read the room
    if args.report is not None:
        client.report_line(args.report, room=room)
        return _done(
            args, console, {"reported": args.report}, _("Reported line {seq}.", seq=args.report)
        )
    if args.text:
        line = client.say_in_chat(" ".join(args.text), room=room)
        if args.json:
            print_json(line)
        else:
            console.print(line_text(line, args.me))
        return 0
    page = client.read_chat(room=room)
    lines = page["lines"][-args.limit :] if args.limit else page["lines"]
    if args.json and not args.follow:
        print_json({**page, "lines": lines})
        return 0
    for line in lines:
        _show(args, console, line)
    if not lines and not args.follow:
        console.print(_("Nobody has said anything yet."))
    last = page["last"]
    while args.follow:
        page = client.read_chat(after=last, wait=FOLLOW_WAIT, room=room)
        for line in page["lines"]:
            _show(args, console, line)
        last = page["last"]  # the server's word: a chat that lost its lines starts over
    return 0


def _show(args: argparse.Namespace, console: Console, line: dict[str, Any]) -> None:
    if args.json:
        print_json(line)
    else:
        console.print(line_text(line, args.me))


def _done(args: argparse.Namespace, console: Console, out: Any, text: str) -> int:
    if args.json:
        print_json(out)
    else:
        console.print(text, highlight=False)
    return 0


def cmd_mute(args: argparse.Namespace, client: Client, console: Console) -> int:
    require_login(args)
    if args.command == "mutes":
        names = client.mutes()
        return _done(args, console, {"mutes": names},
                     "\n".join(names) or _("You have muted nobody."))  # fmt: skip
    if args.command == "mute":
        client.mute(args.username)
        return _done(args, console, {"muted": args.username},
                     _("Muted {name}: you will not read their lines.", name=args.username))  # fmt: skip
    client.unmute(args.username)
    return _done(args, console, {"unmuted": args.username},
                 _("{name} is no longer muted.", name=args.username))  # fmt: skip


def cmd_follow(args: argparse.Namespace, client: Client, console: Console) -> int:
    require_login(args)
    if args.command == "follow":
        client.follow(args.username)
        text = _(
            "You follow {name}: their open tables come first in your lobby.", name=args.username
        )
        return _done(args, console, {"followed": args.username}, text)
    client.unfollow(args.username)
    return _done(args, console, {"unfollowed": args.username},
                 _("You no longer follow {name}.", name=args.username))  # fmt: skip


def cmd_friends(args: argparse.Namespace, client: Client, console: Console) -> int:
    """The accounts you follow, and the open tables where they sit (the lobby puts those
    first for you and names them)."""
    require_login(args)
    follows = client.follows()
    tables = [g for g in client.list_games("lobby", limit=100).games if g.get("friends")]
    if args.json:
        print_json({**follows, "tables": tables})
        return 0
    if not follows["follows"]:
        console.print(_("You follow nobody yet: hanabi-client follow USERNAME"))
        return 0
    console.print(Text(_("You follow:"), style="bold"), " ".join(follows["follows"]))
    if not tables:
        console.print(_("None of them has an open table."))
        return 0
    console.print(Text(_("Their open tables:"), style="bold"))
    for game in tables:
        seated = ", ".join(p["name"] for p in game["players"])
        console.print(f"  {game['id']}  {game['variant']}  {seated}  "
                      f"{len(game['players'])}/{game['max_players']}")  # fmt: skip
    console.print(_("Join one with: {command}",
                    command=f"hanabi-client join GAME{server_flag(client)}"))  # fmt: skip
    return 0


def add_parsers(sub: Any, common: argparse.ArgumentParser) -> None:
    p = sub.add_parser("chat", parents=[common], help=_("the lobby's chat (or a replay room's)"))
    p.add_argument("text", nargs="*", help=_("a line to say; none: show the latest lines"))
    p.add_argument("--room", help=_("a shared replay room's chat, by the room's id"))
    p.add_argument("--follow", "-f", action="store_true",
                   help=_("keep showing new lines as they come (Ctrl-C stops)"))  # fmt: skip
    p.add_argument("--limit", type=int, default=20, help=_("lines shown (default 20)"))
    p.add_argument("--report", type=int, metavar="SEQ", help=_("report line SEQ (its #number)"))
    p.set_defaults(run=cmd_chat)
    for name, words in (("mute", _("hide an account's chat lines from you")),
                        ("unmute", _("read an account's chat lines again"))):  # fmt: skip
        p = sub.add_parser(name, parents=[common], help=words)
        p.add_argument("username")
        p.set_defaults(run=cmd_mute)
    p = sub.add_parser("mutes", parents=[common], help=_("the accounts you muted"))
    p.set_defaults(run=cmd_mute)
    for name, words in (("follow", _("follow an account: its tables first in your lobby")),
                        ("unfollow", _("stop following an account"))):  # fmt: skip
        p = sub.add_parser(name, parents=[common], help=words)
        p.add_argument("username")
        p.set_defaults(run=cmd_follow)
    p = sub.add_parser("friends", parents=[common], help=_("who you follow, and their tables"))
    p.set_defaults(run=cmd_friends)
