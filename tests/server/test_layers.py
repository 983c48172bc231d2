"""The server keeps its shape (docs/architecture.md): three layers, api -> table -> storage,
with ops beside them, read from the code's own imports (every import, at the top of a
module or inside a function).

- storage imports nothing of the table or the API, the table nothing of the API, ops none
  of the three; only the composition (app.py) knows them all; no import cycle anywhere;
- the table and the storage are plain Python: no Flask, flask-restx, Werkzeug or other
  piece of the HTTP transport; the table reaches Redis only through the storage;
- no class has more than two bases (parts are composed, not mixed in);
- no game status is compared as a bare string: ``GameStatus`` says it.

(No module passes 600 lines, the server's nor any other: tests/test_module_sizes.py.)
"""

from __future__ import annotations

import ast
from functools import cache
from pathlib import Path

import hanabi.server

SERVER = Path(hanabi.server.__file__).parent
PACKAGE = "hanabi.server"
LAYERS = ("api", "table", "storage", "ops")
#: What each layer may not import.
FORBIDDEN = {
    "storage": {"table", "api", "app"},
    "table": {"api", "app"},
    "ops": {"table", "api", "storage", "app"},
    "api": {"app"},
}
TRANSPORT = ("flask", "flask_restx", "flask_cors", "flask_swagger_ui", "werkzeug", "marshmallow")
STATUSES = {"lobby", "playing", "finished"}


def module_name(path: Path) -> str:
    parts = list(path.relative_to(SERVER).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join([PACKAGE, *parts])


@cache
def modules() -> dict[str, Path]:
    return {module_name(path): path for path in sorted(SERVER.rglob("*.py"))}


def layer(module: str) -> str:
    rest = module[len(PACKAGE) + 1 :].split(".")
    return rest[0] if rest[0] in LAYERS else (rest[0] or "__init__")


def imports(module: str) -> set[str]:
    """Every module (of any package) that ``module`` imports, resolved to a full name."""
    path = modules()[module]
    package = module if path.name == "__init__.py" else module.rsplit(".", 1)[0]
    found = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                source = ".".join(base + ([node.module] if node.module else []))
            else:
                source = node.module or ""
            found.add(source)
            for alias in node.names:  # "from . import x": x may be a module
                if f"{source}.{alias.name}" in modules():
                    found.add(f"{source}.{alias.name}")
    return found


def server_imports(module: str) -> set[str]:
    return {m for m in imports(module) if m in modules() and m != module}


def test_the_scan_sees_the_layers() -> None:
    seen = {layer(m) for m in modules()}
    assert set(LAYERS) <= seen and "app" in seen
    assert "hanabi.server.storage.store" in server_imports("hanabi.server.table.writes")


def test_each_layer_imports_only_downwards() -> None:
    wrong = [
        f"{module} imports {target}"
        for module in modules()
        for target in server_imports(module)
        if layer(target) in FORBIDDEN.get(layer(module), set())
    ]
    assert wrong == []


def test_only_the_package_itself_reaches_for_the_composition() -> None:
    users = {m for m in modules() if "hanabi.server.app" in server_imports(m)}
    assert users == {PACKAGE}  # create_app, loaded when it is first asked for


def test_no_import_cycles() -> None:
    graph = {module: server_imports(module) for module in modules()}
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    cycles: list[list[str]] = []

    def visit(node: str) -> None:  # Tarjan's strongly connected components
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for target in graph[node]:
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in on_stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            component = []
            while True:
                top = stack.pop()
                on_stack.discard(top)
                component.append(top)
                if top == node:
                    break
            if len(component) > 1:
                cycles.append(sorted(component))

    for module in graph:
        if module not in index:
            visit(module)
    assert cycles == []


def test_the_table_and_the_storage_know_no_http() -> None:
    found = [
        f"{module} imports {target}"
        for module in modules()
        if layer(module) in ("table", "storage")
        for target in imports(module)
        if target.split(".")[0] in TRANSPORT
    ]
    assert found == []


def test_the_table_reaches_redis_through_the_storage() -> None:
    found = [
        f"{module} imports {target}"
        for module in modules()
        if layer(module) == "table"
        for target in imports(module)
        if target.split(".")[0] == "redis"
    ]
    assert found == []


def test_no_class_has_more_than_two_bases() -> None:
    found = [
        f"{module}.{node.name}"
        for module, path in modules().items()
        for node in ast.walk(ast.parse(path.read_text()))
        if isinstance(node, ast.ClassDef) and len(node.bases) > 2
    ]
    assert found == []


def test_no_status_is_compared_as_a_string() -> None:
    """``record.status == "lobby"`` would still work (GameStatus is a StrEnum) but hides
    what the string is: every comparison names the enum."""

    def bare(node: ast.AST) -> bool:
        if isinstance(node, ast.Constant):
            return node.value in STATUSES
        if isinstance(node, (ast.Tuple, ast.List, ast.Set)):
            return any(bare(item) for item in node.elts)
        return False

    found = [
        f"{path.relative_to(SERVER)}:{node.lineno}"
        for path in modules().values()
        for node in ast.walk(ast.parse(path.read_text()))
        if isinstance(node, ast.Compare) and any(bare(n) for n in (node.left, *node.comparators))
    ]
    assert found == []
