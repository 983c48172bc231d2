"""The shapes the schemas share: the fields of JSON as JSON Schema reads it, the patterns of
names and text, and the values a request may name (statuses, actions, suits, clues)."""

from __future__ import annotations

import re
from typing import Any

from marshmallow import ValidationError, fields, validate

from hanabi.game import MAX_PLAYERS, START_RANK, VARIANTS, ActionKind, EndReason, catalogue

from ...storage.record import GameStatus
from ..field_messages import FieldMessage

STATUSES = tuple(status.value for status in GameStatus)
PLAYER_ACTIONS = tuple(k.value for k in ActionKind if k is not ActionKind.TERMINATE)
EVENT_TYPES = (
    "clue", "play", "misplay", "strike", "discard", "clue_token", "draw", "final_round",
    "terminate", "game_over", "chat", "join", "leave", "remove", "start", "vote", "plays",
    "pause", "decline",
)  # fmt: skip
#: Why a game of this service ends: the rules' reasons for its variants and options
#: (hanab.live's max-possible and all-or-nothing endings with those table options), and
#: the table's (a vote, a clock, an idle game).
END_REASONS = tuple(reason.value for reason in EndReason)
MAX_WAIT = 30
CHAT_MAX = 300

#: The range of every number a request may carry (a path, a query string, a body): none
#: means anything past these, and an unbounded one would reach the service, Redis and
#: the JSON written back (which stops at 64 bits) as it came. tests/server/test_fuzz.py
#: checks that every integer of every request schema has both ends.
TURN_MAX = 10_000  # a turn: more than any game takes (each move spends a card or a clue)
DECK_MAX = 200  # cards in a deal given as `deck`
CARD_MAX = DECK_MAX - 1  # a card's order: its place in the deck
SEAT_MAX = MAX_PLAYERS - 1  # a seat: 0 to 5
SEQ_MAX = 999_999_999_999  # an event's seq: 12 digits, as Last-Event-ID
SECONDS_MAX = 366 * 86_400  # the longest idle limit or move clock a request may ask for
OFFSET_MAX = 100_000  # how many matches a page of the variant catalogue may skip
EVENTS_LIMIT_MAX = 10_000  # ?limit= of an event page (the server's cap is lower: 1000)

#: Some visible character, and no control characters (they could drive a terminal). The
#: classes are spelled out (no \s, \S) so Python and ECMA-262 (OpenAPI) read them alike.
_CONTROL = r"\x00-\x1f\x7f-\x9f"
_BLANK = r"\x00-\x20\x7f-\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff"
TEXT_PATTERN = f"^[^{_CONTROL}]*[^{_BLANK}][^{_CONTROL}]*$"

#: Names also hold no format characters (Unicode Cf: bidi overrides, zero-width spaces and
#: joiners...) nor line or paragraph separators. Spelled out for the BMP (a fixed list, so
#: the contract does not change with Python's Unicode version); the service refuses the
#: few outside it too, and checks the length again after NFKC (seats.check_name).
_FORMAT = (
    r"\u00ad\u0600-\u0605\u061c\u06dd\u070f\u0890\u0891\u08e2\u180e\u200b-\u200f"
    r"\u2028-\u202e\u2060-\u2064\u2066-\u206f\ufeff\ufff9-\ufffb"
)
NAME_PATTERN = f"^[^{_CONTROL}{_FORMAT}]*[^{_BLANK}{_FORMAT}][^{_CONTROL}{_FORMAT}]*$"

#: What the server accepts where a request names a suit, a clue colour or a clue rank (in
#: some variant; the engine then checks the game's own), so the contract lists them.
#: hanab.live's suits count too, each also reversed (``<id>_reversed``), and its colours.
SUIT_IDS = tuple(
    sorted(
        {s.id for v in VARIANTS.values() for s in v.suits}
        | {s.id + suffix for s in catalogue.suits() for suffix in ("", "_reversed")}
    )
)
CLUE_COLORS = tuple(
    sorted(
        {c for v in VARIANTS.values() for c in v.to_dict()["clue_colors"]}
        | {c["id"] for c in catalogue.colors()}
    )
)
CLUE_RANKS = tuple(sorted({r for v in VARIANTS.values() for r in v.to_dict()["clue_ranks"]}))
#: The ranks of cards: 1 to 5, and 7 for the START card of Up or Down.
CARD_RANKS = (1, 2, 3, 4, 5, START_RANK)


class FullMatch(validate.Regexp):
    """Regexp that must match the whole value (Python's ``$`` also matches before a final
    newline; ECMA-262's, which the OpenAPI ``pattern`` uses, does not)."""

    def __call__(self, value: Any) -> Any:
        if self.regex.fullmatch(value) is None:
            raise ValidationError(self._format_error(value))
        return value


#: A text field's refusal of a blank or a control character, by what the text is.
VISIBLE = {
    "name": FieldMessage("A name needs a visible character and no control characters."),
    "chat line": FieldMessage("A chat line needs a visible character and no control characters."),
}


def text_field(
    limit: int, what: str, pattern: str = TEXT_PATTERN, required: bool = True
) -> fields.String:
    return fields.String(
        required=required,
        validate=[
            validate.Length(1, limit),
            FullMatch(pattern, error=VISIBLE[what]),
        ],
        metadata={"description": f"Surrounding spaces are dropped; at most {limit} characters."},
    )


class JsonInteger(fields.Integer):
    """An integer as JSON Schema means it: 3 and 3.0, but not "3", 3.5 or true."""

    def _deserialize(self, value: Any, attr: Any, data: Any, **kwargs: Any) -> int:
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise self.make_error("invalid")
        if isinstance(value, float) and not value.is_integer():
            raise self.make_error("invalid")
        return super()._deserialize(int(value), attr, data, **kwargs)


class QueryInteger(fields.Integer):
    """An integer in a query string: ASCII digits and a minus sign at most. Python's
    ``int()`` also reads "٣", "1_000" and " 7 ", and refuses 4,301 digits with an error
    of its own: none of those is a number a client means here. A number of more than 15
    digits is read as 10**15 (or its negative), past every field's range, so its refusal
    says the range."""

    PATTERN = re.compile(r"-?[0-9]+")
    DIGITS = 15

    def _deserialize(self, value: Any, attr: Any, data: Any, **kwargs: Any) -> int:
        if not isinstance(value, str) or self.PATTERN.fullmatch(value) is None:
            raise self.make_error("invalid")
        if len(value.lstrip("-")) > self.DIGITS:
            value = ("-" if value.startswith("-") else "") + "1" + "0" * self.DIGITS
        return super()._deserialize(value, attr, data, **kwargs)


class QueryFloat(fields.Float):
    """A number in a query string, written as JSON writes one (ASCII digits, a point,
    an exponent): not "nan", "inf", "1_0" or another script's digits, which Python's
    ``float()`` reads too. One too large to be finite is refused as not finite."""

    PATTERN = re.compile(r"-?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][-+]?[0-9]+)?")

    def _deserialize(self, value: Any, attr: Any, data: Any, **kwargs: Any) -> float:
        if not isinstance(value, str) or self.PATTERN.fullmatch(value) is None:
            raise self.make_error("invalid")
        return super()._deserialize(value, attr, data, **kwargs)


def bounded(low: int, high: int, **kw: Any) -> fields.Integer:
    """A body's integer from ``low`` to ``high`` (the contract's minimum and maximum)."""
    return JsonInteger(validate=validate.Range(low, high), **kw)


def query_integer(low: int, high: int, **kw: Any) -> fields.Integer:
    """A query string's integer from ``low`` to ``high``."""
    return QueryInteger(validate=validate.Range(low, high), **kw)


class JsonBoolean(fields.Boolean):
    """A boolean as JSON means it: true or false, not "yes", 1 or "true"."""

    def _deserialize(self, value: Any, attr: Any, data: Any, **kwargs: Any) -> bool:
        if not isinstance(value, bool):
            raise self.make_error("invalid", input=value)
        return value


class OneOfNested(fields.Field):
    """A value of one of several schemas, told apart by their ``type`` (the contract says
    ``oneOf`` with a discriminator: :mod:`hanabi.server.api.spec_rules`). Documents a
    response's shape; the value is written as it is."""

    def __init__(self, schemas: tuple[type[Any], ...], **kw: Any) -> None:
        super().__init__(**kw)
        self.schemas = schemas


def integer(**kw: Any) -> fields.Integer:
    return JsonInteger(**kw)


def nullable_integer(**kw: Any) -> fields.Integer:
    return JsonInteger(allow_none=True, required=True, **kw)


def nullable_string(**kw: Any) -> fields.String:
    return fields.String(allow_none=True, required=True, **kw)


def custom_deal_field() -> fields.Boolean:
    return JsonBoolean(
        required=True,
        metadata={
            "description": "The creator chose the deal (a seed or a deck), so they may know "
            "every card: true. A fair, random deal: false."
        },
    )


IDLE_LIMIT = (
    "Seconds without a move after which a game in progress ends (reason idle, score 0): "
    "at least 5, at most the server's HANABI_IDLE_MAX (7 days); by default HANABI_IDLE_END "
    "(30 minutes). 0 in a view: no limit."
)


MOVE_CLOCK = (
    "A turn-based (correspondence) table: seconds each move may take, e.g. 86400 for a day "
    "(between the server's HANABI_MOVE_CLOCK_MIN, 1 hour, and HANABI_MOVE_CLOCK_MAX, 14 "
    "days). The seat to move's clock starts again at it after every move; at 0 the game "
    "ends (reason timeout, score 0). No timer or idle_limit beside it. Absent: not "
    "turn-based."
)


TIMER = (
    "A timed game: each seat's clock runs only on its turns; at 0 the game ends (reason "
    "timeout, score 0). Bots never time out. null: untimed."
)
