"""``hanabi-client replay-room``: share a finished game's replay and follow or lead it.

- ``replay-room create GAME``: a room on a finished game, led by you (the seat token you
  saved when you played it, else your saved account session); its leader token is saved.
- ``replay-room follow ROOM``: print the leader's position, highlights and moves as they
  come (``--changes N``: stop after N changes).
- ``replay-room join ROOM``: join as a follower, so the leader can pass you the lead.
- ``replay-room lead ROOM turn N [--highlight 3,7]`` | ``branch N [--hide-draws]`` |
  ``play SLOT`` | ``discard SLOT`` | ``clue PLAYER VALUE`` | ``back`` | ``pass MEMBER``:
  the leader's changes (with the room's saved token). Turns, players and slots are
  numbered as the table shows them, from 1 (turn 1 is the deal).
"""

from __future__ import annotations

import argparse
from typing import Any

from rich.console import Console
from rich.text import Text

from ..accounts import SessionStore
from ..api import Client
from ..codes import EventKind
from ..commands import InputError, parse
from ..i18n import _
from ..narrate import player_names
from ..notes import last_move, seat_named
from ..render import game_over_line
from ..replays import Rooms, RoomTokens
from ..variants import VariantInfo, variant_info
from .common import Fail, print_json, server_flag, viewer_token

#: Lead actions that take no value, one value, or two.
LEAD_ACTIONS = ("turn", "branch", "play", "discard", "clue", "back", "pass")


def describe_move(room: dict[str, Any], info: VariantInfo | None = None) -> str:
    """The move that led to what the room shows, in the table's words (notes.last_move:
    "ann misplayed R3", "bob clued ann red, touching slots 2 and 4"), with the strike a
    misplay cost; "the deal" before the first move."""
    view = room["view"]
    said = last_move(view, info or VariantInfo.from_view(view)) if room.get("last_move") else None
    if said is None:
        return _("the deal")
    if (view.get("last_action") or {}).get("type") == EventKind.MISPLAY:
        said += _(" (strike {strikes} of 3)", strikes=view.get("strikes"))
    return said


def highlight_text(cards: list[int], view: dict[str, Any]) -> str:
    """The cards pointed at as the table shows them: "bob's slot 2", else the card."""
    names = player_names(view)
    out = []
    for order in cards:
        holder = next(
            (
                (seat, slot)
                for seat, hand in enumerate(view.get("hands") or [])
                for slot, c in enumerate(hand, 1)
                if c.get("order") == order
            ),
            None,
        )
        if holder is None:
            out.append(_("card #{card}", card=order))
        else:
            seat, slot = holder
            out.append(_("{name}'s slot {slot}", name=names[seat], slot=slot))
    return ", ".join(out)


def highlight_orders(spec: str, view: dict[str, Any]) -> list[int]:
    """``--highlight``'s cards as the table shows them: ``PLAYER:SLOT`` (``bob:2``, ``1:3``:
    a player by number from 1 or by name, a slot from 1) on the board at that turn, or a
    number alone, a card's order (a discarded card's, as ``--json`` shows them)."""
    names = player_names(view)
    hands = view.get("hands") or []
    out = []
    for item in (i.strip() for i in spec.split(",") if i.strip()):
        who, colon, slot = item.rpartition(":")
        try:
            if not colon:
                out.append(int(item))
                continue
            seat = int(who) - 1 if who.isdigit() else seat_named(who, names, InputError)
            out.append(hands[seat][int(slot) - 1]["order"])
        except InputError as exc:
            raise Fail(str(exc)) from None
        except (ValueError, IndexError):
            raise Fail(
                _(
                    "'{item}' is no card: PLAYER:SLOT (bob:2, 1:3) or a card's number.",
                    item=item,
                )
            ) from None
    return out


def describe_room(room: dict[str, Any], info: VariantInfo | None = None) -> str:
    """One line for a room's state, as ``follow`` prints it; turns numbered as the table
    shows them (turn 1 is the deal), players and slots from 1."""
    hypo = room["hypothetical"]
    if hypo is None:
        where = _("turn {turn} of {last}", turn=room["turn"] + 1, last=room["last_turn"] + 1)
    else:
        values = {"turn": hypo["turn"] + 1, "now": hypo["current_turn"] + 1}
        if hypo["reveal_draws"]:
            where = _("hypothetical from turn {turn}, now turn {now}", **values)
        else:
            where = _("hypothetical from turn {turn}, now turn {now}, draws hidden", **values)
    leads = _("[{name} leads]", name=room["leader"]["name"])
    parts = [f"{leads} {where}: {describe_move(room, info)}"]
    view = room["view"]
    if room["highlight"]:
        parts.append(_("highlight {cards}", cards=highlight_text(room["highlight"], view)))
    if view.get("score_hidden") or view.get("score") is None:
        score = _("score hidden until the end")
    else:
        score = _("score {score}", score=view["score"])
    parts.append(
        _(
            "{score}, clues {clues}, strikes {strikes}",
            score=score,
            clues=view["clue_tokens"],
            strikes=view["strikes"],
        )
    )
    result = view.get("result")
    if result and (hypo is not None or room["turn"] == room["last_turn"]):
        parts.append(game_over_line(view, info or VariantInfo.from_view(view)))
    return " | ".join(parts)


def lead_move(room: dict[str, Any], what: str, values: list[str], info: VariantInfo) -> dict:
    """A move of the hypothetical typed as at the table: ``play 2`` / ``discard 2`` (the
    slot of the seat to move, from 1), ``clue 2 red`` / ``clue bob 3`` (a player by number
    from 1 or by name); the table's parser reads it, for the seat to move."""
    hypo = room["hypothetical"]
    if hypo is None:
        raise Fail(_("Branch first: moves are made in a hypothetical."))
    if hypo.get("current_seat") is None:
        raise Fail(_("This line of play is over."))
    # the table's own reading of a move, as if the seat to move typed it
    view = {**room["view"], "you": hypo["current_seat"], "result": None}
    try:
        command = parse(" ".join([what, *values]), view, info)
    except InputError as exc:
        raise Fail(str(exc)) from None
    return {"turn": hypo["current_turn"], **command.action}


def creator_token(client: Client, game_id: str) -> str | None:
    """Who makes the room: a saved seat of that game, else the saved account session."""
    return viewer_token(client, game_id)


def reader_token(client: Client, room_id: str) -> str | None:
    """Who reads a room: its saved member token (its leader, or a follower who joined),
    else the saved account session (the server notes the seeds an account saw), else
    nobody: a finished game's room is open to anyone with its id."""
    saved = RoomTokens().load(client.server, room_id)
    if saved is not None:
        return saved["token"]
    return session_token(client)


def session_token(client: Client) -> str | None:
    saved = SessionStore().load(client.server)
    return None if saved is None else saved.token


def cmd_create(args: argparse.Namespace, client: Client, console: Console) -> int:
    # anyone may follow a finished game's room, but its leader is someone the server
    # knows: the seat that played the game, else the account
    token = creator_token(client, args.target)
    if token is None:
        raise Fail(
            _("Log in (hanabi-client login), or create from the seat you played the game in.")
        )
    made = Rooms(client).create(args.target, token=token)
    RoomTokens().save(client.server, made["id"], made["member"], made["token"])
    if args.json:
        print_json({"id": made["id"], "member": made["member"], "room": made["room"]})
        return 0
    flag = server_flag(client)
    console.print(_("Created replay room {room}: you lead it.", room=made["id"]))
    follow = f"hanabi-client replay-room follow {made['id']}{flag}"
    console.print(_("Followers: {command}", command=follow))
    url = f"{client.server}/replays/{made['id']}"
    console.print(_("In a browser: {url}", url=url))
    return 0


def cmd_follow(args: argparse.Namespace, client: Client, console: Console) -> int:
    # The first state is where the room is; each one after it is a change.
    rooms = Rooms(client).follow(args.target, token=reader_token(client, args.target))
    info = None
    for seen, room in enumerate(rooms):
        if args.json:
            print_json(room)
        else:
            info = info or variant_info(client, room["view"])
            console.print(Text(describe_room(room, info)))
        if args.changes is not None and seen >= args.changes:
            break
    return 0


def cmd_join(args: argparse.Namespace, client: Client, console: Console) -> int:
    joined = Rooms(client).join(args.target, args.name, token=session_token(client))
    RoomTokens().save(client.server, args.target, joined["member"], joined["token"])
    if args.json:
        print_json({"member": joined["member"], "room": joined["room"]})
    else:
        console.print(
            _("Joined room {room} as follower {member}.", room=args.target, member=joined["member"])
        )
    return 0


def cmd_lead(args: argparse.Namespace, client: Client, console: Console) -> int:
    saved = RoomTokens().load(client.server, args.target)
    if saved is None:
        raise Fail(
            _(
                "You have not joined room {room} from here: only its leader may lead "
                "(hanabi-client replay-room join {room}, then the leader passes you the lead).",
                room=args.target,
            )
        )
    rooms, room_id, token, values = Rooms(client), args.target, saved["token"], args.values
    what = args.what

    def turn(i: int) -> int:
        """A turn as the table numbers it (turn 1: the deal), sent as the API counts."""
        try:
            return int(values[i]) - 1
        except (IndexError, ValueError):
            raise Fail(_("'lead {what}' needs a turn number (1 is the deal).", what=what)) from None

    if what == "turn":
        at = turn(0)
        highlight = []
        if args.highlight:
            game_id = rooms.room(room_id, token=token)["game_id"]
            highlight = highlight_orders(args.highlight, client.replay(game_id, at))
        room = rooms.position(room_id, token, turn=at, highlight=highlight)
    elif what == "branch":
        room = rooms.branch(room_id, token, turn=turn(0), reveal=not args.hide_draws)
    elif what == "back":
        room = rooms.back(room_id, token)
    elif what == "pass":
        if not values:
            raise Fail(_("'lead pass' needs a follower's member id."))
        room = rooms.pass_lead(room_id, token, values[0])
    else:
        current = rooms.room(room_id, token=token)
        info = variant_info(client, current["view"])
        room = rooms.move(room_id, token, lead_move(current, what, values, info))
    if args.json:
        print_json(room)
    else:
        console.print(Text(describe_room(room, variant_info(client, room["view"]))))
    return 0


def add_parsers(sub: Any, common: argparse.ArgumentParser) -> None:
    p = sub.add_parser(
        "replay-room", parents=[common], help=_("share a finished game's replay; follow or lead")
    )
    rooms = p.add_subparsers(dest="room_command", required=True, metavar="ACTION")
    c = rooms.add_parser("create", parents=[common], help=_("a room on a finished game you lead"))
    c.add_argument("target", metavar="GAME", help=_("a finished game's id"))
    c.set_defaults(run=cmd_create)
    f = rooms.add_parser(
        "follow", parents=[common], help=_("print the leader's moves as they come")
    )
    f.add_argument("target", metavar="ROOM", help=_("the room's id"))
    f.add_argument("--changes", type=int, metavar="N", help=_("stop after N changes"))
    f.set_defaults(run=cmd_follow)
    j = rooms.add_parser("join", parents=[common], help=_("join as a follower (to lead later)"))
    j.add_argument("target", metavar="ROOM", help=_("the room's id"))
    j.add_argument("--name", help=_("how the room shows you"))
    j.set_defaults(run=cmd_join)
    ld = rooms.add_parser("lead", parents=[common], help=_("the leader's changes"))
    ld.add_argument("target", metavar="ROOM", help=_("the room's id"))
    ld.add_argument(
        "what", choices=LEAD_ACTIONS, metavar="|".join(LEAD_ACTIONS), help=_("what the leader does")
    )
    ld.add_argument(
        "values",
        nargs="*",
        metavar="VALUE",
        help=_("its values: turn N, branch N, play SLOT, discard SLOT, clue PLAYER VALUE"),
    )
    ld.add_argument(
        "--highlight",
        metavar="CARDS",
        help=_("turn: cards to point at, PLAYER:SLOT as the table shows them, e.g. 2:1,1:3"),
    )
    ld.add_argument("--hide-draws", action="store_true", help=_("branch: hide drawn cards"))
    ld.set_defaults(run=cmd_lead)
