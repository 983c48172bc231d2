"""Errors the engine raises: each carries a stable machine-readable ``code``."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

Gettext = Callable[[str], str]
Ngettext = Callable[[str, str, int], str]


def _rendered(value: Any, gettext: Gettext, ngettext: Ngettext) -> Any:
    """A value of a sentence in the reader's language when it is words itself (a nested
    error, a :class:`Phrase`, the server's ``Words``): anything with ``render``."""
    render = getattr(value, "render", None)
    return render(gettext, ngettext) if callable(render) else value


class Phrase:
    """Words inside an engine sentence, kept as a message id and values so that a program
    that speaks the reader's language translates them too: ``Phrase("{suit} {rank}",
    suit=SuitName(suit), rank=3)``. ``str()`` is the English."""

    def __init__(self, template: str, /, **params: Any) -> None:
        self.template = template
        self.params = params

    def render(self, gettext: Gettext, ngettext: Ngettext) -> str:
        text = gettext(self.template)
        values = {k: _rendered(v, gettext, ngettext) for k, v in self.params.items()}
        return text.format(**values) if values else text

    def __str__(self) -> str:
        return self.render(str, lambda one, many, n: one if n == 1 else many)

    def __format__(self, spec: str) -> str:
        return format(str(self), spec)


class SuitName:
    """A suit as players name it on a card ("red", "红", "красная"): the catalogue's
    ``suit`` context (the one the clients share), else its English name in lower case."""

    def __init__(self, name: str) -> None:
        self.name = name.lower()

    def render(self, gettext: Gettext, ngettext: Ngettext) -> str:
        key = f"suit\x04{self.name}"  # gettext's key of a message in a context
        said = gettext(key)
        return self.name if said == key else said

    def __str__(self) -> str:
        return self.name

    def __format__(self, spec: str) -> str:
        return format(str(self), spec)


class Listing:
    """Phrases said one after the other ("a, b, c"), each in the reader's language."""

    def __init__(self, items: Sequence[Any], separator: str = ", ") -> None:
        self.items = list(items)
        self.separator = separator

    def render(self, gettext: Gettext, ngettext: Ngettext) -> str:
        return self.separator.join(str(_rendered(i, gettext, ngettext)) for i in self.items)

    def __str__(self) -> str:
        return self.separator.join(str(i) for i in self.items)

    def __format__(self, spec: str) -> str:
        return format(str(self), spec)


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

    def render(self, gettext: Gettext, ngettext: Ngettext) -> str:
        """The sentence in the language of ``gettext`` (a nested error or phrase too)."""
        text = gettext(self.template)
        values = {k: _rendered(v, gettext, ngettext) for k, v in self.params.items()}
        return text.format(**values) if values else text

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
