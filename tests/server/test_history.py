"""History search, tags and a variant's page (docs/history.md): finished games only, tags
by the accounts that played, and nothing of a live game through any of these routes."""

from __future__ import annotations

import secrets
from typing import Any

import pytest
from account_helpers import played, seat_table, session
from api_helpers import API, assert_problem, assert_valid, bearer, make_table
from flask.testing import FlaskClient

from hanabi.server.api.schemas.history import (
    GameTagsSchema,
    SearchPageSchema,
    VariantHistorySchema,
)

pytestmark = pytest.mark.cluster  # run again on a Redis Cluster (make test-cluster)


def search(client: FlaskClient, **query: Any) -> dict[str, Any]:
    response = client.get(f"{API}/history", query_string=query)
    assert response.status_code == 200, response.get_json()
    assert_valid(SearchPageSchema, response.get_json())
    return response.get_json()


def tag(client: FlaskClient, gid: str, text: str, token: str | None) -> Any:
    return client.put(f"{API}/games/{gid}/tags/{text}", headers=bearer(token))


def test_a_game_is_searchable_once_it_ends_and_not_before(aclient: FlaskClient) -> None:
    (alice, a), (bob, b) = session(aclient), session(aclient)
    table = seat_table(aclient, [a, b])
    assert search(aclient, player=alice)["games"] == []  # on: in no search
    assert_problem(tag(aclient, table.id, "early", a), 409, "game_not_finished")
    assert_problem(aclient.get(f"{table.url}/tags"), 409, "game_not_finished")
    played(table)
    games = search(aclient, player=alice.upper())["games"]
    assert [g["game_id"] for g in games] == [table.id]
    entry = games[0]
    assert entry["players"] == [alice, bob] and entry["imported"] is False
    assert "accounts" not in entry and "seed" not in entry
    assert search(aclient, player=bob, min_score=entry["score"] + 1)["games"] == []
    assert search(aclient, player=bob, variant="No Variant")["games"] == games
    assert search(aclient, player=bob, since="2999-01-01T00:00:00Z")["games"] == []
    assert search(aclient, player=bob, until=entry["date"])["games"] == games


def test_tags_by_the_seats_accounts_only(aclient: FlaskClient) -> None:
    (_, a), (_, b), (_, stranger) = session(aclient), session(aclient), session(aclient)
    table = played(seat_table(aclient, [a, b]))
    word = "f" + secrets.token_hex(4)
    assert_problem(tag(aclient, table.id, word, None), 401, "account_required")  # spectator
    assert_problem(tag(aclient, table.id, word, stranger), 403, "not_a_player")
    assert_problem(tag(aclient, table.id, "no spaces", a), 400, "invalid_tag")
    assert_problem(tag(aclient, "nosuchgame", word, a), 404, "game_not_found")
    response = tag(aclient, table.id, "%23" + word.upper(), a)  # "#WORD"
    assert response.status_code == 200, response.get_json()
    assert_valid(GameTagsSchema, response.get_json())
    assert response.get_json()["tags"] == [{"tag": word, "count": 1, "mine": True}]
    assert tag(aclient, table.id, word, b).get_json()["tags"][0]["count"] == 2
    seen = aclient.get(f"{table.url}/tags").get_json()["tags"]  # anyone may read them
    assert seen == [{"tag": word, "count": 2, "mine": False}]
    assert [g["game_id"] for g in search(aclient, tag="#" + word)["games"]] == [table.id]
    assert search(aclient, tag=word)["games"][0]["tags"] == [word]
    aclient.delete(f"{table.url}/tags/{word}", headers=bearer(a))
    aclient.delete(f"{table.url}/tags/{word}", headers=bearer(stranger))  # not theirs: 403
    assert search(aclient, tag=word)["games"][0]["game_id"] == table.id  # bob's stays
    aclient.delete(f"{table.url}/tags/{word}", headers=bearer(b))
    assert search(aclient, tag=word)["games"] == []
    for i in range(10):
        assert tag(aclient, table.id, f"{word}{i}", a).status_code == 200
    assert_problem(tag(aclient, table.id, word + "x", a), 409, "too_many_tags")


def test_a_guests_seat_token_does_not_tag(aclient: FlaskClient) -> None:
    """Tags are an account's: a seat held by a bare seat token has none to give."""
    table = make_table(aclient, 2, seed="guests")
    table.end()
    assert_problem(tag(aclient, table.id, "mine", table.tokens[0]), 401, "account_required")
    found = search(aclient, player="p0", variant="0", limit=100)["games"]
    assert table.id in [g["game_id"] for g in found]


def test_search_pages_newest_first(aclient: FlaskClient) -> None:
    (name, a), (_, b) = session(aclient), session(aclient)
    ids = [played(seat_table(aclient, [a, b])).id for _ in range(3)]
    first = search(aclient, player=name, limit=2)
    assert [g["game_id"] for g in first["games"]] == ids[::-1][:2]
    rest = search(aclient, player=name, limit=2, cursor=first["next_cursor"])
    assert [g["game_id"] for g in rest["games"]] == ids[:1]
    assert rest["next_cursor"] is None
    bad = aclient.get(f"{API}/history", query_string={"cursor": "x"})
    assert_problem(bad, 400, "invalid_query")


def test_a_variant_page_counts_finished_games_and_missing_max_scores(
    aclient: FlaskClient,
) -> None:
    (_, a), (_, b) = session(aclient), session(aclient)
    variant = "Black (6 Suits)"  # few other tests play it
    before = aclient.get(f"{API}/history/variants/{variant}").get_json()
    live = seat_table(aclient, [a, b], variant=variant)
    table = played(seat_table(aclient, [a, b], variant=variant))
    response = aclient.get(f"{API}/history/variants/{variant}", query_string={"limit": 100})
    assert response.status_code == 200, response.get_json()
    page = response.get_json()
    assert_valid(VariantHistorySchema, page)
    assert page["variant"] == variant and page["games"] == before["games"] + 1
    assert table.id in [g["game_id"] for g in page["best"]]
    assert live.id not in [g["game_id"] for g in page["best"]]
    seed = table.view(0)["seed"]
    assert page["missing_total"] == before["missing_total"] + 1
    assert seed in page["missing_max_scores"] or page["next_cursor"]
    assert_problem(aclient.get(f"{API}/history/variants/nosuch"), 404, "variant_not_found")
