"""Issue #44's attack, end to end: an account seated at a rated table dealt ``unplayed``
tries every route to its own live hand, and none gives a card of it.

What it tries (as the issue tells it, and what a patient attacker adds): it probes the
seed pages for the seed in play; opens tables on candidate seeds (the low numbers
``unplayed`` used to deal, and the very seed it was dealt, as if it had guessed it), sits
at them with its account and with a guest seat of its own, plays them out, and reads
every copy and every finished game on those seeds with and without its credentials:
views, long-polls, events, streams (shadowing each seat too), stream tickets, exports,
replays at a turn and shared replay rooms.

A leak is a response that shows a card of the attacker's live hand *as the live deal has
it*: the response reveals that card's identity at its order and agrees with the live deck
at every order it reveals (at least five, a hand: a different deal of No Variant agrees at
five given orders with a chance under one in five million). So a copy of another seed, whose cards are public, is no leak;
a copy of the live deal is.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from account_helpers import FAST, seat_table, session
from api_helpers import API, Table, bearer, make_table
from flask import Flask
from flask.testing import FlaskClient
from test_stream import Stream, stream_url

from hanabi.game import get_variant
from hanabi.server import create_app

Card = tuple[str, int]
CANDIDATES = 6  # p2v0s1..: the seeds `unplayed` dealt two new accounts first


@pytest.fixture(scope="module")
def app(redis_url: str) -> Iterator[Flask]:
    config = {"REDIS_URL": redis_url, "HANABI_KEEPALIVE": 0.3, "HANABI_STREAM_MAX": 20, **FAST}
    app = create_app(config)
    app.testing = True
    yield app


@pytest.fixture
def client(app: Flask) -> FlaskClient:
    return app.test_client()


class Leaks:
    """Every response the attacker got, checked against its live hand."""

    def __init__(self, deck: list[Card], own: dict[int, Card]) -> None:
        self.deck = deck
        self.own = own
        self.suits = [s.name for s in get_variant("no_variant").suits]
        self.checked = 0

    def revealed(self, body: Any) -> dict[int, Card]:
        shown: dict[int, Card] = {}
        for node in walk(body):
            order = node.get("order", node.get("card"))
            if isinstance(order, int) and node.get("suit") and node.get("rank"):
                shown[order] = (node["suit"], node["rank"])
            deck = node.get("deck")
            if isinstance(deck, list) and deck and isinstance(deck[0], dict):
                for i, card in enumerate(deck):
                    if "suitIndex" in card:
                        shown[i] = (self.suits[card["suitIndex"]], card["rank"])
        return shown

    def check(self, what: str, body: Any) -> None:
        self.checked += 1
        shown = self.revealed(body)
        hit = {o for o, card in self.own.items() if shown.get(o) == card}
        if not hit:
            return
        agree = all(o < len(self.deck) and self.deck[o] == c for o, c in shown.items())
        assert not (agree and len(shown) >= 5), f"{what} shows the live hand's cards {hit}"

    def response(self, what: str, response: Any) -> Any:
        if response.status_code == 304 or not response.data:
            return None
        body = response.get_json(force=True)
        self.check(what, body)
        return body

    def stream(self, what: str, client: FlaskClient, url: str, token: str | None) -> None:
        stream = Stream(client, url, bearer(token))
        if stream.response.status_code != 200:
            self.response(what, stream.response)
            return
        try:
            while True:
                kind, _, data = stream.next(timeout=3)
                if kind in ("<closed>", "end"):
                    break
                self.check(f"{what} {kind}", data)
                if kind == "view" and data.get("status") != "finished":
                    break  # a live game: the first view is what a stream starts with
        finally:
            stream.close()


def walk(node: Any) -> Iterator[dict[str, Any]]:
    if isinstance(node, dict):
        yield node
        for value in node.values():
            yield from walk(value)
    elif isinstance(node, list):
        for value in node:
            yield from walk(value)


def read_everything(client: FlaskClient, leaks: Leaks, game_id: str, tokens: list[Any]) -> None:
    """Every route that shows a game, with each of ``tokens`` (None: anonymous)."""
    url = f"{API}/games/{game_id}"
    for token in tokens:
        who = f"{game_id} as {'anonymous' if token is None else token[:6]}"
        headers = bearer(token)
        view = leaks.response(f"{who} view", client.get(url, headers=headers))
        if view is not None and "version" in view:
            poll = client.get(url, headers=headers, query_string={"wait": 0})
            leaks.response(f"{who} poll", poll)
        for seat in (0, 1):  # shadowing a seat: what it knows, never its cards
            shadow = client.get(url, headers=headers, query_string={"shadow": seat})
            leaks.response(f"{who} shadow {seat}", shadow)
            shadow_url = stream_url(game_id, after=0, shadow=seat)
            leaks.stream(f"{who} shadow {seat} stream", client, shadow_url, token)
        leaks.response(f"{who} events", client.get(f"{url}/events", headers=headers))
        leaks.response(f"{who} export", client.get(f"{url}/export", headers=headers))
        for turn in (0, 1):
            replay = client.get(f"{url}/replay", headers=headers, query_string={"turn": turn})
            leaks.response(f"{who} replay {turn}", replay)
        leaks.stream(f"{who} stream", client, stream_url(game_id, after=0), token)
        ticket = client.post(f"{url}/tickets", json={}, headers=headers)
        leaks.response(f"{who} ticket", ticket)
        if ticket.status_code == 201:
            ticket_url = stream_url(game_id, after=0, ticket=ticket.get_json()["ticket"])
            leaks.stream(f"{who} ticket stream", client, ticket_url, None)
        room = client.post(f"{API}/replays", json={"game_id": game_id}, headers=headers)
        made = leaks.response(f"{who} room", room)
        if room.status_code == 201 and made is not None:
            room_url = f"{API}/replays/{made['id']}"
            leaks.response(f"{who} room read", client.get(room_url, headers=bearer(made["token"])))
            joined = client.post(f"{room_url}/followers", json={}, headers=headers)
            leaks.response(f"{who} room join", joined)


def test_no_card_of_a_live_rated_hand_reaches_its_owner(client: FlaskClient, app: Flask) -> None:
    services = app.extensions["hanabi"]
    (_, attacker), (_, partner) = session(client), session(client)
    (_, c), (_, d) = session(client), session(client)
    # Other teams finished the low seeds before: their games are public now.
    before = []
    for n in range(1, CANDIDATES + 1):
        done = seat_table(client, [c, d], seed=f"p2v0s{n}")
        done.end()
        before.append(done)
    # The attacker holds seat 0 of a rated table dealt `unplayed`.
    rated = seat_table(client, [attacker, partner], seed="unplayed", options={"rated": True})
    record = services.store.load(rated.id)
    deck: list[Card] = [(suit, rank) for suit, rank in record.deck]
    own = {card["order"]: (card["suit"], card["rank"]) for card in rated.view(1)["hands"][0]}
    assert own and all(deck[o] == card for o, card in own.items())
    leaks = Leaks(deck, own)
    sealed = record.seed_name  # what a lucky guess would name
    read_everything(client, leaks, rated.id, [attacker, None, c])
    rated_view = rated.view(0)
    leaks.check("own seat view", rated_view)
    assert "seed" not in rated_view  # its seats are told the name at the end

    # 1. The seed pages: the seed in play answers as a never-played one.
    candidates = [f"p2v0s{n}" for n in range(1, CANDIDATES + 1)] + [sealed, "p2v0s999999998"]
    answers = set()
    for name in candidates:
        page = client.get(f"{API}/seeds/{name}", headers=bearer(attacker))
        body = leaks.response(f"seed page {name}", page)
        answers.add((page.status_code, (body or {}).get("code")))
    assert len(answers) == 1, answers

    # 2. Tables on the candidates: sit (as the attacker's account and as its own guest
    # seat), play them out, read them live and once over.
    copies: list[Table] = []
    for name in candidates:
        for attacker_first in (True, False):
            if attacker_first:
                made = client.post(f"{API}/games", json={"seed": name}, headers=bearer(attacker))
            else:
                made = client.post(f"{API}/games", json={"seed": name, "name": "guest"})
            leaks.response(f"open {name}", made)
            if made.status_code != 201:
                assert made.status_code == 409, made.get_json()
                assert made.get_json()["code"] in ("deal_unavailable", "same_deal_elsewhere")
                assert name not in made.get_json()["detail"]
                continue
            gid, token = made.get_json()["id"], made.get_json()["token"]
            second = bearer(None if attacker_first else attacker)
            joined = client.post(f"{API}/games/{gid}/players", json={"name": "g2"}, headers=second)
            leaks.response(f"join {name}", joined)
            if joined.status_code != 201:
                assert joined.get_json()["code"] in ("deal_unavailable", "same_deal_elsewhere")
                continue
            copy = Table(client, gid, [token, joined.get_json()["token"]])
            started = copy.post("/start", 0)
            leaks.response(f"start {name}", started)
            if started.status_code != 200:
                assert started.get_json()["code"] in ("deal_unavailable", "same_deal_elsewhere")
                continue
            copies.append(copy)
            read_everything(client, leaks, gid, [*copy.tokens, attacker, None])
    # The very deal in play is never dealt to another table while it runs.
    assert not any(services.store.load(t.id).seed_name == sealed for t in copies)
    assert copies  # the other candidates were dealt as asked

    # 3. Once the copies and the other teams' games are over: every card of them, to
    # anyone, anonymous included (finished games are public).
    for copy in copies:
        leaks.response("end vote", copy.vote(0))
        leaks.response("end vote", copy.vote(1))
    for game in copies + before:
        read_everything(client, leaks, game.id, [attacker, None, *game.tokens])

    # 4. A second live seat on the same deal is refused, whoever opens the table.
    other = make_table(client, 2, start=False)
    leaks.response("other view", client.get(f"{API}/games/{other.id}"))
    assert leaks.checked > 100
    rated.end()  # over: its seats are told the seed now
    assert rated.view(0)["seed"] == sealed
