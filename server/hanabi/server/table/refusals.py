"""How the service says no: :class:`Refused`, and the kinds of no it knows.

A rule of the table refuses a request by raising a ``Refused``: a stable ``code`` for
programs, a ``detail`` sentence for people (it never holds hidden information: engine
messages are written to be safe to show the acting seat), and the facts an answer needs
(``retry_after``: seconds to wait; ``errors``: what was wrong, per field). Its class says
what kind of no it is. The service speaks no HTTP: the one table that gives each code its
HTTP status is :mod:`hanabi.server.api.refusals`.

The sentence is a gettext message id with named placeholders, the values given as keyword
arguments (``NotFound("no_such_turn", "The game has turns 0 to {last}.", last=9)``): the
API translates it into the request's language (:mod:`.wording`, docs/i18n.md). ``detail``
is the English sentence.
"""

from __future__ import annotations

from typing import Any

from .wording import Words


class Refused(Exception):
    """A request the service turns down; nothing was changed."""

    def __init__(
        self,
        code: str,
        detail: str | Words,
        *,
        retry_after: int | None = None,
        errors: dict[str, Any] | None = None,
        **params: Any,
    ) -> None:
        self.words = detail if isinstance(detail, Words) else Words(detail, **params)
        self.code = code
        self.detail = str(self.words)
        self.facts: dict[str, Any] = {}
        if retry_after is not None:
            self.facts["retry_after"] = retry_after
        if errors is not None:
            self.facts["errors"] = errors
        super().__init__(self.detail)


class Invalid(Refused):
    """The request itself is wrong: a field, a name, an option, an action."""


class Unauthorized(Refused):
    """Who asks is not known: no credential, a wrong one, or one that ended."""


class Forbidden(Refused):
    """Who asks is known, and may not do this."""


class NotFound(Refused):
    """What the request names does not exist (or expired)."""


class Conflict(Refused):
    """The state of the game or the account refuses it now: a rule of the table."""


class TooMany(Refused):
    """A limit was reached: requests, failed logins, waiting requests."""


class Unavailable(Refused):
    """The service cannot do it now; the same request may succeed in a moment."""


def from_engine(kind: type[Refused], exc: Any) -> Refused:
    """The refusal of kind ``kind`` for an engine error (``HanabiError``): its code, its
    message id and values, so that it is translated like the table's own."""
    return kind(exc.code, exc.template, **exc.params)


def plural(count: Any, one: str, many: str | None = None) -> str:
    """``count`` and the noun that goes with it, in English ("1 second", "8 seconds"):
    for sentences not translated yet; a translated one uses :class:`.wording.Plural`."""
    return f"{count} {one if count == 1 else many or one + 's'}"
