"""Who sees what of a game (table/viewers.py, docs/watching.md, issue #44), tried as an
attacker would: every route that shows a game, with a seat's credentials, a spectator's,
and the shadow a seat may ask for to no avail.

- A seat's credential (its token, the seated account's session) sees its own view on every
  route, whatever ``shadow`` it adds: never a card of its own hand while the game is on.
- An unrated table's spectators see every hand (``hands``), never the deck or notes;
  ``spectators_see_hands: false`` and rated tables show them the public board only.
- ``?shadow=`` (view, long-poll, stream; a ticket's ``shadow``) shows the table as a seat
  sees it, where the spectator sees the hands; 403 / 400 elsewhere.
- Tables of bots only and finished games show every card to everyone, anonymous included.

The finished-games and same-deal routes are in test_viewers_public.py.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from account_helpers import FAST, account_table, seat_table, session
from api_helpers import API, Table, assert_problem, bearer, make_table
from flask import Flask
from flask.testing import FlaskClient
from test_stream import Stream, stream_url

from hanabi.game import Action, Game, Setup, spectator_view
from hanabi.server import create_app


@pytest.fixture(scope="module")
def app(redis_url: str) -> Iterator[Flask]:
    config = {"REDIS_URL": redis_url, "HANABI_KEEPALIVE": 0.3, "HANABI_STREAM_MAX": 20, **FAST}
    app = create_app(config)
    app.testing = True
    yield app


@pytest.fixture
def client(app: Flask) -> FlaskClient:
    return app.test_client()


def cards(view: dict[str, Any], seat: int | None = None) -> list[dict[str, Any]]:
    hands = view["hands"] if seat is None else [view["hands"][seat]]
    found = [c for hand in hands for c in hand]
    assert found
    return found


def shown(view: dict[str, Any], seat: int | None = None) -> bool:
    return all(c["suit"] is not None and c["rank"] is not None for c in cards(view, seat))


def hidden(view: dict[str, Any], seat: int | None = None) -> bool:
    return all(c["suit"] is None and c["rank"] is None for c in cards(view, seat))


def draws(events: list[dict[str, Any]], seat: int | None = None) -> list[dict[str, Any]]:
    found = [e for e in events if e["type"] == "draw" and seat in (None, e["seat"])]
    assert found
    return found


def events_of(client: FlaskClient, table: Table, token: str | None = None) -> list[Any]:
    response = client.get(f"{table.url}/events", headers=bearer(token))
    assert response.status_code == 200, response.get_json()
    return response.get_json()["events"]


def clue(table: Table, seat: int, target: int) -> None:
    view = table.view(seat)
    rank = view["hands"][target][0]["rank"]
    assert table.act(seat, view["turn"], type="clue", target=target, rank=rank).status_code == 201


def stream_views(client: FlaskClient, url: str, token: str | None = None) -> dict[str, Any]:
    """The first view a stream sends, and the draws it sent before it."""
    stream = Stream(client, url, bearer(token))
    assert stream.response.status_code == 200, stream.response.get_json()
    try:
        messages = stream.until("view")
    finally:
        stream.close()
    return {"view": messages[-1][2], "events": [d for k, _, d in messages if k == "draw"]}


# -- an unrated table: spectators see the hands ------------------------------------------


def test_an_unrated_tables_spectators_see_every_hand_and_nothing_more(
    client: FlaskClient,
) -> None:
    seed = "viewers-hands"
    table = make_table(client, 3, seed=seed)
    clue(table, 0, 1)
    note = client.put(
        f"{table.url}/notes/1", json={"text": "mine"}, headers=bearer(table.tokens[0])
    )
    assert note.status_code == 200, note.get_json()
    _, account = session(client)
    for token in (None, account):  # anonymous, and an account not seated here
        view = client.get(table.url, headers=bearer(token)).get_json()
        assert view["spectating"] == "hands" and "shadow_seat" not in view
        assert view["you"] is None and view["legal_actions"] == [] and "seed" not in view
        assert view["options"]["spectators_see_hands"] is True
        assert shown(view) and "deck" not in view
        assert all(n == {} for n in view["notes"])  # nobody's notes
        assert all(e["suit"] is not None for e in draws(events_of(client, table, token)))
    # What a spectator knows of a card is deduced from public facts only, as before.
    game = Game(Setup.create("no_variant", ["p0", "p1", "p2"], None, seed))
    first = events_of(client, table)
    played = next(e for e in first if e["type"] == "clue")
    game.apply(Action.from_dict({k: played[k] for k in ("type", "target", "rank")}), 0)
    public = spectator_view(game)
    view = table.view(None)
    for mine, theirs in zip(cards(view), [c for h in public["hands"] for c in h], strict=True):
        assert mine["knowledge"] == theirs["knowledge"] and mine["order"] == theirs["order"]
    # The seats still see their own hand as before: nothing of it.
    for seat in range(3):
        seat_view = table.view(seat)
        assert seat_view["spectating"] is None and hidden(seat_view, seat)
        assert shown(seat_view, (seat + 1) % 3)


def test_a_seat_never_sees_its_own_cards_whatever_it_asks(client: FlaskClient) -> None:
    (_, ann), (_, bob) = session(client), session(client)
    table = account_table(client, [ann, bob])
    guest = make_table(client, 2, seed="viewers-guest")
    credentials = [(0, ann), (1, bob), (0, guest.tokens[0]), (1, guest.tokens[1])]
    for seat, token in credentials:
        url = (table if token in (ann, bob) else guest).url
        gid = url.rsplit("/", 1)[1]
        for shadow in (0, 1, 5):
            response = client.get(url, headers=bearer(token), query_string={"shadow": shadow})
            assert response.status_code == 200, response.get_json()  # a shadow is ignored
            view = response.get_json()
            assert view["you"] == seat and view["spectating"] is None and hidden(view, seat)
            assert "shadow_seat" not in view
            polled = client.get(
                url,
                headers={**bearer(token), "If-None-Match": '"0.h"'},
                query_string={"shadow": 1 - seat, "wait": 1},
            )
            assert polled.get_json()["you"] == seat and hidden(polled.get_json(), seat)
        streamed = stream_views(client, stream_url(gid, after=0, shadow=1 - seat), token)
        assert streamed["view"]["you"] == seat and hidden(streamed["view"], seat)
        assert all(e["suit"] is None for e in streamed["events"] if e["seat"] == seat)
        ticket = client.post(f"{url}/tickets", json={"shadow": 1 - seat}, headers=bearer(token))
        assert ticket.status_code == 201, ticket.get_json()
        by_ticket = stream_url(gid, after=0, ticket=ticket.get_json()["ticket"], shadow=1 - seat)
        view = stream_views(client, by_ticket)["view"]
        assert view["you"] == seat and hidden(view, seat) and view["spectating"] is None
        own = client.get(f"{url}/events", headers=bearer(token)).get_json()["events"]
        assert all(e["suit"] is None for e in draws(own, seat))
    # A token of another table is no spectator's: 403, shadow or not.
    other = guest.tokens[0]
    refused = client.get(table.url, headers=bearer(other), query_string={"shadow": 1})
    assert_problem(refused, 403, "not_a_player")
    assert_problem(client.post(f"{table.url}/tickets", headers=bearer(other)), 403, "not_a_player")


# -- shadowing ---------------------------------------------------------------------------


def test_a_spectator_shadows_a_seat_on_the_view_the_long_poll_and_the_stream(
    client: FlaskClient,
) -> None:
    table = make_table(client, 3, seed="viewers-shadow")
    clue(table, 0, 2)  # seat 1 to move
    seat1 = table.view(1)
    response = table.get(None, query_string={"shadow": 1})
    assert response.status_code == 200, response.get_json()
    view = response.get_json()
    assert view["spectating"] == "shadow" and view["shadow_seat"] == 1 and view["you"] is None
    assert hidden(view, 1) and shown(view, 0) and shown(view, 2)
    assert view["hands"] == seat1["hands"]  # what seat 1 knows, and the others' cards
    assert seat1["legal_actions"] and view["legal_actions"] == []  # a shadow moves nobody
    assert all(n == {} for n in view["notes"])
    tags = {table.get(None, query_string={"shadow": s}).headers["ETag"] for s in (0, 1, 2)}
    assert len(tags | {table.get(None).headers["ETag"], table.get(1).headers["ETag"]}) == 5
    # 304 while nothing changed; the long-poll wakes with the shadow's next view.
    etag = response.headers["ETag"]
    same = table.get(None, headers={"If-None-Match": etag}, query_string={"shadow": 1})
    assert same.status_code == 304
    clue(table, 1, 0)
    woke = table.get(None, headers={"If-None-Match": etag}, query_string={"shadow": 1, "wait": 5})
    assert woke.status_code == 200 and woke.get_json()["shadow_seat"] == 1
    assert woke.get_json()["turn"] == 2 and hidden(woke.get_json(), 1)
    # The stream: the shadowed seat's draws hidden, everyone else's shown.
    streamed = stream_views(client, stream_url(table.id, after=0, shadow=1))
    assert streamed["view"]["shadow_seat"] == 1 and hidden(streamed["view"], 1)
    assert all((e["suit"] is None) == (e["seat"] == 1) for e in streamed["events"])
    # A ticket's shadow, anonymous or an account's that holds no seat.
    _, account = session(client)
    for token in (None, account):
        ticket = client.post(f"{table.url}/tickets", json={"shadow": 2}, headers=bearer(token))
        assert ticket.status_code == 201, ticket.get_json()
        url = stream_url(table.id, ticket=ticket.get_json()["ticket"])
        view = stream_views(client, url)["view"]
        assert view["shadow_seat"] == 2 and hidden(view, 2) and shown(view, 0)


def test_shadow_refusals(client: FlaskClient) -> None:
    table = make_table(client, 3, seed="viewers-shadow-no")
    for seat in (3, 5):  # a seat a table may have, not this one
        assert_problem(table.get(None, query_string={"shadow": seat}), 400, "shadow_seat")
        url = stream_url(table.id, shadow=seat)
        assert_problem(client.get(url), 400, "shadow_seat")
        ticket = client.post(f"{table.url}/tickets", json={"shadow": seat})
        assert_problem(ticket, 400, "shadow_seat")
    for seat in (6, -1):  # no table has it: the request's own bounds (0 to 5)
        assert_problem(table.get(None, query_string={"shadow": seat}), 400, "invalid_query")
        ticket = client.post(f"{table.url}/tickets", json={"shadow": seat})
        assert_problem(ticket, 400, "validation_error")
    assert_problem(table.get(None, query_string={"shadow": "x"}), 400, "invalid_query")
    assert_problem(
        client.post(f"{table.url}/tickets", json={"shadow": "1"}), 400, "validation_error"
    )
    hide = make_table(client, 2, seed="viewers-hide", options={"spectators_see_hands": False})
    assert_problem(hide.get(None, query_string={"shadow": 0}), 403, "shadow_not_allowed")
    assert_problem(client.get(stream_url(hide.id, shadow=0)), 403, "shadow_not_allowed")
    refused = client.post(f"{hide.url}/tickets", json={"shadow": 1})
    assert_problem(refused, 403, "shadow_not_allowed")


# -- tables that hide the hands: unrated by choice, rated always ---------------------------


def test_a_table_that_hides_hands_shows_spectators_the_public_board_until_it_ends(
    client: FlaskClient,
) -> None:
    table = make_table(client, 2, seed="viewers-hidden", options={"spectators_see_hands": False})
    _, account = session(client)
    for token in (None, account):
        view = client.get(table.url, headers=bearer(token)).get_json()
        assert view["spectating"] == "public" and hidden(view)
        assert view["options"]["spectators_see_hands"] is False
        assert all(e["suit"] is None for e in draws(events_of(client, table, token)))
        streamed = stream_views(client, stream_url(table.id, after=0), token)
        assert streamed["view"]["spectating"] == "public" and hidden(streamed["view"])
        assert all(e["suit"] is None for e in streamed["events"])
    listed = client.get(f"{API}/games", query_string={"status": "playing", "limit": 100})
    summary = next(g for g in listed.get_json()["games"] if g["id"] == table.id)
    assert summary["options"] == {"spectators_see_hands": False}
    table.end()
    over = table.view(None)  # a finished game is public
    assert over["spectating"] == "full" and shown(over)
    shadowed = table.get(None, query_string={"shadow": 0}).get_json()
    assert shadowed["spectating"] == "shadow" and shown(shadowed)


def test_a_rated_tables_spectators_never_see_a_hand(client: FlaskClient) -> None:
    (_, ann), (_, bob), (_, eve) = (session(client) for _ in range(3))
    shown_rated = {"options": {"rated": True, "spectators_see_hands": True}}
    made = client.post(f"{API}/games", json=shown_rated, headers=bearer(ann))
    assert_problem(made, 400, "spectators_see_hands_rated")
    table = account_table(client, [ann, bob], rated=True, spectators_see_hands=False)
    assert table.view(0)["options"]["spectators_see_hands"] is False
    table = account_table(client, [ann, bob], rated=True)  # hiding them is the default
    assert table.view(0)["options"] == {**table.view(0)["options"], "rated": True}
    assert table.view(0)["options"]["spectators_see_hands"] is False
    for token in (None, eve):
        view = client.get(table.url, headers=bearer(token)).get_json()
        assert view["spectating"] == "public" and hidden(view)
        assert all(e["suit"] is None for e in draws(events_of(client, table, token)))
        refused = client.get(table.url, headers=bearer(token), query_string={"shadow": 1})
        assert_problem(refused, 403, "shadow_not_allowed")
        url = stream_url(table.id, after=0, shadow=0)
        assert_problem(client.get(url, headers=bearer(token)), 403, "shadow_not_allowed")
        streamed = stream_views(client, stream_url(table.id, after=0), token)
        assert streamed["view"]["spectating"] == "public" and hidden(streamed["view"])
        ticket = client.post(f"{table.url}/tickets", json={"shadow": 1}, headers=bearer(token))
        assert_problem(ticket, 403, "shadow_not_allowed")
        for route in ("export", "replay"):
            refused = client.get(f"{table.url}/{route}", headers=bearer(token))
            assert_problem(refused, 409, "game_not_finished")


# -- tables of bots only -----------------------------------------------------------------


def test_a_table_of_bots_shows_everyone_every_card_live(client: FlaskClient) -> None:
    for options in ({}, {"spectators_see_hands": False}):
        table = make_table(client, 1, start=False, seed="viewers-bots", options=options)
        for _ in range(2):
            assert table.post("/bots", 0, {}).status_code == 201
        started = table.post("/start", 0, {"watch": True})
        assert started.status_code == 200, started.get_json()
        view = started.get_json()  # "Start and watch": the host sees every card at once
        assert view["you"] is None and view["spectating"] == "full" and shown(view)
        view = table.view(None)
        assert view["spectating"] == "full" and shown(view)
        assert all(e["suit"] is not None for e in draws(events_of(client, table)))
        shadowed = table.get(None, query_string={"shadow": 1}).get_json()
        assert shadowed["shadow_seat"] == 1 and shown(shadowed, 0)
        if shadowed["status"] == "playing":
            assert hidden(shadowed, 1)


def test_a_seat_bound_account_watching_a_guest_seat_table(client: FlaskClient) -> None:
    """An account seated at one table is a spectator of another (hands, shadow)."""
    (_, ann), (_, bob) = session(client), session(client)
    seat_table(client, [ann, bob], seed="viewers-own-table")
    other = make_table(client, 2, seed="viewers-other-table")
    view = client.get(other.url, headers=bearer(ann)).get_json()
    assert view["spectating"] == "hands" and shown(view)
    query = {"shadow": 0}
    shadowed = client.get(other.url, headers=bearer(ann), query_string=query).get_json()
    assert shadowed["spectating"] == "shadow" and hidden(shadowed, 0) and shown(shadowed, 1)
