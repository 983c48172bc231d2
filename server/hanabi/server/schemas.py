"""Marshmallow schemas: the one definition of every request and response body.

Requests are loaded (validated) through them; ``openapi.yaml`` is generated from them
(:mod:`hanabi.server.spec`), and the tests check responses against that contract. Responses
are built as plain dicts by the service and serialised directly, which keeps the hot path
fast; the contract tests make sure they match these schemas.
"""

from __future__ import annotations

from typing import Any

from marshmallow import ValidationError, fields, validate

from hanabi.bots import DEFAULT_STRATEGY, STRATEGIES, descriptions
from hanabi.game import MAX_PLAYERS, MIN_PLAYERS, VARIANTS

from .plain_messages import Schema  # marshmallow's, refusing in plain words

STATUSES = ("lobby", "playing", "finished")
PLAYER_ACTIONS = ("play", "discard", "clue")
EVENT_TYPES = (
    "clue", "play", "misplay", "strike", "discard", "clue_token", "draw", "final_round",
    "terminate", "game_over", "chat", "join", "leave", "remove", "start", "vote", "plays",
)  # fmt: skip
END_REASONS = ("perfect", "deck_out", "strikeout", "terminated", "timeout", "idle")
MAX_WAIT = 30
NAME_MAX = 24  # the service checks it again after NFKC normalisation (seats.check_name)
CHAT_MAX = 300
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
SUIT_IDS = tuple(sorted({s.id for v in VARIANTS.values() for s in v.suits}))
CLUE_COLORS = tuple(sorted({c for v in VARIANTS.values() for c in v.to_dict()["clue_colors"]}))
CLUE_RANKS = tuple(sorted({r for v in VARIANTS.values() for r in v.to_dict()["clue_ranks"]}))


class FullMatch(validate.Regexp):
    """Regexp that must match the whole value (Python's ``$`` also matches before a final
    newline; ECMA-262's, which the OpenAPI ``pattern`` uses, does not)."""

    def __call__(self, value: Any) -> Any:
        if self.regex.fullmatch(value) is None:
            raise ValidationError(self._format_error(value))
        return value


def _text(
    limit: int, what: str, pattern: str = TEXT_PATTERN, required: bool = True
) -> fields.String:
    return fields.String(
        required=required,
        validate=[
            validate.Length(1, limit),
            FullMatch(
                pattern, error=f"A {what} needs a visible character and no control characters."
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


class JsonBoolean(fields.Boolean):
    """A boolean as JSON means it: true or false, not "yes", 1 or "true"."""

    def _deserialize(self, value: Any, attr: Any, data: Any, **kwargs: Any) -> bool:
        if not isinstance(value, bool):
            raise self.make_error("invalid", input=value)
        return value


def _int(**kw: Any) -> fields.Integer:
    return JsonInteger(**kw)


def _nint(**kw: Any) -> fields.Integer:
    return JsonInteger(allow_none=True, required=True, **kw)


def _nstr(**kw: Any) -> fields.String:
    return fields.String(allow_none=True, required=True, **kw)


def _custom_deal() -> fields.Boolean:
    return JsonBoolean(
        required=True,
        metadata={
            "description": "The creator chose the deal (a seed or a deck), so they may know "
            "every card: true. A fair, random deal: false."
        },
    )


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


class TimerSchema(Schema):
    base = _int(
        required=True,
        validate=validate.Range(1, 3600),
        metadata={"description": "Seconds on each seat's clock at the start (10 to 3600; "
                  "a server may allow less, HANABI_TIMER_MIN_BASE)."},
    )  # fmt: skip
    per_turn = _int(
        required=True,
        validate=validate.Range(0, 300),
        metadata={"description": "Seconds added to a seat's clock after each of its moves."},
    )


IDLE_LIMIT = (
    "Seconds without a move after which a game in progress ends (reason idle, score 0): "
    "at least 5, at most the server's HANABI_IDLE_MAX (7 days); by default HANABI_IDLE_END "
    "(30 minutes). 0 in a view: no limit."
)
TIMER = (
    "A timed game: each seat's clock runs only on its turns; at 0 the game ends (reason "
    "timeout, score 0). Bots never time out. null: untimed."
)


class OptionsSchema(Schema):
    empty_clues = JsonBoolean(load_default=False)
    strikeout_keeps_score = JsonBoolean(load_default=False)
    rated = JsonBoolean(
        load_default=False,
        metadata={
            "description": "A rated game (docs/ratings.md): created and joined with an "
            "account's credential only; no seed, deck, bot seats or bot accounts; 55-card "
            "variants are refused (variant_not_rated); the standard rules only "
            "(option_not_rated)."
        },
    )
    idle_limit = _int(validate=validate.Range(min=5), metadata={"description": IDLE_LIMIT})
    timer = fields.Nested(TimerSchema, metadata={"description": TIMER})


class GameOptionsSchema(Schema):
    empty_clues = JsonBoolean(required=True)
    strikeout_keeps_score = JsonBoolean(required=True)
    idle_limit = _int(required=True, metadata={"description": IDLE_LIMIT})
    timer = fields.Nested(TimerSchema, required=True, allow_none=True)
    rated = JsonBoolean(metadata={"description": "Present (true) for a rated game only."})


class RatingChangeSchema(Schema):
    before = fields.Float(required=True)
    after = fields.Float(required=True)


class PlayerSchema(Schema):
    seat = _int(required=True)
    name = fields.String(required=True)
    bot = _nstr(
        metadata={"description": "The server bot's strategy seated here; null for a person."}
    )
    plays = _nstr(
        metadata={
            "description": "The strategy this seat plays, as far as the table knows: a server "
            "bot's, or the one a program in a person's seat declared (PATCH "
            "/games/{game_id}/players/{seat}); null for a person. Bots read the table from it."
        }
    )
    playing = _nstr(
        metadata={
            "description": "The strategy this seat's bot really plays at this table as it "
            "stands: `plays`, unless that is a private code not every seat plays (hat "
            "plays conventions next to a person or a bot of another strategy); null for "
            "a person. In the lobby it follows who sits down."
        }
    )


class ResultSchema(Schema):
    reason = fields.String(
        required=True,
        validate=validate.OneOf(END_REASONS),
        metadata={
            "description": "perfect, deck_out, strikeout; terminated (by vote), timeout (a "
            "seat's clock ran out), idle (nobody moved for options.idle_limit seconds)."
        },
    )
    score = _int(required=True)
    rating_changes = fields.Dict(
        keys=fields.String(),
        values=fields.Nested(RatingChangeSchema),
        metadata={"description": "A rated game, once its ratings are applied: seat -> change."},
    )


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
    the viewer), final_round {turns_left}, terminate {seat,reason} (seat: the seat whose
    clock ran out, or none when the table ended the game; reason: timeout or idle, absent
    for terminated), game_over {reason,score}, chat {seat,name,text}, vote {end,votes,needed}
    (someone voted to end the game, or took it back (end false); no seat: who voted is not
    shown). Lobby events: join {seat,name,bot,plays?} (a person took a seat, or the
    host seated a bot: ``bot`` is its strategy; ``plays``: the strategy a program taking a
    person's seat declared), leave {seat,name,bot,host} (a player left;
    later seats moved up; ``host`` is the host's seat after it), remove {seat,name,bot,host}
    (the host freed a seat), plays {seat,name,plays} (the program in a person's seat said
    which bot strategy it plays; null: a person plays it), start {} (the deal follows)."""

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
    plays = fields.String(
        allow_none=True,
        metadata={"description": "join/plays: the strategy the program in the seat plays"},
    )
    end = JsonBoolean(metadata={"description": "vote: a vote to end (false: taken back)"})
    votes = _int(metadata={"description": "vote: votes to end after this one"})
    needed = _int(metadata={"description": "vote: votes that end the game"})


# -- variants --------------------------------------------------------------------------


class SuitSchema(Schema):
    id = fields.String(required=True)
    name = fields.String(required=True)
    abbreviation = fields.String(required=True)
    color = _nstr(metadata={"description": "The suit's own clue colour, if any."})
    touched_by = fields.List(
        fields.String(), required=True, metadata={"description": "Clue colours touching it."}
    )
    all_colors = JsonBoolean(required=True)
    no_colors = JsonBoolean(required=True)
    all_ranks = JsonBoolean(required=True)
    no_ranks = JsonBoolean(required=True)
    one_of_each = JsonBoolean(required=True)
    wild = JsonBoolean(required=True)


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


class StrategySchema(Schema):
    name = fields.String(
        required=True, metadata={"description": "What POST /games/{game_id}/bots takes."}
    )
    description = fields.String(
        required=True,
        metadata={"description": "What it plays and whom to seat it with, in a sentence."},
    )
    default = fields.Boolean(
        required=True, metadata={"description": "The strategy of a bot seat that names none."}
    )
    fallback = _nstr(
        metadata={
            "description": (
                "The strategy it plays unless every other seat plays this one (a private code, "
                "like hat; an API client's seat plays it when it said so, players[].plays); "
                "null: it plays itself at any table."
            )
        }
    )


class StrategyListSchema(Schema):
    strategies = fields.List(fields.Nested(StrategySchema), required=True)


# -- the view --------------------------------------------------------------------------


class ClueTagSchema(Schema):
    color = _nstr()
    rank = _nint()


class KnowledgeSchema(Schema):
    clued = JsonBoolean(required=True)
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
    suit = fields.String(required=True, validate=validate.OneOf(SUIT_IDS))
    rank = _int(required=True)
    misplayed = JsonBoolean(required=True)


class ClueSchema(Schema):
    type = fields.String(required=True, validate=validate.Equal("clue"))
    turn = _int(required=True)
    seat = _int(required=True)
    target = _int(required=True)
    color = _nstr()
    rank = _nint()
    touched = fields.List(_int(), required=True)


class VotesSchema(Schema):
    end = _int(required=True, metadata={"description": "How many seats voted to end."})
    needed = _int(
        required=True,
        metadata={"description": "Votes that end the game: half the seated people (bots "
                  "don't vote), at least 2 (1 for a person alone with bots)."},
    )  # fmt: skip
    mine = fields.Boolean(
        required=True,
        allow_none=True,
        metadata={"description": "Whether the viewer voted; null for a spectator."},
    )


class GameViewSchema(Schema):
    """A game as one viewer (a seat, or a spectator) may see it."""

    id = fields.String(required=True)
    status = fields.String(required=True, validate=validate.OneOf(STATUSES))
    version = _int(required=True, metadata={"description": "Grows with every change to the game."})
    variant = fields.String(required=True, validate=validate.OneOf(tuple(VARIANTS)))
    options = fields.Nested(GameOptionsSchema, required=True)
    max_players = _int(required=True)
    players = fields.List(fields.Nested(PlayerSchema), required=True)
    host = _int(required=True)
    you = _nint(metadata={"description": "The viewer's seat; null for a spectator."})
    custom_deal = _custom_deal()
    turn = _int(required=True)
    current_seat = _nint()
    clue_tokens = _int(required=True)
    strikes = _int(required=True)
    deck_size = _int(required=True)
    score = _int(required=True)
    max_score = _int(
        required=True,
        metadata={
            "description": "Best score the cards allow, given those discarded or misplayed "
            "(a finished game keeps the figure it ended with, whatever its final score)."
        },
    )
    pace = _nint(
        metadata={
            "description": "Discards the team can still afford; null before the deal "
            "and once the game is over."
        }
    )
    fireworks = fields.Dict(keys=fields.String(), values=_int(), required=True)
    hands = fields.List(fields.List(fields.Nested(CardSchema)), required=True)
    discards = fields.List(fields.Nested(DiscardSchema), required=True)
    clues = fields.List(fields.Nested(ClueSchema), required=True)
    turns_left = _nint()
    legal_actions = fields.List(fields.Nested(ActionSchema), required=True)
    result = fields.Nested(ResultSchema, allow_none=True, required=True)
    votes = fields.Nested(VotesSchema, required=True)
    clocks = fields.List(
        fields.Float(),
        required=True,
        allow_none=True,
        metadata={"description": "Seconds left on each seat's clock (by seat), the running "
                  "one as of server_time; null for an untimed game or one not in progress."},
    )  # fmt: skip
    deadline = fields.DateTime(
        required=True,
        allow_none=True,
        metadata={"description": "When the game ends unless the seat to move moves: its "
                  "clock runs out, or the idle limit passes (RFC 3339, UTC); null while a "
                  "bot is to move or the game is not in progress."},
    )  # fmt: skip
    server_time = fields.DateTime(
        required=True,
        metadata={"description": "The server's time of this answer (count clocks down from "
                  "it: the difference to deadline is what the seat to move has left)."},
    )  # fmt: skip


class GameSummarySchema(Schema):
    id = fields.String(required=True)
    status = fields.String(required=True, validate=validate.OneOf(STATUSES))
    variant = fields.String(required=True, validate=validate.OneOf(tuple(VARIANTS)))
    max_players = _int(required=True)
    players = fields.List(fields.Nested(PlayerSchema), required=True)
    host = _int(required=True)
    custom_deal = _custom_deal()
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
    suit = fields.String(required=True, validate=validate.OneOf(SUIT_IDS))
    rank = _int(required=True, validate=validate.Range(1, 5))


class CreateGameSchema(Schema):
    name = _text(NAME_MAX, "name", NAME_PATTERN, required=False)  # an account's: its username
    variant = fields.String(load_default="no_variant", validate=validate.OneOf(tuple(VARIANTS)))
    max_players = _int(load_default=5, validate=validate.Range(MIN_PLAYERS, MAX_PLAYERS))
    options = fields.Nested(OptionsSchema, load_default=dict)
    seed = fields.String(validate=validate.Length(1, 64))
    deck = fields.List(
        fields.Nested(DeckCardSchema),
        validate=validate.Length(1, 200),
        metadata={"description": "An exact deal, top card first (e.g. from hanab.live)."},
    )


#: A bot strategy's name; a refusal names them all, with whom to seat each.
STRATEGY_CHOICE = validate.OneOf(
    tuple(STRATEGIES), error=f"Use one of: {{choices}} ({descriptions()})."
)


def _plays(**kw: Any) -> fields.String:
    return fields.String(
        allow_none=True,
        validate=STRATEGY_CHOICE,
        metadata={
            "description": "The bot strategy the program in this seat plays (null: a person "
            "plays it). The table's bots read it like a server bot's strategy: hat plays hat "
            "only when every other seat plays hat."
        },
        **kw,
    )


class SeatUpdateSchema(Schema):
    plays = _plays(required=True)


class JoinSchema(Schema):
    name = _text(NAME_MAX, "name", NAME_PATTERN, required=False)  # an account's: its username
    plays = _plays(load_default=None)


class BotSeatSchema(Schema):
    strategy = fields.String(
        load_default=DEFAULT_STRATEGY,
        validate=STRATEGY_CHOICE,
        metadata={"description": f"A bot strategy; default {DEFAULT_STRATEGY}. {descriptions()}."},
    )
    name = fields.String(
        validate=[
            validate.Length(1, NAME_MAX),
            FullMatch(
                NAME_PATTERN, error="A name needs a visible character and no control characters."
            ),
        ],
        metadata={"description": "Default: <strategy>-bot-<seat> (unique at the table)."},
    )


class BotSeatResultSchema(Schema):
    seat = _int(required=True)
    game = fields.Nested(GameViewSchema, required=True, metadata={"description": "Host's view"})


class StartSchema(Schema):
    watch = JsonBoolean(
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
        validate=validate.OneOf(SUIT_IDS),
        metadata={"description": "Wild plays: the firework (suit id) to play on."},
    )


class DiscardRequestSchema(_ActionRequest):
    type = fields.String(required=True, validate=validate.Equal("discard"))
    card = _int(required=True, validate=validate.Range(0), metadata={"description": "Its order."})


class ColorClueRequestSchema(_ActionRequest):
    type = fields.String(required=True, validate=validate.Equal("clue"))
    target = _int(required=True, validate=validate.Range(0), metadata={"description": "A seat."})
    color = fields.String(required=True, validate=validate.OneOf(CLUE_COLORS))


class RankClueRequestSchema(_ActionRequest):
    type = fields.String(required=True, validate=validate.Equal("clue"))
    target = _int(required=True, validate=validate.Range(0), metadata={"description": "A seat."})
    rank = _int(required=True, validate=validate.OneOf(CLUE_RANKS))


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
    raise ValidationError({"type": [f"Use one of: {', '.join(PLAYER_ACTIONS)}."]})


class ActionResultSchema(Schema):
    events = fields.List(fields.Nested(EventSchema), required=True)
    game = fields.Nested(GameViewSchema, required=True)


class EventPageSchema(Schema):
    events = fields.List(fields.Nested(EventSchema), required=True)
    last_seq = _int(required=True, metadata={"description": "seq of the newest event (0: none)."})
    next = _nint(
        validate=validate.Range(0),
        metadata={"description": "The ?after= of the next page; null: this page is the last."},
    )


class VoteSchema(Schema):
    end = JsonBoolean(
        required=True,
        metadata={"description": "true: vote to end the game; false: take the vote back."},
    )


class MaxBytes(validate.Validator):
    """At most ``limit`` bytes of UTF-8, what a line costs to keep and send in any script."""

    def __init__(self, limit: int, what: str) -> None:
        self.limit, self.what = limit, what

    def __call__(self, value: str) -> str:
        if len(value.encode()) > self.limit:
            raise ValidationError(
                f"A {self.what} is at most {self.limit} bytes of text: an accented letter "
                "takes 2, most Chinese, Japanese or Korean characters 3, an emoji 4."
            )
        return value


class ChatSchema(Schema):
    text = _text(CHAT_MAX, "chat line")
    text.validators.append(MaxBytes(CHAT_MAX, "chat line"))
    text.metadata["description"] = f"Surrounding spaces are dropped; at most {CHAT_MAX} bytes."


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

    error_messages = {"unknown": "This parameter is not accepted here."}  # noqa: RUF012


class ListGamesQuery(_Query):
    status = fields.String(validate=validate.OneOf(STATUSES))
    limit = fields.Integer(load_default=20, validate=validate.Range(1, 100))
    cursor = fields.String(validate=validate.Length(1, 100))
    wait = fields.Float(
        load_default=0,
        validate=validate.Range(0, MAX_WAIT),
        metadata={
            "description": "With If-None-Match: hold up to this many seconds until the "
            "listing changes (a table opens, a seat is taken or freed, a game starts or ends)."
        },
    )


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
    limit = fields.Integer(
        validate=validate.Range(1),
        metadata={"description": "Page size: default 200, at most the server's cap (1000)."},
    )


class ReplayQuery(_Query):
    turn = fields.Integer(
        validate=validate.Range(0), metadata={"description": "Default: the final turn."}
    )


# -- the event stream ------------------------------------------------------------------


class StreamQuery(_Query):
    after = fields.Integer(
        validate=validate.Range(0),
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
