"""What the no-English audits share (docs/i18n.md, "The no-English audit"): the words that
stay English on purpose, how a text's English words are found, and which language each
live audit walks in `make test`.
``tests/client/test_cli_no_english.py`` reads the help, ``tests/e2e/test_cli_live_no_english.py``
what the commands print against a live server."""

from __future__ import annotations

import argparse
import re
from collections.abc import Iterable, Iterator

import pytest

#: Names that stay as they are: the program and the game, the service's wire words.
KEPT = {"hanabi", "client", "Hanabi", "hanab", "live", "json", "JSON", "API", "URL", "HTTP",
        "HTTPS", "REST", "Bearer", "Webhook", "webhook", "HMAC", "SHA", "stdin", "stdout",
        "lobby", "hanabot",
        "start",  # the table prompt's command ("start watch")
        "n", "q"}  # the keys of the watch screen  # fmt: skip
WORD = re.compile(r"[A-Za-z]+(?:'[A-Za-z]+)*")
#: Flags, environment variables, addresses, paths, codes (words with digits or "_").
CODE = re.compile(
    r"--?[\w-]+|\b[a-z]-[a-z]\b|\$\w+|https?://\S*|[\w.-]*/[\w./{}<>-]+|\b\w*[\d_]\w*\b|`[^`]*`"
    # a game's or a room's id (12 or 14 of letters and digits) that drew no digit
    r"|\b(?=\w*[A-Z])(?=\w*[a-z])[A-Za-z]{12,14}\b"
)


def english(
    text: str, typed: set[str], names: Iterable[str] = (), kept: set[str] = KEPT
) -> set[str]:
    """The English words of ``text``: not in ``kept`` (:data:`KEPT`) nor ``typed`` (single
    words that stay wherever they are), not in capitals, not in codes, and not part of
    ``names`` (whole names from the data: "Up or Down (5 Suits)" is a name, its "or" is
    not)."""
    for name in sorted(names, key=len, reverse=True):  # "Rainbow (6 Suits)" before "Rainbow"
        if name in text:
            end = r"(?![A-Za-z])" if name[-1:].isalpha() else ""
            text = re.sub(rf"(?<![A-Za-z0-9]){re.escape(name)}{end}", " ", text)
    text = CODE.sub(" ", text)
    return {w for w in WORD.findall(text) if w not in kept | typed and not w.isupper()}


def parsers(parser: argparse.ArgumentParser) -> Iterator[tuple[str, argparse.ArgumentParser]]:
    """``parser`` and each of its subcommands' parsers, nested ones too, by their prog."""
    yield parser.prog, parser
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for child in dict.fromkeys(action.choices.values()):
                yield from parsers(child)


def in_short_form(request: pytest.FixtureRequest, lang: str, audited: str) -> None:
    """`make test` walks each live surface in one language, ``audited`` (the web pages in
    Chinese, the commands in Russian, the lobby and rooms in Chinese: both languages on
    both clients); tests/test_i18n_catalogues.py checks that each catalogue is whole, and
    English that skips the catalogue shows in either language. ``pytest -m slow`` walks
    every surface in both."""
    if lang != audited and "slow" not in (request.config.getoption("markexpr") or ""):
        pytest.skip(f"the {lang} walk of this surface: pytest -m slow")
