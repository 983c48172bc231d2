"""Actions: what a player (or the table) asks the engine to do."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .errors import IllegalAction
from .kinds import ActionKind

PLAY = ActionKind.PLAY
DISCARD = ActionKind.DISCARD
CLUE = ActionKind.CLUE
TERMINATE = ActionKind.TERMINATE
ACTION_TYPES = (PLAY, DISCARD, CLUE, TERMINATE)


@dataclass(frozen=True, slots=True)
class Action:
    """One entry of a game's action log.

    play/discard name a card by ``card`` (its order); a clue names ``target`` and exactly
    one of ``color``/``rank``; a wild play may name ``firework`` (a suit id); terminate
    names the ``seat`` that ended the game (none when the table ended it: a vote, an idle
    game) and its ``reason`` (``terminated`` unless set: ``timeout``, ``idle``).
    """

    type: str
    card: int | None = None
    target: int | None = None
    color: str | None = None
    rank: int | None = None
    firework: str | None = None
    seat: int | None = None
    reason: str | None = None

    @classmethod
    def play(cls, card: int, firework: str | None = None) -> Action:
        return cls(PLAY, card=card, firework=firework)

    @classmethod
    def discard(cls, card: int) -> Action:
        return cls(DISCARD, card=card)

    @classmethod
    def clue(cls, target: int, *, color: str | None = None, rank: int | None = None) -> Action:
        return cls(CLUE, target=target, color=color, rank=rank)

    @classmethod
    def terminate(cls, seat: int | None = None, reason: str | None = None) -> Action:
        """End the game: by ``seat``, or by the table (``seat`` None); ``reason`` None is
        ``terminated``."""
        return cls(TERMINATE, seat=seat, reason=reason)

    def to_dict(self) -> dict[str, Any]:
        """A compact JSON-ready dict holding only the fields that are set."""
        out: dict[str, Any] = {"type": self.type}
        for name in ("card", "target", "color", "rank", "firework", "seat", "reason"):
            value = getattr(self, name)
            if value is not None:
                out[name] = value
        return out

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Action:
        """The inverse of :meth:`to_dict`; refuses unknown types and missing fields."""
        kind = data.get("type")
        if kind not in ACTION_TYPES:
            raise IllegalAction("unknown_action", "Unknown action type {kind}.", kind=repr(kind))
        action = cls(
            kind,
            card=data.get("card"),
            target=data.get("target"),
            color=data.get("color"),
            rank=data.get("rank"),
            firework=data.get("firework"),
            seat=data.get("seat"),
            reason=data.get("reason"),
        )
        if kind in (PLAY, DISCARD) and action.card is None:
            raise IllegalAction("card_required", "A {kind} action must name a card.", kind=kind)
        if kind == CLUE and action.target is None:
            raise IllegalAction("target_required", "A clue must name the player it is for.")
        return action
