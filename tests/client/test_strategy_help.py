"""The bot strategies in --help say what the bots' registry says (the text the server's
GET /strategies serves), and the registry is imported only for a help that lists them."""

from __future__ import annotations

import subprocess
import sys

import pytest

from hanabi.bots import DEFAULT_STRATEGY, STRATEGIES
from hanabi.client.cli import main


def helped(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    with pytest.raises(SystemExit) as done:
        main([*argv, "--help"])
    assert done.value.code == 0
    return " ".join(capsys.readouterr().out.split())  # argparse wraps to the terminal


@pytest.mark.parametrize("command", ["bot", "create"])
def test_help_describes_each_strategy_as_the_registry_does(capsys, command):
    text = helped(capsys, command)
    for name, cls in STRATEGIES.items():
        head = f"{name} (the default)" if name == DEFAULT_STRATEGY else name
        assert f"{head}: {' '.join(cls.description.split())}" in text
    # Not the text from before API bots said what they play (two API hat bots play hat).
    assert "count as people" not in text
    if command == "create":
        assert "hanabi-client strategies lists the server's" in text


IMPORTS = (
    "import sys\n"
    "from hanabi.client.cli import main\n"
    "try:\n"
    "    main({argv!r})\n"
    "except SystemExit:\n"
    "    pass\n"
    "print('hanabi.bots' in sys.modules)\n"
)


@pytest.mark.parametrize(
    ("argv", "imports"),
    [(["watch", "--help"], False), (["--help"], False), (["bot", "--help"], True)],
)
def test_only_a_help_that_lists_the_strategies_imports_the_bots(argv, imports):
    code = IMPORTS.format(argv=argv)
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.splitlines()[-1] == str(imports)
