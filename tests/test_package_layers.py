"""The shared packages and the client keep their shape, as the server does
(tests/server/test_layers.py), read from the code's own imports (every import, at the top
of a module or inside a function; ``if TYPE_CHECKING:`` ones too):

- the engine (``hanabi.game``) imports nothing of the bots, the server or the client;
- the bots (``hanabi.bots``) import, of this project, only the engine;
- the client imports nothing of the server, nor Flask, Werkzeug or Redis (it speaks to a
  server over HTTP only);
- no class mixes parts in: a class has at most one base that is not an exception, an
  enum, a typing construct or ``object`` (parts are held as attributes: the conventions
  bot holds its reading, trust, finesses and clue choice; a search bot holds its search).
"""

from __future__ import annotations

import ast
from functools import cache
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
#: package -> its directory
PACKAGES = {
    "hanabi.game": ROOT / "shared" / "hanabi" / "game",
    "hanabi.bots": ROOT / "shared" / "hanabi" / "bots",
    "hanabi.client": ROOT / "client" / "hanabi" / "client",
}
#: package -> the top-level names of what it may not import
FORBIDDEN = {
    "hanabi.game": ("hanabi.bots", "hanabi.server", "hanabi.client"),
    "hanabi.bots": ("hanabi.server", "hanabi.client", "flask", "werkzeug", "redis"),
    "hanabi.client": ("hanabi.server", "flask", "flask_restx", "werkzeug", "redis"),
}
#: of this project, what the bots may import besides themselves
BOTS_MAY_USE = ("hanabi.game",)
#: bases that do not make a class a mix of parts
PLAIN_BASES = {
    "object", "ABC", "Protocol", "Generic", "NamedTuple", "TypedDict",
    "Enum", "IntEnum", "StrEnum", "Flag", "IntFlag", "str", "int",
}  # fmt: skip


@cache
def modules(package: str) -> dict[str, Path]:
    root = PACKAGES[package]
    out = {}
    for path in sorted(root.rglob("*.py")):
        parts = list(path.relative_to(root).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        out[".".join([package, *parts])] = path
    return out


def imports(module: str, path: Path) -> set[str]:
    """Every module (of any package) that ``module`` imports, resolved to a full name."""
    package = module if path.name == "__init__.py" else module.rsplit(".", 1)[0]
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                found.add(".".join(base + ([node.module] if node.module else [])))
            else:
                found.add(node.module or "")
    return found


def under(name: str, prefix: str) -> bool:
    return name == prefix or name.startswith(prefix + ".")


def test_the_scan_sees_the_packages() -> None:
    assert "hanabi.bots.conventions" in modules("hanabi.bots")
    assert "hanabi.game" in imports("hanabi.bots.base", modules("hanabi.bots")["hanabi.bots.base"])
    assert "hanabi.client.transport" in modules("hanabi.client")


@pytest.mark.parametrize("package", sorted(FORBIDDEN))
def test_imports_go_one_way(package: str) -> None:
    wrong = [
        f"{module} imports {target}"
        for module, path in modules(package).items()
        for target in imports(module, path)
        if any(under(target, banned) for banned in FORBIDDEN[package])
    ]
    assert wrong == []


def test_the_bots_use_only_the_engine() -> None:
    wrong = [
        f"{module} imports {target}"
        for module, path in modules("hanabi.bots").items()
        for target in imports(module, path)
        if under(target, "hanabi")
        and not under(target, "hanabi.bots")
        and not any(under(target, allowed) for allowed in BOTS_MAY_USE)
    ]
    assert wrong == []


def plain(base: ast.expr) -> bool:
    """Whether a base is not a part mixed in: an exception, an enum, a typing construct."""
    if isinstance(base, ast.Subscript):  # Generic[T], Protocol[T]
        base = base.value
    name = base.attr if isinstance(base, ast.Attribute) else getattr(base, "id", "")
    return name in PLAIN_BASES or name.endswith(("Error", "Exception", "Warning"))


@pytest.mark.parametrize("package", sorted(PACKAGES))
def test_no_class_mixes_parts_in(package: str) -> None:
    found = [
        f"{module}.{node.name}({', '.join(ast.unparse(b) for b in node.bases)})"
        for module, path in modules(package).items()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
        if isinstance(node, ast.ClassDef) and sum(not plain(b) for b in node.bases) > 1
    ]
    assert found == []
