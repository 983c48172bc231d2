"""GET /games/{id}/past: a seat steps back through the game as it saw it (the web table's
in-game replay). Each past turn must be exactly what the seat's own view said at that
turn (its cards hidden, what it knew of them then), must never show the seat a card it
held then or holds now, and is a seat's alone.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from api_helpers import API, assert_problem, assert_valid, bearer, make_table
from flask.testing import FlaskClient

from hanabi.game import Action, Game, Setup
from hanabi.server.api.schemas.views import GameViewSchema

#: What a past view shares with the live view the seat had at that turn: the board, the
#: hands with their knowledge, the clues and the last move (not the present's clocks,
#: notes, votes, version or moves to send).
SAME = (
    "turn",
    "current_seat",
    "clue_tokens",
    "strikes",
    "deck_size",
    "score",
    "max_score",
    "pace",
    "fireworks",
    "hands",
    "discards",
    "clues",
    "turns_left",
    "last_action",
    "players",
    "you",
)


def _walk(node: Any) -> Any:
    if isinstance(node, dict):
        yield node
        for value in node.values():
            yield from _walk(value)
    elif isinstance(node, list):
        for value in node:
            yield from _walk(value)


def _shown(body: Any, orders: set[int]) -> list[dict[str, Any]]:
    """The parts of ``body`` that name a card of ``orders`` with its suit or rank."""
    return [
        node
        for node in _walk(body)
        if node.get("order", node.get("card")) in orders
        and (node.get("suit") is not None or node.get("rank") is not None)
    ]


def _past(client: FlaskClient, game_id: str, token: str | None, turn: int | None) -> Any:
    query = "" if turn is None else f"?turn={turn}"
    return client.get(f"{API}/games/{game_id}/past{query}", headers=bearer(token))


@pytest.mark.parametrize(
    ("variant", "players", "seed"), [("no_variant", 3, "past-1"), ("rainbow", 4, "past-2")]
)
def test_each_past_turn_is_the_seats_view_then_and_hides_its_cards(
    client: FlaskClient, variant: str, players: int, seed: str
) -> None:
    table = make_table(client, players, variant=variant, seed=seed)
    names = [p["name"] for p in table.view(0)["players"]]
    shadow = Game(Setup.create(variant, names, None, seed))
    rng = random.Random(seed)
    then: list[list[dict[str, Any]]] = []  # turn -> seat -> its live view
    held: list[list[set[int]]] = []  # turn -> seat -> the orders it held
    for _ in range(24):
        then.append([table.view(s) for s in range(players)])
        held.append([set(shadow.hands[s]) for s in range(players)])
        seat = shadow.current
        legal = then[-1][seat]["legal_actions"]
        kinds = sorted({a["type"] for a in legal} - ({"play"} if rng.random() < 0.7 else set()))
        action = rng.choice([a for a in legal if a["type"] == rng.choice(kinds)])
        assert table.act(seat, shadow.turn, **action).status_code == 201
        shadow.apply(Action.from_dict(action), seat)
    now = [set(shadow.hands[s]) for s in range(players)]
    for turn, views in enumerate(then):
        for seat in range(players):
            response = _past(client, table.id, table.tokens[seat], turn)
            assert response.status_code == 200, response.get_json()
            past = response.get_json()
            assert_valid(GameViewSchema, past)
            assert {k: past[k] for k in SAME} == {k: views[seat][k] for k in SAME}, (turn, seat)
            assert past["legal_actions"] == [] and past["status"] == "playing"
            # never a card the seat held then, nor one it holds now
            assert not _shown(past, held[turn][seat] | now[seat]), (turn, seat)
    # no turn: the present, as the live view has it
    current = _past(client, table.id, table.tokens[1], None).get_json()
    live = table.view(1)
    assert {k: current[k] for k in SAME} == {k: live[k] for k in SAME}


def test_the_past_is_a_seats_alone_and_ends_at_the_present(client: FlaskClient) -> None:
    lobby = make_table(client, 2, start=False, seed="past-lobby")
    assert_problem(_past(client, lobby.id, lobby.tokens[0], 0), 409, "game_not_started")
    table = make_table(client, 2, seed="past-seat")
    other = make_table(client, 2, seed="past-other")
    assert_problem(_past(client, table.id, None, 0), 401, "auth_required")
    forbidden = _past(client, table.id, other.tokens[0], 0)
    assert forbidden.status_code == 403
    assert forbidden.content_type == "application/problem+json"
    assert_problem(_past(client, table.id, table.tokens[0], 1), 404, "no_such_turn")
    assert_problem(_past(client, "nosuchgame1", table.tokens[0], 0), 404, "game_not_found")
    bad = client.get(f"{API}/games/{table.id}/past?turn=-1", headers=bearer(table.tokens[0]))
    assert bad.status_code == 400
    # a finished game: each seat's past still its own (the last turn shows every card)
    table.end()
    first = _past(client, table.id, table.tokens[0], 0).get_json()
    assert all(c["suit"] is None for c in first["hands"][0])
    assert all(c["suit"] is not None for c in first["hands"][1])
