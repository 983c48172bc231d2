"""Following a seed's finished game as an account with no seat, and a seed room as one of
its members (docs/seeds.md, docs/replays.md): the stream tickets of a browser stand for
the account (a finisher sees the cards) or the room's member (admitted when joining), and
a leaderboard's replay link follows the same rule as the game."""

from __future__ import annotations

import test_seed_gate
from account_helpers import played, seat_table, session
from api_helpers import API, assert_problem, bearer
from flask.testing import FlaskClient
from test_leaderboards import every_entry
from test_seed_gate import ROOMS, Cast, hidden, shown
from test_stream import Stream, stream_url

app, client, cast = test_seed_gate.app, test_seed_gate.client, test_seed_gate.cast  # fixtures


def ticket(client: FlaskClient, url: str, token: str | None) -> str:
    made = client.post(f"{url}/tickets", headers=bearer(token))
    assert made.status_code == 201, made.get_json()
    return made.get_json()["ticket"]


def test_a_ticket_of_an_account_with_no_seat_watches_as_that_account(
    client: FlaskClient, cast: Cast
) -> None:
    for token, hide in ((cast.never, True), (cast.fin, False), (cast.ann, False)):
        url = f"{stream_url(cast.game.id, after=0)}&ticket={ticket(client, cast.game.url, token)}"
        stream = Stream(client, url)
        assert stream.response.status_code == 200
        messages = stream.until("end")
        view = [m[2] for m in messages if m[0] == "view"][-1]
        draws = [m[2] for m in messages if m[0] == "draw"]
        assert hidden(view) if hide else shown(view) and "cards_hidden" not in view
        assert all((d["suit"] is None) == hide for d in draws)
        stream.close()
    # a token that is neither a seat nor an account's: refused as before
    assert_problem(
        client.post(f"{cast.game.url}/tickets", headers=bearer("x" * 40)), 403, "not_a_player"
    )


def test_a_follower_who_joined_reads_and_streams_the_room(client: FlaskClient, cast: Cast) -> None:
    made = client.post(ROOMS, json={"game_id": cast.game.id}, headers=bearer(cast.ann))
    room, leader = made.get_json()["id"], made.get_json()["token"]
    url = f"{ROOMS}/{room}"
    joined = client.post(f"{url}/followers", json={"name": "f"}, headers=bearer(cast.fin))
    member = joined.get_json()["token"]
    got = client.get(url, headers=bearer(member))
    assert got.status_code == 200, got.get_json()
    stream = Stream(client, f"{url}/stream", bearer(member))
    assert stream.response.status_code == 200 and stream.until("room")
    stream.close()
    # a ticket for the browser's EventSource: the member's, the leader's (its view)
    for token in (member, leader, cast.fin):
        stream = Stream(client, f"{url}/stream?ticket={ticket(client, url, token)}")
        assert stream.response.status_code == 200 and stream.until("room")
        stream.close()
    used = ticket(client, url, member)
    Stream(client, f"{url}/stream?ticket={used}").close()
    assert_problem(client.get(f"{url}/stream?ticket={used}"), 401, "invalid_ticket")
    # outsiders get no ticket, as they get no room
    assert_problem(client.post(f"{url}/tickets"), 401, "auth_required")
    assert_problem(
        client.post(f"{url}/tickets", headers=bearer(cast.never)), 403, "seed_not_played"
    )
    # a token that is neither a member's, a seat's nor an account's: as without one
    assert_problem(client.get(url, headers=bearer("y" * 40)), 401, "account_required")


def test_a_leaderboard_entry_of_a_seed_game_follows_the_gate(client: FlaskClient) -> None:
    # `random` (the default) deals a seed name: the game is on the board, its deal a seed's
    (_, a), (_, b), (_, never) = session(client), session(client), session(client)
    game = played(seat_table(client, [a, b]))
    client.application.extensions["hanabi"].settler.settle(game.id)
    seed = game.view(0)["seed"]
    entry = next(e for e in every_entry(client, variant="0", players=2) if e["game_id"] == game.id)
    # a finisher of that seed at another table
    (_, fin), (_, mate) = session(client), session(client)
    played(seat_table(client, [fin, mate], seed=seed))
    # the board's link (the API's replay) and the game it names (the web's "Replay" link)
    replay = client.get(entry["replay"], headers=bearer(fin))
    assert replay.status_code == 200 and shown(replay.get_json())
    assert_problem(client.get(entry["replay"], headers=bearer(never)), 403, "seed_not_played")
    assert_problem(client.get(entry["replay"]), 401, "account_required")
    url = f"{API}/games/{entry['game_id']}"
    assert shown(client.get(url, headers=bearer(fin)).get_json())
    for token in (never, None):
        view = client.get(url, headers=bearer(token)).get_json()
        assert hidden(view) and view["cards_hidden"] == "seed_not_played"
