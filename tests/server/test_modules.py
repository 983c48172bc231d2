"""Each module of the server imports on its own, in a fresh interpreter's order: a script
or a tool that imports one (``hanabi.server.table.writes``, say) must not meet an import cycle
that the app's own import order happens to hide.

One interpreter loads the libraries the server uses (nothing of ``hanabi.server``),
then forks a child per module that imports that module first: each child starts as a fresh
interpreter would for ``hanabi``, without paying a whole start-up for Flask and redis."""

from __future__ import annotations

import pkgutil
import subprocess
import sys
import tempfile
from pathlib import Path

import hanabi.server

#: Imported before the forks: libraries, and hanabi-core (another distribution, which
#: imports nothing of the server); no ``hanabi.server`` module is loaded yet.
LIBRARIES = ("flask", "flask_restx", "marshmallow", "redis", "orjson", "gevent", "gunicorn",
             "prometheus_client", "babel", "yaml", "hanabi.game", "hanabi.bots")  # fmt: skip

SCRIPT = """
import importlib, os, sys
for library in {libraries!r}:
    try:
        importlib.import_module(library)
    except ImportError:
        pass
assert not [m for m in sys.modules if m.startswith('hanabi.server')], 'the server is loaded'
failed = []
for name in {names!r}:
    read, write = os.pipe()
    child = os.fork()
    if child == 0:
        os.close(read)
        try:
            importlib.import_module(name)
            said = b''
        except ImportError as exc:
            said = f'{{name}}: {{exc}}'.encode()
        os.write(write, said)
        os._exit(0)
    os.close(write)
    with os.fdopen(read, 'rb') as answer:
        said = answer.read().decode()
    _, status = os.waitpid(child, 0)
    if status != 0:
        said = said or f'{{name}}: the child ended with status {{status}}'
    if said:
        failed.append(said)
print('\\n'.join(failed))
"""


def test_every_server_module_imports_first() -> None:
    names = [m.name for m in pkgutil.walk_packages(hanabi.server.__path__, "hanabi.server.")]
    assert "hanabi.server.table.writes" in names
    script = SCRIPT.format(libraries=LIBRARIES, names=names)
    out = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=120, check=True
    )
    assert out.stdout.strip() == "", out.stdout


def test_a_cycle_is_found() -> None:
    """The check fails where it should: a module that imports one importing it back."""
    script = SCRIPT.format(libraries=LIBRARIES, names=["hanabi_cycle_a"])
    cycle = {
        "hanabi_cycle_a.py": "from hanabi_cycle_b import B\nA = 1\n",
        "hanabi_cycle_b.py": "from hanabi_cycle_a import A\nB = 2\n",
    }
    with tempfile.TemporaryDirectory() as where:
        for name, text in cycle.items():
            Path(where, name).write_text(text)
        out = subprocess.run(
            [sys.executable, "-c", script], capture_output=True, text=True, timeout=60,
            check=True, cwd=where, env={"PYTHONPATH": where},
        )  # fmt: skip
    assert "hanabi_cycle_a" in out.stdout and "circular import" in out.stdout, out.stdout
