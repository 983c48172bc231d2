"""The CLI's turn-based parts that need no server: ``--move-clock`` durations, how long is
left, and ``turns``/``webhook`` refusing to run without an account."""

from __future__ import annotations

import argparse

import pytest

from hanabi.client import cli
from hanabi.client.api import Client
from hanabi.client.cli.common import Fail
from hanabi.client.cli.turns import cmd_turns, cmd_webhook, duration, move_clock

DURATIONS = [("36h", 36 * 3600), ("2d", 2 * 86400), ("90m", 5400), ("0.5d", 43200)]


@pytest.mark.parametrize(("text", "seconds"), [*DURATIONS, ("7200", 7200), (" 3H ", 3 * 3600)])
def test_move_clock_durations(text: str, seconds: int) -> None:
    assert move_clock(text) == seconds


@pytest.mark.parametrize("text", ["soon", "h", "-2d", "0", ""])
def test_move_clock_refuses_what_is_no_duration(text: str) -> None:
    with pytest.raises(argparse.ArgumentTypeError):
        move_clock(text)


def test_create_takes_a_move_clock() -> None:
    args = cli.build_parser().parse_args(["create", "--move-clock", "2d"])
    assert args.move_clock == 2 * 86400
    with pytest.raises(SystemExit):
        cli.build_parser().parse_args(["create", "--move-clock", "whenever"])


def test_durations_read_short() -> None:
    assert [duration(s) for s in (30, 600, 3600, 5400, 86400, 90000, -5)] == [
        "30s", "10m", "1h", "1h 30m", "1d", "1d 1h", "0s"]  # fmt: skip


@pytest.mark.parametrize("command", [cmd_turns, cmd_webhook])
def test_turns_and_webhook_need_an_account(command) -> None:
    args = argparse.Namespace(me=None, json=False, limit=5, action="show", url=None)
    with pytest.raises(Fail, match="needs an account"):
        command(args, Client("http://127.0.0.1:9"), None)
