"""Counts and codes in plain words for people: "1 turn left", "the deck ran out".

The API speaks in codes (``deck_out``, ``game_started``); ``--json`` passes them on, and
everything a person reads says them in words, with counts that agree with their nouns.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .codes import EndReason
from .i18n import N_, _, pgettext

#: Why a game ended (a result's or a game_over event's ``reason``), as the table says it.
REASONS = {
    EndReason.PERFECT: N_("a perfect game"),
    EndReason.DECK_OUT: N_("the deck ran out"),
    EndReason.STRIKEOUT: N_("three strikes"),
    EndReason.TERMINATED: N_("ended by vote"),
    EndReason.TIMEOUT: N_("a clock ran out"),
    EndReason.IDLE: N_("nobody moved for too long"),
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
    return _("seat {seat}", seat=seat + 1) if isinstance(seat, int) else _("someone")


def code_words(code: Any) -> str:
    """A code the client has no sentence for (a newer server's) as words, never raw:
    ``"account_deleted"`` -> ``"account deleted"``."""
    return str(code).replace("_", " ").strip() or "unknown"


def end_reason(code: Any) -> str:
    """Why a game ended, in words: ``"deck_out"`` -> ``"the deck ran out"``."""
    reason = REASONS.get(str(code))
    return _(reason) if reason else code_words(code)


#: The clue colours as each language's players say them ("red", "红色", "красный"), and
#: the suits as a card's ("red", "红", "красная"): the ids the web client's catalogue
#: shares (server/hanabi/server/web/words.js).
COLOURS = ("red", "yellow", "green", "blue", "purple", "teal", "black", "pink", "brown")
COLOURS += ("orange", "white", "gray")
SUITS = (*COLOURS, "rainbow", "omni", "null", "prism", "dark rainbow", "muddy rainbow")
SUITS += ("light pink",)


def colour_word(colour: Any) -> str:
    """A clue colour (its id, "red") in words."""
    return pgettext("colour", str(colour)) if str(colour) in COLOURS else str(colour)


def suit_word(name: str) -> str:
    """A suit's name ("Red", "Muddy Rainbow") in words, lower case in English."""
    lowered = name.lower()
    return pgettext("suit", lowered) if lowered in SUITS else lowered
