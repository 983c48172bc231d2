"""Schemas of query strings: the listing, long-polls, event pages, replays, the stream."""

from __future__ import annotations

from marshmallow import fields, validate

from ..field_messages import FieldMessage
from .basics import (
    EVENTS_LIMIT_MAX,
    MAX_WAIT,
    SEAT_MAX,
    SEQ_MAX,
    STATUSES,
    TURN_MAX,
    QueryFloat,
    query_integer,
)
from .plain import Schema  # marshmallow's, refusing in plain words


class QueryString(Schema):
    """Query strings: unknown parameters are refused like unknown body fields."""

    error_messages = {"unknown": FieldMessage("This parameter is not accepted here.")}  # noqa: RUF012


class ListGamesQuery(QueryString):
    status = fields.String(validate=validate.OneOf(STATUSES))
    limit = query_integer(1, 100, load_default=20)
    cursor = fields.String(validate=validate.Length(1, 100))
    wait = QueryFloat(
        load_default=0,
        validate=validate.Range(0, MAX_WAIT),
        metadata={
            "description": "With If-None-Match: hold up to this many seconds until the "
            "listing changes (a table opens, a seat is taken or freed, a game starts or ends)."
        },
    )


#: ``?shadow=``: what it asks, and when it is refused (docs/watching.md).
SHADOW = (
    "A spectator watches the table as this seat sees it (what the seat knows of its own "
    "hand, not its cards; every other hand): `spectating` is then `shadow` and "
    "`shadow_seat` this seat. Allowed where spectators see the hands (an unrated table "
    "that shows them, a table of bots only, a finished game): 403 shadow_not_allowed "
    "elsewhere, 400 shadow_seat for a seat the table does not have, 409 "
    "same_deal_elsewhere for an account playing this deal at another table. Ignored for "
    "a credential that holds a seat here: a seat always sees its own view."
)


def shadow_field(extra: str = "") -> fields.Integer:
    """``?shadow=``: a seat, 0 to 5; one the table does not have is 400 shadow_seat."""
    return query_integer(0, SEAT_MAX, metadata={"description": SHADOW + extra})


class WaitQuery(QueryString):
    wait = QueryFloat(
        load_default=0,
        validate=validate.Range(0, MAX_WAIT),
        metadata={"description": "With If-None-Match: hold up to this many seconds for a change."},
    )
    shadow = shadow_field()


class EventsQuery(QueryString):
    after = query_integer(
        0, SEQ_MAX, load_default=0, metadata={"description": "Only events with a larger seq."}
    )
    limit = query_integer(
        1,
        EVENTS_LIMIT_MAX,
        metadata={
            "description": "Page size: default 200; more than the server's cap (1000) "
            "answers the cap's worth."
        },
    )


class ReplayQuery(QueryString):
    turn = query_integer(0, TURN_MAX, metadata={"description": "Default: the final turn."})


class PastQuery(QueryString):
    turn = query_integer(
        0, TURN_MAX, metadata={"description": "Moves made by then. Default: the current turn."}
    )


class StreamQuery(QueryString):
    after = query_integer(
        0,
        SEQ_MAX,
        metadata={
            "description": "Replay the events after this seq first (Last-Event-ID, when "
            "sent, takes precedence). Without either: the current view, then what follows."
        },
    )
    ticket = fields.String(
        validate=validate.Length(1, 100),
        metadata={
            "description": "A one-time ticket from POST /games/{game_id}/tickets, for "
            "clients that cannot send an Authorization header (a browser's EventSource)."
        },
    )
    shadow = shadow_field(" With a ticket issued with a `shadow`, the ticket's seat is shadowed.")
    pass_ = fields.String(
        data_key="pass",
        validate=validate.Length(1, 100),
        metadata={
            "description": "A password table's spectator pass (POST /games/{game_id}/passes), "
            "for a browser's EventSource, which sends no X-Table-Pass header."
        },
    )


class RoomStreamQuery(QueryString):
    ticket = fields.String(
        validate=validate.Length(1, 100),
        metadata={
            "description": "A one-time ticket from POST /replays/{room_id}/tickets, for "
            "clients that cannot send an Authorization header (a browser's EventSource)."
        },
    )
