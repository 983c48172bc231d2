"""The API's codes that the client reads and sends, as enums: a game's status, an action's
kind, an event's kind, what plays a seat, and why a game ended.

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


class EventKind(StrEnum):
    """What an event of a game's log is (its ``type``): the game's own, which the rules
    engine makes (:data:`GAME_EVENTS`), and the table's."""

    DRAW = "draw"
    CLUE = "clue"
    PLAY = "play"
    MISPLAY = "misplay"
    DISCARD = "discard"
    CLUE_TOKEN = "clue_token"
    STRIKE = "strike"
    FINAL_ROUND = "final_round"
    TERMINATE = "terminate"
    GAME_OVER = "game_over"
    CHAT = "chat"
    VOTE = "vote"
    JOIN = "join"
    LEAVE = "leave"
    REMOVE = "remove"
    START = "start"
    PLAYS = "plays"
    PAUSE = "pause"  # a vote to pause or to go on (docs/lobby.md)
    DECLINE = "decline"  # a seat kept at the next game was declined, and opened


#: The rules engine's events: what a replay of the game is made of (the table's join,
#: leave, remove, start, chat, vote and plays are not).
GAME_EVENTS = frozenset(
    {EventKind.DRAW, EventKind.CLUE, EventKind.PLAY, EventKind.MISPLAY, EventKind.DISCARD}
    | {EventKind.CLUE_TOKEN, EventKind.STRIKE, EventKind.FINAL_ROUND, EventKind.TERMINATE}
    | {EventKind.GAME_OVER}
)


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
