"""Rated games: refusals, the result's rating changes, statistics, history, and exactly
once under concurrent settlers, several processes and a killed process."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
import threading
import time
from typing import Any

import pytest
from account_helpers import account_table, profile, session, username
from api_helpers import API, Table, assert_problem, assert_valid, bearer, make_table
from flask import Flask
from flask.testing import FlaskClient

from hanabi.server.api.schemas import accounts as a
from hanabi.server.storage.accounts import akey
from hanabi.server.storage.settling import PENDING
from hanabi.server.table import ratings
from hanabi.server.table.writes import Hooks

pytestmark = pytest.mark.cluster  # run again on a Redis Cluster (make test-cluster)

LOSS = ratings.change(1500, 25, 0)  # -8.935194: a terminated game scores 0


def rated_table(client: FlaskClient, players: int = 2) -> tuple[Table, list[str]]:
    names, tokens = zip(*(session(client) for _ in range(players)))
    return account_table(client, list(tokens), rated=True), list(names)


# -- refusals ---------------------------------------------------------------------------


def test_rated_needs_an_account(aclient: FlaskClient) -> None:
    body = {"name": "guest", "options": {"rated": True}}
    assert_problem(aclient.post(f"{API}/games", json=body), 401, "account_required")


def test_rated_refuses_bot_accounts(aclient: FlaskClient) -> None:
    _, bot = session(aclient, bot=True)
    body = {"options": {"rated": True}}
    response = aclient.post(f"{API}/games", json=body, headers=bearer(bot))
    assert_problem(response, 403, "bot_account")
    _, human = session(aclient)
    table = account_table(aclient, [human], start=False, rated=True)
    joined = aclient.post(f"{table.url}/players", json={}, headers=bearer(bot))
    assert_problem(joined, 403, "bot_account")


@pytest.mark.parametrize(
    ("extra", "code"),
    [
        ({"seed": "known"}, "rated_known_deal"),
        ({"deck": [{"suit": "red", "rank": 1}]}, "rated_known_deal"),
        ({"variant": "single_sixth"}, "variant_not_rated"),
        ({"variant": "single_rainbow"}, "variant_not_rated"),
    ],
)
def test_rated_refuses_known_deals_and_unrated_variants(
    aclient: FlaskClient, extra: dict[str, Any], code: str
) -> None:
    _, token = session(aclient)
    body = {"options": {"rated": True}, **extra}
    assert_problem(aclient.post(f"{API}/games", json=body, headers=bearer(token)), 400, code)


def test_rated_refuses_guests_and_bot_seats(aclient: FlaskClient) -> None:
    _, token = session(aclient)
    table = account_table(aclient, [token], start=False, rated=True)
    guest = aclient.post(f"{table.url}/players", json={"name": "guest"})
    assert_problem(guest, 401, "account_required")
    bot = aclient.post(f"{table.url}/bots", json={}, headers=bearer(token))
    assert_problem(bot, 409, "rated_no_bots")
    # nor a program that says it plays a bot strategy, joining or in its own seat
    _, other = session(aclient)
    program = {"plays": "hat"}
    joined = aclient.post(f"{table.url}/players", json=program, headers=bearer(other))
    assert_problem(joined, 409, "rated_no_bots")
    declared = aclient.patch(f"{table.url}/players/0", json=program, headers=bearer(token))
    assert_problem(declared, 409, "rated_no_bots")
    assert table.get(0).get_json()["options"]["rated"] is True


def test_rated_start_needs_two_accounts(aclient: FlaskClient) -> None:
    _, one = session(aclient)
    _, two = session(aclient)
    _, three = session(aclient)
    table = account_table(aclient, [one, two, three], start=False, rated=True)
    # The host watching leaves two accounts: fine. Alone with a watcher: refused.
    solo = account_table(aclient, [one], start=False, rated=True)
    assert_problem(solo.post("/start", 0), 409, "not_enough_players")
    assert table.post("/start", 0, {"watch": True}).status_code == 200


# -- a rated game end to end --------------------------------------------------------------


def test_a_rated_game_changes_every_rating_once(aclient: FlaskClient) -> None:
    table, names = rated_table(aclient, 3)
    result = table.end(2)["game"]["result"]  # seats 2 and 0 vote: 2 of 3 people end it
    assert result["reason"] == "terminated" and result["score"] == 0
    changes = result["rating_changes"]
    assert set(changes) == {"0", "1", "2"}
    for change in changes.values():
        assert change["before"] == 1500
        assert change["after"] == pytest.approx(1500 + LOSS)
    # Everyone reads the same result later, and the game summary has it too.
    assert table.view(None)["result"]["rating_changes"] == changes
    listed = aclient.get(f"{API}/games?status=finished&limit=100").get_json()["games"]
    assert next(g for g in listed if g["id"] == table.id)["result"]["rating_changes"] == changes
    for name in names:
        body = profile(aclient, name)
        assert_valid(a.ProfileSchema, body)
        assert body["rating"] == pytest.approx(round(1500 + LOSS, 1))
        assert body["rated_games"] == 1
        stats = body["stats"]["no_variant"]
        assert stats["games"] == 1 and stats["rated_games"] == 1
        assert stats["best"] == {"3": 0} and stats["average"] is None
        assert stats["strikeout_rate"] == 0.0
        assert stats["rating_change"] == pytest.approx(round(LOSS, 2))


def test_the_next_rated_game_starts_from_the_new_rating(aclient: FlaskClient) -> None:
    """Each member moves from their own rating, against hanabot on the team's score: the
    partners' ratings play no part (the team's average did before)."""
    _, ann = session(aclient)
    _, bob = session(aclient)
    first = account_table(aclient, [ann, bob], rated=True)
    first.end(0)
    _, cat = session(aclient)
    second = account_table(aclient, [ann, cat], rated=True)
    changes = second.end(1)["game"]["result"]["rating_changes"]
    assert changes["0"]["before"] == pytest.approx(1500 + LOSS)
    ann_delta = ratings.change(1500 + LOSS, 25, 0)
    assert changes["0"]["after"] == pytest.approx(1500 + LOSS + ann_delta)
    assert changes["1"]["after"] == pytest.approx(1500 + LOSS)  # Cat as from any 1500 team


def test_a_partner_sunk_low_lifts_nobody(aclient: FlaskClient, accounts_app: Flask) -> None:
    """An 1800 player with a partner at 1000 (tanked on purpose): the same game moves each
    of them as it would move anyone of their own rating."""
    redis = accounts_app.extensions["hanabi"].store.redis
    tokens = [session(aclient)[1] for _ in range(2)]
    for token, rating in zip(tokens, (1800, 1000), strict=True):
        me = aclient.get(f"{API}/accounts/me", headers=bearer(token)).get_json()
        redis.hset(akey(me["id"], "a"), "rating", rating)  # the test's storage, as a fixture
    table = account_table(aclient, tokens, rated=True)
    changes = table.end(0)["game"]["result"]["rating_changes"]
    assert changes["0"]["after"] == pytest.approx(1800 + ratings.change(1800, 25, 0))
    assert changes["1"]["after"] == pytest.approx(1000 + ratings.change(1000, 25, 0))
    assert changes["1"]["after"] - 1000 == pytest.approx(0.0, abs=1e-9)  # 1000 meets 1000


def test_unrated_games_count_in_statistics_only(aclient: FlaskClient) -> None:
    name, ann = session(aclient)
    _, bob = session(aclient)
    table = account_table(aclient, [ann, bob])
    result = table.end(0)["game"]["result"]
    assert "rating_changes" not in result
    body = profile(aclient, name)
    assert body["rating"] == 1500 and body["rated_games"] == 0
    assert body["stats"]["no_variant"]["games"] == 1
    assert body["stats"]["no_variant"]["rated_games"] == 0
    history = aclient.get(f"{API}/players/{name}/games").get_json()
    assert history["games"][0]["id"] == table.id
    assert history["games"][0]["rating_change"] is None


def test_guest_games_are_untouched(aclient: FlaskClient) -> None:
    table = make_table(aclient, 2)
    result = table.end(0)["game"]["result"]
    assert result == {"reason": "terminated", "score": 0}


def test_history_pages_newest_first(aclient: FlaskClient) -> None:
    name, ann = session(aclient)
    _, bob = session(aclient)
    ids = []
    for _ in range(3):
        table = account_table(aclient, [ann, bob], rated=True)
        table.end(0)
        ids.append(table.id)
    first = aclient.get(f"{API}/players/{name}/games?limit=2").get_json()
    assert_valid(a.HistoryPageSchema, first)
    assert [g["id"] for g in first["games"]] == ids[::-1][:2]
    assert (
        first["games"][0]["rating_change"]["after"] < first["games"][0]["rating_change"]["before"]
    )
    cursor = first["next_cursor"]
    rest = aclient.get(f"{API}/players/{name}/games?limit=2&cursor={cursor}").get_json()
    assert [g["id"] for g in rest["games"]] == ids[:1] and rest["next_cursor"] is None
    assert_problem(aclient.get(f"{API}/players/nobody-here/games"), 404, "player_not_found")


def test_rating_model(aclient: FlaskClient) -> None:
    body = aclient.get(f"{API}/rating-model").get_json()
    assert_valid(a.RatingModelSchema, body)
    assert body["start"] == 1500 and body["k"] == 20
    assert body["variants"]["no_variant"]["hanabot"][17:19] == [1000, 1400]
    assert body["variants"]["single_sixth"]["rated"] is False


# -- exactly once -------------------------------------------------------------------------


@pytest.fixture
def unsettled(accounts_app: Flask) -> Any:
    """Games finish without the finishing process settling them (as if it died right
    after its commit): what is left to the settlers under test."""
    svc = accounts_app.extensions["hanabi"]
    hooks = svc.writes.hooks

    class StartOnly(Hooks):
        def starting(self, record: Any) -> None:
            hooks.starting(record)

    svc.writes.hooks = StartOnly()
    yield accounts_app.extensions["hanabi"].settler
    svc.writes.hooks = hooks


def finished_unsettled(client: FlaskClient, players: int = 3) -> tuple[Table, list[str]]:
    table, names = rated_table(client, players)
    result = table.end(0)["game"]["result"]
    assert "rating_changes" not in result
    return table, names


def assert_applied_once(client: FlaskClient, table: Table, names: list[str]) -> None:
    changes = table.view(None)["result"]["rating_changes"]
    assert len(changes) == len(names)
    for name in names:
        body = profile(client, name)
        assert body["rated_games"] == 1, body
        assert body["rating"] == pytest.approx(round(1500 + LOSS, 1))
        assert body["stats"]["no_variant"]["games"] == 1
        history = client.get(f"{API}/players/{name}/games").get_json()["games"]
        assert [g["id"] for g in history] == [table.id]


def test_concurrent_settlers_apply_once(aclient: FlaskClient, unsettled: Any) -> None:
    table, names = finished_unsettled(aclient, 4)
    barrier = threading.Barrier(8)
    errors: list[BaseException] = []

    def settle() -> None:
        try:
            barrier.wait()
            unsettled.settle(table.id)
        except BaseException as exc:
            errors.append(exc)

    threads = [threading.Thread(target=settle) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert not errors
    assert_applied_once(aclient, table, names)
    assert unsettled.settling.redis.zscore(PENDING, table.id) is None


SETTLE_SCRIPT = """
import sys
from hanabi.server.storage.accounts import AccountStore
from hanabi.server.storage.settling import SettlingStore
from hanabi.server.storage.store import Store
from hanabi.server.table.settle import Settler

store = Store(sys.argv[1], {"lobby": 60, "playing": 60, "finished": 600})
settler = Settler(store, SettlingStore(store.redis, 600), AccountStore(store.redis), 20.0)
if sys.argv[3] == "die":
    import os
    apply = settler._apply_member
    done = []

    def apply_then_die(plan, member):
        out = apply(plan, member)
        done.append(member)
        if len(done) == 2:  # two of the members applied, then the process is killed
            os._exit(9)
        return out

    settler._apply_member = apply_then_die
settler.settle(sys.argv[2])
"""


def run_settler(redis_url: str, game_id: str, mode: str) -> subprocess.Popen[bytes]:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    return subprocess.Popen(
        [sys.executable, "-c", textwrap.dedent(SETTLE_SCRIPT), redis_url, game_id, mode],
        env=env,
        stderr=subprocess.PIPE,
    )


def test_settling_processes_race_and_apply_once(
    aclient: FlaskClient, unsettled: Any, redis_url: str
) -> None:
    table, names = finished_unsettled(aclient, 3)
    procs = [run_settler(redis_url, table.id, "settle") for _ in range(4)]
    for proc in procs:
        _, err = proc.communicate(timeout=60)
        assert proc.returncode == 0, err.decode()
    assert_applied_once(aclient, table, names)


def test_the_sweeper_completes_what_a_killed_process_left(
    aclient: FlaskClient, unsettled: Any, redis_url: str
) -> None:
    table, names = finished_unsettled(aclient, 4)
    proc = run_settler(redis_url, table.id, "die")
    proc.communicate(timeout=60)
    assert proc.returncode == 9
    # Half applied: two ratings moved, the result has no changes yet, the game is pending.
    moved = [profile(aclient, n)["rated_games"] for n in names]
    assert sorted(moved) == [0, 0, 1, 1]
    assert "rating_changes" not in table.view(None)["result"]
    assert unsettled.settling.redis.zscore(PENDING, table.id) is not None
    # The sweeper takes the game up when it is due, and completes it.
    unsettled.settling.redis.zadd(PENDING, {table.id: 0})
    assert unsettled.sweep() >= 1
    assert_applied_once(aclient, table, names)
    # Sweeping again, or a late settler, changes nothing.
    unsettled.settle(table.id)
    unsettled.sweep()
    assert_applied_once(aclient, table, names)


def test_the_sweeper_leaves_games_still_on(aclient: FlaskClient, unsettled: Any) -> None:
    _, ann = session(aclient)
    _, bob = session(aclient)
    table = account_table(aclient, [ann, bob], rated=True)
    unsettled.settling.redis.zadd(PENDING, {table.id: 0})
    unsettled.sweep()
    assert unsettled.settling.redis.zscore(PENDING, table.id) > 0  # looked at again later
    table.end(0)
    unsettled.settling.redis.zadd(PENDING, {table.id: 0})
    unsettled.sweep()
    assert unsettled.settling.redis.zscore(PENDING, table.id) is None
    assert set(table.view(None)["result"]["rating_changes"]) == {"0", "1"}


def test_statistics_of_a_played_game(aclient: FlaskClient) -> None:
    """Two accounts play an unrated, known deal by always playing their first card: the
    statistics follow the result (score kept at a strikeout by the option)."""
    ann, ann_token = session(aclient)
    bob, bob_token = session(aclient)
    suits = ("red", "yellow", "green", "blue", "white")
    copies = (3, 2, 2, 2, 1)
    deck = [
        {"suit": s, "rank": r} for s in suits for r in range(1, 6) for _ in range(copies[r - 1])
    ]
    body = {"deck": deck, "options": {"strikeout_keeps_score": True}}
    created = aclient.post(f"{API}/games", json=body, headers=bearer(ann_token)).get_json()
    aclient.post(f"{API}/games/{created['id']}/players", json={}, headers=bearer(bob_token))
    table = Table(aclient, created["id"], [ann_token, bob_token])
    view = table.start()
    while view["result"] is None:
        seat = view["current_seat"]
        mine = table.view(seat)
        card = mine["hands"][seat][0]["order"]
        response = table.act(seat, mine["turn"], type="play", card=card)
        assert response.status_code == 201, response.get_json()
        view = response.get_json()["game"]
    result = view["result"]
    assert result["score"] > 0 and "rating_changes" not in result
    for name in (ann, bob):
        stats = profile(aclient, name)["stats"]["no_variant"]
        assert stats["games"] == 1 and stats["best"] == {"2": result["score"]}
        assert stats["average"] == result["score"]
        assert stats["strikeout_rate"] == (1.0 if result["reason"] == "strikeout" else 0.0)
        assert stats["rated_games"] == 0 and stats["rating_change"] == 0


def test_unknown_names_are_checked_against_a_hash_too(
    accounts_app: Flask, aclient: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A wrong password and an unknown user cost the same: one argon2 check each."""
    registry = accounts_app.extensions["hanabi"].accounts
    checked: list[str] = []
    real = registry._check

    def counting(stored: str, password: str) -> bool:
        checked.append(stored)
        return real(stored, password)

    monkeypatch.setattr(registry, "_check", counting)
    name = username()
    aclient.post(f"{API}/accounts", json={"username": name, "password": "right password"})
    for user in (name, username()):
        body = {"username": user, "password": "wrong password"}
        env = {"REMOTE_ADDR": "10.9.0.1"}
        assert aclient.post(f"{API}/sessions", json=body, environ_base=env).status_code == 401
    assert len(checked) == 2 and checked[1] == registry.dummy
    assert checked[0].startswith("$argon2id$") and checked[0] != registry.dummy


def test_the_sweeper_thread_settles_on_its_own(aclient: FlaskClient, unsettled: Any) -> None:
    from hanabi.server.table.settle import Sweeper

    table, names = finished_unsettled(aclient, 2)
    unsettled.settling.redis.zadd(PENDING, {table.id: 0})
    sweeper = Sweeper(unsettled, 0.05).start()
    try:
        deadline = time.monotonic() + 10
        while unsettled.settling.redis.zscore(PENDING, table.id) is not None:
            assert time.monotonic() < deadline, "the sweeper did not settle the game"
            time.sleep(0.05)
    finally:
        sweeper.stop.set()
        sweeper.thread.join(5)
    assert_applied_once(aclient, table, names)
