"""Schemas of the event log: an event, a page of them, the result of a move or a chat line,
and the server-sent event stream with its tickets."""

from __future__ import annotations

from marshmallow import fields, validate

from .basics import (
    EVENT_TYPES,
    SEAT_MAX,
    FullMatch,
    JsonBoolean,
    bounded,
    integer,
    nullable_integer,
)
from .plain import Schema  # marshmallow's, refusing in plain words
from .views import SOUND, GameViewSchema


class EventSchema(Schema):
    """One entry of the event log. ``type`` says which of the other fields it has:
    clue {seat,target,color,rank,touched}, play {seat,card,suit,rank,firework},
    misplay {seat,card,suit,rank}, strike {strikes}, discard {seat,card,suit,rank,clue_tokens},
    clue_token {clue_tokens}, draw {seat,card,suit,rank} (suit/rank null where hidden from
    the viewer), final_round {turns_left}, terminate {seat,reason} (seat: the seat whose
    clock ran out, or none when the table ended the game; reason: timeout or idle, absent
    for terminated), game_over {reason,score}, chat {seat,name,text}, vote {end,votes,needed}
    (someone voted to end the game, or took it back (end false); no seat: who voted is not
    shown). Lobby events: join {seat,name,bot,plays?} (a person took a seat, or the
    host seated a bot: ``bot`` is its strategy; ``plays``: the strategy a program taking a
    person's seat declared), leave {seat,name,bot,host} (a player left;
    later seats moved up; ``host`` is the host's seat after it), remove {seat,name,bot,host}
    (the host freed a seat), plays {seat,name,plays} (the program in a person's seat said
    which bot strategy it plays; null: a person plays it), start {} (the deal follows),
    pause {paused,changed,votes,needed} (a vote to pause or to go on: ``paused`` is the
    table's state after it, ``changed`` whether this vote changed it, ``votes`` the votes
    to change it now; no seat), decline {name} (a player
    of the last game declined the next one: their seat opened; docs/lobby.md)."""

    seq = integer(required=True, metadata={"description": "Position in the log, from 1."})
    type = fields.String(
        required=True,
        validate=validate.OneOf(EVENT_TYPES),
    )
    turn = integer(required=True)
    seat = integer()
    target = integer()
    color = fields.String(allow_none=True)
    rank = integer(allow_none=True)
    touched = fields.List(integer())
    sound = SOUND
    card = integer()
    suit = fields.String(allow_none=True)
    firework = fields.String(allow_none=True)
    strikes = integer()
    clue_tokens = integer()
    turns_left = integer()
    reason = fields.String()
    score = integer()
    name = fields.String()
    text = fields.String()
    bot = fields.String(allow_none=True, metadata={"description": "join/leave/remove: strategy"})
    host = integer(metadata={"description": "leave/remove: the host's seat after it"})
    plays = fields.String(
        allow_none=True,
        metadata={"description": "join/plays: the strategy the program in the seat plays"},
    )
    end = JsonBoolean(metadata={"description": "vote: a vote to end (false: taken back)"})
    votes = integer(metadata={"description": "vote: votes to end after this one"})
    needed = integer(metadata={"description": "vote: votes that end the game; pause: that "
                               "change it"})  # fmt: skip
    paused = JsonBoolean(metadata={"description": "pause: the table is paused after it"})
    changed = JsonBoolean(metadata={"description": "pause: this vote paused or went on"})


class ActionResultSchema(Schema):
    events = fields.List(fields.Nested(EventSchema), required=True)
    game = fields.Nested(GameViewSchema, required=True)


class EventPageSchema(Schema):
    events = fields.List(fields.Nested(EventSchema), required=True)
    last_seq = integer(
        required=True, metadata={"description": "seq of the newest event (0: none)."}
    )
    next = nullable_integer(
        validate=validate.Range(0),
        metadata={"description": "The ?after= of the next page; null: this page is the last."},
    )


class ChatResultSchema(Schema):
    event = fields.Nested(EventSchema, required=True)


class TicketSchema(Schema):
    ticket = fields.String(
        required=True, metadata={"description": "Use once, as ?ticket= on the stream's URL."}
    )
    expires = fields.String(
        required=True, metadata={"format": "date-time", "description": "RFC 3339, UTC."}
    )


class ServerSentEventSchema(Schema):
    """One message of GET /games/{game_id}/stream, as an EventSource dispatches it."""

    event = fields.String(
        validate=validate.OneOf([*EVENT_TYPES, "view", "end"]),
        metadata={"description": "An event's type, `view` or `end`"},
    )
    id = fields.String(
        validate=FullMatch(r"^[0-9]+$"),
        metadata={"description": "The seq of the (last) event it carries"},
    )
    data = fields.String(
        metadata={
            "description": "JSON: an event as GET /games/{game_id}/events shows it, the "
            'view as GET /games/{game_id} returns it, or for `end` {"reason": ...}'
        }
    )
    retry = fields.Integer(metadata={"description": "Milliseconds to wait before reconnecting"})


class TicketRequestSchema(Schema):
    """The optional body of POST /games/{game_id}/tickets."""

    shadow = bounded(
        0,
        SEAT_MAX,
        metadata={
            "description": "A spectator's ticket: the seat to shadow on the stream it opens "
            "(as ?shadow= on GET /games/{game_id}/stream; ignored for a seat's credential)."
        },
    )
