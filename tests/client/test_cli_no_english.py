"""No English in the terminal client's help and argparse's own words (issue #40): every
subcommand's ``--help`` and the main ``--help``, and an error of argparse's, with
``--lang ru`` and ``--lang zh``, flag any English word beyond what stays English on
purpose (docs/i18n.md, "The no-English audit"): metavars (NAME, FILE, N: capitals),
command names and option flags (what a person types), environment variables, addresses,
and the words of :data:`no_english.KEPT` (shared with the live audit)."""

from __future__ import annotations

import argparse
from collections.abc import Iterator

import pytest

from hanabi.bots import STRATEGIES
from hanabi.client import i18n
from hanabi.client.cli import main
from hanabi.client.cli.entry import build_parser
from hanabi.game import catalogue
from no_english import WORD, english, parsers


@pytest.fixture(autouse=True)
def english_after() -> Iterator[None]:
    yield
    i18n.use("en")


@pytest.mark.parametrize("tag", ["ru", "zh-Hans"])
def test_no_english_in_the_help(tag: str, capsys: pytest.CaptureFixture[str]) -> None:
    i18n.use(tag)
    root = build_parser()
    found: dict[str, set[str]] = {}
    every = list(parsers(root))
    # What a person types stays as typed: the commands' names, the arguments' names, the
    # choices an option takes, the --lang tags, the strategies' names and the words of
    # hanab.live's suit names (--suit filters by them).
    typed = {w for prog, _ in every for w in prog.split()}
    for _, p in every:
        for a in p._actions:
            typed |= set(WORD.findall(str(a.metavar or a.dest)))
            if a.choices and not isinstance(a, argparse._SubParsersAction):
                typed |= {str(c) for c in a.choices}
    typed |= {w for tag in i18n.CATALOGUES for w in WORD.findall(tag.lower())}
    typed |= set(STRATEGIES)
    typed |= {
        w.lower() for v in catalogue.variants() for s in v.suits for w in WORD.findall(s.name)
    }
    for prog, parser in every:
        words = english(parser.format_help(), typed)
        if words:
            found[prog] = words
    # argparse's own words in an error: a required argument left out
    with pytest.raises(SystemExit):
        main(["--lang", "zh" if tag == "zh-Hans" else tag, "join"])
    words = english(capsys.readouterr().err, typed)
    if words:
        found["an error"] = words
    assert not found, "\n".join(f"{prog}: {sorted(words)}" for prog, words in found.items())
