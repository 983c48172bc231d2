"""The client's house rules, read from its source with ``ast``: no module passes 600 lines,
its modules import each other in one direction only (no cycle, counting imports made for
type hints or inside functions: either is a tie a reader has to follow), and no class has
more than two bases."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2] / "client" / "hanabi" / "client"
PACKAGE = "hanabi.client"
MAX_LINES = 600
MAX_BASES = 2


def modules() -> dict[str, Path]:
    """Every module of the client by dotted name (a package by its own name)."""
    found = {}
    for path in sorted(ROOT.rglob("*.py")):
        parts = list(path.relative_to(ROOT).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        found[".".join([PACKAGE, *parts])] = path
    return found


def imported(name: str, path: Path, known: dict[str, Path]) -> Iterator[str]:
    """The client modules that module ``name`` imports, anywhere in it."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.rsplit(".", node.level - 1)[0] if node.level > 1 else package
                base = f"{base}.{node.module}" if node.module else base
            else:
                base = node.module or ""
            # ``from . import words, codes`` imports modules; ``from .api import Client``
            # takes a name from one.
            targets = [f"{base}.{alias.name}" for alias in node.names]
            targets = [t for t in targets if t in known] or [base]
        else:
            continue
        yield from (target for target in targets if target in known and target != name)


def import_graph() -> dict[str, set[str]]:
    known = modules()
    return {name: set(imported(name, path, known)) for name, path in known.items()}


def find_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One cycle of ``graph`` as a path that returns to its start, or None."""
    state: dict[str, int] = {}  # 1: on the current path, 2: done
    path: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        path.append(node)
        for nxt in sorted(graph[node]):
            if state.get(nxt) == 1:
                return [*path[path.index(nxt) :], nxt]
            if nxt not in state and (found := visit(nxt)):
                return found
        path.pop()
        state[node] = 2
        return None

    for start in sorted(graph):
        if start not in state and (found := visit(start)):
            return found
    return None


def crowded_classes(source: str) -> list[str]:
    """The classes in ``source`` with more than two bases (``metaclass=`` is no base)."""
    return [
        f"{node.lineno} {node.name}"
        for node in ast.walk(ast.parse(source))
        if isinstance(node, ast.ClassDef) and len(node.bases) > MAX_BASES
    ]


def test_the_checks_read_what_they_should():
    """A known import is seen, a made-up cycle is found, a crowded class is named."""
    graph = import_graph()
    assert f"{PACKAGE}.errors" in graph[f"{PACKAGE}.api"]
    assert {f"{PACKAGE}.cli.create", f"{PACKAGE}.cli.bot"} <= graph[f"{PACKAGE}.cli.entry"]
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert find_cycle({"a": {"b"}, "b": set()}) is None
    assert crowded_classes("class A(B, C, D): pass\nclass E(F, G, metaclass=H): pass") == ["1 A"]


def test_no_client_module_passes_600_lines():
    long = {
        str(path.relative_to(ROOT)): lines
        for path in modules().values()
        if (lines := len(path.read_text(encoding="utf-8").splitlines())) > MAX_LINES
    }
    assert long == {}, f"split these by concept: {long}"


def test_the_client_modules_import_each_other_without_a_cycle():
    cycle = find_cycle(import_graph())
    assert cycle is None, "import cycle: " + " -> ".join(cycle or [])


def test_no_client_class_has_more_than_two_bases():
    crowded = [
        f"{path.relative_to(ROOT)}:{where}"
        for path in modules().values()
        for where in crowded_classes(path.read_text(encoding="utf-8"))
    ]
    assert crowded == []
