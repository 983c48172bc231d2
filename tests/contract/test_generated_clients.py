"""Clients generated from openapi.yaml play whole games against a live server: the
examples of docs/clients/ (Python: openapi-python-client; TypeScript: openapi-typescript
types, openapi-fetch calls, `tsc --strict`, Node), run as they are, so neither the
contract nor the examples can drift from what a front-end developer gets."""

from __future__ import annotations

import hashlib
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from e2e_support import LiveServer

ROOT = Path(__file__).resolve().parents[2]
SPEC = ROOT / "openapi.yaml"
DOCS = ROOT / "docs" / "clients"
VENV_BIN = Path(sys.executable).parent
TS = DOCS / "typescript"
#: npm packages of the TypeScript example, installed once per lock file (not per run):
#: ignored by git with the rest of .venv.
NPM_CACHE = ROOT / ".venv" / "npm"


@pytest.fixture(scope="module")
def python_client(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str]:
    """The generated package (``hanabi_api`` in a directory of its own) and what the
    generator said."""
    where = tmp_path_factory.mktemp("python-client")
    config = where / "config.yaml"
    config.write_text("post_hooks: []\n")  # no formatting of the generated code: time
    done = subprocess.run(
        [
            *(str(VENV_BIN / "openapi-python-client"), "generate", "--path", str(SPEC)),
            *("--meta", "none", "--config", str(config)),
            *("--output-path", str(where / "hanabi_api")),
        ],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    return where, done.stdout + done.stderr


def test_openapi_python_client_generates_every_operation(python_client: tuple[Path, str]) -> None:
    """Generation warns of nothing but bodies that are not JSON (the YAML document), and
    every operation of the contract becomes a function."""
    where, said = python_client
    out = where / "hanabi_api"
    warnings = re.findall(r"WARNING parsing (\S+ \S+)", said)
    assert warnings == ["GET /api/v1/openapi.yaml"], said
    assert "Unsupported content_type application/yaml" in said
    made = {p.stem for p in out.glob("api/*/*.py") if p.stem != "__init__"}
    ids = set(re.findall(r"^      operationId: (\w+)$", SPEC.read_text(), re.MULTILINE))
    assert {re.sub(r"(?<!^)([A-Z])", r"_\1", i).lower() for i in ids} == made


def test_python_example_plays_a_whole_game(
    python_client: tuple[Path, str], contract_server: LiveServer
) -> None:
    done = subprocess.run(
        [sys.executable, str(DOCS / "python" / "play.py"), contract_server.url],
        env={**os.environ, "PYTHONPATH": str(python_client[0])},
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert re.search(r"game \w+ over after \d+ moves: score \d+", done.stdout), done.stdout
    assert "the last end" in done.stdout, done.stdout


def test_typescript_example_is_strict_and_plays_a_whole_game(
    tmp_path: Path, contract_server: LiveServer
) -> None:
    """openapi-typescript's types of openapi.yaml, the example compiled by ``tsc`` with
    ``strict`` (and no cast, no ``any``, no ts- directive in it), then run by Node."""
    code = (TS / "play.ts").read_text()
    bare = re.sub(r"//[^\n]*|/\*.*?\*/", "", code, flags=re.DOTALL)
    assert not re.search(r"\bany\b|\bas\s+\w|@ts-|\w!\.|<\w+>\s*\w", bare), "a cast in play.ts"
    modules = _npm_packages()
    for name in ("play.ts", "tsconfig.json", "package.json"):
        shutil.copy(TS / name, tmp_path / name)
    (tmp_path / "node_modules").symlink_to(modules, target_is_directory=True)
    tsconfig = (tmp_path / "tsconfig.json").read_text()
    assert '"strict": true' in tsconfig
    for step in (
        [
            *(str(modules / "openapi-typescript" / "bin" / "cli.js"), str(SPEC)),
            *("-o", str(tmp_path / "hanabi-api.d.ts")),
        ],
        [str(modules / "typescript" / "bin" / "tsc"), "-p", str(tmp_path / "tsconfig.json")],
        [str(tmp_path / "out" / "play.js"), contract_server.url],
    ):
        done = subprocess.run(
            ["node", *step], cwd=tmp_path, capture_output=True, text=True, timeout=120
        )
        assert done.returncode == 0, done.stdout + done.stderr
        assert "warn" not in (done.stdout + done.stderr).lower(), done.stdout + done.stderr
    assert re.search(r"game \w+ over after \d+ moves: score \d+", done.stdout), done.stdout
    assert "the last end" in done.stdout, done.stdout


def _npm_packages() -> Path:
    """node_modules of docs/clients/typescript's package-lock.json, installed from the npm
    registry the first time this lock file is seen (``npm ci``), reused after that."""
    lock = (TS / "package-lock.json").read_bytes()
    home = NPM_CACHE / hashlib.sha256(lock).hexdigest()[:16]
    modules = home / "node_modules"
    if not (modules / ".package-lock.json").exists():
        home.mkdir(parents=True, exist_ok=True)
        for name in ("package.json", "package-lock.json"):
            shutil.copy(TS / name, home / name)
        done = subprocess.run(
            ["npm", "ci", "--no-audit", "--no-fund", "--loglevel=error"],
            cwd=home,
            capture_output=True,
            text=True,
            timeout=300,
        )
        assert done.returncode == 0, done.stdout + done.stderr
    return modules
