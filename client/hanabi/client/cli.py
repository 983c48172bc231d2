"""``hanabi-client``: create, list, join, watch, export and replay games from a terminal,
and seat bots that play through the same API (``hanabi-client bot``).

Every command takes ``--server URL`` (default ``$HANABI_SERVER``, else
http://127.0.0.1:8000) and ``--json`` (machine-readable output: one JSON document, or one
JSON object per line at a table).
"""

from __future__ import annotations

import argparse
import getpass
import json
import os
import shlex
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.text import Text

from . import account_cli, strategies
from .api import DEFAULT_SERVER, ApiError, Client, GamePage
from .clocks import parse_timer
from .codes import GameStatus, SeatKind
from .narrate import player_names
from .pacing import DEFAULT_PACE
from .render import CUSTOM_DEAL, TableRenderer, seat_kind
from .session import TableSession
from .tokens import SavedSeat, TokenStore
from .variants import VariantInfo, variant_info

STATUSES = (*GameStatus, "all")
#: Seats at a new table when neither --players nor the deck file says: as the web client's
#: form (two), or one more than --bots (a seat for each bot and the host).
DEFAULT_PLAYERS = 2
BASIC_COLORS = ("red", "yellow", "green", "blue", "white")
BOT_NEEDS_CORE = (
    "The bot command plays with hanabi.bots, from the hanabi-core package, which is not "
    "installed (it is on no package index). From a clone of the repository: "
    "pip install './client[bot]' ./shared"
)


class Fail(Exception):
    """A command that cannot go on: a one-line reason for the user, exit status 1."""


# -- helpers --------------------------------------------------------------------------


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


def read_deck(path: str, client: Client) -> tuple[list[dict[str, Any]], str | None, int | None]:
    """A deck file: a list of {"suit", "rank"} (or [suit, rank]), or a hanab.live game.

    Returns (deck, variant id named by the file or None, player count named or None).
    """
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except OSError as exc:
        raise Fail(f"Cannot read the deck file {path}: {exc.strerror}.") from None
    except ValueError as exc:
        raise Fail(f"The deck file {path} is not JSON: {exc}.") from None
    cards = data.get("deck") if isinstance(data, dict) else data
    if not isinstance(cards, list) or not cards:
        raise Fail(f"The deck file {path} holds no list of cards.")
    variant_id = None
    players = len(data["players"]) if isinstance(data, dict) and data.get("players") else None
    if all(isinstance(c, dict) and "suitIndex" in c for c in cards):
        # hanab.live: suits by index into the variant's suit list.
        name = (data.get("options") or {}).get("variant", "No Variant")
        variants = client.variants()
        match = [v for v in variants if name in (v.get("hanablive_name"), v.get("name"), v["id"])]
        if not match:
            raise Fail(
                f'The deck file names the variant "{name}", which this server does not have.'
            )
        suits = [s["id"] for s in match[0]["suits"]]
        variant_id = match[0]["id"]
        try:
            return (
                [{"suit": suits[c["suitIndex"]], "rank": c["rank"]} for c in cards],
                variant_id,
                players,
            )
        except (IndexError, TypeError):
            raise Fail(f"The deck file {path} has a card of a suit {name} lacks.") from None
    out = []
    for c in cards:
        if isinstance(c, dict) and "suit" in c and "rank" in c:
            out.append({"suit": c["suit"], "rank": c["rank"]})
        elif isinstance(c, list | tuple) and len(c) == 2:
            out.append({"suit": c[0], "rank": c[1]})
        else:
            raise Fail(f"The deck file {path} has a card that is not a suit and a rank: {c!r}.")
    return out, variant_id, players


def pace_seconds(text: str) -> float:
    """``--pace``: seconds per move, 0 to 60."""
    try:
        pace = float(text)
    except ValueError:
        pace = -1.0
    if not 0 <= pace <= 60:
        raise argparse.ArgumentTypeError("seconds per move, 0 to 60 (0: as they come)")
    return pace


def dump(data: Any) -> None:
    sys.stdout.write(json.dumps(data, indent=2) + "\n")


def timer_arg(text: str) -> dict[str, int]:
    try:
        return parse_timer(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


# -- commands -------------------------------------------------------------------------


def cmd_create(args: argparse.Namespace, client: Client, console: Console) -> int:
    if args.bots is not None and args.bots < 0:  # before the table opens: none is left behind
        raise Fail("--bots needs a number of bots, 1 or more.")
    deck = variant = players = None
    if args.deck:
        deck, variant, players = read_deck(args.deck, client)
    options: dict[str, Any] | None = None
    if args.empty_clues or args.strikeout_keeps_score or args.rated:
        options = {
            "empty_clues": args.empty_clues,
            "strikeout_keeps_score": args.strikeout_keeps_score,
        }
    if args.rated:
        if not args.me:
            raise Fail("A rated game needs an account: hanabi-client login USERNAME")
        options["rated"] = True
    if args.timer is not None:
        options = {**(options or {}), "timer": args.timer}
    if args.idle is not None:
        options = {**(options or {}), "idle_limit": args.idle}
    name = args.me or args.name or default_name()
    seat = client.create_game(
        name,
        variant=args.variant or variant,
        max_players=args.players or players or max(DEFAULT_PLAYERS, (args.bots or 0) + 1),
        options=options,
        seed=args.seed,
        deck=deck,
    )
    saved = SavedSeat(client.server, seat.game_id, seat.seat, name, seat.token)
    TokenStore().save(saved)
    game = seat_bots(client, args, seat.game_id, seat.token, saved) or seat.game
    join = f"hanabi-client join {seat.game_id} --name NAME{server_flag(client)}"
    if args.json:
        bots = [p["seat"] for p in game.get("players") or [] if SeatKind.of(p) is SeatKind.BOT]
        dump({"id": seat.game_id, "seat": seat.seat, "join": join, "bots": bots, "game": game})
        return 0
    console.print(
        Text(
            f"Created game {seat.game_id} ({game.get('variant')}, up to "
            f"{game.get('max_players', '?')} players). You are {name}, the host.",
            style="bold",
        )
    )
    bots = [p for p in game.get("players") or [] if SeatKind.of(p) is SeatKind.BOT]
    if bots:
        names = ", ".join(f"{p['name']} ({seat_kind(p)})" for p in bots)
        console.print(f"Bots the server plays: {names}.")
    console.print(f"Friends join with:\n  {join}")
    if args.detach:
        console.print(
            f"Take your seat with:\n  hanabi-client join {seat.game_id}{server_flag(client)}"
        )
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
        for _ in range(args.bots):
            game = client.add_bot(game_id, args.bot_strategy, token=token).game
    except ApiError as exc:
        try:
            client.leave(game_id, saved.seat, token=token)
            TokenStore().forget(saved)
            gone = " The new table is gone."
        except ApiError:
            gone = f" The table {game_id} is still open."
        raise Fail(f"Cannot seat the bots: {exc.detail.rstrip('.')}.{gone}") from None
    return game


def cmd_list(args: argparse.Namespace, client: Client, console: Console) -> int:
    status = None if args.status == "all" else args.status
    if not args.watch:
        show_games(args, client, console, status, client.list_games(status, limit=args.limit))
        return 0
    # --watch: the server holds each request until the listing changes (a live lobby).
    clear = console.is_terminal and not console.is_dumb_terminal and not args.json
    for page in client.watch_games(status, limit=args.limit):
        if clear:
            console.clear()
        show_games(args, client, console, status, page)
        if not args.json:
            console.print(f"\n[dim]Live: updated {time.strftime('%H:%M:%S')}; Ctrl-C to stop.[/]")
    return 0


def show_games(
    args: argparse.Namespace, client: Client, console: Console, status: str | None, page: GamePage
) -> None:
    if args.json:
        dump({"games": page.games, "next_cursor": page.cursor})
        return
    if not page.games:
        console.print(
            f"No {'' if status is None else status + ' '}games. Start one with: hanabi-client create"
        )
        return
    console.print(Text(games_table(page.games)))
    if any(g.get("status") == GameStatus.LOBBY for g in page.games):
        console.print(f"\nJoin one with: hanabi-client join ID --name NAME{server_flag(client)}")


def games_table(games: list[dict[str, Any]]) -> str:
    """Game summaries as aligned rows, a deal the host chose marked and explained."""
    rows = [("ID", "STATUS", "VARIANT", "SEATS", "PLAYERS", "SCORE")]
    for g in games:
        names = ", ".join(player_names(g))
        seated = len(g.get("players") or [])
        # Once dealt, the table has as many seats as players (a host who deals and
        # watches gives theirs up): only a lobby has seats to fill.
        lobby = g.get("status") == GameStatus.LOBBY
        seats = f"{seated}/{g.get('max_players', '?') if lobby else seated}"
        score = "" if lobby else str(g.get("score", ""))
        variant = str(g.get("variant", "")) + ("*" if g.get("custom_deal") else "")
        rows.append((g["id"], g.get("status", ""), variant, seats, names, score))
    widths = [max(len(str(r[i])) for r in rows) for i in range(len(rows[0]))]
    lines = ["  ".join(str(c).ljust(w) for c, w in zip(r, widths)).rstrip() for r in rows]
    if any(g.get("custom_deal") for g in games):
        lines.append(f"\n* {CUSTOM_DEAL[:1].lower()}{CUSTOM_DEAL[1:]}")
    return "\n".join(lines)


def cmd_join(args: argparse.Namespace, client: Client, console: Console) -> int:
    store = TokenStore()
    game_id = args.id
    saved = store.find(client.server, game_id, args.name)
    if saved is None and args.name is None:
        mine = store.seats(client.server, game_id)
        if len(mine) > 1:
            names = ", ".join(s.name for s in mine)
            raise Fail(f"You hold several seats at {game_id} ({names}): choose with --name.")
    saved = still_seated(client, store, saved)
    if saved is not None:
        if not args.json:
            console.print(
                Text(f"Welcome back, {saved.name}: resuming your seat at {game_id}.", style="bold")
            )
        return sit(client, console, args, game_id, saved.token, store_seat=saved)
    name = args.me or args.name or default_name()
    try:
        seat = client.join(game_id, name)
    except ApiError as exc:
        if exc.status == 409 and "start" in exc.code:
            raise Fail(
                f"{exc.detail} Watch it with: hanabi-client watch {game_id}{server_flag(client)}"
            ) from None
        raise
    saved = SavedSeat(client.server, game_id, seat.seat, name, seat.token)
    store.save(saved)
    if not args.json:
        console.print(Text(f"You joined game {game_id} as {name}.", style="bold"))
    return sit(client, console, args, game_id, seat.token, store_seat=saved)


def still_seated(client: Client, store: TokenStore, saved: SavedSeat | None) -> SavedSeat | None:
    """The saved seat if its token still holds a seat (its number brought up to date);
    else None, and the useless token is forgotten."""
    if saved is None:
        return None
    try:
        view = client.game(saved.game_id, token=saved.token)
    except ApiError as exc:
        if exc.status in (401, 403, 404):
            store.forget(saved)  # expired or revoked: the saved token is useless
            if exc.status == 404:
                raise
            return None
        raise
    if view.get("you") is None:
        store.forget(saved)
        return None
    if view["you"] != saved.seat:  # seats move up when someone leaves a lobby
        saved = SavedSeat(saved.server, saved.game_id, view["you"], saved.name, saved.token)
        store.save(saved)
    return saved


def sit(
    client: Client,
    console: Console,
    args: argparse.Namespace,
    game_id: str,
    token: str | None,
    *,
    store_seat: SavedSeat | None,
) -> int:
    def forget() -> None:
        seat = store_seat or TokenStore().find(client.server, game_id)
        if seat is not None:
            TokenStore().forget(seat)

    def resume_command() -> str:
        """How to come back; with --name when this config holds several seats there
        (``join`` without it cannot choose), asked when needed since seats come and go."""
        command = f"hanabi-client join {game_id}"
        seats = TokenStore().seats(client.server, game_id)
        mine = store_seat or next((s for s in seats if s.token == token), None)
        if mine is not None and len(seats) > 1:
            command += f" --name {shlex.quote(mine.name)}"
        return command + server_flag(client)

    session = TableSession(
        client,
        game_id,
        token,
        console=console,
        json_mode=args.json,
        clear=not args.no_clear,
        on_leave=forget,
        join_hint=f"hanabi-client join {game_id} --name NAME{server_flag(client)}",
        resume_command=resume_command,
        pace=getattr(args, "pace", DEFAULT_PACE),
    )
    return session.run()


def cmd_bot(args: argparse.Namespace, client: Client, console: Console) -> int:
    # Only this command needs the bots (and the rules engine under them): import them here,
    # so the rest of the client stays a thin HTTP client.
    try:
        from hanabi.bots import DEFAULT_STRATEGY, STRATEGIES
    except ImportError:
        raise Fail(BOT_NEEDS_CORE) from None
    strategy = args.strategy or DEFAULT_STRATEGY
    if strategy not in STRATEGIES:
        raise Fail(f'No strategy "{strategy}": choose from {", ".join(sorted(STRATEGIES))}.')
    from .bot import BotPlayer

    store = TokenStore()
    game_id = args.id
    defaulted = args.name is None and not args.me
    name = args.me or args.name or f"{strategy}-bot"
    # Resume only the seat saved under this bot's own name, never a person's seat.
    saved = still_seated(client, store, store.find(client.server, game_id, name))
    resumed = saved is not None
    if saved is None:
        seat = None
        for attempt in range(1, 10 if defaulted else 2):
            try_name = name if attempt == 1 else f"{name}-{attempt}"
            try:
                seat = client.join(game_id, try_name, plays=strategy)
            except ApiError as exc:
                if exc.code == "name_taken" and defaulted:
                    continue
                if exc.status == 409 and "start" in exc.code:
                    raise Fail(
                        f"{exc.detail} A bot can only join a table in its lobby "
                        f"(or resume its own seat with --name)."
                    ) from None
                raise
            name = try_name
            break
        if seat is None:
            raise Fail(f"Every bot name up to {name}-9 is taken at {game_id}: choose --name.")
        saved = SavedSeat(client.server, game_id, seat.seat, name, seat.token)
        store.save(saved)
    if args.json:
        sys.stdout.write(
            json.dumps(
                {
                    "type": "seat",
                    "game_id": game_id,
                    "seat": saved.seat,
                    "name": name,
                    "strategy": strategy,
                    "resumed": resumed,
                },
                separators=(",", ":"),
            )
            + "\n"
        )
        sys.stdout.flush()
    else:
        verb = "is back at its seat" if resumed else "joined"
        console.print(
            Text(f"{name} ({strategy} bot) {verb} at game {game_id}, seat {saved.seat + 1}.")
        )
    seat_to_forget = saved
    player = BotPlayer(
        client,
        game_id,
        saved.token,
        strategy,
        console=console,
        json_mode=args.json,
        name=name,
        on_leave=lambda: TokenStore().forget(seat_to_forget),
        resume_hint=(
            f"Resume with: hanabi-client bot {game_id} --strategy {strategy} "
            f"--name {name}{server_flag(client)}"
        ),
    )
    return player.run()


def cmd_watch(args: argparse.Namespace, client: Client, console: Console) -> int:
    client.game(args.id)  # fail early and plainly on an unknown game
    if not args.json:
        if args.pace > 0:
            how = f", one move every {args.pace:g} s: space pauses, n steps, q quits."
        else:
            how = ". Ctrl-C or quit to stop."
        console.print(Text(f"Watching game {args.id}{how}", style="bold"))
    return sit(client, console, args, args.id, None, store_seat=None)


def cmd_export(args: argparse.Namespace, client: Client, console: Console) -> int:
    doc = client.export(args.id)
    text = json.dumps(doc, indent=2) + "\n"
    if args.output and args.output != "-":
        Path(args.output).write_text(text, encoding="utf-8")
        if args.json:
            dump({"id": args.id, "file": args.output})
        else:
            console.print(f"Saved game {args.id} as hanab.live JSON in {args.output}.")
    else:
        sys.stdout.write(text)
    return 0


def cmd_replay(args: argparse.Namespace, client: Client, console: Console) -> int:
    # The table numbers turns from 1 (the deal) to the end, moves made + 1; the API
    # counts moves made. Users only ever see the table's numbers.
    view = client.replay(args.id)
    last = int(view.get("turn") or 0) + 1
    if args.turn is not None:
        if not 1 <= args.turn <= last:
            raise Fail(
                f"Game {args.id} has turns 1 (the deal) to {last} (the end), "
                f"numbered as its table shows them; there is no turn {args.turn}."
            )
        if args.turn != last:
            view = client.replay(args.id, args.turn - 1)
    if args.json:
        dump(view)
        return 0
    renderer = TableRenderer(variant_info(client, view))
    console.print(renderer.render(view, game_id=args.id))
    return 0


def cmd_variants(args: argparse.Namespace, client: Client, console: Console) -> int:
    variants = client.variants()
    if args.json:
        dump({"variants": variants})
        return 0
    for v in variants:
        info = VariantInfo.from_api(v)
        line = Text(f"{v['id']:<16} {v.get('name', ''):<30} ")
        for s in info.suits:
            line.append(s.letter, style=s.style)
        line.append(f"  max {v.get('max_score', '?')}")
        console.print(line)
    console.print(variant_legend(variants))
    return 0


def variant_legend(variants: list[dict[str, Any]]) -> Text:
    """What the suit letters stand for, each suit said from the server's data once."""
    by_letter: dict[str, list[str]] = {}
    styles: dict[str, str] = {}
    for v in variants:
        info = VariantInfo.from_api(v)
        for data, suit in zip(v.get("suits") or [], info.suits):
            said = suit_words(data, suit.name)
            if said not in by_letter.setdefault(suit.letter, []):
                by_letter[suit.letter].append(said)
            styles.setdefault(suit.letter, suit.style)
    out = Text("\nSuits (a card shows its suit letter and rank, e.g. R3, M5):")
    for letter, said in by_letter.items():
        out.append("\n  ")
        out.append(letter, style=styles[letter])
        out.append(f"  {'; '.join(said)}")
    out.append("\nmax: the perfect score, 5 per firework.")
    return out


def suit_words(data: dict[str, Any], name: str) -> str:
    """A suit in words: "Rainbow (every colour clue touches it; one of each rank)"."""
    notes = []
    if data.get("all_colors"):
        notes.append("every colour clue touches it")
    elif data.get("no_colors"):
        notes.append("no colour clue touches it")
    elif data.get("color") and data.get("color") not in BASIC_COLORS:
        notes.append(f"its own clue colour, {data['color']}")
    if data.get("all_ranks"):
        notes.append("every rank clue touches it")
    elif data.get("no_ranks"):
        notes.append("no rank clue touches it")
    if data.get("one_of_each"):
        notes.append("one card of each rank")
    if data.get("wild"):
        notes.append("wild: plays on any firework that needs its rank")
    return f"{name} ({', '.join(notes)})" if notes else name


# -- argument parsing -----------------------------------------------------------------


def build_parser() -> argparse.ArgumentParser:
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument(
        "--server",
        default=argparse.SUPPRESS,
        help="API server URL (default: $HANABI_SERVER, else http://127.0.0.1:8000)",
    )
    common.add_argument(
        "--json", action="store_true", default=argparse.SUPPRESS, help="machine-readable output"
    )
    common.add_argument(
        "--no-color",
        action="store_true",
        default=argparse.SUPPRESS,
        help="no colour (also: NO_COLOR=1)",
    )
    parser = strategies.HelpParser(
        prog="hanabi-client",
        description="Play Hanabi in a terminal against a Hanabi REST server.",
        parents=[common],
    )
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    p = sub.add_parser(
        "create",
        parents=[common],
        help="open a new table and sit at it as host",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.explain = strategies.create_epilog
    p.add_argument("--variant", help="variant id (see: hanabi-client variants)")
    p.add_argument(
        "--players",
        type=int,
        metavar="N",
        help=f"seats at the table, 2-6 (default {DEFAULT_PLAYERS}, or enough for you and --bots)",
    )
    p.add_argument("--name", help="your name (default: $HANABI_NAME, else your login)")
    p.add_argument("--empty-clues", action="store_true", help="allow clues that touch no card")
    p.add_argument(
        "--strikeout-keeps-score",
        action="store_true",
        help="a third strike ends the game with its score (not 0)",
    )
    p.add_argument(
        "--deck", metavar="FILE", help="exact deal: JSON list of cards, or hanab.live JSON"
    )
    p.add_argument("--seed", help="shuffle seed (same seed, same deal)")
    p.add_argument(
        "--timer",
        type=timer_arg,
        metavar="BASE+INC",
        help="a timed game: BASE seconds on each clock, +INC after each move (e.g. 120+20); "
        "running out ends the game with score 0",
    )
    p.add_argument(
        "--idle",
        type=int,
        metavar="SECS",
        help="end the game if nobody moves for SECS seconds (default: the server's, 1800)",
    )
    p.add_argument(
        "--bots",
        type=int,
        metavar="N",
        help="seat N bots that the server plays (then: start, or start watch for bots only)",
    )
    p.add_argument(
        "--bot-strategy",
        metavar="S",
        help="the bots' strategy (default: conventions; see below)",
    )
    p.add_argument(
        "--detach", action="store_true", help="only create; take your seat later with join"
    )
    p.add_argument("--rated", action="store_true", help="a rated game (log in first)")
    p.add_argument("--guest", action="store_true", help="play as a guest, not as your account")
    p.add_argument(
        "--no-clear", action="store_true", help="do not clear the screen between redraws"
    )
    p.set_defaults(run=cmd_create)

    p = sub.add_parser("list", parents=[common], help="list open tables")
    p.add_argument("--status", choices=STATUSES, default=GameStatus.LOBBY, help="default: lobby")
    p.add_argument("--limit", type=int, default=20)
    p.add_argument(
        "--watch", action="store_true", help="stay and show the list again whenever it changes"
    )
    p.set_defaults(run=cmd_list)

    p = sub.add_parser("join", parents=[common], help="join a table, or come back to your seat")
    p.add_argument("id", nargs="?", metavar="ID", help="game id")
    p.add_argument(
        "--name", help="your name (default: your saved seat, else $HANABI_NAME or login)"
    )
    p.add_argument("--guest", action="store_true", help="play as a guest, not as your account")
    p.add_argument(
        "--no-clear", action="store_true", help="do not clear the screen between redraws"
    )
    p.set_defaults(run=cmd_join)

    p = sub.add_parser(
        "bot",
        parents=[common],
        help="seat a bot that joins a table and plays it to the end",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.explain = strategies.bot_epilog
    p.add_argument("id", nargs="?", metavar="ID", help="game id")
    p.add_argument(
        "--strategy",
        metavar="S",
        help="the bot's strategy (default: conventions; see below)",
    )
    p.add_argument(
        "--name",
        help="the bot's name at the table, and the seat it resumes (default: STRATEGY-bot)",
    )
    p.add_argument(
        "--api-key",
        metavar="KEY",
        help="play as the account of this API key (default: $HANABI_API_KEY; else a guest)",
    )
    p.set_defaults(run=cmd_bot)

    p = sub.add_parser("watch", parents=[common], help="watch a game as a spectator")
    p.add_argument("id", nargs="?", metavar="ID", help="game id")
    p.add_argument(
        "--pace",
        type=pace_seconds,
        default=DEFAULT_PACE,
        metavar="SECONDS",
        help=f"seconds per move (default {DEFAULT_PACE:g}; 0: as they come); "
        "keys: space pauses, n steps, q quits",
    )
    p.add_argument(
        "--no-clear", action="store_true", help="do not clear the screen between redraws"
    )
    p.set_defaults(run=cmd_watch)

    p = sub.add_parser("export", parents=[common], help="a finished game as hanab.live JSON")
    p.add_argument("id", nargs="?", metavar="ID", help="game id")
    p.add_argument("-o", "--output", metavar="FILE", help="write to FILE (default: stdout)")
    p.set_defaults(run=cmd_export)

    p = sub.add_parser("replay", parents=[common], help="show a finished game at any turn")
    p.add_argument("id", nargs="?", metavar="ID", help="game id")
    p.add_argument(
        "--turn",
        type=int,
        metavar="N",
        help="the table at turn N as it numbers them (1: the deal; default: the end)",
    )
    p.set_defaults(run=cmd_replay)

    p = sub.add_parser("variants", parents=[common], help="the variants the server offers")
    p.set_defaults(run=cmd_variants)
    strategies.add_command(sub, common)
    account_cli.add_commands(sub, common)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args, extra = parser.parse_known_args(argv)
    # Game ids may begin with "-" (they are URL-safe base64), which argparse takes for an
    # option: a lone unknown "-..." word is the id when the command still lacks one.
    if len(extra) == 1 and extra[0].startswith("-") and getattr(args, "id", "") is None:
        args.id = extra[0]
    elif extra:
        parser.error(f"unrecognized arguments: {' '.join(extra)}")
    if getattr(args, "id", "") is None:
        parser.error(f"{args.command} needs a game id")
    args.server = getattr(args, "server", None) or os.environ.get("HANABI_SERVER") or DEFAULT_SERVER
    args.json = getattr(args, "json", False)
    args.no_color = getattr(args, "no_color", False)
    args.no_clear = getattr(args, "no_clear", False)
    console = make_console(args)
    client = Client(args.server)
    try:
        args.me = account_cli.use_account(args, client)
        return args.run(args, client, console)
    except ApiError as exc:
        if args.json:
            dump({"error": {"code": exc.code, "status": exc.status, "detail": exc.detail}})
        else:
            print(f"hanabi-client: {exc.detail}", file=sys.stderr)
        return 1
    except (Fail, account_cli.AccountFail) as exc:
        if args.json:
            dump({"error": {"code": "client_error", "status": None, "detail": str(exc)}})
        else:
            print(f"hanabi-client: {exc}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())
