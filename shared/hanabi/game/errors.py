"""Errors the engine raises: each carries a stable machine-readable ``code``."""

from __future__ import annotations


class HanabiError(Exception):
    """Base class: ``code`` is stable for programs, ``message`` is a sentence for people."""

    code = "hanabi_error"

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message

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
