"""Each module of the server imports on its own, in a fresh interpreter's order: a script
or a tool that imports one (``hanabi.server.table.writes``, say) must not meet an import cycle
that the app's own import order happens to hide."""

from __future__ import annotations

import pkgutil
import subprocess
import sys

import pytest

import hanabi.server

pytestmark = pytest.mark.once  # the same on any Redis: not run again on the cluster


def test_every_server_module_imports_first() -> None:
    names = [m.name for m in pkgutil.walk_packages(hanabi.server.__path__, "hanabi.server.")]
    assert "hanabi.server.table.writes" in names
    script = (
        "import importlib, sys\n"
        "failed = []\n"
        f"for name in {names!r}:\n"
        "    for loaded in [m for m in sys.modules if m.startswith('hanabi.server')]:\n"
        "        del sys.modules[loaded]\n"
        "    try:\n"
        "        importlib.import_module(name)\n"
        "    except ImportError as exc:\n"
        "        failed.append(f'{name}: {exc}')\n"
        "print('\\n'.join(failed))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=120, check=True
    )
    assert out.stdout.strip() == "", out.stdout
