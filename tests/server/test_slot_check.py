"""HANABI_CHECK_SLOTS: a single Redis refuses what a Redis Cluster would refuse, so the
whole suite (which runs with it on) checks the key layout of every path it takes."""

from __future__ import annotations

import pytest
import redis
from flask import Flask

from hanabi.server.storage.slot_check import SlotCheckedRedis

pytestmark = pytest.mark.single_redis  # a plain client of one Redis: not a Cluster's


@pytest.fixture
def checked(redis_url: str) -> SlotCheckedRedis:
    return SlotCheckedRedis.from_url(redis_url)


def _refused(call) -> str:
    with pytest.raises(redis.exceptions.ResponseError) as refusal:
        call()
    return str(refusal.value)


def test_keys_of_one_slot_pass_and_of_two_are_refused(checked: SlotCheckedRedis) -> None:
    checked.set("{slotcheck}a", "1")
    assert checked.mget("{slotcheck}a", "{slotcheck}b") == [b"1", None]
    said = _refused(lambda: checked.mget("{slotcheck}a", "slotcheck-b"))
    assert said.startswith("CROSSSLOT") and "MGET {slotcheck}a, slotcheck-b" in said
    assert checked.get("slotcheck-b") is None  # one key: nothing to span
    checked.delete("{slotcheck}a")


def test_scripts_and_pipelined_commands_are_checked(checked: SlotCheckedRedis) -> None:
    script = checked.register_script("return #KEYS")
    assert script(keys=["{slotcheck}a", "{slotcheck}b"]) == 2
    assert "EVALSHA" in _refused(lambda: script(keys=["{slotcheck}a", "elsewhere"]))
    pipe = checked.pipeline(transaction=False)
    pipe.get("{slotcheck}a")
    pipe.get("elsewhere")  # two commands of one key each: fine on a Cluster too
    assert pipe.execute() == [None, None]
    _refused(lambda: checked.pipeline(transaction=False).delete("{slotcheck}a", "elsewhere"))


def test_the_suites_apps_run_with_the_check(app: Flask) -> None:
    """tests/conftest.py turns the check on for every app and server of the run."""
    assert isinstance(app.extensions["hanabi"].store.redis, SlotCheckedRedis)
