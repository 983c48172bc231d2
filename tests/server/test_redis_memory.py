"""A REDIS_URL Redis that may evict keys is reported at start (one warning line); one
with ``noeviction``, or whose CONFIG is disabled (managed Redis), makes no noise and the
server runs either way."""

from __future__ import annotations

import logging

import pytest

from hanabi.server import create_app
from hanabi.server.ops.redis_process import RedisProcess

#: Serving, logs, headers and the launcher are the same on any Redis: run once.

NO_THREADS = {"HANABI_BOT_WORKER": 0, "HANABI_SETTLE_SWEEP": 0}


def _warnings(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [
        r.getMessage()
        for r in caplog.records
        if r.levelno == logging.WARNING and "maxmemory-policy" in r.getMessage()
    ]


@pytest.mark.parametrize(
    ("extra", "warned"),
    [
        (["--maxmemory-policy", "allkeys-lru"], "allkeys-lru"),
        (["--maxmemory-policy", "volatile-ttl"], "volatile-ttl"),
        ([], None),  # noeviction
        (["--maxmemory-policy", "allkeys-lru", "--rename-command", "CONFIG", ""], None),
    ],
    ids=["allkeys-lru", "volatile-ttl", "noeviction", "config-disabled"],
)
def test_an_evicting_policy_is_reported_at_start(
    caplog: pytest.LogCaptureFixture, extra: list[str], warned: str | None
) -> None:
    caplog.set_level(logging.WARNING, logger="hanabi")
    with RedisProcess(extra_args=extra) as proc:
        app = create_app({"REDIS_URL": proc.url, **NO_THREADS})
        assert app.test_client().post("/api/v1/games", json={"name": "a"}).status_code == 201
    if warned is None:
        assert _warnings(caplog) == []
    else:
        assert _warnings(caplog) == [
            f"Redis maxmemory-policy is {warned}: when Redis is full it deletes keys, games "
            "included; set maxmemory-policy noeviction (docs/deploy.md)"
        ]
