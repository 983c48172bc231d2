"""The engine's vocabularies as enums: what an action does, and why a game ended.

Their values are the strings the engine has always written (an action's ``type``, a
result's ``reason``) in logs, on the wire and in stored games. A ``StrEnum`` member is
equal to its string, so ``action.type == ActionKind.PLAY`` holds for an action read back
from JSON, and ``EndReason("deck_out")`` reads a stored result.
"""

from __future__ import annotations

from enum import StrEnum


class ActionKind(StrEnum):
    """What an action does (:attr:`hanabi.game.Action.type`)."""

    PLAY = "play"
    DISCARD = "discard"
    CLUE = "clue"
    TERMINATE = "terminate"  # ends the game early: by a seat, or by the table


class EndReason(StrEnum):
    """Why a game ended (``result.reason``)."""

    PERFECT = "perfect"  # every firework complete
    DECK_OUT = "deck_out"  # the last round after the deck ran out was played
    STRIKEOUT = "strikeout"  # the last strike
    MAX_POSSIBLE = "max_possible"  # end_at_max_possible: nothing more can be scored
    ALL_OR_NOTHING_FAILED = "all_or_nothing_failed"  # a perfect score became impossible
    ALL_OR_NOTHING_STUCK = "all_or_nothing_stuck"  # the mover can neither act nor clue
    TERMINATED = "terminated"  # ended early: a vote, or a seat that left for good
    TIMEOUT = "timeout"  # a seat's clock ran out (the server keeps the clocks)
    IDLE = "idle"  # nobody moved for too long (the server decides how long)
