"""Shared fixtures for the whole test suite."""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest


@pytest.fixture(scope="session")
def redis_url() -> Iterator[str]:
    """URL of a Redis server for tests: ``$REDIS_URL`` if set, else a private throwaway one."""
    url = os.environ.get("REDIS_URL")
    if url:
        yield url
        return
    from hanabi.server.redis_process import RedisProcess

    with RedisProcess() as proc:
        yield proc.url
