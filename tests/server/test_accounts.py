"""Accounts, sessions, API keys, login throttling, deletion and seat binding."""

from __future__ import annotations

import time

import pytest
from account_helpers import (
    PASSWORD,
    account_table,
    login,
    register,
    session,
    username,
)
from api_helpers import API, assert_problem, assert_valid, bearer, make_table
from flask import Flask
from flask.testing import FlaskClient

from hanabi.server import create_app
from hanabi.server.api.schemas import accounts as a

pytestmark = pytest.mark.cluster  # run again on a Redis Cluster (make test-cluster)


def test_register_and_me(aclient: FlaskClient) -> None:
    name = username("Ann")
    response = aclient.post(f"{API}/accounts", json={"username": name, "password": PASSWORD})
    assert response.status_code == 201
    body = response.get_json()
    assert_valid(a.AccountSchema, body)
    # Stored in lower case (the one form of a name), and found in any case.
    assert body["username"] == name.lower()
    assert body["rating"] == 1500 and body["rated_games"] == 0
    assert "password" not in body and "pw" not in body
    token = login(aclient, name).get_json()["token"]
    me = aclient.get(f"{API}/accounts/me", headers=bearer(token))
    assert me.status_code == 200 and me.get_json()["id"] == body["id"]


def test_usernames_are_unique_whatever_the_case(aclient: FlaskClient) -> None:
    name = register(aclient)
    again = aclient.post(f"{API}/accounts", json={"username": name.upper(), "password": PASSWORD})
    assert_problem(again, 409, "username_taken")


@pytest.mark.parametrize(
    "body",
    [
        {"username": "ab", "password": PASSWORD},
        {"username": "has space", "password": PASSWORD},
        {"username": "x" * 21, "password": PASSWORD},
        {"username": "okname", "password": "short"},
    ],
)
def test_registration_is_validated(aclient: FlaskClient, body: dict[str, str]) -> None:
    assert_problem(aclient.post(f"{API}/accounts", json=body), 400, "validation_error")


@pytest.mark.parametrize(
    "suffix", ["\n", "\r\n", " ", "\u200b", "\u00e5", ".", "!", "\u00df", "x" * 12]
)
def test_a_username_is_matched_whole(aclient: FlaskClient, suffix: str) -> None:
    name = username("n")  # 11 characters: with 12 more, too long
    response = aclient.post(
        f"{API}/accounts", json={"username": name + suffix, "password": PASSWORD}
    )
    body = assert_problem(response, 400, "validation_error")
    assert "lower-case letters a-z" in body["detail"]
    assert login(aclient, name).status_code == 401  # nothing was registered


def test_a_username_is_stored_nfkc_and_lower_case(aclient: FlaskClient) -> None:
    name = username("w")
    wide = "".join(chr(ord(c) + 0xFEE0) for c in name.upper())  # full-width capitals
    response = aclient.post(f"{API}/accounts", json={"username": wide, "password": PASSWORD})
    assert response.status_code == 201 and response.get_json()["username"] == name
    for form in (name, name.upper(), name.capitalize()):
        again = aclient.post(f"{API}/accounts", json={"username": form, "password": PASSWORD})
        assert_problem(again, 409, "username_taken")
        assert login(aclient, form).status_code == 201
    assert aclient.get(f"{API}/players/{name.upper()}").get_json()["username"] == name
    ligature = aclient.post(
        f"{API}/accounts", json={"username": "\ufb01" + name[2:], "password": PASSWORD}
    )
    assert ligature.status_code == 201 and ligature.get_json()["username"] == "fi" + name[2:]


def test_the_password_is_stored_as_argon2id(accounts_app: Flask, aclient: FlaskClient) -> None:
    name = register(aclient)
    registry = accounts_app.extensions["hanabi"].accounts
    stored = registry.store.fields(registry.by_name(name))["pw"]
    assert stored.startswith("$argon2id$") and PASSWORD not in stored


def test_wrong_password_and_unknown_user_answer_alike(
    accounts_app: Flask, aclient: FlaskClient
) -> None:
    name = register(aclient)
    wrong = login(aclient, name, "wrong password", environ_base={"REMOTE_ADDR": "10.0.0.1"})
    unknown = login(aclient, username(), PASSWORD, environ_base={"REMOTE_ADDR": "10.0.0.2"})
    body_wrong = assert_problem(wrong, 401, "invalid_credentials")
    body_unknown = assert_problem(unknown, 401, "invalid_credentials")
    assert body_wrong["detail"] == body_unknown["detail"]
    # The same time: an unknown name is verified against a dummy hash of the same cost.
    registry = accounts_app.extensions["hanabi"].accounts
    assert registry.hasher.check_needs_rehash(registry.dummy) is False


def test_session_tokens_are_random_and_stored_hashed(
    accounts_app: Flask, aclient: FlaskClient
) -> None:
    name, token = session(aclient)
    assert token.startswith("hs.") and len(token) >= 3 + 32  # 192 random bits
    redis = accounts_app.extensions["hanabi"].store.redis
    assert not any(token.encode() in k for k in redis.keys("hanabi:session:*"))
    registry = accounts_app.extensions["hanabi"].accounts
    held = redis.hgetall("{acct:" + registry.by_name(name) + "}:s")
    assert len(held) == 1 and token.encode() not in next(iter(held))


def test_sessions_slide_and_expire(accounts_app: Flask, aclient: FlaskClient) -> None:
    name, token = session(aclient)
    registry = accounts_app.extensions["hanabi"].accounts
    aid = registry.by_name(name)
    redis = registry.store.redis
    key = "{acct:" + aid + "}:s"
    hashed = next(iter(redis.hkeys(key)))
    # Pretend the session is 2 days into its life: a use moves it to a full 30 days.
    redis.hset(key, hashed, int(time.time() * 1000) + 28 * 86_400_000)
    assert aclient.get(f"{API}/accounts/me", headers=bearer(token)).status_code == 200
    slid = int(redis.hget(key, hashed))
    assert slid > int(time.time() * 1000) + 29 * 86_400_000
    # Past its expiry it no longer works.
    redis.hset(key, hashed, int(time.time() * 1000) - 1)
    expired = aclient.get(f"{API}/accounts/me", headers=bearer(token))
    assert_problem(expired, 401, "session_expired")


def test_logout_ends_the_session(aclient: FlaskClient) -> None:
    _, token = session(aclient)
    assert aclient.delete(f"{API}/sessions/current", headers=bearer(token)).status_code == 204
    assert_problem(aclient.get(f"{API}/accounts/me", headers=bearer(token)), 401, "session_expired")


def test_failed_logins_are_throttled_per_account_and_address(aclient: FlaskClient) -> None:
    name = register(aclient)
    stranger = {"REMOTE_ADDR": "10.1.0.1"}
    for _ in range(10):  # HANABI_LOGIN_FAILS_PAIR
        assert_problem(
            login(aclient, name, "nope nope", environ_base=stranger), 401, "invalid_credentials"
        )
    blocked = login(aclient, name, PASSWORD, environ_base=stranger)
    body = assert_problem(blocked, 429, "too_many_failed_logins")
    assert 1 <= int(blocked.headers["Retry-After"]) <= 900
    assert "this account from this address" in body["detail"]
    # The owner, elsewhere, is not locked out by the stranger; nor is another account.
    assert login(aclient, name, environ_base={"REMOTE_ADDR": "10.1.1.1"}).status_code == 201
    other = register(aclient)
    assert login(aclient, other, environ_base=stranger).status_code == 201


def test_failed_logins_are_throttled_per_address(aclient: FlaskClient) -> None:
    env = {"REMOTE_ADDR": "10.2.0.1"}  # the limit is per address whatever HANABI_LIMITS says
    for _ in range(20):  # HANABI_LOGIN_FAILS_ADDR, over many names
        assert_problem(
            login(aclient, username(), "nope nope", environ_base=env), 401, "invalid_credentials"
        )
    name = register(aclient)
    assert_problem(login(aclient, name, environ_base=env), 429, "too_many_failed_logins")
    assert login(aclient, name, environ_base={"REMOTE_ADDR": "10.2.0.2"}).status_code == 201


def test_api_keys_work_until_revoked(aclient: FlaskClient) -> None:
    name, token = session(aclient)
    created = aclient.post(
        f"{API}/accounts/me/keys", json={"name": "my bot"}, headers=bearer(token)
    )
    assert created.status_code == 201
    key = created.get_json()
    assert_valid(a.NewKeySchema, key)
    assert key["key"].startswith("hk.")
    listed = aclient.get(f"{API}/accounts/me/keys", headers=bearer(token)).get_json()
    assert listed == {"keys": [{"id": key["id"], "name": "my bot", "created": key["created"]}]}
    me = aclient.get(f"{API}/accounts/me", headers=bearer(key["key"]))
    assert me.status_code == 200 and me.get_json()["username"] == name
    gone = aclient.delete(f"{API}/accounts/me/keys/{key['id']}", headers=bearer(token))
    assert gone.status_code == 204
    assert_problem(
        aclient.get(f"{API}/accounts/me", headers=bearer(key["key"])), 401, "invalid_api_key"
    )
    again = aclient.delete(f"{API}/accounts/me/keys/{key['id']}", headers=bearer(token))
    assert_problem(again, 404, "key_not_found")


def test_a_revoked_key_no_longer_acts_for_its_seat(aclient: FlaskClient) -> None:
    _, token = session(aclient)
    key = aclient.post(f"{API}/accounts/me/keys", json={"name": "k"}, headers=bearer(token))
    secret = key.get_json()["key"]
    _, other = session(aclient)
    table = account_table(aclient, [secret, other], start=False)
    assert table.get(0).get_json()["you"] == 0
    aclient.delete(f"{API}/accounts/me/keys/{key.get_json()['id']}", headers=bearer(token))
    assert_problem(table.get(0), 401, "invalid_api_key")
    # The session of the same account still holds the seat.
    assert aclient.get(table.url, headers=bearer(token)).get_json()["you"] == 0


def test_password_change_ends_the_other_sessions(aclient: FlaskClient) -> None:
    name, first = session(aclient)
    second = login(aclient, name).get_json()["token"]
    body = {"old_password": "not it at all", "password": "a new password"}
    assert_problem(
        aclient.patch(f"{API}/accounts/me", json=body, headers=bearer(first)),
        401,
        "invalid_credentials",
    )
    body["old_password"] = PASSWORD
    assert aclient.patch(f"{API}/accounts/me", json=body, headers=bearer(first)).status_code == 204
    assert aclient.get(f"{API}/accounts/me", headers=bearer(first)).status_code == 200
    assert_problem(
        aclient.get(f"{API}/accounts/me", headers=bearer(second)), 401, "session_expired"
    )
    assert login(aclient, name).status_code == 401
    assert login(aclient, name, "a new password").status_code == 201


def test_deleting_an_account(accounts_app: Flask, aclient: FlaskClient) -> None:
    name, token = session(aclient)
    _, other = session(aclient)
    key = aclient.post(f"{API}/accounts/me/keys", json={"name": "k"}, headers=bearer(token))
    table = account_table(aclient, [token, other])
    table.end(1)
    assert aclient.get(f"{API}/players/{name}").status_code == 200
    wrong = aclient.delete(
        f"{API}/accounts/me", json={"password": "nope nope"}, headers=bearer(token)
    )
    assert_problem(wrong, 401, "invalid_credentials")
    done = aclient.delete(f"{API}/accounts/me", json={"password": PASSWORD}, headers=bearer(token))
    assert done.status_code == 204
    assert_problem(aclient.get(f"{API}/accounts/me", headers=bearer(token)), 401, "session_expired")
    revoked = aclient.get(f"{API}/accounts/me", headers=bearer(key.get_json()["key"]))
    assert_problem(revoked, 401, "invalid_api_key")
    assert_problem(aclient.get(f"{API}/players/{name}"), 404, "player_not_found")
    assert login(aclient, name).status_code == 401
    redis = accounts_app.extensions["hanabi"].store.redis
    registry = accounts_app.extensions["hanabi"].accounts
    assert registry.by_name(name) is None
    # The finished game keeps the seat's name as it was played.
    players = aclient.get(table.url).get_json()["players"]
    assert players[0]["name"] == name
    # The name stays taken for 30 days (a new account under it would start at 1500) ...
    again = aclient.post(f"{API}/accounts", json={"username": name, "password": PASSWORD})
    assert "deleted recently" in assert_problem(again, 409, "username_taken")["detail"]
    held = "hanabi:user:" + name
    assert 29 * 86_400 < redis.ttl(held) <= 30 * 86_400
    # ... then it is free for someone new, who starts afresh.
    redis.delete(held)  # as 30 days would
    register(aclient, name)
    assert aclient.get(f"{API}/players/{name}").get_json()["stats"] == {}
    assert registry.by_name(name) is not None


def test_seats_bind_to_accounts(aclient: FlaskClient) -> None:
    ann, ann_token = session(aclient)
    bob, bob_token = session(aclient)
    created = aclient.post(
        f"{API}/games", json={"name": "ignored"}, headers=bearer(ann_token)
    ).get_json()
    assert created["seat"] == 0 and created["game"]["players"][0]["name"] == ann
    joined = aclient.post(
        f"{API}/games/{created['id']}/players", json={}, headers=bearer(bob_token)
    ).get_json()
    assert joined["seat"] == 1 and joined["game"]["players"][1]["name"] == bob
    url = f"{API}/games/{created['id']}"
    # The account's credential acts for its seat; the seat token still works too.
    assert aclient.get(url, headers=bearer(ann_token)).get_json()["you"] == 0
    assert aclient.get(url, headers=bearer(created["token"])).get_json()["you"] == 0
    assert aclient.get(url, headers=bearer(bob_token)).get_json()["you"] == 1
    start = aclient.post(f"{url}/start", headers=bearer(ann_token))
    assert start.status_code == 200
    view = aclient.get(url, headers=bearer(bob_token)).get_json()
    assert view["current_seat"] == 0
    legal = aclient.get(url, headers=bearer(ann_token)).get_json()["legal_actions"][0]
    act = aclient.post(f"{url}/actions", json={"turn": 0, **legal}, headers=bearer(ann_token))
    assert act.status_code == 201
    # A third account holds no seat here: its credential watches, as a spectator
    # (docs/watching.md: an unrated table shows it every hand).
    _, eve = session(aclient)
    watched = aclient.get(url, headers=bearer(eve)).get_json()
    assert watched["you"] is None and watched["legal_actions"] == []
    assert watched["spectating"] == "hands"
    assert all(c["suit"] is not None for hand in watched["hands"] for c in hand)


def test_account_seats_see_only_what_their_seat_may(aclient: FlaskClient) -> None:
    _, ann = session(aclient)
    _, bob = session(aclient)
    table = account_table(aclient, [ann, bob])
    for me, token in ((0, ann), (1, bob)):
        view = aclient.get(table.url, headers=bearer(token)).get_json()
        assert view["you"] == me
        assert all(card.get("suit") is None for card in view["hands"][me])
        other = view["hands"][1 - me]
        assert all(card.get("suit") is not None for card in other)
        events = aclient.get(f"{table.url}/events", headers=bearer(token)).get_json()["events"]
        draws = [e for e in events if e["type"] == "draw" and e.get("seat") == me]
        assert draws and all(e["suit"] is None and e["rank"] is None for e in draws)


def test_a_credential_cannot_pose_as_a_principal(aclient: FlaskClient) -> None:
    table = make_table(aclient, 2)
    response = aclient.get(table.url, headers=bearer("acct:whatever"))
    assert_problem(response, 401, "invalid_auth")


def test_guests_still_need_a_name(aclient: FlaskClient) -> None:
    assert_problem(aclient.post(f"{API}/games", json={}), 401, "name_required")


def test_default_argon2_parameters(redis_url: str) -> None:
    app = create_app({"REDIS_URL": redis_url, "HANABI_SETTLE_SWEEP": 0})
    hasher = app.extensions["hanabi"].accounts.hasher
    assert (hasher.time_cost, hasher.memory_cost, hasher.parallelism) == (3, 65536, 4)
