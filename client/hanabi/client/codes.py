"""The API's codes that the client reads and sends, as enums: a game's status, an action's
kind, what plays a seat, and why a game ended.

Each is a :class:`~enum.StrEnum`: a member equals the string the server sends, so
``view.get("status") == GameStatus.LOBBY`` reads a view, and ``{"type": ActionKind.PLAY}``
goes out as ``"play"``. A code the client does not know (a newer server's) is still a
plain string and compares unequal to every member.
"""

from __future__ import annotations

from collections.abc import Mapping
from enum import StrEnum
from typing import Any


class GameStatus(StrEnum):
    """Where a game is: seats being taken, cards dealt, or over."""

    LOBBY = "lobby"
    PLAYING = "playing"
    FINISHED = "finished"


def game_status(view: Mapping[str, Any]) -> str:
    """A view's status; a view without one (the engine's own) by whether it has a result."""
    return view.get("status") or (GameStatus.FINISHED if view.get("result") else GameStatus.PLAYING)


class ActionKind(StrEnum):
    """The moves a seat makes (``POST /games/{id}/actions``' ``type``), also the events
    they cause."""

    PLAY = "play"
    DISCARD = "discard"
    CLUE = "clue"


class SeatKind(StrEnum):
    """What plays a seat: a person, a bot the server plays (``bot``: its strategy), or a
    program that said which strategy it plays (``plays``)."""

    PERSON = "person"
    BOT = "bot"
    PROGRAM = "program"

    @classmethod
    def of(cls, player: Mapping[str, Any]) -> SeatKind:
        if player.get("bot"):
            return cls.BOT
        if player.get("plays"):
            return cls.PROGRAM
        return cls.PERSON


class EndReason(StrEnum):
    """Why a game ended (a result's and a ``game_over`` event's ``reason``; ``timeout``
    and ``idle`` also name why the server ended it in a ``terminate`` event)."""

    PERFECT = "perfect"
    DECK_OUT = "deck_out"
    STRIKEOUT = "strikeout"
    TERMINATED = "terminated"
    TIMEOUT = "timeout"
    IDLE = "idle"
