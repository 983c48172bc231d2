"""Each module of the server imports on its own, in a fresh interpreter's order: a script
or a tool that imports one (``hanabi.server.table.writes``, say) must not meet an import cycle
that the app's own import order happens to hide.

Read from the code: what runs at import (a module's imports outside its functions, and the
packages above it) makes no cycle among the server's modules, so no module can meet one
half-imported, whichever comes first. Run: the entry points that tools and gunicorn load
import first in a fresh interpreter's order. One interpreter loads the libraries the server
uses (nothing of ``hanabi.server``), then forks a child per module that imports that module
first. (A child for each of the 150 modules took 16 s; reading them takes a fraction of one.)"""

from __future__ import annotations

import ast
import pkgutil
import subprocess
import sys
import tempfile
from pathlib import Path

import hanabi.server
from import_cycles import cycles

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


#: The modules that tools and servers import first: the app, gunicorn's worker class and
#: settings (loaded by its master before any patching), and a service module a script uses.
ENTRY_POINTS = ("hanabi.server.app", "hanabi.server.ops.worker",
                "hanabi.server.ops.gunicorn_conf", "hanabi.server.table.writes")  # fmt: skip


def import_graph(root: Path, package: str) -> dict[str, set[str]]:
    """Each module of ``package`` (its files under ``root``) -> the package's modules that
    importing it runs first: its imports outside functions (``if TYPE_CHECKING:`` ones
    never run), and each package above it."""
    modules: dict[str, Path] = {}
    for path in root.rglob("*.py"):
        parts = [package, *path.relative_to(root).with_suffix("").parts]
        if parts[-1] == "__init__":
            parts.pop()
        modules[".".join(parts)] = path
    graph = {}
    for name, path in modules.items():
        here = name if path.name == "__init__.py" else name.rsplit(".", 1)[0]
        found = {".".join(name.split(".")[:i]) for i in range(1, name.count(".") + 1)}
        for node in at_import(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                found.update(alias.name for alias in node.names)
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    parent = here.split(".")[: here.count(".") + 2 - node.level]
                    base = ".".join(parent + ([node.module] if node.module else []))
                found.add(base)
                found.update(f"{base}.{alias.name}" for alias in node.names)
        graph[name] = {m for m in found if m in modules and m != name}
    return graph


def at_import(tree: ast.AST) -> list[ast.stmt]:
    """The import statements that run when the module is imported."""
    found, todo = [], [tree]
    while todo:
        node = todo.pop()
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
                continue
            if isinstance(child, ast.If) and "TYPE_CHECKING" in ast.unparse(child.test):
                todo.extend(child.orelse)
                continue
            if isinstance(child, (ast.Import, ast.ImportFrom)):
                found.append(child)
            todo.append(child)
    return found


def test_no_server_module_meets_an_import_cycle() -> None:
    root = Path(hanabi.server.__file__).parent
    graph = import_graph(root, "hanabi.server")
    names = {m.name for m in pkgutil.walk_packages(hanabi.server.__path__, "hanabi.server.")}
    assert names <= set(graph), "the scan misses modules"
    # the scan sees imports of every form: relative, from a package, of a package's module
    assert {
        "hanabi.server.storage.slots",
        "hanabi.server.ops.times",
        "hanabi.server.table",
    } <= graph["hanabi.server.table.writes"]
    assert "hanabi.server.api.games" in graph["hanabi.server.api.namespaces"]
    assert not cycles(graph), "\n".join(" -> ".join(c) for c in cycles(graph))


def test_the_entry_points_import_first() -> None:
    script = SCRIPT.format(libraries=LIBRARIES, names=ENTRY_POINTS)
    out = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=120, check=True
    )
    assert out.stdout.strip() == "", out.stdout


def test_a_cycle_is_found() -> None:
    """Both checks fail where they should: a module that imports one importing it back
    (in a function, or under ``if TYPE_CHECKING:``, an import runs later or never: no
    cycle)."""
    with tempfile.TemporaryDirectory() as where:
        package = Path(where, "pkg")
        package.mkdir()
        (package / "__init__.py").write_text("")
        (package / "a.py").write_text("from .b import B\nA = 1\n")
        (package / "b.py").write_text("from . import c\nB = 2\n")
        (package / "c.py").write_text("import pkg.a\n")
        (package / "d.py").write_text(
            "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from .e import E\n"
            "def f():\n    from .e import E\n"
        )
        (package / "e.py").write_text("from .d import f\nE = 3\n")
        assert cycles(import_graph(package, "pkg")) == [
            ["pkg.a", "pkg.b", "pkg.c", "pkg.a"],
            ["pkg.b", "pkg.c", "pkg.a", "pkg.b"],
            ["pkg.c", "pkg.a", "pkg.b", "pkg.c"],
        ]
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
