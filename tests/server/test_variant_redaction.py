"""What special variants hide stays hidden through the API while the game is on: what a
clue was in Cow & Pig and Duck (only the touched cards, and a moo, oink or quack), the
cards thrown in the hole (Throw It in a Hole), on top of every seat's own cards; and
views, events and move results of such games keep the contract.

Each game is played through the API to its end with random legal moves; after every move
each seat and a spectator read the view, the new events and the move's own result.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from api_helpers import API, assert_valid, bearer, make_table
from flask.testing import FlaskClient
from test_redaction import Checker

from hanabi.game import Action, Game, Setup, catalogue
from hanabi.server.api.schemas.events import ActionResultSchema, EventPageSchema
from hanabi.server.api.schemas.views import GameViewSchema


def pick(rng: random.Random, legal: list[dict[str, Any]]) -> dict[str, Any]:
    """Clues and plays mostly (what these variants hide), so that a game is short."""
    kinds = sorted({a["type"] for a in legal})
    kind = rng.choices(kinds, [{"play": 1, "discard": 2, "clue": 4}[k] for k in kinds])[0]
    return rng.choice([a for a in legal if a["type"] == kind])


def first(rule: str, suits: int = 5) -> str:
    return next(catalogue.variants(rule=rule, suits=suits)).name


def hidden_clues(body: Any) -> list[dict[str, Any]]:
    """Every clue given (event, a view's clue, a card's clue tag) in ``body`` that says
    its colour or rank (not the clues the viewer may give: ``legal_actions``)."""
    out = []
    stack = [body]
    while stack:
        node = stack.pop()
        if isinstance(node, dict):
            if ("sound" in node or node.get("type") == "clue") and (
                node.get("color") is not None or node.get("rank") is not None
            ):
                out.append(node)
            stack.extend(v for k, v in node.items() if k != "legal_actions")
        elif isinstance(node, list):
            stack.extend(node)
    return out


def shown_hole_plays(body: Any) -> list[dict[str, Any]]:
    events = body.get("events", []) if isinstance(body, dict) else []
    return [e for e in events if e["type"] in ("play", "misplay") and e.get("suit") is not None]


@pytest.mark.parametrize(
    ("rule", "seed"),
    [("cow_and_pig", "moo"), ("duck", "quack"), ("throw_it_in_a_hole", "hole")],
)
def test_special_variants_hide_what_they_hide(client: FlaskClient, rule: str, seed: str) -> None:
    variant = first(rule)
    table = make_table(client, 3, variant=variant, seed=seed)
    names = [p["name"] for p in table.view(0)["players"]]
    shadow = Game(Setup.create(variant, names, None, seed))
    checker = Checker(shadow)
    rng = random.Random(seed)
    seen = {seat: 0 for seat in (0, 1, 2, None)}
    clues = plays = 0

    def read(seat: int | None, body: Any) -> None:
        if shadow.is_over:
            return
        if seat is not None:
            checker.check_data(seat, body)
        if rule in ("cow_and_pig", "duck"):
            assert hidden_clues(body) == [], (seat, hidden_clues(body)[:1])
        else:
            assert shown_hole_plays(body) == [], seat

    while not shadow.is_over:
        seat = shadow.current
        view = table.view(seat)
        action = pick(rng, view["legal_actions"])
        clues += action["type"] == "clue"
        plays += action["type"] == "play"
        response = table.act(seat, view["turn"], **action)
        assert response.status_code == 201, response.get_json()
        shadow.apply(Action.from_dict(action), seat)
        result = response.get_json()
        read(seat, result)
        contract = view["turn"] % 4 == 0  # the contract on every 4th turn (it is slow)
        if contract:
            assert_valid(ActionResultSchema, result)
        for viewer in (view["turn"] % 3, None):  # a seat in turn, and a spectator
            headers = bearer(table.tokens[viewer]) if viewer is not None else {}
            game = client.get(table.url, headers=headers).get_json()
            read(viewer, game)
            page = client.get(f"{table.url}/events?after={seen[viewer]}", headers=headers)
            body = page.get_json()
            read(viewer, body)
            seen[viewer] = body["last_seq"]
            if contract:
                assert_valid(GameViewSchema, game)
                assert_valid(EventPageSchema, body)
    assert clues > 5 and plays > 2, (clues, plays)
    assert shadow.turn < 60, shadow.turn  # short games keep the test fast
    # once it is over, everything is told
    events = client.get(f"{API}/games/{table.id}/events?limit=1000").get_json()["events"]
    told = [e for e in events if e["type"] == "clue"]
    assert told and all(e["color"] is not None or e["rank"] is not None for e in told)
    if rule == "throw_it_in_a_hole":
        assert all(e["suit"] for e in events if e["type"] in ("play", "misplay"))


def test_a_hidden_score_says_why(client: FlaskClient) -> None:
    """Throw It in a Hole hides the score and the fireworks (null) and says so in
    ``score_hidden``, for clients to word it ("hidden until the end"); a game that hides
    nothing has no such key."""
    table = make_table(client, 2, variant=first("throw_it_in_a_hole"), seed="hole")
    view = table.view(0)
    table.act(0, view["turn"], type="play", card=view["hands"][0][0]["order"])
    for seat in (0, 1, None):
        headers = bearer(table.tokens[seat]) if seat is not None else {}
        game = client.get(table.url, headers=headers).get_json()
        assert game["score_hidden"] == "throw_it_in_a_hole", seat
        assert game["score"] is None and set(game["fireworks"].values()) == {None}
        assert_valid(GameViewSchema, game)
    # nor does the lobby's listing tell it (it showed the score the fireworks hide)
    listed = client.get(f"{API}/games?status=playing&limit=100").get_json()["games"]
    (entry,) = [g for g in listed if g["id"] == table.id]
    assert entry["score"] is None and entry["score_hidden"] == "throw_it_in_a_hole", entry
    plain = make_table(client, 2, seed="hole")
    assert "score_hidden" not in plain.view(0)
    (other,) = [
        g
        for g in client.get(f"{API}/games?status=playing&limit=100").get_json()["games"]
        if g["id"] == plain.id
    ]
    assert other["score"] == 0 and "score_hidden" not in other
