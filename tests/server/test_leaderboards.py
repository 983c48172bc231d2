"""Leaderboards and players' counts (docs/seeds.md): recorded as games settle, best first,
a page at a time, fair games only, and no seed names on a board."""

from __future__ import annotations

from typing import Any

from account_helpers import seat_table, session
from api_helpers import API, assert_problem, assert_valid
from flask.testing import FlaskClient

from hanabi.server.api.schemas.seeds import LeaderboardSchema, PlayerStatsSchema
from hanabi.server.storage.seeds import member_of, rank_score


def board(client: FlaskClient, **query: Any) -> Any:
    return client.get(f"{API}/leaderboards", query_string=query)


def every_entry(client: FlaskClient, **query: Any) -> list[dict[str, Any]]:
    """The whole board, page after page (other tests' games are on it too)."""
    out: list[dict[str, Any]] = []
    cursor = None
    while True:
        page = board(client, limit=100, **query, **({"cursor": cursor} if cursor else {}))
        out += page.get_json()["entries"]
        if (cursor := page.get_json()["next_cursor"]) is None:
            return out


def test_a_settled_game_is_on_its_board_and_its_players_counts(aclient: FlaskClient) -> None:
    (alice, a), (_, b) = session(aclient), session(aclient)
    fair = seat_table(aclient, [a, b])
    named = seat_table(aclient, [a, b], seed="p2v0s900001")  # the creator chose the deal
    final = fair.end()["game"]
    named.end()
    body = board(aclient, variant="0", players=2).get_json()
    assert_valid(LeaderboardSchema, body)
    assert body["variant"] == "No Variant" and body["variant_id"] == 0
    entries = every_entry(aclient, variant="0", players=2)
    ids = [e["game_id"] for e in entries]
    assert fair.id in ids and named.id not in ids
    entry = entries[ids.index(fair.id)]
    assert entry["score"] == final["score"] and "seed" not in entry
    # the old id, hanab.live's name and its number are one board
    for variant in ("no_variant", "No Variant"):
        assert every_entry(aclient, variant=variant, players=2) == entries
    stats = aclient.get(f"{API}/players/{alice}/stats").get_json()
    assert_valid(PlayerStatsSchema, stats)
    assert stats["variants"] == [
        {
            "variant": "No Variant",
            "variant_id": 0,
            "games": 1,  # the named seed's game does not count
            "max_scores": int(final["score"] == 25),
            "win_rate": float(final["score"] == 25),
            "average": float(final["score"]),
        }
    ]
    aclient.application.extensions["hanabi"].settler.settle(fair.id)  # again: nothing new
    assert aclient.get(f"{API}/players/{alice}/stats").get_json() == stats


def test_board_orders_and_pages(aclient: FlaskClient, accounts_app: Any) -> None:
    store = accounts_app.extensions["hanabi"].results.store
    games = [(30, 80), (30, 70), (29, 40), (30, 70), (12, 10)]  # Rainbow: max 30
    for i, (score, turns) in enumerate(games):
        entry = {"game_id": f"r{i}", "players": ["x", "y", "z", "w", "v", "u"], "bots": 0,
                 "score": score, "max_score": 30, "turns": turns, "date": "d", "replay": "r"}  # fmt: skip
        store.add_to_board("v3", 6, member_of(5000 + i, f"r{i}"), rank_score(score, turns), entry)
    scores = board(aclient, variant="rainbow", players=6, limit=3).get_json()
    assert [e["game_id"] for e in scores["entries"]] == ["r1", "r3", "r0"]
    assert scores["total"] == 5 and scores["next_cursor"] == "3"
    rest = board(aclient, variant="3", players=6, cursor="3").get_json()
    assert [e["game_id"] for e in rest["entries"]] == ["r2", "r4"]
    assert [e["rank"] for e in rest["entries"]] == [4, 5] and rest["next_cursor"] is None
    turns = board(aclient, variant="Rainbow (6 Suits)", players=6, kind="turns").get_json()
    assert [e["game_id"] for e in turns["entries"]] == ["r1", "r3", "r0"]  # max scores only
    assert turns["total"] == 3 and turns["kind"] == "turns"


def test_refusals(aclient: FlaskClient) -> None:
    for variant in ("no such variant", "²", "０"):  # a number is ASCII digits
        assert_problem(board(aclient, variant=variant), 404, "variant_not_found")
    assert_problem(board(aclient, players=7), 400, "invalid_query")
    assert_problem(board(aclient, kind="fastest"), 400, "invalid_query")
    assert_problem(board(aclient, cursor="-1"), 400, "invalid_query")
    assert_problem(aclient.get(f"{API}/players/nobody-here/stats"), 404, "player_not_found")
