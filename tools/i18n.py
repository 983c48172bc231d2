"""Publish the compiled message catalogues where each program reads them.

The sources are one set of gettext catalogues, ``locale/<lang>/LC_MESSAGES/hanabi.po``
(``make i18n`` extracts and updates them; docs/i18n.md). ``pybabel compile`` turns each
into a ``.mo`` beside it; this script then copies that same file into every package that
speaks (the server and the terminal client: the client installs without the server or the
engine, so each carries its own copy), writes the web client's catalogue per language
(``web/i18n/<tag>.json``: the messages the web client's modules use, and which plural form
each CLDR plural category takes) and copies the rules in each language beside it.

    python tools/i18n.py publish     # after pybabel compile (make i18n-compile does both)
"""

from __future__ import annotations

import gettext
import json
import shutil
import sys
from pathlib import Path

from babel import Locale
from babel.messages.pofile import read_po

ROOT = Path(__file__).resolve().parent.parent
LOCALE = ROOT / "locale"
DOMAIN = "hanabi"
#: Catalogue directory -> the language tag the programs and the web use.
LANGUAGES = {"en": "en", "zh_Hans": "zh-Hans", "ru": "ru"}
#: Every package that reads the catalogues, with the directory it reads them from.
PACKAGES = (
    ROOT / "server" / "hanabi" / "server" / "locale",
    ROOT / "client" / "hanabi" / "client" / "locale",
)
WEB = ROOT / "server" / "hanabi" / "server" / "web" / "i18n"
#: The rules, per catalogue directory (the web client's help links them).
RULES = {"en": "rules.md", "zh_Hans": "rules.zh.md", "ru": "rules.ru.md"}


def po_path(lang: str) -> Path:
    return LOCALE / lang / "LC_MESSAGES" / f"{DOMAIN}.po"


def plural_forms(lang: str, plural_expr: str) -> dict[str, int]:
    """CLDR plural category -> the index of the gettext form for it: the browser picks a
    category with ``Intl.PluralRules`` and this tells it which ``msgstr[i]`` to show."""
    locale = Locale.parse(lang)
    formula = gettext.c2py(plural_expr)
    forms: dict[str, int] = {}
    for n in range(200):
        forms.setdefault(locale.plural_form(n), formula(n))
    forms.setdefault("other", formula(5))
    return forms


def web_catalogue(lang: str) -> dict[str, object]:
    """The messages of the web client's modules in ``lang``: id -> text, or the list of
    plural forms for a message with a plural (an empty translation is the id itself)."""
    with po_path(lang).open("rb") as handle:
        catalog = read_po(handle, locale=lang)
    messages: dict[str, object] = {}
    for message in catalog:
        if not message.id or message.fuzzy:
            continue
        if not any(str(place).endswith(".js") for place, _ in message.locations):
            continue
        singular = message.id[0] if isinstance(message.id, tuple) else message.id
        # gettext's key of a message in a context: "context\x04id" (the page's pgettext).
        key = f"{message.context}\x04{singular}" if message.context else singular
        if isinstance(message.id, tuple):
            forms = list(message.string) if any(message.string) else list(message.id)
            messages[key] = forms
        else:
            messages[key] = message.string or message.id
    return {
        "lang": LANGUAGES[lang],
        "plural": plural_forms(lang, catalog.plural_expr),
        "messages": dict(sorted(messages.items())),
    }


def publish() -> None:
    for lang, tag in LANGUAGES.items():
        compiled = po_path(lang).with_suffix(".mo")
        if not compiled.exists():
            sys.exit(f"{compiled} is missing: run pybabel compile first (make i18n-compile)")
        for package in PACKAGES:
            target = package / lang / "LC_MESSAGES" / f"{DOMAIN}.mo"
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(compiled, target)
        WEB.mkdir(parents=True, exist_ok=True)
        text = json.dumps(web_catalogue(lang), ensure_ascii=False, indent=0, sort_keys=True)
        (WEB / f"{tag}.json").write_text(text + "\n", encoding="utf-8")
        shutil.copyfile(ROOT / "docs" / RULES[lang], WEB / f"rules.{tag}.md")


if __name__ == "__main__":
    if sys.argv[1:] != ["publish"]:
        sys.exit(__doc__)
    publish()
