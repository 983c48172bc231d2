"""How the service says no: :class:`Refused`, and the kinds of no it knows.

A rule of the table refuses a request by raising a ``Refused``: a stable ``code`` for
programs, a ``detail`` sentence for people (it never holds hidden information: engine
messages are written to be safe to show the acting seat), and the facts an answer needs
(``retry_after``: seconds to wait; ``errors``: what was wrong, per field). Its class says
what kind of no it is. The service speaks no HTTP: the one table that gives each code its
HTTP status is :mod:`hanabi.server.api.refusals`.
"""

from __future__ import annotations

from typing import Any


class Refused(Exception):
    """A request the service turns down; nothing was changed."""

    def __init__(self, code: str, detail: str, **facts: Any) -> None:
        super().__init__(detail)
        self.code = code
        self.detail = detail
        self.facts = facts


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


def plural(count: Any, one: str, many: str | None = None) -> str:
    """``count`` and the noun that goes with it, for detail sentences: "1 second", "8
    seconds" (``many``: a plural not made with "s")."""
    return f"{count} {one if count == 1 else many or one + 's'}"
