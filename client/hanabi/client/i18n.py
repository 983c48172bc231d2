"""The terminal client's language: English, Simplified Chinese or Russian, with gettext.

Chosen by ``--lang`` (``en``, ``zh``, ``ru``...), else by the environment as gettext reads
it (``LANGUAGE``, then ``LC_ALL``, ``LC_MESSAGES``, ``LANG``: ``zh_CN.UTF-8`` is Chinese,
``ru_RU.UTF-8`` Russian, anything else English). The messages are the repository's
catalogues (``locale/*.po``), compiled into this package by ``make venv`` (docs/i18n.md):
this package carries its own copy, since it installs without the server. The server is
asked for the same language (``Accept-Language``), so its refusals read the same.
Names, chat and codes are never translated.
"""

from __future__ import annotations

import argparse
import gettext as _gettext
import os
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

LOCALE = Path(__file__).parent / "locale"
ENGLISH = "en"
#: Language tag -> the catalogue's directory.
CATALOGUES = {"en": "en", "zh-Hans": "zh_Hans", "ru": "ru"}
#: The environment variables that name the language, as gettext reads them.
ENVIRONMENT = ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG")

_current: _gettext.NullTranslations = _gettext.NullTranslations()
_tag = ENGLISH


def tag_of(name: str) -> str | None:
    """The tag a language name asks for (``zh_CN.UTF-8``, ``zh-Hans``, ``ru``), or None
    when not spoken here (``zh_TW`` and ``zh-Hant`` are the traditional script)."""
    lowered = name.split(".")[0].split("@")[0].strip().lower().replace("_", "-")
    if lowered in ("c", "posix", "en") or lowered.startswith("en-"):
        return ENGLISH
    if lowered == "ru" or lowered.startswith("ru-"):
        return "ru"
    if lowered == "zh" or lowered.startswith("zh-"):
        return None if lowered.startswith(("zh-tw", "zh-hk", "zh-mo", "zh-hant")) else "zh-Hans"
    return None


def choose(given: str | None, environ: Mapping[str, str] = os.environ) -> str:
    """The language: ``given`` (``--lang``) if spoken here, else the environment's."""
    if given:
        return tag_of(given) or ENGLISH
    for variable in ENVIRONMENT:
        value = environ.get(variable, "")
        if not value:
            continue
        for name in value.split(":"):  # LANGUAGE is a list
            tag = tag_of(name) if name else None
            if tag is not None:
                return tag
        return ENGLISH  # the first variable set decides, as in gettext
    return ENGLISH


def use(tag: str) -> None:
    """Speak ``tag`` from now on (argparse's own words too: usage, errors)."""
    global _current, _tag
    _tag = tag if tag in CATALOGUES else ENGLISH
    _current = _gettext.translation("hanabi", LOCALE, languages=[CATALOGUES[_tag]], fallback=True)
    argparse._ = gettext  # type: ignore[attr-defined]  # argparse's "usage:", "error:"...
    argparse.ngettext = ngettext  # type: ignore[attr-defined]


def language() -> str:
    """The tag spoken now (the ``Accept-Language`` the server is sent)."""
    return _tag


def gettext(message: str) -> str:
    return _current.gettext(message)


def ngettext(singular: str, plural: str, n: int) -> str:
    return _current.ngettext(singular, plural, n)


def _(message: str, /, **values: Any) -> str:
    """``message`` in the current language, its ``{name}`` placeholders filled."""
    text = _current.gettext(message)
    return text.format(**values) if values else text


def n_(singular: str, plural: str, n: int, /, **values: Any) -> str:
    """The form of a message with a count that ``n`` wants ("1 ход", "2 хода", "5 ходов");
    ``{n}`` is the count."""
    return _current.ngettext(singular, plural, n).format(n=n, **values)


def N_(message: str) -> str:
    """Mark ``message`` for the catalogue; it is translated where it is shown."""
    return message


def pre_parse(argv: Sequence[str]) -> str | None:
    """The ``--lang`` of a command line, read before the parser is built (its help is
    written in the language chosen)."""
    for i, word in enumerate(argv):
        if word == "--lang" and i + 1 < len(argv):
            return argv[i + 1]
        if word.startswith("--lang="):
            return word.split("=", 1)[1]
    return None


#: argparse's own sentences, so that the catalogue holds them (argparse asks gettext).
ARGPARSE = (
    N_("usage: "),
    N_("options"),
    N_("positional arguments"),
    N_("show this help message and exit"),
    N_("the following arguments are required: %s"),
    N_("unrecognized arguments: %s"),
    N_("%(prog)s: error: %(message)s\n"),
    N_("invalid choice: %(value)r (choose from %(choices)s)"),
    N_("expected one argument"),
    N_("argument %(argument_name)s: %(message)s"),
    N_("invalid %(type)s value: %(value)r"),
)


def pgettext(context: str, message: str) -> str:
    """``message`` in ``context`` ("suit", "colour": one English word said two ways)."""
    return _current.pgettext(context, message)
