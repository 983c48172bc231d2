"""Spoilers (table/spoilers.py, docs/seeds.md): which seeds' cards an account saw before it
finished them, kept per account in its own slot and to a cap, and who holds a live seat on
which deal."""

from __future__ import annotations

from typing import Any

import pytest
from account_helpers import seat_table, session
from api_helpers import Table, make_table
from flask.testing import FlaskClient

from hanabi.server.storage.record import Record
from hanabi.server.storage.spoilers import SpoilerStore
from hanabi.server.table.seeds import deal_key
from hanabi.server.table.spoilers import Spoilers

pytestmark = pytest.mark.cluster  # run again on a Redis Cluster (make test-cluster)


def services(app: Any) -> Any:
    return app.extensions["hanabi"]


def record_of(app: Any, table: Table) -> Record:
    record = services(app).store.load(table.id)
    assert record is not None
    return record


def account_of(app: Any, table: Table, seat: int) -> str:
    account = record_of(app, table).players[seat].account
    assert account is not None
    return account


def test_seeing_a_seed_spoils_it_for_an_account_that_has_not_finished_it(
    aclient: FlaskClient, accounts_app: Any
) -> None:
    spoilers: Spoilers = services(accounts_app).spoilers
    (_, a), (_, b), (_, c), (_, d) = (session(aclient) for _ in range(4))
    seed = "p2v0s880001"
    seen = seat_table(aclient, [a, b], seed=seed)
    seen.end()
    watcher = seat_table(aclient, [c, d], seed="p2v0s880002")
    c_id, d_id = account_of(accounts_app, watcher, 0), account_of(accounts_app, watcher, 1)
    record = record_of(accounts_app, seen)
    spoilers.saw(None, record)  # anonymous: nothing to remember
    spoilers.saw(c_id, record)
    spoilers.saw(c_id, record)  # again: the first sight is the one kept
    first, _ = spoilers.store.since(c_id, seed)
    assert first is not None and first <= record.updated + 60_000
    spoilers.recorded = type(spoilers.recorded)(16)  # another process: Redis keeps the first
    spoilers.saw(c_id, record)
    assert spoilers.store.since(c_id, seed) == (first, 0)
    assert spoilers.spoiled_seeds([c_id, d_id], "p2v0s") == {seed}
    assert spoilers.spoiled_seeds([d_id], "p2v0s") == set()
    # Its players finished it: seeing it again spoils nothing for them.
    a_id = account_of(accounts_app, seen, 0)
    spoilers.saw(a_id, record)
    assert spoilers.store.since(a_id, seed) == (None, 0)
    # A custom deal has no name: nothing to spoil.
    custom = seat_table(aclient, [a, b], seed="friday-night")
    custom.end()
    spoilers.saw(c_id, record_of(accounts_app, custom))
    assert spoilers.spoiled_seeds([c_id], "") == {seed}


def test_a_result_is_spoiled_when_a_seat_saw_the_seed_before_it_ended(
    aclient: FlaskClient, accounts_app: Any
) -> None:
    spoilers: Spoilers = services(accounts_app).spoilers
    (_, a), (_, b), (_, c), (_, d) = (session(aclient) for _ in range(4))
    seed = "p2v0s880010"
    first = seat_table(aclient, [a, b], seed=seed)
    first.end()
    c_id = account_of(accounts_app, seat_table(aclient, [c, d], start=False), 0)
    spoilers.saw(c_id, record_of(accounts_app, first))
    second = seat_table(aclient, [c, d], seed=seed)
    second.end()
    assert spoilers.spoiled(record_of(accounts_app, second))
    assert not spoilers.spoiled(record_of(accounts_app, first))  # it saw them after that end
    # d saw nothing: d's next game on another seed is clean.
    third = seat_table(aclient, [d, b], seed="p2v0s880011")
    third.end()
    assert not spoilers.spoiled(record_of(accounts_app, third))


def test_the_cap_forgets_the_oldest_and_then_counts_every_later_result_spoiled(
    aclient: FlaskClient, accounts_app: Any
) -> None:
    main: Spoilers = services(accounts_app).spoilers
    small = SpoilerStore(main.store.redis, 3)
    (_, a), (_, b) = session(aclient), session(aclient)
    table = seat_table(aclient, [a, b], seed="p2v0s880020")
    a_id = account_of(accounts_app, table, 0)
    for n, when in enumerate((100, 200, 300, 400)):
        assert small.saw(a_id, f"p2v1s{n + 1}", when)
    assert small.spoiled(a_id, "p2v1s") == {"p2v1s2", "p2v1s3", "p2v1s4"}
    assert small.since(a_id, "p2v1s1") == (None, 100)  # forgotten, and the time kept
    assert small.since(a_id, "p2v1s4") == (400, 100)
    table.end()  # long after time 100: it may have been a forgotten spoiler's
    assert main.spoiled(record_of(accounts_app, table))


def test_sharing_a_deal_with_a_live_seat_elsewhere(aclient: FlaskClient, accounts_app: Any) -> None:
    spoilers: Spoilers = services(accounts_app).spoilers
    (_, a), (_, b), (_, c), (_, d) = (session(aclient) for _ in range(4))
    seed = "p2v0s880030"
    mine = seat_table(aclient, [a, b], seed=seed)
    copy = seat_table(aclient, [c, d], seed=seed)
    a_id, c_id = account_of(accounts_app, mine, 0), account_of(accounts_app, copy, 0)
    mine_record, copy_record = record_of(accounts_app, mine), record_of(accounts_app, copy)
    assert deal_key(mine_record) == deal_key(copy_record) == seed
    assert spoilers.sharing_deal(a_id, copy_record)
    assert not spoilers.sharing_deal(a_id, mine_record)  # its own game is no other
    assert not spoilers.sharing_deal(None, copy_record)
    other = make_table(aclient, 2, seed="p2v0s880031")
    assert not spoilers.sharing_deal(a_id, record_of(accounts_app, other))
    mine.end()
    assert not spoilers.sharing_deal(a_id, copy_record)  # over: its cards are no secret
    assert spoilers.sharing_deal(c_id, mine_record)  # c still plays its copy
    # A custom seed deals the same cards at every table that types it: the same deal.
    one = seat_table(aclient, [a, b], seed="friday-night-880")
    two = make_table(aclient, 2, seed="friday-night-880")
    keys = {deal_key(record_of(accounts_app, t)) for t in (one, two)}
    assert len(keys) == 1 and next(iter(keys)).startswith("~")
    assert spoilers.sharing_deal(a_id, record_of(accounts_app, two))
    assert deal_key(record_of(accounts_app, seat_table(aclient, [c, d], start=False))) is None
