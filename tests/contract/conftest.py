"""Contract fixtures: one live server (gunicorn, real Redis) for the generated clients,
started the way tests/e2e starts its own."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "e2e"))
from e2e_support import LiveServer


@pytest.fixture(scope="module")
def contract_server(redis_url: str) -> Iterator[LiveServer]:
    server = LiveServer(redis_url, workers=1).start()
    yield server
    server.crash()
