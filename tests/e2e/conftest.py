"""End-to-end fixtures: a live server for the session (or one of a test's own, to crash),
a fault-injecting proxy in front of it, and library clients."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from e2e_support import FaultProxy, LiveServer

from hanabi.client.api import Client


@pytest.fixture(scope="session")
def live_server(redis_url: str) -> Iterator[LiveServer]:
    """One server for the whole session (tests that crash it use ``own_server``)."""
    server = LiveServer(redis_url).start()
    yield server
    server.crash()


@pytest.fixture
def own_server(redis_url: str) -> Iterator[LiveServer]:
    server = LiveServer(redis_url, workers=1).start()
    yield server
    server.crash()


@pytest.fixture
def api(live_server: LiveServer) -> Client:
    return Client(live_server.url, retries=1, backoff=0.05)


@pytest.fixture
def proxy(live_server: LiveServer) -> Iterator[FaultProxy]:
    p = FaultProxy(live_server.port)
    yield p
    p.close()
