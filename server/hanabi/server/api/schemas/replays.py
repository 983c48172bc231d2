"""Schemas of shared replay rooms: making and joining one, the leader's changes, and the
room's state as followers and the leader see it."""

from __future__ import annotations

from marshmallow import fields, validate

from ...table.seats import NAME_MAX
from .actions import ACTION_REQUESTS
from .basics import (
    CARD_MAX,
    NAME_PATTERN,
    TURN_MAX,
    JsonBoolean,
    OneOfNested,
    bounded,
    integer,
    nullable_integer,
    text_field,
)
from .plain import Schema  # marshmallow's, refusing in plain words
from .views import GameViewSchema

#: Cards the leader may point at at once.
HIGHLIGHT_MAX = 20
ROOM_ID = r"^[A-Za-z0-9]{1,32}$"


class CreateRoomSchema(Schema):
    game_id = fields.String(
        required=True,
        validate=validate.Length(1, 64),
        metadata={"description": "A finished game's id."},
    )


class JoinRoomSchema(Schema):
    name = text_field(NAME_MAX, "name", NAME_PATTERN, required=False)  # an account's: its username


class PositionSchema(Schema):
    turn = bounded(
        0,
        TURN_MAX,
        required=True,
        metadata={"description": "The real game's turn to show (kept inside a hypothetical)."},
    )
    highlight = fields.List(
        bounded(0, CARD_MAX),
        load_default=list,
        validate=validate.Length(0, HIGHLIGHT_MAX),
        metadata={"description": f"Card orders pointed at (at most {HIGHLIGHT_MAX})."},
    )


class PassLeadSchema(Schema):
    follower = fields.String(
        required=True,
        validate=validate.Length(1, 32),
        metadata={"description": "The member id a follower got when they joined."},
    )


class BranchSchema(Schema):
    turn = bounded(
        0,
        TURN_MAX,
        required=True,
        metadata={"description": "The real game's turn the hypothetical starts from."},
    )
    reveal_draws = JsonBoolean(
        load_default=True,
        metadata={
            "description": "false: cards drawn in the hypothetical are hidden from followers "
            "while they are in a hand (the leader sees them)."
        },
    )


class LoggedActionSchema(Schema):
    """A move as the engine logs it (a real game may end with `terminate`)."""

    type = fields.String(
        required=True, validate=validate.OneOf(("play", "discard", "clue", "terminate"))
    )
    card = integer()
    target = integer()
    color = fields.String()
    rank = integer()
    firework = fields.String()
    seat = integer()
    reason = fields.String()


class MoveSchema(Schema):
    seat = nullable_integer(metadata={"description": "Who moved (null: the table ended it)."})
    action = fields.Nested(LoggedActionSchema, required=True)


class MemberRefSchema(Schema):
    id = fields.String(required=True)
    name = fields.String(required=True)


class HypotheticalSchema(Schema):
    turn = integer(required=True, metadata={"description": "The real turn it branched from."})
    reveal_draws = JsonBoolean(required=True)
    moves = fields.List(fields.Nested(MoveSchema), required=True)
    current_turn = integer(required=True)
    current_seat = nullable_integer(metadata={"description": "The seat to move; null: over."})
    legal_actions = fields.List(
        OneOfNested(ACTION_REQUESTS),
        required=True,
        metadata={
            "description": "What the seat to move may do (the engine's list), each "
            "with the hypothetical's turn: send one back as it is. Where cards "
            "are hidden from this answer's reader, every clue to a hand holding one is "
            "listed, whether it touches a card or not (which ones touch would tell the "
            "card); one that touches nothing is refused when sent, as the variant's rules "
            "say (409 empty_clue, unless empty clues are on)."
        },
    )
    hidden = fields.List(
        integer(),
        required=True,
        metadata={"description": "Orders of the cards shown hidden in this answer."},
    )


class RoomSchema(Schema):
    """A shared replay room as its followers (or its leader) see it."""

    id = fields.String(required=True)
    game_id = fields.String(required=True)
    leader = fields.Nested(MemberRefSchema, required=True)
    turn = integer(required=True, metadata={"description": "The real game's turn shown."})
    last_turn = integer(required=True)
    highlight = fields.List(integer(), required=True)
    followers = integer(required=True, metadata={"description": "Followers who joined."})
    version = integer(required=True, metadata={"description": "Grows with every change."})
    expires = fields.String(
        required=True, metadata={"format": "date-time", "description": "RFC 3339, UTC."}
    )
    last_move = fields.Nested(
        MoveSchema,
        required=True,
        allow_none=True,
        metadata={"description": "The move that led to what `view` shows (null at turn 0)."},
    )
    hypothetical = fields.Nested(HypotheticalSchema, required=True, allow_none=True)
    view = fields.Nested(
        GameViewSchema,
        required=True,
        metadata={
            "description": "The board: the finished game's full view at `turn` (as GET "
            "/games/{game_id}/replay?turn= answers), or the hypothetical's."
        },
    )


class RoomGrantSchema(Schema):
    """A new room: its id, the leader's member id and token (shown only here, once)."""

    id = fields.String(required=True)
    member = fields.String(required=True)
    token = fields.String(required=True)
    room = fields.Nested(RoomSchema, required=True)


class FollowerGrantSchema(Schema):
    """A follower who joined: their member id and token (shown only here, once)."""

    member = fields.String(required=True)
    token = fields.String(required=True)
    room = fields.Nested(RoomSchema, required=True)


class RoomEventSchema(Schema):
    """One message of GET /replays/{room_id}/stream, as an EventSource dispatches it."""

    event = fields.String(
        validate=validate.OneOf(["room", "end"]),
        metadata={"description": "`room` (the whole state) or `end`"},
    )
    id = fields.String(metadata={"description": "The room's version"})
    data = fields.String(
        metadata={
            "description": 'JSON: the room as GET /replays/{room_id} returns it, or {"reason": ...}'
        }
    )
    retry = fields.Integer(metadata={"description": "Milliseconds to wait before reconnecting"})
