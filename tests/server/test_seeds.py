"""Seeds (docs/seeds.md): every deal's public name, tables asking for an unplayed or a named
seed, and a seed's results, shown only to accounts that finished it."""

from __future__ import annotations

import random
import re
from typing import Any

import pytest
from account_helpers import seat_table, session
from api_helpers import API, Table, assert_problem, assert_valid, bearer, make_table
from flask.testing import FlaskClient
from test_redaction import Checker, _pick

from hanabi.game import Action, Game, Setup, get_variant
from hanabi.server.api.schemas.seeds import SeedPageSchema
from hanabi.server.storage.keys import game_keys
from hanabi.server.storage.seeds import member_of, rank_score
from hanabi.server.table.seeds import SeedName, named_deck, parse

pytestmark = pytest.mark.cluster  # run again on a Redis Cluster (make test-cluster)


def dealt(client: FlaskClient, table: Table) -> str:
    """The seed a table in play was dealt, as stored (its seats see it once it is over)."""
    record = client.application.extensions["hanabi"].store.load(table.id)
    return record.seed_name


def seed_page(client: FlaskClient, name: str, token: str | None, **query: Any) -> Any:
    return client.get(f"{API}/seeds/{name}", query_string=query, headers=bearer(token))


def test_names_round_trip_one_spelling_each() -> None:
    assert str(parse("p2v0s17")) == "p2v0s17"
    assert parse("p6v1234s1") == SeedName(6, 1234, 1)
    for bad in ("p1v0s1", "p7v0s1", "p2v0s0", "p2v00s1", "p2v0s01", "p2v0", "x", "p2v0s1 "):
        assert parse(bad) is None, bad


def test_a_deal_is_the_name_and_the_secret() -> None:
    variant = get_variant("no_variant")
    one = named_deck(variant, "secret", "p2v0s1")
    assert one == named_deck(variant, "secret", "p2v0s1")
    assert one != named_deck(variant, "secret", "p2v0s2")
    assert one != named_deck(variant, "another", "p2v0s1")  # the name alone tells nothing
    # an old id and its hanab.live variant deal the same cards (suit by suit, rank by rank)
    alias, catalogued = get_variant("rainbow"), get_variant("Rainbow (6 Suits)")
    decks = [named_deck(v, "secret", "p2v3s9") for v in (alias, catalogued)]
    positions = [[([s.id for s in v.suits].index(suit), rank) for suit, rank in deck]
                 for v, deck in zip((alias, catalogued), decks, strict=True)]  # fmt: skip
    assert positions[0] == positions[1]


def test_every_table_is_dealt_a_named_seed_shown_to_its_seats_only(client: FlaskClient) -> None:
    table = make_table(client, 2, start=False)
    assert table.view(0)["seed"] == "random"
    table.start()
    assert "seed" not in table.view(0)  # a name dealt again shows the deal: not while on
    listed = client.get(f"{API}/games", query_string={"status": "playing"}).get_json()
    assert all("seed" not in g for g in listed["games"])
    table.end()
    view = table.view(0)
    assert re.fullmatch(r"p2v0s[1-9]\d*", view["seed"]), view["seed"]
    assert table.view(1)["seed"] == view["seed"] and view["custom_deal"] is False
    assert "seed" not in table.view(None)  # a spectator could later watch its replay
    old_style = make_table(client, 2, seed="friday-night")  # a custom seed, as before
    assert "seed" not in old_style.view(0) and old_style.view(0)["custom_deal"] is True


def test_a_named_seed_deals_the_same_cards_every_time(client: FlaskClient) -> None:
    hands = []
    for _ in range(2):
        table = make_table(client, 2, seed="p2v0s424242")
        view = table.view(1)
        assert view["seed"] == "p2v0s424242" and view["custom_deal"] is True
        hands.append(view["hands"][0])  # seat 1 sees seat 0's cards
    other = make_table(client, 2, seed="p2v0s424243").view(1)["hands"][0]
    assert hands[0] == hands[1] != other


@pytest.mark.parametrize(
    ("create", "status", "code"),
    [
        ({"seed": "p3v0s1", "max_players": 2}, 400, "seed_players"),
        ({"seed": "p2v3s1"}, 400, "seed_variant"),  # v3 is Rainbow; the table is No Variant
        ({"seed": "unplayed", "variant": "wild_rainbow"}, 400, "seed_variant"),
        ({"seed": "unplayed", "deck": [{"suit": "red", "rank": 1}]}, 400, "seed_with_deck"),
    ],
)
def test_seed_choices_refused(client: FlaskClient, create: dict, status: int, code: str) -> None:
    assert_problem(client.post(f"{API}/games", json={"name": "a", **create}), status, code)


def test_a_named_seed_needs_its_table_size(client: FlaskClient) -> None:
    table = make_table(client, 2, start=False, seed="p3v0s1")
    assert_problem(table.post("/start", 0), 409, "seed_players_seated")


def test_unplayed_and_the_secrecy_of_results(aclient: FlaskClient) -> None:
    (_, a), (_, b), (_, c), (_, d) = (session(aclient) for _ in range(4))
    first = seat_table(aclient, [a, b], seed="unplayed")
    name = dealt(aclient, first)
    assert name == "p2v0s1"  # nobody seated has played any: the lowest
    # While it goes on: nobody sees the seed's results, those at the table least of all,
    # who are not told which seed it is (the answer for any seed they never finished).
    assert_problem(seed_page(aclient, name, a), 403, "seed_not_played")
    assert_problem(seed_page(aclient, name, c), 403, "seed_not_played")
    assert_problem(seed_page(aclient, name, None), 401, "account_required")
    assert_problem(seed_page(aclient, "p2v0s01", a), 400, "invalid_seed_name")
    # With one of them: the next seed; without them, s1 again (c holds s2 now).
    assert dealt(aclient, seat_table(aclient, [a, c], seed="unplayed")) == "p2v0s2"
    assert dealt(aclient, seat_table(aclient, [d, c], seed="unplayed")) == "p2v0s1"
    first.end()
    page = seed_page(aclient, name, b)
    assert page.status_code == 200, page.get_json()
    body = page.get_json()
    assert_valid(SeedPageSchema, body)
    assert body["seed"] == name and body["variant_id"] == 0 and body["players"] == 2
    mine = [r for r in body["results"] if r["game_id"] == first.id]
    assert len(mine) == 1 and mine[0]["replay"].endswith(f"/games/{first.id}/replay")
    assert set(mine[0]) >= {"players", "score", "turns", "date", "rank"}
    # the export names no seed: a public replay is never tied to a name others may be dealt
    export = aclient.get(f"{API}/games/{first.id}/export", headers=bearer(b)).get_json()
    assert export["seed"] != name
    # a still has a game on s2, none on s1: s1's page is theirs now too.
    assert seed_page(aclient, name, a).status_code == 200
    # Playing s1 again (by name) changes nothing for b, who finished it (the page has no
    # "in play" answer); for d, playing it with c and never finished, it answers as for
    # a seed never played. c may not sit at a second live game on s1.
    again = seat_table(aclient, [b, a], start=False, seed=name)
    joined = aclient.post(f"{API}/games/{again.id}/players", json={}, headers=bearer(c))
    assert_problem(joined, 409, "same_deal_elsewhere")
    again.start()
    assert seed_page(aclient, name, b).status_code == 200
    assert_problem(seed_page(aclient, name, d), 403, "seed_not_played")
    again.end()
    assert seed_page(aclient, name, b).get_json()["total"] == body["total"] + 1


def test_results_best_first_a_page_at_a_time(aclient: FlaskClient, accounts_app: Any) -> None:
    (_, a), (_, b) = session(aclient), session(aclient)
    table = seat_table(aclient, [a, b], seed="p2v0s777001")
    table.end()
    store = accounts_app.extensions["hanabi"].results.store
    name = "p2v0s777001"
    for i, (score, turns) in enumerate([(25, 60), (25, 50), (10, 30), (25, 50)]):
        entry = {"game_id": f"g{i}", "seed": name, "players": ["x", "y"], "bots": 0,
                 "score": score, "max_score": 25, "turns": turns, "date": "d", "replay": "r"}  # fmt: skip
        store.add_result(name, member_of(1000 + i, f"g{i}"), rank_score(score, turns), entry)
    first = seed_page(aclient, name, a, limit=2).get_json()
    assert [r["game_id"] for r in first["results"]] == ["g1", "g3"]  # 25 in 50, the earlier
    assert [r["rank"] for r in first["results"]] == [1, 2] and first["total"] == 5
    rest = seed_page(aclient, name, a, limit=10, cursor=first["next_cursor"]).get_json()
    assert [r["game_id"] for r in rest["results"]] == ["g0", "g2", table.id]
    assert rest["next_cursor"] is None and rest["results"][0]["rank"] == 3
    assert_problem(seed_page(aclient, name, a, cursor="x"), 400, "invalid_query")


def test_a_seed_in_play_answers_as_one_never_played(
    aclient: FlaskClient, accounts_app: Any
) -> None:
    (_, a), (_, b) = session(aclient), session(aclient)
    seed, never = "p2v0s777002", "p2v0s777003"
    table = seat_table(aclient, [a, b], seed=seed)
    playing = assert_problem(seed_page(aclient, seed, a), 403, "seed_not_played")
    other = assert_problem(seed_page(aclient, never, a), 403, "seed_not_played")
    assert playing["detail"].replace(seed, never) == other["detail"]
    services = accounts_app.extensions["hanabi"]
    account = services.store.load(table.id).players[0].account
    services.store.redis.delete(*game_keys(table.id))  # as if it expired unfinished
    services.reads.records.pop(table.id)
    assert_problem(seed_page(aclient, seed, a), 403, "seed_not_played")
    assert services.seeds.store.standing(account, seed) == (False, [])  # its mark dropped


def test_a_named_seed_game_shows_no_seat_its_own_cards(
    aclient: FlaskClient, accounts_app: Any
) -> None:
    """A whole game on a named seed, checked like tests/server/test_redaction.py: no view,
    no move's answer and no seed page answer shows a seat a card it holds."""
    (_, a), (_, b) = session(aclient), session(aclient)
    seed = "p2v0s31337"
    table = seat_table(aclient, [a, b], seed=seed)
    secret = accounts_app.extensions["hanabi"].results.store.secret()
    names = [p["name"] for p in table.view(0)["players"]]
    deck = named_deck(get_variant("no_variant"), secret, seed)
    checker = Checker(Game(Setup.create("no_variant", names, None, "x", deck)))
    rng = random.Random(seed)
    while not checker.shadow.is_over:
        seat = checker.shadow.current
        response = table.get(seat)
        checker.check(seat, response)
        checker.check(1 - seat, table.get(1 - seat))
        checker.check(seat, seed_page(aclient, seed, table.tokens[seat]))
        action = _pick(rng, response.get_json()["legal_actions"])
        moved = table.act(seat, response.get_json()["turn"], **action)
        assert moved.status_code == 201, moved.get_json()
        checker.shadow.apply(Action.from_dict(action), seat)
        checker.check(seat, moved)
    assert checker.checked > 60
    assert table.view(0)["result"] == checker.shadow.result  # the deal was the name's
    assert seed_page(aclient, seed, a).status_code == 200


def test_a_game_just_ended_opens_its_seed_before_settling_records_it(
    aclient: FlaskClient, accounts_app: Any
) -> None:
    """Its players' pages open as soon as the game ends (settling may still be under way
    in another process: the browser asks for the page the moment it sees the end)."""
    (_, a), (_, b) = session(aclient), session(aclient)
    seed = "p2v0s777003"
    table = seat_table(aclient, [a, b], seed=seed)
    services = accounts_app.extensions["hanabi"]
    results, services.settler.results = services.settler.results, None  # not recorded yet
    try:
        table.end()
    finally:
        services.settler.results = results
    page = seed_page(aclient, seed, a)
    assert page.status_code == 200 and page.get_json()["total"] == 0
