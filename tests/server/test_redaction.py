"""No response to a seat ever shows that seat its own cards while the game is on.

Whole games are played through the API with every seat; a shadow engine (same setup, same
actions) knows the truth, and every response body a seat receives (views, 304s, events,
action results, retries, refusals, chat, a refused strategy declaration) is searched for the identity of any card in that
seat's hand at that moment.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from api_helpers import API, Table, bearer, make_table
from flask.testing import FlaskClient

from hanabi.game import Action, Game, Setup


def _walk(node: Any) -> Any:
    if isinstance(node, dict):
        yield node
        for value in node.values():
            yield from _walk(value)
    elif isinstance(node, list):
        for value in node:
            yield from _walk(value)


class Checker:
    def __init__(self, shadow: Game) -> None:
        self.shadow = shadow
        self.checked = 0

    def own(self, seat: int) -> dict[int, tuple[str, int]]:
        game = self.shadow
        return {o: game.variant.card(game.deck[o]) for o in game.hands[seat]}

    def check_data(self, seat: int, body: Any) -> dict[int, tuple[str, int]]:
        """``body`` (any JSON) was sent to ``seat``: no card it holds now may show its
        identity. Returns the seat's own cards."""
        own = self.own(seat)
        for node in _walk(body):
            order = node.get("order", node.get("card"))
            if isinstance(order, int) and order in own and ("suit" in node or "rank" in node):
                assert node.get("suit") is None and node.get("rank") is None, (seat, node)
        return own

    def check(self, seat: int, response: Any) -> None:
        """``response`` was sent to ``seat``; it must not show any of the seat's own cards."""
        if self.shadow.is_over:
            return
        self.checked += 1
        raw = response.get_data()
        if response.status_code == 304:
            assert raw == b""
            return
        body = response.get_json(force=True)
        own = self.check_data(seat, body)
        if response.content_type == "application/problem+json":
            for suit, rank in own.values():
                assert f"{suit} {rank}" not in body["detail"]


def _pick(rng: random.Random, legal: list[dict[str, Any]]) -> dict[str, Any]:
    kinds = {a["type"] for a in legal}
    weights = {"play": 1, "discard": 6, "clue": 6}
    kind = rng.choices(sorted(kinds), [weights[k] for k in sorted(kinds)])[0]
    return rng.choice([a for a in legal if a["type"] == kind])


def _play_game(client: FlaskClient, variant: str, players: int, seed: str) -> Checker:
    table: Table = make_table(client, players, variant=variant, seed=seed)
    names = [p["name"] for p in table.view(0)["players"]]
    shadow = Game(Setup.create(variant, names, None, seed))
    checker = Checker(shadow)
    rng = random.Random(seed)
    etags: dict[int, str] = {}
    seen: dict[int, int] = dict.fromkeys(range(players), 0)
    while not shadow.is_over:
        for seat in range(players):
            headers = {"If-None-Match": etags[seat]} if seat in etags else {}
            response = table.get(seat, headers=headers)
            checker.check(seat, response)
            etags[seat] = response.headers["ETag"]
            again = table.get(seat, headers={"If-None-Match": etags[seat]})
            assert again.status_code == 304
            checker.check(seat, again)
            after: int | None = seen[seat]
            while after is not None:  # small pages: each one is redacted like the whole log
                events = client.get(
                    f"{table.url}/events?after={after}&limit=2", headers=bearer(table.tokens[seat])
                )
                checker.check(seat, events)
                after = events.get_json()["next"]
            seen[seat] = events.get_json()["last_seq"]
        seat = shadow.current
        view = table.view(seat)
        checker.check(seat, table.get(seat))
        other = (seat + 1) % players
        checker.check(other, table.act(other, view["turn"], type="play", card=0))
        checker.check(seat, table.act(seat, view["turn"], type="clue", target=seat, rank=1))
        checker.check(seat, table.act(seat, view["turn"], type="play", card=999))
        declared = client.patch(  # refused once the game is on: the table is fixed
            f"{table.url}/players/{seat}", json={"plays": "hat"}, headers=bearer(table.tokens[seat])
        )
        assert declared.status_code == 409
        checker.check(seat, declared)
        if rng.random() < 0.1:
            checker.check(seat, table.post("/chat", seat, {"text": f"turn {view['turn']}"}))
        action = _pick(rng, view["legal_actions"])
        response = table.act(seat, view["turn"], **action)
        assert response.status_code == 201, response.get_json()
        shadow.apply(Action.from_dict(action), seat)
        checker.check(seat, response)
        retry = table.act(seat, view["turn"], **action)
        assert retry.status_code == 200
        checker.check(seat, retry)
    final = table.view(0)
    assert final["status"] == "finished" and final["result"] == shadow.result
    return checker


@pytest.mark.parametrize(
    ("variant", "players", "seed"),
    [
        ("no_variant", 2, "r1"),
        ("rainbow", 3, "r2"),
        ("wild_rainbow", 4, "r3"),
        ("black_powder", 5, "r4"),
    ],
)
def test_no_response_shows_a_seat_its_own_cards(
    client: FlaskClient, variant: str, players: int, seed: str
) -> None:
    checker = _play_game(client, variant, players, seed)
    assert checker.shadow.turn >= 20 and checker.checked > 100


def test_the_checker_catches_a_leak(client: FlaskClient) -> None:
    table = make_table(client, 2, seed="leak")
    checker = Checker(Game(Setup.create("no_variant", ["p0", "p1"], None, "leak")))
    with pytest.raises(AssertionError):
        checker.check(0, table.get(1))  # seat 1's view shows seat 0's hand


def test_spectators_of_a_table_that_hides_hands_see_no_hand_and_no_draw(
    client: FlaskClient,
) -> None:
    table = make_table(client, 3, seed="spectate", options={"spectators_see_hands": False})
    table.act(0, 0, type="clue", target=1, rank=table.view(0)["hands"][1][0]["rank"])
    view = client.get(table.url).get_json()
    assert view["spectating"] == "public" and view["options"]["spectators_see_hands"] is False
    assert all(c["suit"] is None and c["rank"] is None for h in view["hands"] for c in h)
    events = client.get(f"{API}/games/{table.id}/events").get_json()["events"]
    assert all(e["suit"] is None for e in events if e["type"] == "draw")
