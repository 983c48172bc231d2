"""The engine's modules import one another without a cycle, deferred imports included
(an import inside a function hides a cycle from the first import, not from a reader):
only ``if TYPE_CHECKING:`` imports, which never run, may point back."""

from __future__ import annotations

import ast
from pathlib import Path

import hanabi.game
from import_cycles import cycles

ROOT = Path(hanabi.game.__file__).parent


def imports(path: Path, modules: set[str]) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    typing_only = {
        id(inner)
        for node in ast.walk(tree)
        if isinstance(node, ast.If) and getattr(node.test, "id", None) == "TYPE_CHECKING"
        for inner in ast.walk(node)
    }
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.level == 1 and id(node) not in typing_only:
            names = [node.module.split(".")[0]] if node.module else [a.name for a in node.names]
            found.update(n for n in names if n in modules and n != path.stem)
    return found


def test_the_engine_has_no_import_cycle() -> None:
    modules = {p.stem for p in ROOT.glob("*.py") if p.stem != "__init__"}
    graph = {m: imports(ROOT / f"{m}.py", modules) for m in modules}
    assert graph["game"] and graph["catalogue"]  # the walk sees the imports
    found = cycles(graph)
    assert not found, " ; ".join(" -> ".join(c) for c in found)
