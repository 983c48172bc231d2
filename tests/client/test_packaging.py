"""The client is a thin HTTP client: no Flask, no Redis, no server; the rules engine and
the bots (hanabi-core, pure Python) only for the bot command, as an extra."""

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


def test_distribution_depends_on_requests_and_rich_and_the_core_only_for_bots():
    """hanabi-core is on no index: the client installs without it; the bot extra has it."""
    needs = requires("hanabi-client") or []
    plain = sorted(r.split(">")[0].split("=")[0].strip() for r in needs if ";" not in r)
    assert plain == ["requests", "rich"]
    assert [r.replace(" ", "") for r in needs if ";" in r] == ['hanabi-core;extra=="bot"']
    core = requires("hanabi-core") or []
    assert [r for r in core if "extra ==" not in r] == []  # no third-party dependencies


def test_every_distribution_allows_python_3_11_to_3_13():
    import tomllib
    from pathlib import Path

    from packaging.specifiers import SpecifierSet

    root = Path(__file__).resolve().parents[2]
    for dist in ("shared", "server", "client"):
        project = tomllib.loads((root / dist / "pyproject.toml").read_text())["project"]
        allowed = SpecifierSet(project["requires-python"])
        assert all(v in allowed for v in ("3.11", "3.12", "3.13")), dist
        assert "3.10" not in allowed, dist


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
