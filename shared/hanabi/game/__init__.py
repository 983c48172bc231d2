"""The Hanabi rules engine: pure, deterministic, no I/O.

>>> from hanabi.game import Game, Setup, Action, view
>>> game = Game(Setup.create("no_variant", ["alice", "bob"], seed="42"))
>>> events = game.apply(Action.clue(1, rank=1))
>>> view(game, 0)["clue_tokens"]
7
"""

from . import catalogue
from .actions import Action
from .catalogue import get_variant
from .ending import (
    ALL_OR_NOTHING_FAILED,
    ALL_OR_NOTHING_STUCK,
    DECK_OUT,
    END_REASONS,
    IDLE,
    MAX_POSSIBLE,
    PERFECT,
    STRIKEOUT,
    TERMINATED,
    TIMEOUT,
)
from .errors import HanabiError, IllegalAction, ImportFormatError, SetupError
from .game import EVENT_TYPES, Game, replay
from .hanablive import export_game, import_game, import_setup
from .kinds import ActionKind, EndReason
from .setup import (
    HAND_SIZES,
    MAX_CLUE_TOKENS,
    MAX_PLAYERS,
    MAX_STRIKES,
    MIN_PLAYERS,
    Options,
    Setup,
    shuffled_deck,
)
from .variants import START_RANK, VARIANTS, Rules, Suit, Variant
from .views import full_view, spectator_view, view

__all__ = [
    "ALL_OR_NOTHING_FAILED",
    "ALL_OR_NOTHING_STUCK",
    "DECK_OUT",
    "END_REASONS",
    "EVENT_TYPES",
    "HAND_SIZES",
    "IDLE",
    "MAX_CLUE_TOKENS",
    "MAX_PLAYERS",
    "MAX_POSSIBLE",
    "MAX_STRIKES",
    "MIN_PLAYERS",
    "PERFECT",
    "START_RANK",
    "STRIKEOUT",
    "TERMINATED",
    "TIMEOUT",
    "VARIANTS",
    "Action",
    "ActionKind",
    "EndReason",
    "Game",
    "HanabiError",
    "IllegalAction",
    "ImportFormatError",
    "Options",
    "Rules",
    "Setup",
    "SetupError",
    "Suit",
    "Variant",
    "catalogue",
    "export_game",
    "full_view",
    "get_variant",
    "import_game",
    "import_setup",
    "replay",
    "shuffled_deck",
    "spectator_view",
    "view",
]
