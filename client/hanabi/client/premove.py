"""A pre-move (``next MOVE`` at the table, as hanab.live's): one move queued during the
others' turns, sent the moment this seat's turn comes; dropped, and said, when a clue
touched the queued card in the meantime (what the card is thought to be has changed) or
when the server would not take it then (its legal moves do not hold it)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

#: The fields that make two moves the same move.
KEYS = ("type", "card", "target", "color", "rank", "firework")


class Verdict(StrEnum):
    """What becomes of the queued move with a new view."""

    WAIT = "wait"  # not this seat's turn yet
    SEND = "send"
    TOUCHED = "touched"  # a clue touched the queued card: dropped
    ILLEGAL = "illegal"  # not a legal move on the turn: dropped
    GONE = "gone"  # the card left the hand: dropped
    OVER = "over"  # the game is over: dropped without a word


@dataclass
class PreMove:
    """The queued move: the API action, the move as typed, and how many clues had been
    given when it was queued (the clues after it are the ones that may touch its card)."""

    action: dict[str, Any]
    text: str
    clues_at: int

    @classmethod
    def queue(cls, action: dict[str, Any], text: str, view: Mapping[str, Any]) -> PreMove:
        return cls(dict(action), text, len(view.get("clues") or []))

    def verdict(self, view: Mapping[str, Any]) -> Verdict:
        you = view.get("you")
        if view.get("result") or view.get("status") != "playing" or not isinstance(you, int):
            return Verdict.OVER
        card = self.action.get("card")
        if card is not None:
            hand = [c["order"] for c in (view.get("hands") or [[]])[you]]
            if card not in hand:
                return Verdict.GONE
            later = (view.get("clues") or [])[self.clues_at :]
            if any(card in (c.get("touched") or []) for c in later):
                return Verdict.TOUCHED
        if view.get("current_seat") != you:
            return Verdict.WAIT
        wanted = {k: self.action.get(k) for k in KEYS}
        for legal in view.get("legal_actions") or []:
            if all(legal.get(k) == v for k, v in wanted.items() if v is not None):
                return Verdict.SEND
        return Verdict.ILLEGAL
