"""Counts and codes in plain words for people: "1 turn left", "the deck ran out".

The API speaks in codes (``deck_out``, ``game_started``); ``--json`` passes them on, and
everything a person reads says them in words, with counts that agree with their nouns.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .codes import EndReason

#: Why a game ended (a result's or a game_over event's ``reason``), as the table says it.
REASONS = {
    EndReason.PERFECT: "a perfect game",
    EndReason.DECK_OUT: "the deck ran out",
    EndReason.STRIKEOUT: "three strikes",
    EndReason.TERMINATED: "ended by vote",
    EndReason.TIMEOUT: "a clock ran out",
    EndReason.IDLE: "nobody moved for too long",
}


def plural(count: int, noun: str, nouns: str | None = None) -> str:
    """``"1 turn"``, ``"2 turns"``, ``"0 turns"``: the count and the noun that agrees with
    it (``nouns``: the plural when it is not the noun plus "s")."""
    return f"{count} {noun if count == 1 else nouns or noun + 's'}"


def seat_name(names: Sequence[str], seat: Any, unknown: str | None = None) -> str:
    """Who sits at ``seat`` (numbered from 0) by ``names``; else ``unknown``, by default
    ``"seat 3"`` (numbered from 1, as the table shows seats) or ``"someone"``."""
    if isinstance(seat, int) and 0 <= seat < len(names):
        return names[seat]
    if unknown is not None:
        return unknown
    return f"seat {seat + 1}" if isinstance(seat, int) else "someone"


def code_words(code: Any) -> str:
    """A code the client has no sentence for (a newer server's) as words, never raw:
    ``"account_deleted"`` -> ``"account deleted"``."""
    return str(code).replace("_", " ").strip() or "unknown"


def end_reason(code: Any) -> str:
    """Why a game ended, in words: ``"deck_out"`` -> ``"the deck ran out"``."""
    return REASONS.get(str(code)) or code_words(code)
