"""``hanabi-client`` account commands: register, login, logout, password, whoami,
profile, history; and which credential the game commands use (the logged-in session
unless ``--guest``).

Passwords are read from the terminal without echo, or from ``$HANABI_PASSWORD`` (for
scripts; ``password`` reads the new one from ``$HANABI_NEW_PASSWORD``). ``login`` saves
the session token in the config directory, readable by the user only
(:class:`hanabi.client.accounts.SessionStore`).
"""

from __future__ import annotations

import argparse
import getpass
import os
import sys
from typing import Any

from rich.console import Console
from rich.text import Text

from ..accounts import SavedSession, SessionStore
from ..api import ApiError, Client
from ..i18n import _, n_
from ..words import end_reason
from .common import Fail, average_text, print_json

#: Commands that act as the logged-in account (others, e.g. list, stay anonymous; watch
#: looks as the account, whose spoiled seeds the server notes: docs/watching.md).
AS_ACCOUNT = ("create", "join", "logout", "password", "whoami", "profile", "history", "turns",
              "webhook", "seeds", "stats", "chat", "mute", "unmute", "mutes", "follow",
              "unfollow", "friends", "tag", "tags", "import", "watch")  # fmt: skip


def use_account(args: argparse.Namespace, client: Client) -> str | None:
    """Give ``client`` the credential this command acts with; the username, if any.

    ``bot``: its API key (``--api-key`` or ``$HANABI_API_KEY``). Commands of
    :data:`AS_ACCOUNT`: the saved session, unless ``--guest``."""
    if args.command == "bot":
        key = getattr(args, "api_key", None) or os.environ.get("HANABI_API_KEY")
        if key:
            client.token = key
            return client.me()["username"]
        return None
    if args.command not in AS_ACCOUNT or getattr(args, "guest", False):
        return None
    saved = SessionStore().load(client.server)
    if saved is None:
        return None
    client.token = saved.token
    return saved.username


def password(prompt: str | None = None, confirm: bool = False, env: str = "HANABI_PASSWORD") -> str:
    from_env = os.environ.get(env)
    if from_env:
        return from_env
    if not sys.stdin.isatty():  # a script's pipe: one line, no prompt, no echo warning
        line = sys.stdin.readline()
        if not line:
            raise Fail(_("No password given: type it at the prompt, or set {env}.", env=env))
        return line.rstrip("\r\n")
    try:
        first = getpass.getpass(prompt or _("Password: "))
        if confirm and sys.stdin.isatty() and getpass.getpass(_("Again: ")) != first:
            raise Fail(_("The passwords differ."))
    except EOFError:  # no terminal and nothing on standard input (</dev/null, a script)
        raise Fail(_("No password given: type it at the prompt, or set {env}.", env=env)) from None
    return first


def cmd_register(args: argparse.Namespace, client: Client, console: Console) -> int:
    account = client.register(args.username, password(confirm=True), bot=args.bot)
    if args.json:
        print_json(account)
        return 0
    name = account["username"]
    if account["bot"]:
        console.print(Text(_("Created the bot account {name}.", name=name), style="bold"))
    else:
        console.print(Text(_("Created the account {name}.", name=name), style="bold"))
    command = f"hanabi-client login {name}"
    console.print(_("Log in with: {command}", command=command))
    return 0


def cmd_login(args: argparse.Namespace, client: Client, console: Console) -> int:
    session = client.login(args.username, password())
    username = client.me()["username"]  # as the server keeps it ("Ann" logs in as "ann")
    saved = SavedSession(client.server, username, session["token"], session["expires"])
    SessionStore().save(saved)
    if args.json:
        print_json({"username": username, "expires": session["expires"]})
        return 0
    console.print(Text(_("Logged in as {name}.", name=username), style="bold"))
    console.print(_("create and join now seat you under your account (--guest: without)."))
    return 0


def cmd_logout(args: argparse.Namespace, client: Client, console: Console) -> int:
    store = SessionStore()
    if store.load(client.server) is None:
        raise Fail(_("You are not logged in."))
    try:
        if args.all:
            client.logout_everywhere()
        else:
            client.logout()
    except ApiError as exc:
        if exc.status != 401:  # already ended on the server: forget it all the same
            raise
    store.forget(client.server)
    if args.json:
        print_json({"logged_out": True, "everywhere": args.all})
    else:
        console.print(_("Logged out everywhere.") if args.all else _("Logged out."))
    return 0


def cmd_password(args: argparse.Namespace, client: Client, console: Console) -> int:
    logged_in(client)
    old = password(_("Current password: "))
    new = password(_("New password: "), confirm=True, env="HANABI_NEW_PASSWORD")
    client.change_password(old, new, keep_api_keys=args.keep_api_keys)
    if args.json:
        print_json({"changed": True, "api_keys_kept": args.keep_api_keys})
        return 0
    console.print(Text(_("Password changed."), style="bold"))
    if args.keep_api_keys:
        console.print(_("Your other sessions ended; your API keys were kept."))
    else:
        console.print(
            _("Your other sessions ended; your API keys were revoked (--keep-api-keys keeps them).")
        )
    return 0


def logged_in(client: Client) -> None:
    if not client.token:
        raise Fail(_("You are not logged in: hanabi-client login USERNAME"))


def cmd_whoami(args: argparse.Namespace, client: Client, console: Console) -> int:
    logged_in(client)
    me = client.me()
    if args.json:
        print_json(me)
        return 0
    bot = " " + _("(bot account)") if me["bot"] else ""
    rated = rated_games(me["rated_games"])
    rating = _("rating {rating}", rating=format(me["rating"], ".1f"))
    console.print(f"{me['username']}{bot}: {rating}, {rated}")
    return 0


def rated_games(n: int) -> str:
    """``"1 rated game"``, ``"5 rated games"`` in the reader's language."""
    return n_("{n} rated game", "{n} rated games", n)


def who(args: argparse.Namespace, username: str | None) -> str:
    name = args.name or username
    if not name:
        raise Fail(_("Whose? Give a NAME, or log in."))
    return name


def cmd_profile(args: argparse.Namespace, client: Client, console: Console) -> int:
    body = client.profile(who(args, args.me))
    if args.json:
        print_json(body)
        return 0
    console.print(
        Text(
            f"{body['username']}: "
            + _("rating {rating}", rating=format(body["rating"], ".1f"))
            + f" ({rated_games(body['rated_games'])})",
            style="bold",
        )
    )
    if not body["stats"]:
        console.print(_("No finished games yet."))
    for variant, stats in body["stats"].items():
        best = ", ".join(f"{n}p {score}" for n, score in stats["best"].items()) or "-"
        average = average_text(stats["average"])
        games = n_("{n} game", "{n} games", stats["games"])
        said = _(
            "best {best}, average {average}, strikeouts {rate}%",
            best=best,
            average=average,
            rate=format(stats["strikeout_rate"] * 100, ".0f"),
        )
        rated = rated_games(stats["rated_games"])
        console.print(f"  {variant}: {games}, {said}, {rated} ({stats['rating_change']:+.1f})")
    return 0


def cmd_history(args: argparse.Namespace, client: Client, console: Console) -> int:
    name = who(args, args.me)
    page = client.history(name, limit=args.limit)
    if args.json:
        print_json(page)
        return 0
    if not page["games"]:
        console.print(_("{name} has no finished games yet.", name=name))
    for game in page["games"]:
        change = game.get("rating_change")
        rating = ""
        if change:
            delta = change["after"] - change["before"]
            moved = f"{change['before']:.1f} -> {change['after']:.1f} ({delta:+.1f})"
            rating = "  " + _("rating {rating}", rating=moved)
        console.print(
            f"{game['ended'][:16].replace('T', ' ')}  {game['id']}  {game['variant']}  "
            f"{', '.join(game['players'])}  {_('score {score}', score=game['score'])} "
            f"({end_reason(game['reason'])}){rating}"
        )
    return 0


def add_parsers(sub: Any, common: argparse.ArgumentParser) -> None:
    p = sub.add_parser("register", parents=[common], help=_("create an account"))
    p.add_argument("username", help=_("3 to 20 of a-z, 0-9, _ and -"))
    p.add_argument("--bot", action="store_true", help=_("an account a program plays (never rated)"))
    p.set_defaults(run=cmd_register)

    p = sub.add_parser(
        "login", parents=[common], help=_("log in (this computer remembers it until you log out)")
    )
    p.add_argument("username", help=_("your account's username"))
    p.set_defaults(run=cmd_login)

    p = sub.add_parser("logout", parents=[common], help=_("end the saved session"))
    p.add_argument(
        "--all", action="store_true", help=_("end every session of the account (API keys stay)")
    )
    p.set_defaults(run=cmd_logout)

    p = sub.add_parser(
        "password",
        parents=[common],
        help=_("change the password (other sessions end; API keys too unless kept)"),
    )
    p.add_argument("--keep-api-keys", action="store_true", help=_("keep the account's API keys"))
    p.set_defaults(run=cmd_password)

    p = sub.add_parser("whoami", parents=[common], help=_("the account you are logged in as"))
    p.set_defaults(run=cmd_whoami)

    p = sub.add_parser("profile", parents=[common], help=_("a player's rating and statistics"))
    p.add_argument("name", nargs="?", metavar="NAME", help=_("default: you"))
    p.set_defaults(run=cmd_profile)

    p = sub.add_parser("history", parents=[common], help=_("a player's finished games"))
    p.add_argument("name", nargs="?", metavar="NAME", help=_("default: you"))
    p.add_argument("--limit", type=int, default=20, help=_("at most this many (default {n})", n=20))
    p.set_defaults(run=cmd_history)
