"""``hanabi-client create``: open a new table (a variant, its options, a deal of the host's
choosing, bots the server plays) and sit at it as host."""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.text import Text

from ..api import ApiError, Client
from ..clocks import parse_timer
from ..codes import SeatKind
from ..i18n import N_, _
from ..render import seat_kind
from ..tokens import SavedSeat, TokenStore
from . import strategies
from .common import Fail, default_name, print_json, server_flag
from .seat import join_hint, sit
from .tables import add_password_flag, password_of
from .turns import move_clock

#: Seats at a new table when neither --players nor the deck file says: as the web client's
#: form (two), or one more than --bots (a seat for each bot and the host).
DEFAULT_PLAYERS = 2


def cmd_create(args: argparse.Namespace, client: Client, console: Console) -> int:
    if args.bots is not None and args.bots < 0:  # before the table opens: none is left behind
        raise Fail(_("--bots needs a number of bots, 1 or more."))
    deck = variant = players = None
    file_options: dict[str, bool] = {}
    if args.deck:
        deck, variant, players, file_options = read_deck(args.deck, client)
    options: dict[str, Any] | None = None
    if args.empty_clues or args.strikeout_keeps_score or args.rated:
        options = {
            "empty_clues": args.empty_clues,
            "strikeout_keeps_score": args.strikeout_keeps_score,
        }
    table = {**file_options, **{o: True for o in TABLE_OPTIONS if getattr(args, o)}}
    if table:
        options = {**(options or {}), **table}
    if args.rated:
        if not args.me:
            raise Fail(_("A rated game needs an account: hanabi-client login USERNAME"))
        options["rated"] = True  # its spectators never see the hands: nothing to hide
    elif args.hide_hands:
        options = {**(options or {}), "spectators_see_hands": False}
    if args.timer is not None:
        options = {**(options or {}), "timer": args.timer}
    if args.idle is not None:
        options = {**(options or {}), "idle_limit": args.idle}
    if args.move_clock is not None:  # a turn-based table (docs/turns.md)
        options = {**(options or {}), "move_clock": args.move_clock}
    name = args.me or args.name or default_name()
    seat = client.create_game(
        name,
        variant=args.variant or variant,
        max_players=args.players or players or max(DEFAULT_PLAYERS, (args.bots or 0) + 1),
        options=options,
        seed=args.seed,
        deck=deck,
        password=password_of(args),
        password_spectators=args.password_spectators,
    )
    saved = SavedSeat(client.server, seat.game_id, seat.seat, name, seat.token)
    TokenStore().save(saved)
    game = seat_bots(client, args, seat.game_id, seat.token, saved) or seat.game
    join = join_hint(client, seat.game_id)
    bots = [p for p in game.get("players") or [] if SeatKind.of(p) is SeatKind.BOT]
    if args.json:
        seats = [p["seat"] for p in bots]
        print_json(
            {"id": seat.game_id, "seat": seat.seat, "join": join, "bots": seats, "game": game}
        )
        return 0
    console.print(
        Text(
            _(
                "Created game {game} ({variant}, up to {players} players). "
                "You are {name}, the host.",
                game=seat.game_id,
                variant=game.get("variant"),
                players=game.get("max_players", "?"),
                name=name,
            ),
            style="bold",
        )
    )
    if bots:
        names = ", ".join(f"{p['name']} ({seat_kind(p)})" for p in bots)
        console.print(_("Bots the server plays: {names}.", names=names))
    console.print(_("Friends join with:\n  {command}", command=join))
    if args.detach:
        command = f"hanabi-client join {seat.game_id}{server_flag(client)}"
        console.print(_("Take your seat with:\n  {command}", command=command))
        return 0
    return sit(client, console, args, seat.game_id, seat.token, store_seat=None)


def seat_bots(
    client: Client, args: argparse.Namespace, game_id: str, token: str, saved: SavedSeat
) -> dict[str, Any] | None:
    """``--bots N``: seat N server bots at the new table; the host's view after, or None.

    If the server refuses one (an unknown strategy, a table too small), the new table is
    given up (the host leaving a lobby of bots deletes it) and the command fails.
    """
    if not args.bots:
        return None
    game = None
    try:
        for _bot in range(args.bots):
            game = client.add_bot(game_id, args.bot_strategy, token=token).game
    except ApiError as exc:
        try:
            client.leave(game_id, saved.seat, token=token)
            TokenStore().forget(saved)
            gone = " " + _("The new table is gone.")
        except ApiError:
            gone = " " + _("The table {game} is still open.", game=game_id)
        reason = exc.detail.rstrip(".")
        raise Fail(_("Cannot seat the bots: {reason}.", reason=reason) + gone) from None
    return game


#: The table options a new game may set (hanab.live's), each a --flag of create.
TABLE_OPTIONS = {
    "one_extra_card": N_("every hand holds one card more"),
    "one_less_card": N_("every hand holds one card fewer"),
    "deck_plays": N_("the seat to move may play the deck's last card blind"),
    "all_or_nothing": N_("play on after the deck runs out; anything short of perfect scores 0"),
    "card_cycle": N_("a clue giver's oldest unclued card moves to their newest slot"),
    "end_at_max_possible": N_(
        "end as soon as the highest score still possible is reached "
        "(as hanab.live does; set by a hanab.live deck file)"
    ),
}
#: hanab.live's option keys, and the table options they are here.
HANABLIVE_OPTIONS = {
    "emptyClues": "empty_clues",
    "oneExtraCard": "one_extra_card",
    "oneLessCard": "one_less_card",
    "deckPlays": "deck_plays",
    "allOrNothing": "all_or_nothing",
    "cardCycle": "card_cycle",
    "strikeoutKeepsScore": "strikeout_keeps_score",
}


def read_deck(
    path: str, client: Client
) -> tuple[list[dict[str, Any]], str | None, int | None, dict[str, bool]]:
    """A deck file: a list of {"suit", "rank"} (or [suit, rank]), or a hanab.live game.

    Returns (deck, variant named by the file or None, player count named or None, table
    options the file sets). A hanab.live game is imported as hanab.live plays it: its
    variant by name (any of hanab.live's), its options, and ``end_at_max_possible``
    unless the file says ``endAtMaxPossible: false``.
    """
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except OSError as exc:
        raise Fail(
            _("Cannot read the deck file {path}: {reason}.", path=path, reason=exc.strerror)
        ) from None
    except ValueError as exc:
        raise Fail(
            _("The deck file {path} is not JSON: {reason}.", path=path, reason=exc)
        ) from None
    cards = data.get("deck") if isinstance(data, dict) else data
    if not isinstance(cards, list) or not cards:
        raise Fail(_("The deck file {path} holds no list of cards.", path=path))
    players = len(data["players"]) if isinstance(data, dict) and data.get("players") else None
    if all(isinstance(c, dict) and "suitIndex" in c for c in cards):
        # hanab.live: suits by index into the variant's suit list.
        given = (data.get("options") or {}) if isinstance(data, dict) else {}
        name = given.get("variant", "No Variant")
        try:
            variant = client.variant(str(name))
        except ApiError as exc:
            if exc.status != 404:
                raise
            raise Fail(
                _(
                    'The deck file names the variant "{name}", which this server does not have.',
                    name=name,
                )
            ) from None
        suits = [s["id"] for s in variant["suits"]]
        options = {ours: True for theirs, ours in HANABLIVE_OPTIONS.items() if given.get(theirs)}
        if given.get("endAtMaxPossible", True):
            options["end_at_max_possible"] = True
        try:
            deck = [{"suit": suits[c["suitIndex"]], "rank": c["rank"]} for c in cards]
        except (IndexError, TypeError):
            raise Fail(
                _(
                    "The deck file {path} has a card of a suit {variant} lacks.",
                    path=path,
                    variant=name,
                )
            ) from None
        return deck, variant["id"], players, options
    out = []
    for c in cards:
        if isinstance(c, dict) and "suit" in c and "rank" in c:
            out.append({"suit": c["suit"], "rank": c["rank"]})
        elif isinstance(c, list | tuple) and len(c) == 2:
            out.append({"suit": c[0], "rank": c[1]})
        else:
            raise Fail(
                _(
                    "The deck file {path} has a card that is not a suit and a rank: {card}.",
                    path=path,
                    card=repr(c),
                )
            )
    return out, None, players, {}


def timer_arg(text: str) -> dict[str, int]:
    try:
        return parse_timer(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def add_parser(sub: Any, common: argparse.ArgumentParser) -> None:
    p = sub.add_parser(
        "create",
        parents=[common],
        help=_("open a new table and sit at it as host"),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.explain = strategies.create_epilog
    p.add_argument(
        "--variant",
        help=_(
            "a variant: its hanab.live name (quote it; any case), number or id "
            "(see: hanabi-client variants)"
        ),
    )
    p.add_argument(
        "--players",
        type=int,
        metavar="N",
        help=_(
            "seats at the table, 2-6 (default {n}, or enough for you and --bots)", n=DEFAULT_PLAYERS
        ),
    )
    p.add_argument("--name", help=_("your name (default: $HANABI_NAME, else your login)"))
    p.add_argument("--empty-clues", action="store_true", help=_("allow clues that touch no card"))
    p.add_argument(
        "--strikeout-keeps-score",
        action="store_true",
        help=_("a third strike ends the game with its score (not 0)"),
    )
    for option, said in TABLE_OPTIONS.items():
        p.add_argument(
            f"--{option.replace('_', '-')}", dest=option, action="store_true", help=_(said)
        )
    p.add_argument(
        "--deck", metavar="FILE", help=_("exact deal: JSON list of cards, or hanab.live JSON")
    )
    p.add_argument("--seed", help=_("shuffle seed (same seed, same deal)"))
    p.add_argument(
        "--timer",
        type=timer_arg,
        metavar="BASE+INC",
        help=_(
            "a timed game: BASE seconds on each clock, +INC after each move (e.g. 120+20); "
            "running out ends the game with score 0"
        ),
    )
    p.add_argument(
        "--idle",
        type=int,
        metavar="SECS",
        help=_("end the game if nobody moves for SECS seconds (default: the server's, 1800)"),
    )
    p.add_argument(
        "--move-clock",
        type=move_clock,
        metavar="TIME",
        help=_("a turn-based table: TIME per move, e.g. 36h or 2d (see: hanabi-client turns)"),
    )
    p.add_argument(
        "--bots",
        type=int,
        metavar="N",
        help=_("seat N bots that the server plays (then: start, or start watch for bots only)"),
    )
    p.add_argument(
        "--bot-strategy",
        metavar="S",
        help=_("the bots' strategy (default: conventions; see below)"),
    )
    p.add_argument(
        "--detach", action="store_true", help=_("only create; take your seat later with join")
    )
    p.add_argument("--rated", action="store_true", help=_("a rated game (log in first)"))
    p.add_argument(
        "--hide-hands",
        action="store_true",
        help=_(
            "spectators see only the board, not the hands, until the game is over "
            "(always so at a rated table)"
        ),
    )
    add_password_flag(p, create=True)
    p.add_argument("--guest", action="store_true", help=_("play as a guest, not as your account"))
    p.add_argument(
        "--no-clear", action="store_true", help=_("do not clear the screen between redraws")
    )
    p.set_defaults(run=cmd_create)
