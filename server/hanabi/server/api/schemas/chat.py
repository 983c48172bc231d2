"""Schemas of the lobby's and replay rooms' chat, mutes and follows (docs/chat.md)."""

from __future__ import annotations

from marshmallow import fields, validate

from .basics import MAX_WAIT, SEQ_MAX, QueryFloat, bounded, integer, query_integer
from .plain import Schema
from .queries import QueryString


class ChatQuery(QueryString):
    after = query_integer(
        0,
        SEQ_MAX,
        load_default=0,
        metadata={"description": "Only lines with a larger seq (the last answer's `last`)."},
    )
    wait = QueryFloat(
        load_default=0,
        validate=validate.Range(0, MAX_WAIT),
        metadata={
            "description": "When no line is newer than `after`: hold up to this many "
            "seconds for one (the answer is then 200 with no lines)."
        },
    )


class ChatLineSchema(Schema):
    seq = integer(required=True, metadata={"description": "The line's number in its chat."})
    name = fields.String(required=True, metadata={"description": "Its author's username."})
    text = fields.String(required=True)
    at = fields.DateTime(required=True)
    mentions = fields.List(
        fields.String(),
        required=True,
        metadata={"description": "The accounts it @named (they were notified)."},
    )


class ChatPageSchema(Schema):
    lines = fields.List(
        fields.Nested(ChatLineSchema),
        required=True,
        metadata={"description": "Oldest first; muted authors' and reported lines left out."},
    )
    last = integer(required=True, metadata={"description": "Pass as ?after= to read on."})


class ChatLineResultSchema(Schema):
    line = fields.Nested(ChatLineSchema, required=True)


class ReportSchema(Schema):
    seq = bounded(1, SEQ_MAX, required=True, metadata={"description": "The line reported."})


class MutesSchema(Schema):
    mutes = fields.List(fields.String(), required=True, metadata={"description": "Usernames."})


class FollowsSchema(Schema):
    follows = fields.List(fields.String(), required=True, metadata={"description": "Usernames."})
    limit = integer(required=True, metadata={"description": "How many one may follow."})
