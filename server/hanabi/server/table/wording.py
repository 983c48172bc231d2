"""Sentences for people, kept as message ids and named values until the edge translates them.

The table speaks no HTTP and knows no request, so it cannot know the reader's language:
a refusal keeps its sentence as a gettext message id with ``{name}`` placeholders and the
values apart (:class:`Words`), and ``api/problems.py`` formats it in the request's
language. ``str()`` of one is the English sentence (logs, tests, the default language).
``pybabel extract`` finds the ids: the second argument of every refusal kind, ``Words``,
``N_`` and both forms of ``Plural`` (locale/babel.cfg lists the keywords).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

Gettext = Callable[[str], str]
Ngettext = Callable[[str, str, int], str]


def N_(msgid: str) -> str:
    """Mark ``msgid`` for extraction; it is translated where it is shown."""
    return msgid


@dataclass(frozen=True)
class Words:
    """A message id and its named values: ``Words("There are {n} seats.", n=4)``."""

    msgid: str
    params: dict[str, Any] = field(default_factory=dict)

    def __init__(self, msgid: str, /, **params: Any) -> None:
        object.__setattr__(self, "msgid", msgid)
        object.__setattr__(self, "params", params)

    def render(self, gettext: Gettext, ngettext: Ngettext) -> str:
        """The sentence in the language of ``gettext``/``ngettext``."""
        return fill(gettext(self.msgid), self.params, gettext, ngettext)

    def __str__(self) -> str:
        return self.render(_same, _english_plural)


@dataclass(frozen=True)
class Plural:
    """A count and its words, singular or plural as the language wants ("1 ход", "5
    ходов"): ``Plural(n, "{n} second", "{n} seconds")``; the count is ``{n}``."""

    n: int
    singular: str
    plural: str

    def render(self, gettext: Gettext, ngettext: Ngettext) -> str:
        return ngettext(self.singular, self.plural, self.n).format(n=self.n)

    def __str__(self) -> str:
        return self.render(_same, _english_plural)


def fill(text: str, params: dict[str, Any], gettext: Gettext, ngettext: Ngettext) -> str:
    """``text`` with its ``{name}`` placeholders filled, values that are words themselves
    rendered in the same language first: ``Words``, ``Plural``, and anything else with a
    ``render(gettext, ngettext)`` (an engine error inside a sentence, the engine's
    ``Phrase``, a marshmallow message of :mod:`hanabi.server.api.field_messages`)."""
    if not params:
        return text
    values = {name: _rendered(value, gettext, ngettext) for name, value in params.items()}
    return text.format(**values)


def _rendered(value: Any, gettext: Gettext, ngettext: Ngettext) -> Any:
    render = getattr(value, "render", None)
    return render(gettext, ngettext) if callable(render) else value


def _same(msgid: str) -> str:
    return msgid


def _english_plural(singular: str, plural: str, n: int) -> str:
    return singular if n == 1 else plural
