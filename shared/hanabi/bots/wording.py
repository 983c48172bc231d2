"""The strategies' descriptions in the reader's language.

A strategy's ``description`` is a message id of the catalogues (docs/i18n.md): marked here
with ``N_`` so that ``make i18n`` extracts it, translated by whoever shows it (the server's
``GET /strategies`` and refusals per ``Accept-Language``, the terminal client's help).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any


def N_(msgid: str) -> str:
    """Mark ``msgid`` for extraction; it is translated where it is shown."""
    return msgid


class StrategyList:
    """Every strategy and its description (``"conventions: human-style ...; hat: ..."``),
    said in the reader's language when rendered; ``str()`` is the English."""

    def render(self, gettext: Callable[[str], str], ngettext: Any = None) -> str:
        from .registry import STRATEGIES

        return "; ".join(f"{name}: {gettext(cls.description)}" for name, cls in STRATEGIES.items())

    def __str__(self) -> str:
        return self.render(str)

    def __format__(self, spec: str) -> str:
        return format(str(self), spec)
