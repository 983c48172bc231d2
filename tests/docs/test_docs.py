"""The user docs stay true: they are what users have (the team's rule specification is
not in the repository), every link in them leads somewhere, and the rules page lists the
variants the engine has, with their card counts and perfect scores."""

from __future__ import annotations

import re
import subprocess
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
    for page in [ROOT / "README.md", ROOT / "CHANGELOG.md", *(ROOT / "docs").glob("*.md")]:
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


def test_the_readme_opens_with_the_two_commands_and_how_to_pick_a_port():
    first_screen = "\n".join((ROOT / "README.md").read_text("utf-8").splitlines()[:25])
    for words in ("make run", "make test", "make run PORT="):
        assert words in first_screen, words
    assert "### What changed" not in (ROOT / "README.md").read_text("utf-8")


def test_make_alone_prints_the_targets_and_runs_nothing():
    dry = subprocess.run(
        ["make", "--no-print-directory", "-n"], cwd=ROOT, capture_output=True, text=True, timeout=60
    )
    assert dry.returncode == 0, dry.stderr
    assert all(line.startswith("echo ") for line in dry.stdout.splitlines()), dry.stdout
    shown = subprocess.run(
        ["make", "--no-print-directory"], cwd=ROOT, capture_output=True, text=True, timeout=60
    )
    assert shown.returncode == 0, shown.stderr
    for target in ("make run", "make test", "make lint", "make openapi", "make clean"):
        assert target in shown.stdout, target


def test_the_changelog_keeps_a_changelog_format():
    text = (ROOT / "CHANGELOG.md").read_text("utf-8")
    assert text.startswith("# Changelog\n")
    releases = re.findall(r"^## (.+)$", text, re.M)
    assert releases[0] == "[Unreleased]"
    assert all(re.fullmatch(r"\[\d+\.\d+\.\d+\] - \d{4}-\d{2}-\d{2}", r) for r in releases[1:])
    kinds = set(re.findall(r"^### (.+)$", text, re.M))
    assert kinds <= {"Added", "Changed", "Deprecated", "Removed", "Fixed", "Security"}, kinds


def test_one_python_version_is_named_everywhere():
    """CI runs Python 3.11: the docs, the Makefile and the container recipe say so, and no
    other version."""
    named = {}
    for page in [ROOT / "README.md", ROOT / "CHANGELOG.md", ROOT / "Makefile",
                 *(ROOT / "docs").glob("*.md")]:  # fmt: skip
        text = page.read_text("utf-8")
        for version in re.findall(r"(?:[Pp]ython ?|python:)(3\.\d+)", text):
            named.setdefault(version, []).append(page.name)
    assert set(named) == {"3.11"}, named


def test_every_setting_is_documented_with_the_deploy_settings():
    from hanabi.server.ops.config import SETTINGS

    deploy = (ROOT / "docs" / "deploy.md").read_text("utf-8")
    assert [name for name in SETTINGS if f"`{name}`" not in deploy] == []


def test_the_security_page_names_every_limit():
    """docs/security.md states every limit with its default: each limit's setting is there."""
    from hanabi.server.ops.config import SETTINGS

    security = (ROOT / "docs" / "security.md").read_text("utf-8")
    limits = [
        name
        for name in SETTINGS
        if any(
            word in name
            for word in ("LIMIT_", "_MAX", "FAILS", "WINDOW", "TIMEOUT", "HOLD", "RATED_MIN")
        )
        or name.endswith("PER_ADDRESS")
    ]
    assert len(limits) > 20
    assert [name for name in limits if f"`{name}`" not in security] == []
