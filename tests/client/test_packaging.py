"""The client is a thin HTTP client: no Flask, no Redis, no server; the rules engine and
the bots (hanabi-core, pure Python) only for the bot command."""

from __future__ import annotations

import subprocess
import sys
from importlib.metadata import requires

IMPORTED = (
    "import sys\n"
    "import {modules}\n"
    "bad = [m for m in sys.modules if m.split('.')[0] in ('flask', 'redis', 'werkzeug')\n"
    "       or m.startswith(({forbidden}))]\n"
    "print(','.join(bad))\n"
)


def imported(modules: str, forbidden: tuple[str, ...]) -> str:
    code = IMPORTED.format(modules=modules, forbidden=", ".join(map(repr, forbidden)) + ",")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    return out.stdout.strip()


def test_client_imports_nothing_of_the_server_or_engine():
    modules = "hanabi.client.api, hanabi.client.cli, hanabi.client.session"
    assert imported(modules, ("hanabi.server", "hanabi.game", "hanabi.bots")) == ""


def test_only_the_bot_command_imports_the_bots_and_never_the_server():
    assert imported("hanabi.client.bot", ("hanabi.server",)) == ""
    code = "import sys, hanabi.client.bot\nprint('hanabi.bots' in sys.modules)\n"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "True"


def test_distribution_depends_on_requests_rich_and_the_pure_python_core():
    names = sorted(
        r.split(";")[0].split(">")[0].split("=")[0].strip() for r in requires("hanabi-client") or []
    )
    assert names == ["hanabi-core", "requests", "rich"]
    core = requires("hanabi-core") or []
    assert [r for r in core if "extra ==" not in r] == []  # no third-party dependencies


def test_console_script_runs():
    out = subprocess.run(
        [sys.executable, "-m", "hanabi.client.cli", "--help"], capture_output=True, text=True
    )
    assert out.returncode == 0
    for command in ("create", "list", "join", "bot", "watch", "export", "replay"):
        assert command in out.stdout


def test_game_ids_may_begin_with_a_dash():
    """Ids are URL-safe base64: "-8QusAIMpE_D" is an id, not an option."""
    from hanabi.client.cli import build_parser, main

    assert build_parser().parse_known_args(["join", "-8QusAIMpE_D", "--name", "bob"])[1] == [
        "-8QusAIMpE_D"
    ]
    for argv in (["join"], ["watch", "a", "b"]):
        try:
            main(argv)
        except SystemExit as exc:
            assert exc.code == 2
        else:
            raise AssertionError(f"{argv} should be a usage error")
