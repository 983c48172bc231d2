"""Words people understand (issue #44): no sentence the terminal client or the web client
shows mentions tokens or Bearer, in any language, and neither asks a person to type one.

A token is the programs' business (the API's credentials: a seat's token, a session, a
ticket); a person logs in, joins, or opens a link. The game's own "clue token" is a word
of the rules, not a credential, and stays. Checked: every message of the catalogue that
the client's or the web client's code says (its English and every translation), the web
client's compiled catalogues, every ``--help`` of the terminal client, and the sentences
both clients put in place of the server's refusals about credentials.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from hanabi.client import i18n
from hanabi.client.cli.entry import build_parser
from hanabi.client.errors import PLAIN
from no_english import parsers

ROOT = Path(__file__).resolve().parent
ROOT = ROOT.parent
LOCALE = ROOT / "locale"
WEB = ROOT / "server" / "hanabi" / "server" / "web"
#: Where the clients' own sentences live (paths as the catalogue's locations give them).
CLIENTS = ("client/hanabi/client/", "server/hanabi/server/web/")
#: A credential's name in each language's words (the catalogues translate "token" so).
CREDENTIAL = re.compile(r"token|bearer|токен|令牌|凭据令牌", re.IGNORECASE)
#: The rules' clue token, in each language, which is no credential.
CLUE_TOKEN = re.compile(
    r"clue[ -]tokens?|clue_tokens|提示标记|жетон\w* подсказ\w*|HANABI_\w+", re.IGNORECASE
)


def credential_words(text: str) -> list[str]:
    """The credential words of ``text`` once the rules' clue tokens are set aside."""
    return CREDENTIAL.findall(CLUE_TOKEN.sub("", text))


def test_the_check_tells_a_credential_from_a_clue_token() -> None:
    assert credential_words("Send the room's leader token as Bearer.") == ["token", "Bearer"]
    assert credential_words("Send 'Authorization: Bearer <token>'.") == ["Bearer", "token"]
    assert credential_words("У этого токена нет места в этой игре.") == ["токен"]
    assert credential_words("此令牌在这局中没有座位。") == ["令牌"]
    assert credential_words("No clue tokens left: play or discard.") == []
    assert credential_words("a clue costs a whole clue token") == []


def clients_messages() -> Iterator[tuple[str, str, str]]:
    """(language, id, text) of every message the clients' code says, in every language:
    the English id and each translation."""
    for lang in ("en", "ru", "zh_Hans"):
        with (LOCALE / lang / "LC_MESSAGES" / "hanabi.po").open("rb") as handle:
            catalog = read_po(handle, locale=lang)
        for message in catalog:
            if not message.id or not any(
                path.startswith(CLIENTS) for path, _line in message.locations
            ):
                continue
            ids = message.id if isinstance(message.id, tuple) else (message.id,)
            texts = message.string if isinstance(message.string, tuple) else (message.string,)
            for text in (*ids, *texts):
                if text:
                    yield lang, ids[0], text


def test_no_client_sentence_mentions_a_token() -> None:
    found = [
        f"{lang}: {mid!r} -> {text!r}"
        for lang, mid, text in clients_messages()
        if credential_words(text)
    ]
    assert not found, "sentences of the clients that speak of tokens:\n" + "\n".join(found)


def test_the_web_catalogues_and_page_mention_no_token() -> None:
    catalogues = sorted((WEB / "i18n").glob("*.json"))
    assert catalogues, "no web catalogue: make i18n-compile"
    for path in catalogues:
        messages = json.loads(path.read_text(encoding="utf-8"))["messages"]
        for mid, text in messages.items():
            for said in [mid, *(text if isinstance(text, list) else [text])]:
                assert not credential_words(said), (path.name, mid, said)
    page = re.sub(r"<[^>]*>", " ", (WEB / "index.html").read_text(encoding="utf-8"))
    assert not credential_words(page)


@pytest.mark.parametrize("tag", ["en", "ru", "zh-Hans"])
def test_no_help_of_the_terminal_client_mentions_a_token(tag: str) -> None:
    i18n.use(tag)
    try:
        for prog, parser in parsers(build_parser()):
            words = credential_words(parser.format_help())
            assert not words, (tag, prog, words)
    finally:
        i18n.use("en")


def test_the_servers_refusals_about_credentials_reach_people_in_their_words() -> None:
    # the terminal client and the web client say these codes in their own sentences,
    # whatever the server's (which speak to programs) say
    codes = {"auth_required", "invalid_auth", "account_required", "not_a_player", "seat_held"}
    assert codes <= set(PLAIN)
    web = (WEB / "api.js").read_text(encoding="utf-8")
    plain = re.search(r"const PLAIN = \{(.*?)\n\};", web, re.S)
    assert plain is not None
    assert codes <= set(re.findall(r"^\s*(\w+): ", plain.group(1), re.M))


def test_neither_client_asks_a_person_to_type_a_token() -> None:
    # no prompt, form field or option of either client takes a token
    for path in (ROOT / "client" / "hanabi" / "client").rglob("*.py"):
        text = path.read_text(encoding="utf-8")
        assert not re.search(r"--[\w-]*token", text), path
        assert not re.search(r"(input|getpass)\([^)]*token", text, re.I), path
    for path in WEB.glob("*.js"):
        text = path.read_text(encoding="utf-8")
        assert not re.search(r"name: \"[\w-]*token", text, re.I), path
        assert not re.search(r"prompt\(", text), path
