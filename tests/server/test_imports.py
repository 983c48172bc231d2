"""Importing a hanab.live game (docs/history.md): replayed by our engine, stored finished
and marked imported, with its notes, replay and a replay room; refused when illegal."""

from __future__ import annotations

import copy
import secrets
from typing import Any

import pytest
from account_helpers import FAST, played, seat_table, session
from api_helpers import API, assert_problem, bearer, make_table
from flask.testing import FlaskClient

pytestmark = pytest.mark.cluster  # run again on a Redis Cluster (make test-cluster)


def exported(client: FlaskClient) -> dict[str, Any]:
    """A finished game's hanab.live export, with a note from each seat."""
    table = make_table(client, 2, seed="a custom seed")  # no seed name: nobody's challenge
    for seat in (0, 1):
        response = client.put(
            f"{table.url}/notes/{seat}",
            json={"text": f"note {seat}"},
            headers=bearer(table.tokens[seat]),
        )
        assert response.status_code == 200, response.get_json()
    table.end()
    data = client.get(f"{table.url}/export").get_json()
    assert data["notes"], data
    return data


def post(client: FlaskClient, data: Any, token: str | None) -> Any:
    return client.post(f"{API}/imports", json=data, headers=bearer(token))


def test_an_import_is_a_finished_game_with_its_replay_notes_and_room(aclient: FlaskClient) -> None:
    name, token = session(aclient)
    data = exported(aclient)
    response = post(aclient, data, token)
    assert response.status_code == 201, response.get_json()
    body = response.get_json()
    gid = body["game_id"]
    assert response.headers["Location"].endswith(f"/games/{gid}")
    view = aclient.get(f"{API}/games/{gid}").get_json()
    assert view["status"] == "finished" and view["players"][0]["name"] == "p0"
    again = aclient.get(f"{API}/games/{gid}/export").get_json()
    assert again["deck"] == data["deck"] and again["actions"] == data["actions"]
    assert again["notes"] == data["notes"]
    replay = aclient.get(f"{API}/games/{gid}/replay", query_string={"turn": 0})
    assert replay.status_code == 200, replay.get_json()
    room = aclient.post(f"{API}/replays", json={"game_id": gid}, headers=bearer(token))
    assert room.status_code == 201, room.get_json()
    found = aclient.get(f"{API}/history", query_string={"player": "p0", "imported": "true"})
    entry = next(g for g in found.get_json()["games"] if g["game_id"] == gid)
    assert entry["imported"] is True
    mine = aclient.put(f"{API}/games/{gid}/tags/imported", headers=bearer(token))
    assert mine.status_code == 200, mine.get_json()  # the importer may tag it
    stranger = session(aclient)[1]
    assert_problem(
        aclient.put(f"{API}/games/{gid}/tags/x", headers=bearer(stranger)), 403, "not_a_player"
    )
    del name


def test_a_named_seeds_deal_is_not_imported(aclient: FlaskClient) -> None:
    """Its cards are for those who finished it: an import would show them to anyone."""
    (_, a), (_, b) = session(aclient), session(aclient)
    table = played(seat_table(aclient, [a, b]))
    data = aclient.get(f"{table.url}/export", headers=bearer(a)).get_json()
    assert_problem(post(aclient, data, a), 403, "seed_deal_import")


def test_an_import_counts_on_no_board(aclient: FlaskClient) -> None:
    _, token = session(aclient)
    gid = post(aclient, exported(aclient), token).get_json()["game_id"]
    board = aclient.get(f"{API}/leaderboards", query_string={"limit": 100}).get_json()
    assert gid not in [e["game_id"] for e in board["entries"]]
    page = aclient.get(f"{API}/history/variants/0", query_string={"limit": 100}).get_json()
    assert gid not in [g["game_id"] for g in page["best"]]


def test_imports_refused(aclient: FlaskClient) -> None:
    _, token = session(aclient)
    data = exported(aclient)
    assert_problem(post(aclient, data, None), 401, "account_required")
    illegal = copy.deepcopy(data)
    illegal["actions"].insert(0, {"type": 0, "target": 99})
    assert_problem(post(aclient, illegal, token), 400, "invalid_import")
    unfinished = copy.deepcopy(data)
    unfinished["actions"] = unfinished["actions"][:-1]
    assert_problem(post(aclient, unfinished, token), 400, "import_not_finished")
    unknown = copy.deepcopy(data)
    unknown["options"]["variant"] = "No Such Variant"
    assert_problem(post(aclient, unknown, token), 400, "unsupported_variant")
    assert_problem(post(aclient, {"players": "x"}, token), 400, "validation_error")
    big = {**data, "seed": "x" * 70_000}
    assert post(aclient, big, token).status_code == 413


def test_imports_past_the_rate_are_429_and_import_nothing(redis_url: str) -> None:
    from hanabi.server import create_app
    from hanabi.server.ops.config import SETTINGS

    defaults = {name: default for name, (default, _) in SETTINGS.items() if "LIMIT" in name}
    app = create_app(
        {
            "REDIS_URL": redis_url,
            **FAST,
            **defaults,
            "HANABI_LIMITS": "on",
            "HANABI_LIMIT_IMPORT": "2/minute",
        }
    )
    client = app.test_client()
    client.environ_base["REMOTE_ADDR"] = (
        f"10.9.{secrets.randbelow(250)}.{secrets.randbelow(250) + 1}"
    )
    _, token = session(client)
    data = exported(client)
    for _ in range(2):
        assert post(client, data, token).status_code == 201
    refused = post(client, data, token)
    assert_problem(refused, 429, "rate_limited")
    assert refused.headers["Retry-After"]
