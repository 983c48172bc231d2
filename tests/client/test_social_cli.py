"""The CLI's chat and friends parts that need no server: a line as printed (a mention of
you stands out), the commands acting as the logged-in account, and refusing to run
without one."""

from __future__ import annotations

import argparse

import pytest

from hanabi.client import cli
from hanabi.client.accounts import SavedSession, SessionStore
from hanabi.client.api import Client
from hanabi.client.cli.accounts import use_account
from hanabi.client.cli.common import Fail
from hanabi.client.cli.social import cmd_chat, cmd_follow, cmd_friends, cmd_mute, line_text

SERVER = "http://127.0.0.1:9"
LINE = {"seq": 7, "name": "bob", "text": "@ann a game?", "at": "2026-12-07T20:04:11.532Z",
        "mentions": ["ann"]}  # fmt: skip


def test_a_line_names_its_author_and_marks_a_mention_of_you() -> None:
    plain = line_text(LINE, "carl").plain
    assert "bob: @ann a game?" in plain and plain.endswith("#7")
    assert "(mentions you)" not in plain
    assert line_text(LINE, "ann").plain.endswith("(mentions you)")
    assert "(mentions you)" not in line_text(LINE, None).plain


@pytest.mark.parametrize(
    "argv",
    [["chat"], ["chat", "hi"], ["mute", "bob"], ["mutes"], ["follow", "bob"], ["friends"]],
)
def test_they_act_as_the_account(monkeypatch, tmp_path, argv) -> None:
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path))
    SessionStore().save(SavedSession(SERVER, "ann", "hs.secret", "2027-01-01T00:00:00Z"))
    client = Client(SERVER)
    assert use_account(cli.build_parser().parse_args(argv), client) == "ann"
    assert client.token == "hs.secret"


@pytest.mark.parametrize(
    ("command", "extra"),
    [(cmd_chat, {"command": "chat", "text": ["hi"]}), (cmd_mute, {"command": "mutes"}),
     (cmd_follow, {"command": "follow"}), (cmd_friends, {"command": "friends"})],
)  # fmt: skip
def test_they_need_an_account(command, extra) -> None:
    args = argparse.Namespace(me=None, json=False, room=None, report=None, username="bob",
                              follow=False, limit=20, text=[], **{k: v for k, v in extra.items() if k != "text"})  # fmt: skip
    args.text = extra.get("text", [])
    with pytest.raises(Fail, match="needs an account"):
        command(args, Client(SERVER), None)
