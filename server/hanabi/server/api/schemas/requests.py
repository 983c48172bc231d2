"""Schemas of the requests that change a game: open a table, take a seat, seat a bot, deal,
move, vote, chat; and what a seat or a bot seat is granted."""

from __future__ import annotations

from typing import Any

from marshmallow import ValidationError, fields, validate

from hanabi.bots import DEFAULT_STRATEGY, STRATEGIES, StrategyList, descriptions
from hanabi.game import MAX_PLAYERS, MIN_PLAYERS

from ...table.seats import NAME_MAX
from ..field_messages import FieldMessage
from .basics import (
    CARD_RANKS,
    CHAT_MAX,
    DECK_MAX,
    IDLE_LIMIT,
    MOVE_CLOCK,
    NAME_PATTERN,
    SECONDS_MAX,
    SUIT_IDS,
    TIMER,
    VISIBLE,
    FullMatch,
    JsonBoolean,
    bounded,
    integer,
    text_field,
)
from .plain import Schema  # marshmallow's, refusing in plain words
from .table_options import TableOptionsSchema
from .tables import password_field
from .variants import variant_field
from .views import GameViewSchema, TimerSchema


class OptionsSchema(TableOptionsSchema):
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
    spectators_see_hands = JsonBoolean(
        metadata={
            "description": "Whether spectators see every hand's cards while the game is "
            "on (never the deck, nobody's notes): true by default at an unrated table; a "
            "rated table's spectators see the public board only (true there: 400 "
            "spectators_see_hands_rated). Finished games and tables of bots only show "
            "every card to everyone. See docs/watching.md."
        },
    )
    idle_limit = bounded(5, SECONDS_MAX, metadata={"description": IDLE_LIMIT})
    timer = fields.Nested(TimerSchema, metadata={"description": TIMER})
    move_clock = bounded(1, SECONDS_MAX, metadata={"description": MOVE_CLOCK})


class DeckCardSchema(Schema):
    suit = fields.String(required=True, validate=validate.OneOf(SUIT_IDS))
    rank = integer(
        required=True,
        validate=validate.OneOf(CARD_RANKS),
        metadata={"description": "1 to 5; 7 is the START card of Up or Down."},
    )


class CreateGameSchema(Schema):
    name = text_field(NAME_MAX, "name", NAME_PATTERN, required=False)  # an account's: its username
    variant = variant_field(load_default="no_variant")
    max_players = integer(load_default=5, validate=validate.Range(MIN_PLAYERS, MAX_PLAYERS))
    options = fields.Nested(OptionsSchema, load_default=dict)
    seed = fields.String(
        validate=validate.Length(1, 64),
        metadata={
            "description": "random (the default): a deal none of the seated accounts "
            "played or spoiled, picked at random; unplayed: the lowest-numbered such deal, "
            "so teams compare; a name (p<players>v<variant>s<n>): that deal (custom_deal: "
            "true). Any other text: a private custom seed, not compared. A rated table is "
            "dealt a fresh seed at random whichever it asks (random or unplayed), sealed "
            "for it until it ends. See docs/seeds.md."
        },
    )
    password = password_field(
        False,
        "A password table (docs/lobby.md): listed like any other, but joining needs this "
        "password. Kept only as a salted scrypt hash; never shown.",
    )
    password_spectators = JsonBoolean(
        load_default=False,
        metadata={"description": "With `password`: spectators need it too (a pass, "
                  "POST /games/{game_id}/passes)."},
    )  # fmt: skip
    deck = fields.List(
        fields.Nested(DeckCardSchema),
        validate=validate.Length(1, DECK_MAX),
        metadata={"description": "An exact deal, top card first (e.g. from hanab.live)."},
    )


#: A bot strategy's name; a refusal names them all, with whom to seat each.
STRATEGY_CHOICE = validate.OneOf(
    tuple(STRATEGIES),
    error=FieldMessage("Use one of: {choices} ({strategies}).", strategies=StrategyList()),
)


def plays_field(**kw: Any) -> fields.String:
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
    plays = plays_field(required=True)


class JoinSchema(Schema):
    name = text_field(NAME_MAX, "name", NAME_PATTERN, required=False)  # an account's: its username
    plays = plays_field(load_default=None)
    password = password_field(False, "A password table's password (its `lock` is not null).")


class BotSeatSchema(Schema):
    strategy = fields.String(
        load_default=DEFAULT_STRATEGY,
        validate=STRATEGY_CHOICE,
        metadata={"description": f"A bot strategy; default {DEFAULT_STRATEGY}. {descriptions()}."},
    )
    name = fields.String(
        validate=[
            validate.Length(1, NAME_MAX),
            FullMatch(NAME_PATTERN, error=VISIBLE["name"]),
        ],
        metadata={"description": "Default: <strategy>-bot-<seat> (unique at the table)."},
    )


class BotSeatResultSchema(Schema):
    seat = integer(required=True)
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
    seat = integer(required=True)
    token = fields.String(required=True)
    game = fields.Nested(GameViewSchema, required=True)


class VoteSchema(Schema):
    end = JsonBoolean(
        required=True,
        metadata={"description": "true: vote to end the game; false: take the vote back."},
    )


class MaxBytes(validate.Validator):
    """At most ``limit`` bytes of UTF-8, what a line costs to keep and send in any script."""

    def __init__(self, limit: int) -> None:
        self.limit = limit

    def __call__(self, value: str) -> str:
        if len(value.encode()) > self.limit:
            raise ValidationError(
                FieldMessage(
                    "A chat line is at most {limit} bytes of text: an accented letter "
                    "takes 2, most Chinese, Japanese or Korean characters 3, an emoji 4.",
                    limit=self.limit,
                )
            )
        return value


class ChatSchema(Schema):
    text = text_field(CHAT_MAX, "chat line")
    text.validators.append(MaxBytes(CHAT_MAX))
    text.metadata["description"] = f"Surrounding spaces are dropped; at most {CHAT_MAX} bytes."
