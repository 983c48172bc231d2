"""The client installs on its own in a fresh environment of the Python the project names
(3.11, the one CI runs): its wheel, built from ./client as `pip install ./client` builds it
(PEP 517, in an isolated build environment), installs without hanabi-core (on no index),
`hanabi-client --help` runs, and `hanabi-client bot` says what to install; then the `bot`
extra with hanabi-core beside it brings the bots in. The environment is made without pip
(this run's pip installs into it with --python): the same packages, without the ten
seconds ensurepip takes, and one build of each wheel instead of three.
"""

from __future__ import annotations

import glob
import os
import shutil
import subprocess
import sys
from pathlib import Path

from hanabi.client.cli.bot import BOT_NEEDS_CORE
from hanabi.client.cli.strategies import INSTALL_BOTS

ROOT = Path(__file__).resolve().parents[2]


def interpreter(version: str) -> str:
    """A working ``pythonX.Y``: on PATH, else under pyenv (whose shims may refuse it)."""
    candidates = [shutil.which(f"python{version}")]
    pyenv = os.environ.get("PYENV_ROOT") or str(Path.home() / ".pyenv")
    candidates += sorted(glob.glob(f"{pyenv}/versions/{version}.*/bin/python{version}"))
    for exe in filter(None, candidates):
        probe = subprocess.run(
            [exe, "-c", "import sys; print('%d.%d' % sys.version_info[:2])"],
            capture_output=True,
            text=True,
        )
        if probe.returncode == 0 and probe.stdout.strip() == version:
            return exe
    raise AssertionError(f"no Python {version} on this machine: the client must be tried on it")


def run(*args: str | Path, cwd: Path = ROOT) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTHON", "VIRTUAL_ENV"))}
    return subprocess.run(
        [str(a) for a in args], cwd=cwd, env=env, capture_output=True, text=True, timeout=240
    )


def test_the_client_installs_on_its_own(tmp_path):
    version = "3.11"
    # From copies: a build leaves build/ behind, which must not go stale in the sources.
    skip = shutil.ignore_patterns("build", "*.egg-info", "__pycache__")
    for dist in ("client", "shared"):
        shutil.copytree(ROOT / dist, tmp_path / dist, ignore=skip)
    pip = (sys.executable, "-m", "pip")
    built = run(*pip, "wheel", "--quiet", "--no-deps", "./client", "./shared", "-w", "wheels",
                cwd=tmp_path)  # fmt: skip
    assert built.returncode == 0, built.stdout + built.stderr
    (client_wheel,) = (tmp_path / "wheels").glob("hanabi_client-*.whl")
    (core_wheel,) = (tmp_path / "wheels").glob("hanabi_core-*.whl")
    venv = tmp_path / "venv"
    made = run(interpreter(version), "-m", "venv", "--without-pip", venv)
    assert made.returncode == 0, made.stderr
    python, client = venv / "bin" / "python", venv / "bin" / "hanabi-client"
    into = (*pip, "--python", python)
    installed = run(*into, "install", "--quiet", client_wheel, cwd=tmp_path)
    assert installed.returncode == 0, installed.stdout + installed.stderr

    listed = run(*into, "list", "--format=freeze").stdout.lower()
    assert "hanabi-client==" in listed and "hanabi-core" not in listed
    assert "flask" not in listed and "redis" not in listed
    helped = run(client, "--help")
    assert helped.returncode == 0 and "create" in helped.stdout and "bot" in helped.stdout
    bot = run(client, "bot", "GAMEID", "--server", "http://127.0.0.1:9")
    assert (bot.returncode, bot.stderr) == (1, f"hanabi-client: {BOT_NEEDS_CORE}\n")
    # Its help says so too; create's names the command that asks the server.
    bot_help = run(client, "bot", "--help")
    assert bot_help.returncode == 0 and f"not installed here: {INSTALL_BOTS}" in bot_help.stdout
    create_help = run(client, "create", "--help")
    assert "hanabi-client strategies lists the server's" in create_help.stdout

    extra = run(*into, "install", "--quiet", f"{client_wheel}[bot]", core_wheel, cwd=tmp_path)
    assert extra.returncode == 0, extra.stdout + extra.stderr
    both = run(python, "-c", "import hanabi.bots, hanabi.client.bot; print('ok')")
    assert both.stdout == "ok\n", both.stderr
