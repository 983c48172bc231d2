"""Schemas of what a game looks like: the view of one viewer (a seat, or a spectator), a
listing's summaries, and a finished game exported in hanab.live's format."""

from __future__ import annotations

from typing import Any

from marshmallow import fields, validate

from .actions import ACTION_REQUESTS
from .basics import (
    END_REASONS,
    IDLE_LIMIT,
    MOVE_CLOCK,
    STATUSES,
    SUIT_IDS,
    JsonBoolean,
    OneOfNested,
    custom_deal_field,
    integer,
    nullable_integer,
    nullable_string,
)
from .notes import LastActionSchema, view_notes_field
from .plain import Schema  # marshmallow's, refusing in plain words
from .tables import PauseSchema, RematchSchema, lock_field

#: A view's ``spectating`` values (hanabi.server.table.viewers.Spectating).
SPECTATING = ["full", "hands", "public", "shadow"]

HIDDEN_IN_HOLE = "null while a Throw It in a Hole game is on (the plays are unseen)."

#: What a game's ``variant`` holds.
VARIANT_ID = (
    "The variant: its hanab.live name, or this service's id for the games created under "
    "one (no_variant, rainbow...); GET /variants/{key} describes either."
)


class TimerSchema(Schema):
    base = integer(
        required=True,
        validate=validate.Range(1, 3600),
        metadata={"description": "Seconds on each seat's clock at the start (10 to 3600; "
                  "a server may allow less, HANABI_TIMER_MIN_BASE)."},
    )  # fmt: skip
    per_turn = integer(
        required=True,
        validate=validate.Range(0, 300),
        metadata={"description": "Seconds added to a seat's clock after each of its moves."},
    )


def see_hands_field() -> JsonBoolean:
    return JsonBoolean(
        required=True,
        metadata={
            "description": "Whether spectators see every hand's cards while the game is on "
            "(false at a rated table, or when its creator hid them). docs/watching.md."
        },
    )


class SummaryOptionsSchema(Schema):
    """The table options a listing shows: what a spectator would see."""

    rated = JsonBoolean(metadata={"description": "Present (true) for a rated game only."})
    spectators_see_hands = see_hands_field()


class GameOptionsSchema(Schema):
    empty_clues = JsonBoolean(required=True)
    strikeout_keeps_score = JsonBoolean(required=True)
    idle_limit = integer(required=True, metadata={"description": IDLE_LIMIT})
    timer = fields.Nested(TimerSchema, required=True, allow_none=True)
    move_clock = integer(metadata={"description": MOVE_CLOCK})
    rated = JsonBoolean(metadata={"description": "Present (true) for a rated game only."})
    spectators_see_hands = see_hands_field()
    # hanab.live's table options (docs/variants.md): present (true) only when on
    one_extra_card = JsonBoolean()
    one_less_card = JsonBoolean()
    deck_plays = JsonBoolean()
    all_or_nothing = JsonBoolean()
    card_cycle = JsonBoolean()
    end_at_max_possible = JsonBoolean()


class RatingChangeSchema(Schema):
    before = fields.Float(required=True)
    after = fields.Float(required=True)


class PlayerSchema(Schema):
    seat = integer(required=True)
    name = fields.String(required=True)
    bot = nullable_string(
        metadata={"description": "The server bot's strategy seated here; null for a person."}
    )
    plays = nullable_string(
        metadata={
            "description": "The strategy this seat plays, as far as the table knows: a server "
            "bot's, or the one a program in a person's seat declared (PATCH "
            "/games/{game_id}/players/{seat}); null for a person. Bots read the table from it."
        }
    )
    playing = nullable_string(
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
    score = integer(required=True)
    rating_changes = fields.Dict(
        keys=fields.String(),
        values=fields.Nested(RatingChangeSchema),
        metadata={"description": "A rated game, once its ratings are applied: seat -> change."},
    )


#: What the table hears of a clue in Cow & Pig (moo: a colour, oink: a rank) and Duck.
SOUND = fields.String(
    validate=validate.OneOf(("moo", "oink", "quack")),
    metadata={"description": "Cow & Pig and Duck: all that is told of a clue (its colour "
              "and rank are null while the game is on)."},
)  # fmt: skip


class ClueTagSchema(Schema):
    color = nullable_string()
    rank = nullable_integer()
    sound = SOUND


class KnowledgeSchema(Schema):
    clued = JsonBoolean(required=True)
    clues = fields.List(fields.Nested(ClueTagSchema), required=True)
    possible = fields.Dict(
        keys=fields.String(),
        values=fields.List(integer()),
        required=True,
        metadata={"description": "Suit -> ranks the holder was told it may be."},
    )
    deduced = fields.Dict(
        keys=fields.String(),
        values=fields.List(integer()),
        required=True,
        metadata={"description": "Suit -> ranks still possible given what this viewer sees."},
    )


class CardSchema(Schema):
    order = integer(required=True)
    suit = nullable_string(metadata={"description": "null where hidden from this viewer"})
    rank = nullable_integer()
    knowledge = fields.Nested(KnowledgeSchema, required=True)


class DiscardSchema(Schema):
    order = integer(required=True)
    suit = fields.String(required=True, validate=validate.OneOf(SUIT_IDS))
    rank = integer(required=True)
    misplayed = JsonBoolean(required=True)


class ClueSchema(Schema):
    type = fields.String(required=True, validate=validate.Equal("clue"))
    turn = integer(required=True)
    seat = integer(required=True)
    target = integer(required=True)
    color = nullable_string()
    rank = nullable_integer()
    touched = fields.List(integer(), required=True)
    sound = SOUND


class VotesSchema(Schema):
    end = integer(required=True, metadata={"description": "How many seats voted to end."})
    needed = integer(
        required=True,
        metadata={"description": "Votes that end the game: half the seated people (bots "
                  "don't vote), at least 2 (1 for a person alone with bots)."},
    )  # fmt: skip
    mine = fields.Boolean(
        required=True,
        allow_none=True,
        metadata={"description": "Whether the viewer voted; null for a spectator."},
    )


def score_hidden_field(what: str = "Present while the score is hidden (`score` null): ") -> Any:
    """``score_hidden``: why a score is null, for clients to say it in words."""
    return fields.String(
        validate=validate.OneOf(["throw_it_in_a_hole"]),
        metadata={
            "description": what + "`throw_it_in_a_hole`, the played cards lie face down "
            'until the game is over. Clients say "hidden until the end" rather than a '
            "number."
        },
    )


class GameViewSchema(Schema):
    """A game as one viewer (a seat, or a spectator) may see it."""

    id = fields.String(required=True)
    status = fields.String(required=True, validate=validate.OneOf(STATUSES))
    version = integer(
        required=True, metadata={"description": "Grows with every change to the game."}
    )
    variant = fields.String(required=True, metadata={"description": VARIANT_ID})
    options = fields.Nested(GameOptionsSchema, required=True)
    max_players = integer(required=True)
    players = fields.List(fields.Nested(PlayerSchema), required=True)
    host = integer(required=True)
    you = nullable_integer(metadata={"description": "The viewer's seat; null for a spectator."})
    custom_deal = custom_deal_field()
    seed = fields.String(
        metadata={
            "description": "The table's seed, to its seated players only (absent for others "
            "and for a custom deal): random, unplayed or a name in the lobby, the deal's name "
            "(p<players>v<variant>s<n>) once over (once dealt if the creator chose it). See "
            "docs/seeds.md."
        },
    )
    spectating = fields.String(
        required=True,
        allow_none=True,
        validate=validate.OneOf([*SPECTATING, None]),
        metadata={
            "description": "What a spectator sees (null in a seat's own view): `full`, every "
            "card (a finished game, a table of bots only; a replay); `hands`, every hand's "
            "cards while an unrated game is on (options.spectators_see_hands); `public`, "
            "public information only (a rated table, one that hides hands, an account "
            "playing the same deal at another table); `shadow`, the table as the seat "
            "`shadow_seat` sees it (?shadow=). See docs/watching.md."
        },
    )
    shadow_seat = integer(
        metadata={"description": "The seat a spectator shadows (`spectating` is `shadow`)."}
    )
    cards_hidden = fields.String(
        validate=validate.OneOf(["seed_not_played"]),
        metadata={
            "description": "No longer sent: finished games are public (see `spectating`). "
            "Kept so that clients written for it still read the contract."
        },
    )
    turn = integer(required=True)
    current_seat = nullable_integer()
    clue_tokens = fields.Float(
        required=True, metadata={"description": "Whole tokens; halves in Clue Starved (7.5)."}
    )
    strikes = integer(required=True)
    deck_size = integer(required=True)
    score = nullable_integer(metadata={"description": HIDDEN_IN_HOLE})
    score_hidden = score_hidden_field(
        "Present while this view hides the score and the fireworks (`score`, `max_score`, "
        "`pace`, every `fireworks` height and `firework_states` null): "
    )
    max_score = nullable_integer(
        metadata={
            "description": "Best score the cards allow, given those discarded or misplayed "
            "(a finished game keeps the figure it ended with, whatever its final score)."
        },
    )
    pace = nullable_integer(
        metadata={
            "description": "Discards the team can still afford; null before the deal "
            "and once the game is over."
        }
    )
    fireworks = fields.Dict(
        keys=fields.String(),
        values=integer(allow_none=True),
        required=True,
        metadata={"description": "Suit -> height; null in Throw It in a Hole."},
    )
    firework_states = fields.Dict(
        keys=fields.String(),
        values=fields.Raw(),
        allow_none=True,
        metadata={"description": "Reversed suits, Up or Down, Sudoku: each firework's last "
                  "rank, the way it goes, its first rank and the ranks it takes next (null "
                  "in Throw It in a Hole)."},
    )  # fmt: skip
    hole = fields.List(
        integer(),
        metadata={"description": "Throw It in a Hole: the orders of the cards played into "
                  "the hole, which nobody sees until the game is over."},
    )  # fmt: skip
    hands = fields.List(fields.List(fields.Nested(CardSchema)), required=True)
    discards = fields.List(fields.Nested(DiscardSchema), required=True)
    clues = fields.List(fields.Nested(ClueSchema), required=True)
    turns_left = nullable_integer()
    legal_actions = fields.List(
        OneOfNested(ACTION_REQUESTS),
        required=True,
        metadata={"description": "The moves the viewer may make now (empty off its turn), "
                  "each with the view's turn: send one back as it is."},
    )  # fmt: skip
    result = fields.Nested(ResultSchema, allow_none=True, required=True)
    votes = fields.Nested(VotesSchema, required=True)
    lock = lock_field()
    pause = fields.Nested(PauseSchema, metadata={"description": "Pausing by vote (docs/lobby.md)."})
    rematch = fields.Nested(
        RematchSchema,
        allow_none=True,
        metadata={"description": "The next game with the same seats (docs/lobby.md)."},
    )
    last_action = fields.Nested(
        LastActionSchema,
        required=True,
        allow_none=True,
        metadata={"description": "The last move as this viewer may see it (its events' "
                  "redaction); null before the first."},
    )  # fmt: skip
    notes = view_notes_field()
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
    variant = fields.String(required=True, metadata={"description": VARIANT_ID})
    max_players = integer(required=True)
    players = fields.List(fields.Nested(PlayerSchema), required=True)
    host = integer(required=True)
    custom_deal = custom_deal_field()
    options = fields.Nested(SummaryOptionsSchema, required=True)
    lock = lock_field()
    turn = integer(required=True)
    score = nullable_integer(metadata={"description": HIDDEN_IN_HOLE})
    score_hidden = score_hidden_field()
    result = fields.Nested(ResultSchema, allow_none=True, required=True)
    created = fields.DateTime(required=True)
    updated = fields.DateTime(required=True)
    friends = fields.List(
        fields.String(),
        metadata={
            "description": "Only for an account that follows someone seated here: their "
            "names. Such games come first in their page (docs/chat.md)."
        },
    )


class GamePageSchema(Schema):
    games = fields.List(fields.Nested(GameSummarySchema), required=True)
    next_cursor = nullable_string(metadata={"description": "Pass as ?cursor= for the next page."})


class HanabLiveCardSchema(Schema):
    suitIndex = integer(required=True)  # hanab.live's field name
    rank = integer(required=True)


class HanabLiveActionSchema(Schema):
    type = integer(required=True)
    target = integer(required=True)
    value = integer()


class HanabLiveGameSchema(Schema):
    """A game in hanab.live's JSON format (see hanabi.game.hanablive)."""

    players = fields.List(fields.String(), required=True)
    deck = fields.List(fields.Nested(HanabLiveCardSchema), required=True)
    actions = fields.List(fields.Nested(HanabLiveActionSchema), required=True)
    options = fields.Dict(keys=fields.String(), values=fields.Raw(), required=True)
    seed = fields.String(required=True)
    notes = fields.List(
        fields.List(fields.String()),
        metadata={"description": "Card notes, per seat a list of strings by card order "
                  "(hanab.live's shape); left out when nobody wrote one."},
    )  # fmt: skip
