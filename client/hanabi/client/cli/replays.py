"""``hanabi-client replay-room``: share a finished game's replay and follow or lead it.

- ``replay-room create GAME``: a room on a finished game, led by you (the seat token you
  saved when you played it, else your saved account session); its leader token is saved.
- ``replay-room follow ROOM``: print the leader's position, highlights and moves as they
  come (``--changes N``: stop after N changes).
- ``replay-room join ROOM``: join as a follower, so the leader can pass you the lead.
- ``replay-room lead ROOM turn N [--highlight 3,7]`` | ``branch N [--hide-draws]`` |
  ``play CARD`` | ``discard CARD`` | ``clue SEAT VALUE`` | ``back`` | ``pass MEMBER``:
  the leader's changes (with the room's saved token).
"""

from __future__ import annotations

import argparse
from typing import Any

from rich.console import Console
from rich.text import Text

from ..accounts import SessionStore
from ..api import Client
from ..i18n import _
from ..replays import Rooms, RoomTokens
from .common import Fail, print_json, server_flag, viewer_token

#: Lead actions that take no value, one value, or two.
LEAD_ACTIONS = ("turn", "branch", "play", "discard", "clue", "back", "pass")


def describe_move(move: dict[str, Any] | None, names: list[str]) -> str:
    """A move as a line: ``ann played card #4``, ``bob clued cat 1s``..."""
    if move is None:
        return _("the deal")
    action, seat = move["action"], move.get("seat")
    who = names[seat] if seat is not None and 0 <= seat < len(names) else _("the table")
    kind = action["type"]
    if kind in ("play", "discard"):
        if kind == "play":
            return _("{who} played card #{card}", who=who, card=action["card"])
        return _("{who} discarded card #{card}", who=who, card=action["card"])
    if kind == "clue":
        target = names[action["target"]] if action["target"] < len(names) else "?"
        value = action.get("color") or f"{action.get('rank')}s"
        return _("{who} clued {target} {value}", who=who, target=target, value=value)
    return _("{who} ended the game", who=who)


def describe_room(room: dict[str, Any]) -> str:
    """One line for a room's state, as ``follow`` prints it."""
    names = [p["name"] for p in room["view"]["players"]]
    hypo = room["hypothetical"]
    if hypo is None:
        where = _("turn {turn} of {last}", turn=room["turn"], last=room["last_turn"])
    else:
        values = {"turn": hypo["turn"], "now": hypo["current_turn"]}
        if hypo["reveal_draws"]:
            where = _("hypothetical from turn {turn}, now turn {now}", **values)
        else:
            where = _("hypothetical from turn {turn}, now turn {now}, draws hidden", **values)
    leads = _("[{name} leads]", name=room["leader"]["name"])
    parts = [f"{leads} {where}: {describe_move(room['last_move'], names)}"]
    if room["highlight"]:
        cards = ", ".join(f"#{o}" for o in room["highlight"])
        parts.append(_("highlight {cards}", cards=cards))
    view = room["view"]
    parts.append(
        _(
            "score {score}, clues {clues}, strikes {strikes}",
            score=view["score"],
            clues=view["clue_tokens"],
            strikes=view["strikes"],
        )
    )
    return " | ".join(parts)


def creator_token(client: Client, game_id: str) -> str | None:
    """Who makes the room: a saved seat of that game, else the saved account session."""
    return viewer_token(client, game_id)


def reader_token(client: Client, room_id: str) -> str | None:
    """Who reads a room: its saved member token (its leader, or a follower who joined),
    else the saved account session (a seed's room is for those who may see the seed)."""
    saved = RoomTokens().load(client.server, room_id)
    if saved is not None:
        return saved["token"]
    return session_token(client)


def session_token(client: Client) -> str | None:
    saved = SessionStore().load(client.server)
    return None if saved is None else saved.token


def cmd_create(args: argparse.Namespace, client: Client, console: Console) -> int:
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
    for seen, room in enumerate(rooms):
        if args.json:
            print_json(room)
        else:
            console.print(Text(describe_room(room)))
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
        raise Fail(_("No token saved for room {room}: only its leader may lead.", room=args.target))
    rooms, room_id, token, values = Rooms(client), args.target, saved["token"], args.values
    what = args.what

    def number(i: int) -> int:
        try:
            return int(values[i])
        except (IndexError, ValueError):
            raise Fail(_("'lead {what}' needs a number.", what=what)) from None

    if what == "turn":
        highlight = [int(o) for o in args.highlight.split(",")] if args.highlight else []
        room = rooms.position(room_id, token, turn=number(0), highlight=highlight)
    elif what == "branch":
        room = rooms.branch(room_id, token, turn=number(0), reveal=not args.hide_draws)
    elif what == "back":
        room = rooms.back(room_id, token)
    elif what == "pass":
        if not values:
            raise Fail(_("'lead pass' needs a follower's member id."))
        room = rooms.pass_lead(room_id, token, values[0])
    else:
        current = rooms.room(room_id, token=token)["hypothetical"]
        if current is None:
            raise Fail(_("Branch first: moves are made in a hypothetical."))
        move: dict[str, Any] = {"turn": current["current_turn"], "type": what}
        if what == "clue":
            if len(values) != 2:
                raise Fail(_("'lead clue' needs a seat and a colour or rank."))
            move["target"] = number(0)
            value = values[1]
            move.update({"rank": int(value)} if value.isdigit() else {"color": value})
        else:
            move["card"] = number(0)
        room = rooms.move(room_id, token, move)
    if args.json:
        print_json(room)
    else:
        console.print(Text(describe_room(room)))
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
        "values", nargs="*", metavar="VALUE", help=_("its values (turn: a turn number)")
    )
    ld.add_argument("--highlight", metavar="ORDERS", help=_("turn: cards to point at, e.g. 3,7"))
    ld.add_argument("--hide-draws", action="store_true", help=_("branch: hide drawn cards"))
    ld.set_defaults(run=cmd_lead)
