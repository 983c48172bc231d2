"""Marshmallow schemas: the one definition of every request and response body.

Requests are loaded (validated) through them; ``openapi.yaml`` is generated from them
(:mod:`hanabi.server.spec`), and the tests check responses against that contract. Responses
are built as plain dicts by the service and serialised directly, which keeps the hot path
fast; the contract tests make sure they match these schemas.
"""

from __future__ import annotations

from typing import Any

from marshmallow import Schema, ValidationError, fields, validate

from hanabi.bots import DEFAULT_STRATEGY, STRATEGIES, descriptions
from hanabi.game import MAX_PLAYERS, MIN_PLAYERS, VARIANTS

STATUSES = ("lobby", "playing", "finished")
PLAYER_ACTIONS = ("play", "discard", "clue")
EVENT_TYPES = (
    "clue", "play", "misplay", "strike", "discard", "clue_token", "draw", "final_round",
    "terminate", "game_over", "chat", "join", "leave", "remove", "start",
)  # fmt: skip
MAX_WAIT = 30
NAME_MAX = 24
CHAT_MAX = 300
#: Some visible character, and no control characters (they could drive a terminal). The
#: classes are spelled out (no \s, \S) so Python and ECMA-262 (OpenAPI) read them alike.
_CONTROL = r"\x00-\x1f\x7f-\x9f"
_BLANK = r"\x00-\x20\x7f-\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff"
TEXT_PATTERN = f"^[^{_CONTROL}]*[^{_BLANK}][^{_CONTROL}]*$"


class FullMatch(validate.Regexp):
    """Regexp that must match the whole value (Python's ``$`` also matches before a final
    newline; ECMA-262's, which the OpenAPI ``pattern`` uses, does not)."""

    def __call__(self, value: Any) -> Any:
        if self.regex.fullmatch(value) is None:
            raise ValidationError(self._format_error(value))
        return value


def _text(limit: int, what: str) -> fields.String:
    return fields.String(
        required=True,
        validate=[
            validate.Length(1, limit),
            validate.Regexp(
                TEXT_PATTERN, error=f"A {what} needs a visible character and no control characters."
            ),
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


def _int(**kw: Any) -> fields.Integer:
    return JsonInteger(**kw)


def _nint(**kw: Any) -> fields.Integer:
    return JsonInteger(allow_none=True, required=True, **kw)


def _nstr(**kw: Any) -> fields.String:
    return fields.String(allow_none=True, required=True, **kw)


# -- errors ----------------------------------------------------------------------------


class ProblemSchema(Schema):
    """RFC 9457 problem details, with a stable machine-readable ``code``."""

    type = fields.String(required=True, metadata={"description": "A URI naming the problem."})
    title = fields.String(required=True)
    status = _int(required=True)
    detail = fields.String(required=True)
    code = fields.String(required=True, metadata={"description": "Stable code for programs."})
    errors = fields.Dict(
        keys=fields.String(),
        values=fields.Raw(),
        metadata={"description": "Per-field messages of a request that failed validation."},
    )


# -- small shared pieces ---------------------------------------------------------------


class HealthSchema(Schema):
    status = fields.String(required=True, validate=validate.Equal("ok"))


class OptionsSchema(Schema):
    empty_clues = fields.Boolean(load_default=False)
    strikeout_keeps_score = fields.Boolean(load_default=False)


class GameOptionsSchema(Schema):
    empty_clues = fields.Boolean(required=True)
    strikeout_keeps_score = fields.Boolean(required=True)


class PlayerSchema(Schema):
    seat = _int(required=True)
    name = fields.String(required=True)
    bot = _nstr(metadata={"description": "The bot strategy seated here; null for a human."})


class ResultSchema(Schema):
    reason = fields.String(
        required=True, validate=validate.OneOf(("perfect", "deck_out", "strikeout", "terminated"))
    )
    score = _int(required=True)


class ActionSchema(Schema):
    """An action as the engine names it (legal actions, action log)."""

    type = fields.String(required=True, validate=validate.OneOf(PLAYER_ACTIONS))
    card = _int()
    target = _int()
    color = fields.String()
    rank = _int()
    firework = fields.String()


class EventSchema(Schema):
    """One entry of the event log. ``type`` says which of the other fields it has:
    clue {seat,target,color,rank,touched}, play {seat,card,suit,rank,firework},
    misplay {seat,card,suit,rank}, strike {strikes}, discard {seat,card,suit,rank,clue_tokens},
    clue_token {clue_tokens}, draw {seat,card,suit,rank} (suit/rank null where hidden from
    the viewer), final_round {turns_left}, terminate {seat}, game_over {reason,score},
    chat {seat,name,text}. Lobby events: join {seat,name,bot} (a person took a seat, or the
    host seated a bot: ``bot`` is its strategy), leave {seat,name,bot,host} (a player left;
    later seats moved up; ``host`` is the host's seat after it), remove {seat,name,bot,host}
    (the host freed a seat), start {} (the deal follows)."""

    seq = _int(required=True, metadata={"description": "Position in the log, from 1."})
    type = fields.String(
        required=True,
        validate=validate.OneOf(EVENT_TYPES),
    )
    turn = _int(required=True)
    seat = _int()
    target = _int()
    color = fields.String(allow_none=True)
    rank = _int(allow_none=True)
    touched = fields.List(_int())
    card = _int()
    suit = fields.String(allow_none=True)
    firework = fields.String()
    strikes = _int()
    clue_tokens = _int()
    turns_left = _int()
    reason = fields.String()
    score = _int()
    name = fields.String()
    text = fields.String()
    bot = fields.String(allow_none=True, metadata={"description": "join/leave/remove: strategy"})
    host = _int(metadata={"description": "leave/remove: the host's seat after it"})


# -- variants --------------------------------------------------------------------------


class SuitSchema(Schema):
    id = fields.String(required=True)
    name = fields.String(required=True)
    abbreviation = fields.String(required=True)
    color = _nstr(metadata={"description": "The suit's own clue colour, if any."})
    touched_by = fields.List(
        fields.String(), required=True, metadata={"description": "Clue colours touching it."}
    )
    all_colors = fields.Boolean(required=True)
    no_colors = fields.Boolean(required=True)
    all_ranks = fields.Boolean(required=True)
    no_ranks = fields.Boolean(required=True)
    one_of_each = fields.Boolean(required=True)
    wild = fields.Boolean(required=True)


class VariantSchema(Schema):
    id = fields.String(required=True)
    name = fields.String(required=True)
    hanablive_name = _nstr()
    suits = fields.List(fields.Nested(SuitSchema), required=True)
    clue_colors = fields.List(fields.String(), required=True)
    clue_ranks = fields.List(_int(), required=True)
    fireworks = fields.List(fields.String(), required=True)
    card_count = _int(required=True)
    max_score = _int(required=True)


class VariantListSchema(Schema):
    variants = fields.List(fields.Nested(VariantSchema), required=True)


# -- the view --------------------------------------------------------------------------


class ClueTagSchema(Schema):
    color = _nstr()
    rank = _nint()


class KnowledgeSchema(Schema):
    clued = fields.Boolean(required=True)
    clues = fields.List(fields.Nested(ClueTagSchema), required=True)
    possible = fields.Dict(
        keys=fields.String(),
        values=fields.List(_int()),
        required=True,
        metadata={"description": "Suit -> ranks the holder was told it may be."},
    )
    deduced = fields.Dict(
        keys=fields.String(),
        values=fields.List(_int()),
        required=True,
        metadata={"description": "Suit -> ranks still possible given what this viewer sees."},
    )


class CardSchema(Schema):
    order = _int(required=True)
    suit = _nstr(metadata={"description": "null where hidden from this viewer"})
    rank = _nint()
    knowledge = fields.Nested(KnowledgeSchema, required=True)


class DiscardSchema(Schema):
    order = _int(required=True)
    suit = fields.String(required=True)
    rank = _int(required=True)
    misplayed = fields.Boolean(required=True)


class ClueSchema(Schema):
    type = fields.String(required=True, validate=validate.Equal("clue"))
    turn = _int(required=True)
    seat = _int(required=True)
    target = _int(required=True)
    color = _nstr()
    rank = _nint()
    touched = fields.List(_int(), required=True)


class GameViewSchema(Schema):
    """A game as one viewer (a seat, or a spectator) may see it."""

    id = fields.String(required=True)
    status = fields.String(required=True, validate=validate.OneOf(STATUSES))
    version = _int(required=True, metadata={"description": "Grows with every change to the game."})
    variant = fields.String(required=True)
    options = fields.Nested(GameOptionsSchema, required=True)
    max_players = _int(required=True)
    players = fields.List(fields.Nested(PlayerSchema), required=True)
    host = _int(required=True)
    you = _nint(metadata={"description": "The viewer's seat; null for a spectator."})
    turn = _int(required=True)
    current_seat = _nint()
    clue_tokens = _int(required=True)
    strikes = _int(required=True)
    deck_size = _int(required=True)
    score = _int(required=True)
    max_score = _int(required=True, metadata={"description": "Best score still reachable."})
    pace = _nint()
    fireworks = fields.Dict(keys=fields.String(), values=_int(), required=True)
    hands = fields.List(fields.List(fields.Nested(CardSchema)), required=True)
    discards = fields.List(fields.Nested(DiscardSchema), required=True)
    clues = fields.List(fields.Nested(ClueSchema), required=True)
    turns_left = _nint()
    legal_actions = fields.List(fields.Nested(ActionSchema), required=True)
    result = fields.Nested(ResultSchema, allow_none=True, required=True)


class GameSummarySchema(Schema):
    id = fields.String(required=True)
    status = fields.String(required=True, validate=validate.OneOf(STATUSES))
    variant = fields.String(required=True)
    max_players = _int(required=True)
    players = fields.List(fields.Nested(PlayerSchema), required=True)
    host = _int(required=True)
    turn = _int(required=True)
    score = _int(required=True)
    result = fields.Nested(ResultSchema, allow_none=True, required=True)
    created = fields.DateTime(required=True)
    updated = fields.DateTime(required=True)


class GamePageSchema(Schema):
    games = fields.List(fields.Nested(GameSummarySchema), required=True)
    next_cursor = _nstr(metadata={"description": "Pass as ?cursor= for the next page."})


# -- requests and their responses ------------------------------------------------------


class DeckCardSchema(Schema):
    suit = fields.String(required=True)
    rank = _int(required=True, validate=validate.Range(1, 5))


class CreateGameSchema(Schema):
    name = _text(NAME_MAX, "name")
    variant = fields.String(load_default="no_variant", validate=validate.OneOf(tuple(VARIANTS)))
    max_players = _int(load_default=5, validate=validate.Range(MIN_PLAYERS, MAX_PLAYERS))
    options = fields.Nested(OptionsSchema, load_default=dict)
    seed = fields.String(validate=validate.Length(1, 64))
    deck = fields.List(
        fields.Nested(DeckCardSchema),
        validate=validate.Length(1, 200),
        metadata={"description": "An exact deal, top card first (e.g. from hanab.live)."},
    )


class JoinSchema(Schema):
    name = _text(NAME_MAX, "name")


class BotSeatSchema(Schema):
    strategy = fields.String(
        load_default=DEFAULT_STRATEGY,
        validate=validate.OneOf(
            tuple(STRATEGIES), error=f"Must be one of: {{choices}} ({descriptions()})."
        ),
        metadata={"description": f"A bot strategy; default {DEFAULT_STRATEGY}. {descriptions()}."},
    )
    name = fields.String(
        validate=[
            validate.Length(1, NAME_MAX),
            validate.Regexp(
                TEXT_PATTERN, error="A name needs a visible character and no control characters."
            ),
        ],
        metadata={"description": "Default: <strategy>-bot-<seat> (unique at the table)."},
    )


class BotSeatResultSchema(Schema):
    seat = _int(required=True)
    game = fields.Nested(GameViewSchema, required=True, metadata={"description": "Host's view"})


class StartSchema(Schema):
    watch = fields.Boolean(
        load_default=False,
        metadata={
            "description": "The host gives up their seat at the deal and watches as a "
            "spectator (e.g. an all-bot table, where spectators see every card)."
        },
    )


class SeatGrantSchema(Schema):
    """A seat and its bearer token. The token is shown only here, once."""

    id = fields.String(required=True)
    seat = _int(required=True)
    token = fields.String(required=True)
    game = fields.Nested(GameViewSchema, required=True)


class _ActionRequest(Schema):
    turn = _int(
        required=True,
        validate=validate.Range(0),
        metadata={"description": "The turn the client believes it is."},
    )


class PlayRequestSchema(_ActionRequest):
    type = fields.String(required=True, validate=validate.Equal("play"))
    card = _int(required=True, validate=validate.Range(0), metadata={"description": "Its order."})
    firework = fields.String(
        validate=validate.Length(1, 32),
        metadata={"description": "Wild plays: the firework (suit id) to play on."},
    )


class DiscardRequestSchema(_ActionRequest):
    type = fields.String(required=True, validate=validate.Equal("discard"))
    card = _int(required=True, validate=validate.Range(0), metadata={"description": "Its order."})


class ColorClueRequestSchema(_ActionRequest):
    type = fields.String(required=True, validate=validate.Equal("clue"))
    target = _int(required=True, validate=validate.Range(0), metadata={"description": "A seat."})
    color = fields.String(required=True, validate=validate.Length(1, 32))


class RankClueRequestSchema(_ActionRequest):
    type = fields.String(required=True, validate=validate.Equal("clue"))
    target = _int(required=True, validate=validate.Range(0), metadata={"description": "A seat."})
    rank = _int(required=True)


#: The body of POST /games/{id}/actions is exactly one of these shapes.
ACTION_REQUESTS: tuple[type[Schema], ...] = (
    PlayRequestSchema,
    DiscardRequestSchema,
    ColorClueRequestSchema,
    RankClueRequestSchema,
)


def action_request_schema(data: dict[str, Any]) -> type[Schema]:
    """Which shape a request body means, going by ``type`` (and colour or rank)."""
    kind = data.get("type")
    if kind == "discard":
        return DiscardRequestSchema
    if kind == "clue":
        return (
            RankClueRequestSchema
            if "rank" in data and "color" not in data
            else ColorClueRequestSchema
        )
    if kind == "play":
        return PlayRequestSchema
    raise ValidationError({"type": [f"Must be one of: {', '.join(PLAYER_ACTIONS)}."]})


class ActionResultSchema(Schema):
    events = fields.List(fields.Nested(EventSchema), required=True)
    game = fields.Nested(GameViewSchema, required=True)


class EventPageSchema(Schema):
    events = fields.List(fields.Nested(EventSchema), required=True)
    last_seq = _int(required=True, metadata={"description": "seq of the newest event (0: none)."})


class ChatSchema(Schema):
    text = _text(CHAT_MAX, "chat line")


class ChatResultSchema(Schema):
    event = fields.Nested(EventSchema, required=True)


class HanabLiveCardSchema(Schema):
    suitIndex = _int(required=True)  # hanab.live's field name
    rank = _int(required=True)


class HanabLiveActionSchema(Schema):
    type = _int(required=True)
    target = _int(required=True)
    value = _int()


class HanabLiveGameSchema(Schema):
    """A game in hanab.live's JSON format (see hanabi.game.hanablive)."""

    players = fields.List(fields.String(), required=True)
    deck = fields.List(fields.Nested(HanabLiveCardSchema), required=True)
    actions = fields.List(fields.Nested(HanabLiveActionSchema), required=True)
    options = fields.Dict(keys=fields.String(), values=fields.Raw(), required=True)
    seed = fields.String(required=True)


# -- query strings ---------------------------------------------------------------------


class _Query(Schema):
    """Query strings: unknown parameters are refused like unknown body fields."""


class ListGamesQuery(_Query):
    status = fields.String(validate=validate.OneOf(STATUSES))
    limit = fields.Integer(load_default=20, validate=validate.Range(1, 100))
    cursor = fields.String(validate=validate.Length(1, 100))


class WaitQuery(_Query):
    wait = fields.Float(
        load_default=0,
        validate=validate.Range(0, MAX_WAIT),
        metadata={"description": "With If-None-Match: hold up to this many seconds for a change."},
    )


class EventsQuery(_Query):
    after = fields.Integer(
        load_default=0,
        validate=validate.Range(0),
        metadata={"description": "Only events with a larger seq."},
    )


class ReplayQuery(_Query):
    turn = fields.Integer(
        validate=validate.Range(0), metadata={"description": "Default: the final turn."}
    )
