"""The message catalogues stay complete (docs/i18n.md): every message the code says is in
locale/hanabi.pot, every language translates every one of them (nothing empty, nothing
"fuzzy"), with the same placeholders as the English, and what the programs read (the
compiled .mo in the server and in the client, the web client's JSON) is built from the
.po sources as they are now.

When this fails after a change: ``make i18n``, translate what it left empty or fuzzy in
locale/zh_Hans and locale/ru, ``make i18n-compile``.
"""

from __future__ import annotations

import gettext
import io
import json
import re
from collections import Counter
from pathlib import Path

import pytest
from babel.messages.extract import extract_from_dir
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po

from hanabi.client import i18n as client_i18n
from hanabi.server.api import language as server_language

ROOT = Path(__file__).resolve().parent.parent
LOCALE = ROOT / "locale"
TRANSLATED = ("zh_Hans", "ru")
LANGUAGES = ("en", *TRANSLATED)
PACKAGES = (
    ROOT / "server" / "hanabi" / "server" / "locale",
    ROOT / "client" / "hanabi" / "client" / "locale",
)
WEB = ROOT / "server" / "hanabi" / "server" / "web" / "i18n"
AGAIN = "run `make i18n`, translate, then `make i18n-compile` (docs/i18n.md)"

#: {name} (str.format and the web's fill), %(name)s / %s / %r (argparse's own messages).
PLACEHOLDER = re.compile(r"\{\w*\}|%\(\w+\)[sdr]|%[sdr]")


def catalogue(lang: str):
    with (LOCALE / lang / "LC_MESSAGES" / "hanabi.po").open("rb") as handle:
        return read_po(handle, locale=lang)


def placeholders(text: str) -> Counter[str]:
    return Counter(PLACEHOLDER.findall(text))


def keywords() -> dict[str, tuple[int, ...] | None]:
    """The extraction keywords, as the Makefile gives them to pybabel."""
    makefile = (ROOT / "Makefile").read_text()
    kinds = re.search(r"\$\(foreach k,(.*?),-k \$\(k\):2\)", makefile, re.S)
    assert kinds, "the Makefile's KEYWORDS changed shape: update this test"
    found: dict[str, tuple[int, ...] | None] = {
        "_": None, "gettext": None, "N_": None, "ngettext": (1, 2), "n_": (1, 2),
        "pgettext": ((1, "c"), 2), "Words": None, "Phrase": None, "FieldMessage": None,
        "Plural": (2, 3),
    }  # fmt: skip
    for kind in kinds.group(1).replace("\\", " ").split():
        found[kind] = (2,)
    return found


def extracted() -> set[tuple[str | None, str]]:
    """(context, id) of every message the code says now, as `make i18n` extracts them."""
    found = set()
    for package in ("shared/hanabi", "server/hanabi", "client/hanabi"):  # as locale/babel.cfg
        method_map = [("server/web/**.js", "javascript"), ("**.py", "python")]
        for _file, _line, message, _comments, context in extract_from_dir(
            str(ROOT / package), method_map, keywords=keywords()
        ):
            singular = message[0] if isinstance(message, tuple) else message
            found.add((context, singular))
    return found


def ids(cat) -> set[tuple[str | None, str]]:
    return {(m.context, m.id[0] if isinstance(m.id, tuple) else m.id) for m in cat if m.id}


def test_the_template_holds_every_message_the_code_says() -> None:
    with (LOCALE / "hanabi.pot").open("rb") as handle:
        template = ids(read_po(handle))
    code = extracted()
    assert code - template == set(), f"messages missing from locale/hanabi.pot: {AGAIN}"
    assert template - code == set(), f"messages no longer said: {AGAIN}"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_language_has_every_message_of_the_template(lang: str) -> None:
    with (LOCALE / "hanabi.pot").open("rb") as handle:
        template = ids(read_po(handle))
    assert ids(catalogue(lang)) == template, f"locale/{lang} is not updated: {AGAIN}"


@pytest.mark.parametrize("lang", TRANSLATED)
def test_every_message_is_translated_and_none_is_fuzzy(lang: str) -> None:
    cat = catalogue(lang)
    missing, fuzzy = [], []
    for m in cat:
        if not m.id:
            continue
        forms = m.string if isinstance(m.string, tuple) else (m.string,)
        if not all(forms) or len(forms) != (cat.num_plurals if m.pluralizable else 1):
            missing.append(m.id)
        if m.fuzzy:
            fuzzy.append(m.id)
    assert missing == [], f"untranslated in locale/{lang}: {AGAIN}"
    assert fuzzy == [], f"fuzzy (guessed, to check) in locale/{lang}: {AGAIN}"


def test_english_guesses_nothing() -> None:
    """English is the ids themselves; an entry there is an override, never a guess."""
    assert [m.id for m in catalogue("en") if m.id and m.fuzzy] == []


@pytest.mark.parametrize("lang", LANGUAGES)
def test_translations_keep_the_placeholders(lang: str) -> None:
    unbalanced = []
    for m in catalogue(lang):
        if not m.id:
            continue
        if isinstance(m.id, tuple):
            wanted = placeholders(m.id[1])  # every form but English's "1 ..." says {n}
            for form in m.string:
                if form and placeholders(form) != wanted:
                    unbalanced.append((m.id[0], form))
        elif m.string and placeholders(m.string) != placeholders(m.id):
            unbalanced.append((m.id, m.string))
    assert unbalanced == []


def test_the_placeholder_check_catches_a_lost_or_renamed_placeholder() -> None:
    assert placeholders("{who} played {card}") != placeholders("{who} сыграл")
    assert placeholders("{who} played {card}") != placeholders("{who} сыграл {карту}")
    assert placeholders("usage: %s") == placeholders("用法：%s")


def compiled(lang: str) -> bytes:
    out = io.BytesIO()
    write_mo(out, catalogue(lang))
    return out.getvalue()


@pytest.mark.parametrize("lang", LANGUAGES)
def test_each_package_reads_the_same_catalogue_built_from_the_sources(lang: str) -> None:
    """The server and the client carry one copy each (the client installs without the
    server): both are the compile of the .po as it is now."""
    copies = [package / lang / "LC_MESSAGES" / "hanabi.mo" for package in PACKAGES]
    for copy in copies:
        assert copy.exists(), f"{copy} is missing: make i18n-compile"
    assert copies[0].read_bytes() == copies[1].read_bytes()
    assert copies[0].read_bytes() == compiled(lang), f"stale: make i18n-compile ({lang})"


@pytest.mark.parametrize(("lang", "tag"), [("en", "en"), ("zh_Hans", "zh-Hans"), ("ru", "ru")])
def test_the_web_catalogue_holds_every_message_of_the_web_client(lang: str, tag: str) -> None:
    web = json.loads((WEB / f"{tag}.json").read_text(encoding="utf-8"))
    wanted = set()
    for m in catalogue(lang):
        if m.id and any(str(place).endswith(".js") for place, _ in m.locations):
            singular = m.id[0] if isinstance(m.id, tuple) else m.id
            wanted.add(f"{m.context}\x04{singular}" if m.context else singular)
    assert set(web["messages"]) == wanted, f"stale: make i18n-compile ({tag})"
    assert web["messages"]["Your move"] == {"en": "Your move", "zh-Hans": "你的行动"}.get(
        tag, "Ваш ход"
    )


def test_the_web_knows_which_russian_form_each_plural_category_takes() -> None:
    """The browser picks a CLDR category with Intl.PluralRules; gettext's forms are
    one (1, 21), few (2-4, 22) and many (5-20, 11): the JSON maps one to the other."""
    ru = json.loads((WEB / "ru.json").read_text(encoding="utf-8"))
    assert ru["plural"]["one"] == 0 and ru["plural"]["few"] == 1 and ru["plural"]["many"] == 2
    assert ru["messages"]["{n} turn"] == ["{n} ход", "{n} хода", "{n} ходов"]
    # The leaderboards' counts (web/leaderboards.js) are plurals too, not "{n} bots".
    assert ru["messages"][" (+{n} bot)"] == [" (+{n} бот)", " (+{n} бота)", " (+{n} ботов)"]
    assert ru["messages"]["{n} player"] == ["{n} игрок", "{n} игрока", "{n} игроков"]
    zh = json.loads((WEB / "zh-Hans.json").read_text(encoding="utf-8"))
    assert set(zh["plural"].values()) == {0}


@pytest.mark.parametrize(
    ("n", "words"),
    [
        (1, "1 ход"),
        (2, "2 хода"),
        (5, "5 ходов"),
        (11, "11 ходов"),
        (21, "21 ход"),
        (22, "22 хода"),
    ],
)
def test_russian_plurals_by_ngettext(n: int, words: str) -> None:
    spoken = server_language.translations("ru")
    assert spoken.ngettext("{n} turn", "{n} turns", n).format(n=n) == words
    client_i18n.use("ru")
    try:
        assert client_i18n.n_("{n} turn", "{n} turns", n) == words
    finally:
        client_i18n.use("en")


def test_english_plurals_and_a_missing_catalogue_read_as_english() -> None:
    assert server_language.translations("en").ngettext("{n} turn", "{n} turns", 1) == "{n} turn"
    assert isinstance(
        gettext.translation("hanabi", PACKAGES[0], languages=["fr"], fallback=True),
        gettext.NullTranslations,
    )
