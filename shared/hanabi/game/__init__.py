"""The Hanabi rules engine: pure, deterministic, no I/O.

>>> from hanabi.game import Game, Setup, Action, view
>>> game = Game(Setup.create("no_variant", ["alice", "bob"], seed="42"))
>>> events = game.apply(Action.clue(1, rank=1))
>>> view(game, 0)["clue_tokens"]
7
"""

from .actions import Action
from .engine import (
    DECK_OUT,
    END_REASONS,
    EVENT_TYPES,
    HAND_SIZES,
    IDLE,
    MAX_CLUE_TOKENS,
    MAX_PLAYERS,
    MAX_STRIKES,
    MIN_PLAYERS,
    PERFECT,
    STRIKEOUT,
    TERMINATED,
    TIMEOUT,
    Game,
    Options,
    Setup,
    replay,
    shuffled_deck,
)
from .errors import HanabiError, IllegalAction, ImportFormatError, SetupError
from .hanablive import export_game, import_game, import_setup
from .kinds import ActionKind, EndReason
from .variants import VARIANTS, Suit, Variant, get_variant
from .views import full_view, spectator_view, view

__all__ = [
    "DECK_OUT",
    "END_REASONS",
    "EVENT_TYPES",
    "HAND_SIZES",
    "IDLE",
    "MAX_CLUE_TOKENS",
    "MAX_PLAYERS",
    "MAX_STRIKES",
    "MIN_PLAYERS",
    "PERFECT",
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
    "Setup",
    "SetupError",
    "Suit",
    "Variant",
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
