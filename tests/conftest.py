"""Shared fixtures for the whole test suite."""

from __future__ import annotations

import logging
import os
import signal
import sys
from collections.abc import Iterator
from typing import Any

import pytest

# Per-address limits off for the suite (its clients all come from 127.0.0.1, hundreds of
# games a minute): tests/server/test_limits.py turns them on, with the defaults too.
os.environ.setdefault("HANABI_LIMITS", "off")
# ... and the per-seat and per-table chat rates too (tests post hundreds of lines a minute).
os.environ.setdefault("HANABI_LIMIT_CHAT_SEAT", "100000/minute")
os.environ.setdefault("HANABI_LIMIT_CHAT_GAME", "100000/minute")
# ... and the lobby chat's, which every test of the session shares (test_chat.py sets its own).
os.environ.setdefault("HANABI_LIMIT_CHAT_CHANNEL", "100000/minute")
# ... and the rated-game eligibility (accounts are made fresh by each test):
# tests/server/test_rated_fairness.py holds them to the defaults.
os.environ.setdefault("HANABI_RATED_MIN_AGE_H", "0")
os.environ.setdefault("HANABI_RATED_MIN_GAMES", "0")
# Servers under test build variants when asked, not all 2,428 in the background at start.
os.environ.setdefault("HANABI_WARM_VARIANTS", "0")
# Every test checks the key layout of what it does: a command or script whose keys span
# Cluster hash slots fails on the single Redis as it would on a Cluster (the Cluster pass
# then runs only the tests marked cluster: what a Cluster does differently).
os.environ.setdefault("HANABI_CHECK_SLOTS", "on")

# Ctrl-C reaches the clients the tests start. A shell runs a background job (`make test &`,
# nohup) with SIGINT ignored, and its children inherit that: the CLI tests that press
# Ctrl-C would wait forever. A handler of our own becomes the default again across exec.
if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)


#: The files that take longest (seconds on one worker, 2-core machine, 2026-12-07), longest
#: first. make test hands whole files to its workers in collection order (xdist's
#: ``--no-loadscope-reorder``: by default it puts the files with most tests first, which
#: left these one-test browser files to the end, one worker busy and the other idle).
LONGEST = (
    "tests/web/test_web_play.py",  # 93-142
    "tests/web/test_web_no_english.py",  # 99
    "tests/e2e/test_cli_live_no_english_rooms.py",  # 98
    "tests/server/test_contract.py",  # 60-93
    "tests/server/test_docs_browser.py",  # 68-83
    "tests/web/test_web_table_screen.py",  # 76
    "tests/e2e/test_cli_live_no_english.py",  # 68-76
    "tests/web/test_web_watching.py",  # 43-65
    "tests/web/test_web_suits.py",  # 27-56
    "tests/e2e/test_docs_walkthrough.py",  # 41-54
    "tests/web/test_web_accounts.py",  # 50
    "tests/contract/test_generated_clients.py",  # 49
    "tests/client/test_install.py",  # 49
    "tests/server/test_attack_44.py",  # 34
    "tests/web/test_web_shared_replay.py",  # 31
    "tests/web/test_web_tables.py",  # 32
    "tests/e2e/test_cli_watch_hands.py",  # 31
    "tests/bots/test_bots_legality.py",  # 30
    "tests/e2e/test_cli_table.py",  # 33
    "tests/e2e/test_cli_bot.py",  # 31
    "tests/e2e/test_cli_commands.py",  # 28
    "tests/bots/test_bots_search.py",  # 28
    "tests/web/test_web_history.py",  # 26
    "tests/bots/test_bots_scores.py",  # 26
    "tests/e2e/test_cli_chat.py",  # 23
    "tests/client/test_cli_no_english.py",
)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The longest files first (:data:`LONGEST`), the rest in their order."""
    rank = {path: i for i, path in enumerate(LONGEST)}
    items.sort(key=lambda item: rank.get(item.nodeid.split("::", 1)[0], len(LONGEST)))


@pytest.fixture(scope="session")
def redis_url() -> Iterator[str]:
    """URL of a Redis server for tests: ``$REDIS_URL`` if set, else a private throwaway one,
    or a private 3-master Redis Cluster with ``HANABI_TEST_REDIS=cluster`` (`make test`
    runs the API's tests both ways). The throwaway ones listen on an open 127.0.0.1 port
    with no password (``Listen.OPEN``): test data only, never the launcher's kind."""
    url = os.environ.get("REDIS_URL")
    if url:
        yield url
        return
    if os.environ.get("HANABI_TEST_REDIS") == "cluster":
        from cluster_support import RedisClusterProcess

        with RedisClusterProcess() as cluster:
            yield cluster.url
            _quiet_background()
        return
    from hanabi.server.ops.redis_process import RedisProcess

    with RedisProcess() as proc:
        yield proc.url
        _quiet_background()


@pytest.fixture(scope="session")
def playwright_driver() -> Iterator[Any]:
    """The one Playwright driver of this test process: its sync API runs an event loop in
    the main thread, so a second one (or ``asyncio.run``) beside it fails; every browser
    test (tests/web, the API docs) launches its Chromium from this one."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as driver:
        yield driver


@pytest.fixture(scope="session")
def redis_cluster_url() -> Iterator[str]:
    """A private 3-master Redis Cluster (for the tests that always need one)."""
    from cluster_support import RedisClusterProcess

    with RedisClusterProcess() as cluster:
        yield cluster.url
        _quiet_background()


def _quiet_background() -> None:
    """The session is over: the apps its tests made still run their bot workers and settle
    sweeps (daemon threads) on the Redis about to stop. Stop the workers, and keep the
    sweeps' "Redis unavailable" warnings out of the run's output."""
    bots = sys.modules.get("hanabi.server.table.bots")  # not imported: no app, no worker here
    for worker in bots._WORKERS if bots else ():
        worker.stop(timeout=0)  # the threads see it at their next wait; no joining here
    logging.getLogger("hanabi").setLevel(logging.CRITICAL)
