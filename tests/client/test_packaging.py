"""The client is a thin HTTP client: no Flask, no Redis, no server, no rules engine."""

from __future__ import annotations

import subprocess
import sys
from importlib.metadata import requires


def test_client_imports_nothing_of_the_server_or_engine():
    code = (
        "import sys\n"
        "import hanabi.client.api, hanabi.client.cli, hanabi.client.session\n"
        "bad = [m for m in sys.modules if m.split('.')[0] in ('flask', 'redis', 'werkzeug')\n"
        "       or m.startswith(('hanabi.server', 'hanabi.game', 'hanabi.bots'))]\n"
        "print(','.join(bad))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == ""


def test_distribution_depends_on_requests_and_rich_only():
    names = sorted(
        r.split(";")[0].split(">")[0].split("=")[0].strip() for r in requires("hanabi-client") or []
    )
    assert names == ["requests", "rich"]


def test_console_script_runs():
    out = subprocess.run(
        [sys.executable, "-m", "hanabi.client.cli", "--help"], capture_output=True, text=True
    )
    assert out.returncode == 0
    for command in ("create", "list", "join", "watch", "export", "replay"):
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
