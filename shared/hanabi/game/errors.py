"""Errors the engine raises: each carries a stable machine-readable ``code``."""

from __future__ import annotations

from typing import Any


class HanabiError(Exception):
    """Base class: ``code`` is stable for programs, ``message`` is a sentence for people.

    The sentence is given as a message id with ``{name}`` placeholders and the values as
    keyword arguments, so that a program that speaks the reader's language (the server)
    can translate ``template`` and fill in ``params``; ``message`` is the English.
    """

    code = "hanabi_error"

    def __init__(self, code: str, message: str, **params: Any) -> None:
        self.template = message
        self.params = params
        self.message = message.format(**params) if params else message
        super().__init__(self.message)
        self.code = code

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.code!r}, {self.message!r})"


class IllegalAction(HanabiError):
    """The rules refuse this action in the current state; nothing was changed.

    Messages never name the acting player's own card identities.
    """


class SetupError(HanabiError):
    """A game cannot be created from these settings (bad variant, deck, players...)."""


class ImportFormatError(HanabiError):
    """A hanab.live game document cannot be read."""


def no_seat(seat: Any) -> IllegalAction:
    """A seat that is not at the table (a clue's target, the seat a game ends for)."""
    return IllegalAction("unknown_seat", "There is no seat {seat} at this table.", seat=repr(seat))
