"""The user docs stay true: they are what users have (the team's rule specification is
not in the repository), every link in them leads somewhere, and the rules page lists the
variants the engine has, with their card counts and perfect scores."""

from __future__ import annotations

import re
from pathlib import Path

from hanabi.game import VARIANTS

ROOT = Path(__file__).resolve().parents[2]
SOURCES = ("shared", "server", "client", "tests", "bench", "docs")


def text_files() -> list[Path]:
    files = [ROOT / "README.md", ROOT / "Makefile"]
    for top in SOURCES:
        for path in (ROOT / top).rglob("*"):
            if path.suffix in (".py", ".md", ".toml", ".yaml", ".txt") and not any(
                part in ("build", "__pycache__") or part.endswith(".egg-info")
                for part in path.parts
            ):
                files.append(path)
    return files


def test_nothing_points_users_at_a_rules_file_they_do_not_have():
    this = Path(__file__).resolve()
    cited = [
        str(p.relative_to(ROOT))
        for p in text_files()
        if p.resolve() != this and "RULES.md" in p.read_text(encoding="utf-8")
    ]
    assert cited == []


def test_every_relative_link_in_the_docs_resolves():
    for page in [ROOT / "README.md", *(ROOT / "docs").glob("*.md")]:
        for target in re.findall(r"\]\(([^)#\s]+)(?:#[^)]*)?\)", page.read_text("utf-8")):
            if "://" in target:
                continue
            assert (page.parent / target).exists(), f"{page.name} links to missing {target}"


def test_the_rules_page_lists_every_variant_as_the_engine_has_it():
    rules = (ROOT / "docs" / "rules.md").read_text(encoding="utf-8")
    rows = {
        m.group(1): (int(m.group(2)), int(m.group(3)))
        for m in re.finditer(r"^\| `(\w+)` \|[^|]*\| (\d+) \| (\d+) \|", rules, re.M)
    }
    assert rows == {v.id: (v.card_count, v.max_score) for v in VARIANTS.values()}
