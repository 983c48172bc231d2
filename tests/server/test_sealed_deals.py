"""Sealed rated deals, one live seat per deal, and spoiled results (table/dealing.py,
table/spoilers.py, docs/seeds.md)."""

from __future__ import annotations

from typing import Any

from account_helpers import seat_table, session
from api_helpers import API, Table, assert_problem, assert_valid, bearer, make_table
from flask.testing import FlaskClient

from hanabi.server.api.schemas.seeds import SeedPageSchema
from hanabi.server.storage.record import Record
from hanabi.server.storage.seeds import seal_key
from hanabi.server.table.seeds import RANDOM_SPAN, parse


def services(client: FlaskClient) -> Any:
    return client.application.extensions["hanabi"]


def record_of(client: FlaskClient, table: Table) -> Record:
    record = services(client).store.load(table.id)
    assert record is not None
    return record


def account_of(client: FlaskClient, table: Table, seat: int) -> str:
    account = record_of(client, table).players[seat].account
    assert account is not None
    return account


def open_on(client: FlaskClient, seed: str, token: str | None = None) -> Any:
    body = {"seed": seed} if token else {"seed": seed, "name": "guest"}
    return client.post(f"{API}/games", json=body, headers=bearer(token))


def test_a_rated_table_is_dealt_a_fresh_seed_sealed_until_it_ends(aclient: FlaskClient) -> None:
    (_, a), (_, b), (_, c) = (session(aclient) for _ in range(3))
    waiting = make_table(aclient, 2, start=False, seed="p2v0s1")
    for mode in ("unplayed", "random"):
        rated = seat_table(aclient, [a, b], seed=mode, options={"rated": True})
        name = record_of(aclient, rated).seed_name
        parsed = parse(name)
        assert parsed is not None and 1 <= parsed.n <= RANDOM_SPAN
        assert parsed.n > 1000  # never the predictable low numbers `unplayed` deals
        assert services(aclient).seeds.store.sealed_by(name) == rated.id
        assert services(aclient).store.redis.ttl(seal_key(name)) == -1  # kept: committed
        assert "seed" not in rated.view(0)  # its seats learn it at the end
        # Opening a table on it, as a guest or an account: refused, naming no seed.
        for token in (None, c):
            refused = assert_problem(open_on(aclient, name, token), 409, "deal_unavailable")
            assert name not in refused["detail"]
        # A table opened on it before the seal cannot be dealt it while it holds.
        services(aclient).seeds.store.unseal(name, rated.id)
        early = make_table(aclient, 2, start=False, seed=name)
        services(aclient).seeds.store.seal(name, rated.id)
        assert_problem(early.post("/start", 0), 409, "deal_unavailable")
        # The seed page answers as for a seed never played, to its own seats too.
        page = aclient.get(f"{API}/seeds/{name}", headers=bearer(a))
        assert_problem(page, 403, "seed_not_played")
        rated.end()
        assert rated.view(0)["seed"] == name
        assert services(aclient).seeds.store.sealed_by(name) is None
        assert open_on(aclient, name, c).status_code == 201  # public now
        early.start()
    waiting.start()  # p2v0s1 was never sealed


def test_a_stale_seal_frees_itself(aclient: FlaskClient) -> None:
    deals = services(aclient).lobby.seeds
    store = deals.store
    done = make_table(aclient, 2, seed="p2v0s990001")
    done.end()
    lobby = make_table(aclient, 2, start=False)
    assert store.seal("p2v0s990002", done.id)  # its game is over: the seal is stale
    assert deals.available("p2v0s990002", None) and store.sealed_by("p2v0s990002") is None
    assert store.seal("p2v0s990003", lobby.id)  # a deal being committed: held
    assert not deals.available("p2v0s990003", None)
    assert deals.available("p2v0s990003", lobby.id)  # by the game that holds it
    assert store.seal("p2v0s990004", "nosuchgame1")  # a game gone
    assert deals.available("p2v0s990004", None)
    playing = make_table(aclient, 2, seed="p2v0s990006")
    assert store.seal("p2v0s990005", playing.id)  # in play on another seed: a retried deal
    assert deals.available("p2v0s990005", None)


def test_no_account_holds_two_live_seats_on_one_deal(aclient: FlaskClient) -> None:
    (_, a), (_, b), (_, c) = (session(aclient) for _ in range(3))
    seed = "p2v0s990010"
    live = seat_table(aclient, [a, b], seed=seed)
    # opening, as seat 0, a table on the same seed
    refused = assert_problem(open_on(aclient, seed, a), 409, "same_deal_elsewhere")
    assert seed not in refused["detail"]
    # joining one
    guest = make_table(aclient, 1, start=False, seed=seed)
    joined = aclient.post(f"{guest.url}/players", json={}, headers=bearer(b))
    assert_problem(joined, 409, "same_deal_elsewhere")
    # starting one: two lobbies on a custom seed, both joined before either starts
    first = make_table(aclient, 1, start=False, seed="friday-990")
    second = make_table(aclient, 1, start=False, seed="friday-990")
    for table in (first, second):
        took = aclient.post(f"{table.url}/players", json={}, headers=bearer(c))
        assert took.status_code == 201, took.get_json()
        table.tokens.append(took.get_json()["token"])
    first.start()
    assert_problem(second.post("/start", 0), 409, "same_deal_elsewhere")
    first.end()
    second.start()  # the first is over: its cards are no secret
    # others may play the same seed side by side; so may its players once it ends
    assert seat_table(aclient, [c, session(aclient)[1]], seed=seed).view(0)["status"]
    live.end()
    assert open_on(aclient, seed, a).status_code == 201


def test_unplayed_skips_seeds_spoiled_or_held_live(aclient: FlaskClient) -> None:
    (_, a), (_, b), (_, c), (_, d) = (session(aclient) for _ in range(4))
    spoilers = services(aclient).spoilers
    # a finished nothing; a spoiled variant 1's s1 and s3 (seen in others' games)
    for n in (1, 3):
        other = seat_table(aclient, [c, d], seed=f"p2v1s{n}", variant="six_suits")
        other.end()
        spoilers.saw(account_of(aclient, seat_table(aclient, [a], start=False), 0),
                     record_of(aclient, other))  # fmt: skip
    first = seat_table(aclient, [a, b], seed="unplayed", variant="six_suits")
    assert record_of(aclient, first).seed_name == "p2v1s2"
    # b holds s2 live now, a spoiled s1 and s3: the next unplayed for them is s4
    second = seat_table(aclient, [b, a], seed="unplayed", variant="six_suits")
    assert record_of(aclient, second).seed_name == "p2v1s4"


def test_a_spoiled_result_is_marked_ranked_last_and_off_the_boards(aclient: FlaskClient) -> None:
    (_, a), (_, b), (_, c), (_, d) = (session(aclient) for _ in range(4))
    variant = "Black (6 Suits)"  # a board of its own here
    clean = seat_table(aclient, [c, d], seed="unplayed", variant=variant)
    name = record_of(aclient, clean).seed_name
    clean.end()
    spoiled = seat_table(aclient, [a, b], seed="unplayed", variant=variant)
    assert record_of(aclient, spoiled).seed_name == name  # neither had seen it
    # The seat sees the seed's cards elsewhere (a route that let it slip) before the end.
    services(aclient).spoilers.saw(account_of(aclient, spoiled, 0), record_of(aclient, clean))
    spoiled.end()
    page = aclient.get(f"{API}/seeds/{name}", headers=bearer(a)).get_json()
    assert_valid(SeedPageSchema, page)
    results = {r["game_id"]: r for r in page["results"]}
    assert results[clean.id]["spoiled"] is False and results[clean.id]["rank"] == 1
    assert results[spoiled.id]["spoiled"] is True and results[spoiled.id]["rank"] == 2
    assert [r["game_id"] for r in page["results"]] == [clean.id, spoiled.id]
    board = aclient.get(f"{API}/leaderboards", query_string={"variant": variant}).get_json()
    ids = {e["game_id"] for e in board["entries"]}
    assert clean.id in ids and spoiled.id not in ids
