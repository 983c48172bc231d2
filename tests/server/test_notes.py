"""Card notes (PUT/GET /games/{id}/notes) and the view's last move (``last_action``).

Notes are their author's alone while the game is on: another seat's view, stream and
events, a spectator's, the listing and the export never show them; once the game is over
everyone sees everyone's, in the views, the replay and hanab.live's export shape.
"""

from __future__ import annotations

import logging
from collections.abc import Iterator
from typing import Any

import pytest
from api_helpers import API, Table, assert_problem, bearer, make_table
from flask import Flask
from flask.testing import FlaskClient
from test_stream import Stream, stream_url

from hanabi.server import create_app
from hanabi.server.storage.notes import NoteStore, TooManyNotes

pytestmark = pytest.mark.cluster  # run again on a Redis Cluster (make test-cluster)

SECRET = "finesse-on-r3-xyzzy"
RATE = 8  # notes a seat may write a minute in this module's app


@pytest.fixture(scope="module")
def app(redis_url: str) -> Iterator[Flask]:
    config = {
        "REDIS_URL": redis_url,
        "HANABI_LIMIT_NOTE_SEAT": f"{RATE}/minute",
        "HANABI_KEEPALIVE": 0.3,
        "HANABI_STREAM_MAX": 20,
    }
    app = create_app(config)
    app.testing = True
    yield app


@pytest.fixture
def client(app: Flask) -> FlaskClient:
    return app.test_client()


def put_note(table: Table, seat: int | None, order: Any, text: str) -> Any:
    return table.client.put(
        f"{table.url}/notes/{order}", json={"text": text}, headers=bearer(table.token(seat))
    )


def a_card_of(view: dict[str, Any], seat: int) -> int:
    return view["hands"][seat][0]["order"]


def test_a_note_is_written_read_rewritten_and_deleted(client: FlaskClient) -> None:
    table = make_table(client, 2, seed="notes-crud")
    mine = a_card_of(table.view(0), 0)  # a card I hold (and cannot see)
    theirs = a_card_of(table.view(0), 1)
    response = put_note(table, 0, mine, "  chop?  ")
    assert response.status_code == 200, response.get_json()
    assert response.get_json() == {"seat": 0, "notes": {str(mine): "chop?"}}
    assert put_note(table, 0, mine, "chop?").get_json() == response.get_json()  # idempotent
    put_note(table, 0, theirs, "5 save")
    listed = client.get(f"{table.url}/notes", headers=bearer(table.tokens[0])).get_json()
    assert listed == {"seat": 0, "notes": {str(mine): "chop?", str(theirs): "5 save"}}
    assert table.view(0)["notes"] == [{str(mine): "chop?", str(theirs): "5 save"}, {}]
    assert put_note(table, 0, mine, "   ").get_json()["notes"] == {str(theirs): "5 save"}
    assert put_note(table, 0, mine, "").status_code == 200  # deleting twice: the same
    other = client.get(f"{table.url}/notes", headers=bearer(table.tokens[1])).get_json()
    assert other == {"seat": 1, "notes": {}}


def test_notes_are_private_to_their_author_while_the_game_is_on(
    client: FlaskClient, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)  # every log line the app writes, request log included
    table = make_table(client, 3, seed="notes-private")
    order = a_card_of(table.view(1), 1)
    assert put_note(table, 1, order, SECRET).status_code == 200
    seen = table.view(1)
    assert seen["notes"][1] == {str(order): SECRET}
    table.act(0, type="clue", target=1, rank=seen["hands"][1][0]["rank"] or 1)
    # Everything else anyone else can read: views, 304-free reads, events, the listing,
    # the export, the replay, another seat's and a spectator's stream.
    others = [table.get(0), table.get(2), table.get(None)]
    others += [client.get(f"{table.url}/events", headers=bearer(t)) for t in (None, *table.tokens)]
    others += [
        client.get(f"{API}/games?status=playing&limit=100"),
        client.get(f"{table.url}/export"),
        client.get(f"{table.url}/replay"),
        client.get(f"{table.url}/notes", headers=bearer(table.tokens[0])),
    ]
    for response in others:
        assert SECRET.encode() not in response.get_data(), response.get_data()
    assert table.view(0)["notes"] == [{}, {}, {}]
    assert table.view(None)["notes"] == [{}, {}, {}]
    for token in (table.tokens[0], None):
        stream = Stream(client, stream_url(table.id), bearer(token))
        stream.until("view")
        stream.close()
        assert SECRET.encode() not in b"".join(stream.raw)
    own = Stream(client, stream_url(table.id), bearer(table.tokens[1]))
    _, _, view = own.until("view")[-1]
    own.close()
    assert view["notes"][1] == {str(order): SECRET}
    assert caplog.records and SECRET not in caplog.text  # nor in any log line


def test_a_new_note_changes_the_authors_etag_only(client: FlaskClient) -> None:
    table = make_table(client, 2, seed="notes-etag")
    tags = [table.get(seat).headers["ETag"] for seat in (0, 1, None)]
    put_note(table, 0, a_card_of(table.view(0), 1), "later")
    again = [
        table.get(seat, headers={"If-None-Match": tag}) for seat, tag in zip((0, 1, None), tags)
    ]
    assert again[0].status_code == 200 and again[0].get_json()["notes"][0]
    assert again[1].status_code == 304 and again[2].status_code == 304


def test_after_the_end_everyone_sees_everyones_notes(client: FlaskClient) -> None:
    table = make_table(client, 2, seed="notes-end")
    view = table.view(0)
    mine, theirs = a_card_of(view, 0), a_card_of(view, 1)
    put_note(table, 0, mine, "mine é")
    put_note(table, 1, theirs, "yours")
    put_note(table, 1, mine, "p0's")
    table.end()
    expected = [{str(mine): "mine é"}, {str(mine): "p0's", str(theirs): "yours"}]
    for seat in (0, 1, None):
        assert table.view(seat)["notes"] == expected
    replay = client.get(f"{table.url}/replay?turn=0").get_json()
    assert replay["notes"] == expected
    export = client.get(f"{table.url}/export").get_json()
    size = max(mine, theirs) + 1
    assert export["notes"][0] == [""] * mine + ["mine é"]
    assert len(export["notes"][1]) == size and export["notes"][1][theirs] == "yours"
    assert export["notes"][1][mine] == "p0's"
    assert_problem(put_note(table, 0, mine, "late"), 409, "game_finished")


def test_an_export_without_notes_has_no_notes_key(client: FlaskClient) -> None:
    table = make_table(client, 2, seed="notes-none")
    table.end()
    assert "notes" not in client.get(f"{table.url}/export").get_json()


def test_refusals_are_problems(client: FlaskClient) -> None:
    table = make_table(client, 2, seed="notes-refused")
    deck = table.view(0)["deck_size"] + 10  # 10 cards dealt to two seats of five
    assert_problem(put_note(table, 0, 10, "not drawn"), 409, "card_not_drawn")
    assert_problem(put_note(table, 0, deck, "past the deck"), 404, "no_such_card")
    assert_problem(put_note(table, 0, 0, "x" * 101), 400, "validation_error")
    assert_problem(put_note(table, 0, 0, "bell\x07"), 400, "validation_error")
    response = client.put(f"{table.url}/notes/0", json={}, headers=bearer(table.tokens[0]))
    assert_problem(response, 400, "validation_error")
    assert put_note(table, 0, 0, "y" * 100).status_code == 200
    assert_problem(put_note(table, None, 0, "spectator"), 401, "auth_required")
    stranger = make_table(client, 2, start=False)
    assert_problem(
        client.put(f"{table.url}/notes/0", json={"text": "x"}, headers=bearer(stranger.tokens[0])),
        403,
        "not_a_player",
    )
    assert_problem(client.get(f"{table.url}/notes"), 401, "auth_required")
    assert_problem(put_note(stranger, 0, 0, "lobby"), 409, "game_not_started")
    missing = client.put(f"{API}/games/nosuchgame/notes/0", json={"text": "x"})
    assert_problem(missing, 404, "game_not_found")


def test_notes_are_rate_limited_per_seat(client: FlaskClient) -> None:
    table = make_table(client, 2, seed="notes-rate")
    for i in range(RATE):
        assert put_note(table, 0, i % 10, f"n{i}").status_code == 200
    refused = put_note(table, 0, 0, "one too many")
    assert_problem(refused, 429, "rate_limited")
    assert 1 <= int(refused.headers["Retry-After"]) <= 60
    assert "one too many" not in str(
        client.get(f"{table.url}/notes", headers=bearer(table.tokens[0])).get_json()
    )
    assert put_note(table, 1, 0, "the other seat's own budget").status_code == 200


def test_a_seat_holds_at_most_its_bound_of_notes(app: Flask, client: FlaskClient) -> None:
    table = make_table(client, 2, seed="notes-bound")
    notes = NoteStore(app.extensions["hanabi"].store.redis)
    notes.write(table.id, 0, 1, "a", 2)
    notes.write(table.id, 0, 2, "b", 2)
    with pytest.raises(TooManyNotes):
        notes.write(table.id, 0, 3, "c", 2)
    assert notes.write(table.id, 0, 2, "b2", 2) == {1: "a", 2: "b2"}  # rewriting is no new note
    assert notes.write(table.id, 0, 1, "", 2) == {2: "b2"}
    assert notes.write(table.id, 0, 3, "c", 2) == {2: "b2", 3: "c"}


def test_the_last_move_is_in_every_view_redacted_as_its_events(client: FlaskClient) -> None:
    table = make_table(client, 2, seed="notes-last")
    assert table.view(0)["last_action"] is None
    view = table.view(0)
    target_card = view["hands"][1][0]
    table.act(0, type="clue", target=1, rank=target_card["rank"])
    last = table.view(1)["last_action"]
    clue = table.view(1)["clues"][-1]
    assert last["type"] == "clue" and last["seat"] == 0 and last["target"] == 1
    assert last["rank"] == target_card["rank"] and last["touched"] == clue["touched"]
    assert target_card["order"] in last["touched"]
    played = table.view(1)["hands"][1][-1]["order"]
    table.act(1, type="play", card=played)
    events = client.get(f"{table.url}/events", headers=bearer(table.tokens[0])).get_json()
    main = next(e for e in events["events"][::-1] if e["type"] in ("play", "misplay"))
    for seat in (0, 1, None):
        last = table.view(seat)["last_action"]
        assert last["card"] == played and last["seat"] == 1 and last["turn"] == 1
        assert (last["type"], last["suit"], last["rank"]) == (
            main["type"],
            main["suit"],
            main["rank"],
        )
    drawn = table.view(0)["hands"][1][0]["order"]
    assert drawn not in (table.view(1)["last_action"].get("touched") or [])
    table.end()
    replay = client.get(f"{table.url}/replay?turn=1").get_json()
    assert replay["last_action"]["type"] == "clue"
