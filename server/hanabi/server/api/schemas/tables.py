"""Schemas of a table's lobby life (issue 48): a password's lock, a spectator's pass, a
pause by vote, and the next game with the same seats."""

from __future__ import annotations

from marshmallow import fields, validate

from .basics import JsonBoolean, integer
from .plain import Schema  # marshmallow's, refusing in plain words

#: A table's password: any text of 1 to 128 characters (kept only as its scrypt hash).
PASSWORD_MAX = 128


def password_field(required: bool, description: str) -> fields.String:
    return fields.String(
        required=required,
        load_only=True,
        validate=validate.Length(1, PASSWORD_MAX),
        metadata={"description": description, "format": "password"},
    )


class LockSchema(Schema):
    """That a table is locked (the password itself is never shown)."""

    spectators = JsonBoolean(
        required=True,
        metadata={"description": "Spectators need the password too (a pass: "
                  "POST /games/{game_id}/passes)."},
    )  # fmt: skip


def lock_field() -> fields.Nested:
    return fields.Nested(
        LockSchema,
        allow_none=True,
        metadata={"description": "Present and not null at a password table: joining needs "
                  "its `password` (docs/lobby.md)."},
    )  # fmt: skip


class PassRequestSchema(Schema):
    password = password_field(True, "The table's password.")


class PassSchema(Schema):
    """A spectator's pass of one locked table."""

    pass_ = fields.String(
        required=True,
        data_key="pass",
        metadata={"description": "Send it as the X-Table-Pass header of every spectator "
                  "request of this game (?pass= on its event stream). It stands for the "
                  "password at this table only."},
    )  # fmt: skip
    header = fields.String(required=True, metadata={"description": "X-Table-Pass"})


class PauseRequestSchema(Schema):
    paused = JsonBoolean(
        required=True,
        metadata={"description": "true: vote to pause; false: vote to go on. Asking for "
                  "the state the table is in takes your pending vote back."},
    )  # fmt: skip


class PauseSchema(Schema):
    """A pause by vote (unrated, untimed tables in play)."""

    paused = JsonBoolean(required=True, metadata={"description": "The table is paused."})
    votes = integer(required=True, metadata={"description": "Votes to change it now."})
    needed = integer(required=True, metadata={"description": "Votes that change it."})
    mine = JsonBoolean(
        required=True, allow_none=True, metadata={"description": "You voted (null: spectator)."}
    )
    allowed = JsonBoolean(
        required=True,
        metadata={"description": "The table may pause at all: unrated, with no chess clock."},
    )


class RematchRequestSchema(Schema):
    shuffle = JsonBoolean(
        load_default=False,
        metadata={"description": "Deal the next game with the seats in a random order."},
    )


class RematchAnswerSchema(Schema):
    join = JsonBoolean(
        required=True,
        metadata={"description": "true: take your seat at the next game; false: decline "
                  "(your seat opens to anyone)."},
    )  # fmt: skip


class RematchSchema(Schema):
    """The next game with the same seats (docs/lobby.md)."""

    next = fields.String(
        allow_none=True,
        metadata={"description": "A finished game: the id of its next game, once opened."},
    )
    previous = fields.String(
        allow_none=True,
        metadata={"description": "A next game: the id of the game it follows."},
    )
    invited = fields.List(
        fields.String(),
        metadata={"description": "A next game: the players of the last one who have not "
                  "answered yet (their seats are kept for them)."},
    )  # fmt: skip
    shuffle = JsonBoolean(
        metadata={"description": "A next game: its seats are shuffled at the deal."}
    )
