"""Rated games are fair (issue 36, items 9 and 10): the standard rules only, and no rating
farmed with new accounts or with one account in two seats."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from account_helpers import FAST, account_table, session
from api_helpers import API, assert_problem, bearer
from flask import Flask
from flask.testing import FlaskClient

from hanabi.game import Options
from hanabi.server import create_app
from hanabi.server.api.refusals import status_of
from hanabi.server.api.schemas.requests import OptionsSchema
from hanabi.server.ops.config import SETTINGS
from hanabi.server.storage.accounts import AccountStore, akey
from hanabi.server.storage.record import Player, Record
from hanabi.server.storage.store import now_ms
from hanabi.server.table import rated, ratings
from hanabi.server.table.refusals import Refused
from hanabi.server.table.settle import is_rated

HOUR_MS = 3600 * 1000

# -- item 9: the standard rules ----------------------------------------------------------


@pytest.mark.parametrize("option", ["strikeout_keeps_score", "empty_clues"])
def test_a_rated_table_refuses_options_that_change_the_rules(
    aclient: FlaskClient, option: str
) -> None:
    _, token = session(aclient)
    body = {"options": {"rated": True, option: True}}
    refused = assert_problem(
        aclient.post(f"{API}/games", json=body, headers=bearer(token)), 409, "option_not_rated"
    )
    assert option in refused["detail"]
    # the option off, or the table unrated: fine
    for fine in ({"rated": True, option: False}, {option: True}):
        made = aclient.post(f"{API}/games", json={"options": fine}, headers=bearer(token))
        assert made.status_code == 201, made.get_json()


def test_every_option_is_classified_for_rated_games() -> None:
    """A new option must be put on one side: it changes the rules, or it does not."""
    fields = set(OptionsSchema().fields)
    engine = set(Options.__dataclass_fields__)
    classified = set(ratings.NON_STANDARD_OPTIONS) | set(ratings.STANDARD_OPTIONS)
    assert classified == fields | engine  # the API's options and the engine's, no more
    assert not set(ratings.NON_STANDARD_OPTIONS) & set(ratings.STANDARD_OPTIONS)
    # every engine option is a rule on which the rule books disagree: none is rated
    assert engine <= set(ratings.NON_STANDARD_OPTIONS)


def lobby_record(options: dict[str, bool], status: str = "lobby") -> Record:
    """A rated table as a server before the fix stored it (two accounts seated)."""
    players = [Player("ann", None, "h0", "a" * 16), Player("bob", None, "h1", "b" * 16)]
    return Record("g1", status, "no_variant", options, 5, "s", None, 0, 0, 0, players, rated=True)


def test_a_table_stored_with_such_an_option_neither_starts_nor_counts() -> None:
    options = {"empty_clues": False, "strikeout_keeps_score": True}
    with pytest.raises(Refused) as refused:
        rated.check_options(lobby_record(options).options)
    assert refused.value.code == "option_not_rated" and status_of(refused.value) == 409
    finished = lobby_record(options, "finished")
    assert not is_rated(finished)
    finished.options = {"empty_clues": False, "strikeout_keeps_score": False}
    assert is_rated(finished)


# -- item 10: eligible accounts ------------------------------------------------------------


def test_the_defaults_are_a_day_and_three_games() -> None:
    assert SETTINGS["HANABI_RATED_MIN_AGE_H"][0] == 24
    assert SETTINGS["HANABI_RATED_MIN_GAMES"][0] == 3


@pytest.fixture(scope="module")
def strict_app(redis_url: str) -> Iterator[Flask]:
    """The app with the eligibility rules at their defaults (the test run relaxes them)."""
    app = create_app(
        {
            "REDIS_URL": redis_url,
            **FAST,
            "HANABI_RATED_MIN_AGE_H": SETTINGS["HANABI_RATED_MIN_AGE_H"][0],
            "HANABI_RATED_MIN_GAMES": SETTINGS["HANABI_RATED_MIN_GAMES"][0],
        }
    )
    app.testing = True
    yield app


@pytest.fixture
def strict(strict_app: Flask) -> FlaskClient:
    return strict_app.test_client()


def account_id(client: FlaskClient, token: str) -> str:
    return client.get(f"{API}/accounts/me", headers=bearer(token)).get_json()["id"]


def backdate(client: FlaskClient, token: str, hours: float) -> None:
    """The test's own storage as a fixture: the account was created ``hours`` ago."""
    redis = client.application.extensions["hanabi"].store.redis
    created = now_ms() - int(hours * HOUR_MS)
    redis.hset(akey(account_id(client, token), "a"), "created", created)


def play_unrated(client: FlaskClient, tokens: list[str], games: int) -> None:
    """Unrated games played to their end (by vote) with every account in ``tokens``."""
    for _ in range(games):
        account_table(client, tokens).end(0)


def test_a_rated_table_needs_accounts_a_day_old(strict: FlaskClient) -> None:
    _, ann = session(strict)
    _, bob = session(strict)
    play_unrated(strict, [ann, bob], 3)
    refused = assert_problem(
        strict.post(f"{API}/games", json={"options": {"rated": True}}, headers=bearer(ann)),
        409,
        "account_too_new",
    )
    assert "24 hours" in refused["detail"]
    backdate(strict, ann, 25)
    table = account_table(strict, [ann], start=False, rated=True)
    # Bob is as new: he cannot take the second seat; a day later he can.
    joined = strict.post(f"{table.url}/players", json={}, headers=bearer(bob))
    assert_problem(joined, 409, "account_too_new")
    backdate(strict, bob, 24.1)
    joined = strict.post(f"{table.url}/players", json={}, headers=bearer(bob))
    assert joined.status_code == 201, joined.get_json()
    assert strict.post(f"{table.url}/start", headers=bearer(ann)).status_code == 200


def test_a_rated_table_needs_three_finished_unrated_games(strict: FlaskClient) -> None:
    names, tokens = zip(*(session(strict) for _ in range(3)))
    for token in tokens:
        backdate(strict, token, 48)
    ann, bob, cat = tokens
    play_unrated(strict, [ann, bob], 2)
    play_unrated(strict, [ann, cat], 1)
    # a game still in progress does not count
    account_table(strict, [bob, cat])
    body = {"options": {"rated": True}}
    refused = strict.post(f"{API}/games", json=body, headers=bearer(bob))
    detail = assert_problem(refused, 409, "not_enough_games")["detail"]
    assert f"{names[1]} has finished 2 of the 3" in detail
    table = account_table(strict, [ann], start=False, rated=True)  # Ann has played 3
    assert_problem(
        strict.post(f"{table.url}/players", json={}, headers=bearer(cat)), 409, "not_enough_games"
    )
    play_unrated(strict, [bob, cat], 2)
    for token in (bob, cat):
        joined = strict.post(f"{table.url}/players", json={}, headers=bearer(token))
        assert joined.status_code == 201, joined.get_json()
    assert strict.post(f"{table.url}/start", headers=bearer(ann)).status_code == 200


def test_one_account_holds_one_seat(aclient: FlaskClient) -> None:
    _, ann = session(aclient)
    table = account_table(aclient, [ann], start=False, rated=True)
    again = aclient.post(f"{table.url}/players", json={}, headers=bearer(ann))
    assert_problem(again, 409, "already_seated")
    # nor under another credential of the same account (an API key)
    key = aclient.post(f"{API}/accounts/me/keys", json={"name": "k"}, headers=bearer(ann))
    by_key = aclient.post(f"{table.url}/players", json={}, headers=bearer(key.get_json()["key"]))
    assert_problem(by_key, 409, "already_seated")


def test_the_start_checks_every_seat_again() -> None:
    """A table seated before the rules (or a record written otherwise) with one account
    twice is not dealt."""
    record = lobby_record({"empty_clues": False, "strikeout_keeps_score": False})
    record.players[1].account = record.players[0].account
    with pytest.raises(Refused) as refused:
        rated.check_distinct(record)
    assert refused.value.code == "already_seated"


def test_finished_unrated_games_are_counted_in_one_field(
    aclient: FlaskClient, accounts_app: Flask
) -> None:
    redis = accounts_app.extensions["hanabi"].store.redis
    _, ann = session(aclient)
    _, bob = session(aclient)
    aid = account_id(aclient, ann)
    play_unrated(aclient, [ann, bob], 2)
    account_table(aclient, [ann, bob], rated=True).end(0)  # a rated game: not counted
    assert AccountStore(redis).unrated_games(aid) == 2
    assert redis.hget(akey(aid, "a"), "unrated_games") == b"2"
    # An account from before the counter: counted from its statistics, then kept.
    redis.hdel(akey(aid, "a"), "unrated_games")
    assert AccountStore(redis).unrated_games(aid) == 2
    play_unrated(aclient, [ann, bob], 1)
    assert redis.hget(akey(aid, "a"), "unrated_games") == b"3"
    assert AccountStore(redis).unrated_games(aid) == 3
