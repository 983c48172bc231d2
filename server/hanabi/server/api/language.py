"""The reader's language: chosen from ``Accept-Language``, spoken with gettext.

The service speaks English, Simplified Chinese and Russian (docs/i18n.md). A request's
language is the first of its ``Accept-Language`` ranges (by quality) that names one of them:
``zh``, ``zh-CN``, ``zh-SG`` and ``zh-Hans`` are Simplified Chinese (``zh-TW``, ``zh-HK`` and
``zh-Hant`` are not, and pass on to the next range); anything else is English. Messages
come from the compiled catalogues (``locale/<dir>/LC_MESSAGES/hanabi.mo`` in this package,
built from the repository's ``locale/*.po`` by ``make venv``); a missing catalogue or message
reads as English. Only the service's own sentences are translated: codes, names and chat
never are.
"""

from __future__ import annotations

import gettext
from functools import cache
from pathlib import Path

from flask import Response, request

from ..table.wording import N_, Plural, Words

LOCALE = Path(__file__).parent.parent / "locale"
ENGLISH = "en"
#: Language tag (Content-Language) -> the catalogue's directory.
CATALOGUES = {"en": "en", "zh-Hans": "zh_Hans", "ru": "ru"}
#: Chinese ranges that mean the traditional script (no catalogue for them).
TRADITIONAL = ("zh-tw", "zh-hk", "zh-mo", "zh-hant")


def tag_of(range_: str) -> str | None:
    """The language tag an Accept-Language range asks for, or None when not spoken here."""
    lowered = range_.strip().lower().replace("_", "-")
    if lowered == "*" or lowered == "en" or lowered.startswith("en-"):
        return ENGLISH
    if lowered == "ru" or lowered.startswith("ru-"):
        return "ru"
    if lowered == "zh" or lowered.startswith("zh-"):
        return None if lowered.startswith(TRADITIONAL) else "zh-Hans"
    return None


def negotiate(header: str | None) -> str:
    """The language of an ``Accept-Language`` header's value (English by default)."""
    ranges = []
    for position, part in enumerate((header or "").split(",")):
        name, _, params = part.partition(";")
        quality = 1.0
        for param in params.split(";"):
            key, _, value = param.strip().partition("=")
            if key == "q":
                try:
                    quality = float(value)
                except ValueError:
                    quality = 0.0
        if name.strip() and quality > 0:
            ranges.append((-quality, position, name))
    for _quality, _position, name in sorted(ranges):
        tag = tag_of(name)
        if tag is not None:
            return tag
    return ENGLISH


@cache
def translations(tag: str) -> gettext.NullTranslations:
    """The compiled catalogue of ``tag`` (English's own, or none: the ids are English)."""
    return gettext.translation(
        "hanabi", LOCALE, languages=[CATALOGUES.get(tag, ENGLISH)], fallback=True
    )


def current() -> str:
    """The language of the request being handled."""
    return negotiate(request.headers.get("Accept-Language"))


def say(words: Words | Plural | str, tag: str) -> str:
    """``words`` in the language ``tag``: a plain string is a message id without values;
    anything with ``render(gettext, ngettext)`` renders itself."""
    spoken = translations(tag)
    if not hasattr(words, "render"):
        return spoken.gettext(words)
    return words.render(spoken.gettext, spoken.ngettext)


def label(response: Response, tag: str) -> Response:
    """Say which language ``response`` speaks and that it depends on Accept-Language."""
    response.headers["Content-Language"] = tag
    response.vary.add("Accept-Language")
    return response


def too_many_connections(
    accept_language: str | None, cap: int, seconds: int
) -> tuple[str, str, str]:
    """The 429 gunicorn's worker answers before the app sees a request (too many
    connections from one address: :mod:`hanabi.server.ops.worker`), as (title, detail,
    language tag) in the language of its ``Accept-Language``."""
    tag = negotiate(accept_language)
    detail = Words(
        "Too many connections from this address are open at once (at most {cap} to each "
        "server process); close some, or try again in {seconds} s.",
        cap=cap,
        seconds=seconds,
    )
    return say(N_("Too Many Requests"), tag), say(detail, tag), tag
