"""Deleting an account settles its rated games (issue 36, item 4): a rated game in progress
where it holds a seat ends at once, as that seat's abandonment (score 0, the terminate
event names the seat), every seat is rated as for any game ended early, exactly once even
if the deletion is retried or raced."""

from __future__ import annotations

import threading
from typing import Any

import pytest
from account_helpers import PASSWORD, account_table, profile, session
from api_helpers import API, Table, assert_problem, bearer
from flask import Flask
from flask.testing import FlaskClient

from hanabi.server.storage.accounts import akey
from hanabi.server.storage.settling import PENDING, rated_games_key
from hanabi.server.table import ratings
from hanabi.server.table.writes import Hooks

LOSS = ratings.change(1500, 25, 0)  # what a game ended early (by vote, a clock) costs a 1500


def account_id(client: FlaskClient, token: str) -> str:
    return client.get(f"{API}/accounts/me", headers=bearer(token)).get_json()["id"]


def delete_account(client: FlaskClient, token: str) -> Any:
    return client.delete(f"{API}/accounts/me", json={"password": PASSWORD}, headers=bearer(token))


def rated_game(client: FlaskClient, players: int = 3) -> tuple[Table, list[str]]:
    names, tokens = zip(*(session(client) for _ in range(players)))
    return account_table(client, list(tokens), rated=True), list(names)


def test_deleting_an_account_ends_its_rated_game_as_its_loss(aclient: FlaskClient) -> None:
    table, names = rated_game(aclient)
    unrated = account_table(aclient, [table.tokens[1], table.tokens[2]])
    assert delete_account(aclient, table.tokens[1]).status_code == 204
    view = table.view(0)
    assert view["status"] == "finished"
    result = view["result"]
    assert result["reason"] == "terminated" and result["score"] == 0
    # The deleted seat counted as a loss, the others as in any game ended early.
    changes = result["rating_changes"]
    assert set(changes) == {"0", "1", "2"}
    for change in changes.values():
        assert change == {"before": 1500, "after": pytest.approx(1500 + LOSS)}
    events = aclient.get(f"{table.url}/events").get_json()["events"]
    ends = [e for e in events if e["type"] == "terminate"]
    assert len(ends) == 1 and ends[0]["seat"] == 1 and "reason" not in ends[0]
    for name in (names[0], names[2]):
        body = profile(aclient, name)
        assert body["rated_games"] == 1 and body["rating"] == round(1500 + LOSS, 1)
    assert aclient.get(f"{API}/players/{names[1]}").status_code == 404
    # an unrated game is left to its players (it ends as games do: a vote, a clock)
    assert unrated.view(None)["status"] == "playing"


def test_a_retried_or_raced_deletion_settles_once(
    aclient: FlaskClient, accounts_app: Flask
) -> None:
    svc = accounts_app.extensions["hanabi"]
    table, names = rated_game(aclient, 4)
    gone = account_id(aclient, table.tokens[0])
    # Four deletions at once that each die before removing the account, then one that
    # completes: the game ends once and every seat is rated once.
    barrier = threading.Barrier(4)
    errors: list[BaseException] = []

    def end() -> None:
        try:
            barrier.wait()
            svc.leaving.end_rated_games(gone)
        except BaseException as exc:
            errors.append(exc)

    threads = [threading.Thread(target=end) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert not errors
    first = table.view(None)["result"]
    assert delete_account(aclient, table.tokens[0]).status_code == 204
    assert table.view(None)["result"] == first
    for name in names[1:]:
        body = profile(aclient, name)
        assert body["rated_games"] == 1 and body["rating"] == round(1500 + LOSS, 1)
        history = aclient.get(f"{API}/players/{name}/games").get_json()["games"]
        assert [g["id"] for g in history] == [table.id]
    assert svc.store.redis.zscore(PENDING, table.id) is None
    assert not svc.store.redis.exists(rated_games_key(gone))
    # the deletion is not repeatable: the account is gone
    assert_problem(delete_account(aclient, table.tokens[0]), 401, "session_expired")


def test_a_game_ended_but_not_yet_settled_is_settled_before_the_account_goes(
    aclient: FlaskClient, accounts_app: Flask
) -> None:
    """The process that ended the game died before settling it: the deletion settles it,
    the deleted seat with it."""
    svc = accounts_app.extensions["hanabi"]
    hooks = svc.writes.hooks

    class StartOnly(Hooks):
        def starting(self, record: Any) -> None:
            hooks.starting(record)

    svc.writes.hooks = StartOnly()
    try:
        table, names = rated_game(aclient, 2)
        assert "rating_changes" not in table.end(0)["game"]["result"]
    finally:
        svc.writes.hooks = hooks
    assert delete_account(aclient, table.tokens[0]).status_code == 204
    changes = table.view(None)["result"]["rating_changes"]
    assert set(changes) == {"0", "1"}
    assert profile(aclient, names[1])["rated_games"] == 1


def test_the_index_of_rated_games_follows_the_games(
    aclient: FlaskClient, accounts_app: Flask
) -> None:
    """An account's rated games in progress: from the deal until settled, no longer."""
    redis = accounts_app.extensions["hanabi"].store.redis
    table, _ = rated_game(aclient, 2)
    ids = [account_id(aclient, token) for token in table.tokens]
    for aid in ids:
        assert redis.smembers(rated_games_key(aid)) == {table.id.encode()}
        assert rated_games_key(aid) == akey(aid, "rg")
    table.end(0)
    for aid in ids:
        assert not redis.exists(rated_games_key(aid))


def test_a_deleted_account_holds_no_seat_at_the_deal(aclient: FlaskClient) -> None:
    tokens = [session(aclient)[1] for _ in range(3)]
    table = account_table(aclient, tokens, start=False, rated=True)
    assert delete_account(aclient, tokens[1]).status_code == 204
    refused = assert_problem(table.post("/start", 0), 409, "account_deleted")
    assert "remove that seat" in refused["detail"]
    freed = aclient.delete(f"{table.url}/players/1", headers=bearer(tokens[0]))
    assert freed.status_code == 204
    assert table.post("/start", 0).status_code == 200
