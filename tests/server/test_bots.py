"""Bot seats: seating bots, bot turns played by the server on their own (no client polls for
them), all-bot tables that can be watched, and bot turns that survive a dead worker or a
server restart. Real Redis throughout; the restart test runs gunicorn processes."""

from __future__ import annotations

import re
import statistics
import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest
from api_helpers import API, Table, assert_problem, assert_valid, bearer, bot_parts, make_table
from flask import Flask
from flask.testing import FlaskClient
from process_helpers import Http, _stop, gunicorn

from hanabi.bots import STRATEGIES
from hanabi.server import create_app
from hanabi.server.api.schemas.events import EventPageSchema
from hanabi.server.api.schemas.requests import BotSeatResultSchema
from hanabi.server.ops.redis_process import free_port
from hanabi.server.storage.slots import bucket_slots, new_game_id, slot_of
from hanabi.server.table.bots import BotWorker


def add_bot(table: Table, seat: int | None = 0, **body: Any) -> Any:
    return table.post("/bots", seat, body)


def wait_view(client: FlaskClient, url: str, token: str | None, view: dict[str, Any]) -> Any:
    """The next view after ``view`` (a long-poll), or the same one after 10 s."""
    seat = "s" if view["you"] is None else view["you"]
    headers = {**bearer(token), "If-None-Match": f'"{view["version"]}.{seat}"'}
    response = client.get(url + "?wait=10", headers=headers)
    return view if response.status_code == 304 else response.get_json()


def human_move(view: dict[str, Any]) -> dict[str, Any]:
    """A simple legal move: play a card known playable, else clue, else discard."""
    legal = view["legal_actions"]
    clues = [a for a in legal if a["type"] == "clue"]
    discards = [a for a in legal if a["type"] == "discard"]
    return (clues if view["clue_tokens"] > 4 or not discards else discards)[0]


# -- the lobby ---------------------------------------------------------------------------


def test_host_seats_bots_with_defaults_names_and_strategies(client: FlaskClient) -> None:
    table = make_table(client, 2, start=False, max_players=4)
    added = add_bot(table)
    assert added.status_code == 201, added.get_json()
    body = added.get_json()
    assert_valid(BotSeatResultSchema, body)
    assert body["seat"] == 2 and body["game"]["you"] == 0
    assert body["game"]["players"][2] == {
        "seat": 2,
        "name": "conventions-bot-3",
        "bot": "conventions",
        "plays": "conventions",
        "playing": "conventions",
    }
    named = add_bot(table, strategy="hat", name=" Hatty ")
    assert named.status_code == 201
    assert named.get_json()["game"]["players"][3] == {
        "seat": 3,
        "name": "Hatty",
        "bot": "hat",
        "plays": "hat",
        "playing": "conventions",  # next to people: the host sees it before the deal
    }
    assert_problem(add_bot(table), 409, "game_full")
    # the host frees a bot seat like any seat; a new bot gets a name free at the table
    assert (
        client.delete(f"{table.url}/players/2", headers=bearer(table.tokens[0])).status_code == 204
    )
    again = add_bot(table, name="hatty")
    assert_problem(again, 409, "name_taken")
    again = add_bot(table)
    assert again.get_json()["game"]["players"][3]["name"] == "conventions-bot-4"
    table.start()
    assert_problem(add_bot(table), 409, "game_started")


def test_bot_seats_are_for_the_host_with_a_known_strategy(client: FlaskClient) -> None:
    table = make_table(client, 2, start=False)
    assert_problem(add_bot(table, seat=1), 403, "not_host")
    assert_problem(add_bot(table, seat=None), 401, "auth_required")
    bad = assert_problem(add_bot(table, strategy="nope"), 400, "validation_error")
    assert all(name in bad["errors"]["strategy"][0] for name in STRATEGIES)
    assert bad["detail"].endswith(f"strategy: {bad['errors']['strategy'][0]}")  # says why
    response = client.post(f"{API}/games/nosuchgame/bots", json={}, headers=bearer(table.tokens[0]))
    assert_problem(response, 404, "game_not_found")


def test_lobby_events_are_in_the_public_log(client: FlaskClient) -> None:
    table = make_table(client, 3, start=False, max_players=5)
    add_bot(table, strategy="hat")
    host = bearer(table.tokens[0])
    assert (
        client.delete(f"{table.url}/players/1", headers=bearer(table.tokens[1])).status_code == 204
    )
    assert client.delete(f"{table.url}/players/1", headers=host).status_code == 204  # p2
    table.tokens = [table.tokens[0]]
    table.start()
    page = client.get(f"{table.url}/events").get_json()
    assert_valid(EventPageSchema, page)
    lobby = [{k: v for k, v in e.items() if k != "seq"} for e in page["events"][:6]]
    assert lobby == [
        {"type": "join", "turn": 0, "seat": 0, "name": "p0", "bot": None},
        {"type": "join", "turn": 0, "seat": 1, "name": "p1", "bot": None},
        {"type": "join", "turn": 0, "seat": 2, "name": "p2", "bot": None},
        {"type": "join", "turn": 0, "seat": 3, "name": "hat-bot-4", "bot": "hat"},
        {"type": "leave", "turn": 0, "seat": 1, "name": "p1", "bot": None, "host": 0},
        {"type": "remove", "turn": 0, "seat": 1, "name": "p2", "bot": None, "host": 0},
    ]
    assert page["events"][6]["type"] == "start" and page["events"][7]["type"] == "draw"


def test_a_lobby_left_to_bots_is_gone(client: FlaskClient) -> None:
    table = make_table(client, 1, start=False)
    add_bot(table)
    assert (
        client.delete(f"{table.url}/players/0", headers=bearer(table.tokens[0])).status_code == 204
    )
    assert_problem(client.get(table.url), 404, "game_not_found")


def test_game_ids_are_letters_and_digits_in_a_buckets_slot() -> None:
    ids = {new_game_id() for _ in range(5000)}
    assert len(ids) == 5000
    assert all(re.fullmatch(r"[A-Za-z0-9]{12}", i) for i in ids)  # 62**12 > 2**71
    # the last character is found from the CRC's algebra: hashing the whole id agrees
    assert all(slot_of(i) in bucket_slots() for i in ids)
    # every character of the alphabet is drawn, in every place
    assert all(len({i[place] for i in ids}) == 62 for place in range(12))


# -- bots play ---------------------------------------------------------------------------


@pytest.mark.serial  # measures time: alone, not beside another worker
def test_one_human_and_three_bots_finish_a_game(client: FlaskClient) -> None:
    """The human plays over HTTP; bots move on their own, seen through long-polls."""
    table = make_table(client, 1, start=False, seed="bots-1h3b")
    for _ in range(3):
        assert add_bot(table).status_code == 201
    view = table.start()
    spectator = table.view(None)  # a person sits here: an unrated table shows the hands
    assert spectator["spectating"] == "hands"
    assert all(c["suit"] is not None for hand in spectator["hands"] for c in hand)
    token = table.tokens[0]
    bot_waits = []
    deadline = time.monotonic() + 60
    while view["result"] is None and time.monotonic() < deadline:
        if view["current_seat"] == 0:
            response = table.act(0, view["turn"], **human_move(view))
            assert response.status_code == 201, response.get_json()
            view = response.get_json()["game"]
            continue
        began = time.monotonic()
        view = wait_view(client, table.url, token, view)
        bot_waits.append(time.monotonic() - began)
        if view["result"] is None:  # bots at the table do not make the person's cards show
            assert all(c["suit"] is None and c["rank"] is None for c in view["hands"][0])
    assert view["result"] is not None, "the bots stalled"
    assert view["turn"] > 20 and view["status"] == "finished"
    assert not any(c["suit"] is None for hand in view["hands"] for c in hand)
    events = client.get(f"{table.url}/events").get_json()["events"]
    seats = {e["seat"] for e in events if e["type"] in ("play", "discard", "clue", "misplay")}
    assert seats == {0, 1, 2, 3}
    # each long-poll covers one bot move (or a run of them): well under a second
    assert statistics.median(bot_waits) < 0.25, bot_waits


def test_an_all_bot_table_plays_itself_and_can_be_watched(client: FlaskClient) -> None:
    """The host seats bots and starts with watch: their seat goes, and spectators see
    every card of a table where nobody has cards to hide."""
    table = make_table(client, 1, start=False, seed="all-bots")
    for _ in range(3):
        add_bot(table, strategy="hat")
    started = table.post("/start", 0, {"watch": True})
    assert started.status_code == 200, started.get_json()
    view = started.get_json()
    assert view["you"] is None and [p["bot"] for p in view["players"]] == ["hat"] * 3
    assert view["status"] == "playing"
    assert all(c["suit"] is not None for hand in view["hands"] for c in hand)  # watched: all
    assert_problem(table.get(0), 403, "not_a_player")  # the host's token holds no seat now
    seen = 1
    deadline = time.monotonic() + 60
    while view["result"] is None and time.monotonic() < deadline:
        view = wait_view(client, table.url, None, view)
        seen += 1
    assert view["result"] is not None and view["result"]["score"] >= 15, view["result"]
    assert seen > 3  # the watcher saw the game move along
    events = client.get(f"{table.url}/events").get_json()["events"]
    assert [e["type"] for e in events[:5]] == ["join"] * 4 + ["leave"]
    assert all(e["suit"] is not None for e in events if e["type"] == "draw")


def test_start_watch_needs_two_other_seats(client: FlaskClient) -> None:
    table = make_table(client, 1, start=False)
    add_bot(table)
    assert_problem(table.post("/start", 0, {"watch": True}), 409, "not_enough_players")
    assert_problem(table.post("/start", 0, {"watch": "maybe"}), 400, "validation_error")


# -- bot turns never stall ---------------------------------------------------------------


@pytest.fixture
def quiet_app(redis_url: str) -> Iterator[Flask]:
    """An app on its own Redis database, with no bot worker: bot turns only come due."""
    url = (
        redis_url.rsplit("/", 1)[0] + "/10"
    )  # not 7: the e2e suite's live servers (with bot workers) use it
    app = create_app({"REDIS_URL": url, "HANABI_BOT_WORKER": 0})
    app.extensions["hanabi"].store.redis.flushdb()
    yield app


def _due_bot_game(client: FlaskClient) -> Table:
    """A started game (human at seat 0, a bot at seat 1) whose bot is to move."""
    table = make_table(client, 1, start=False, seed="due")
    add_bot(table)
    view = table.start()
    assert table.act(0, 0, **human_move(view)).status_code == 201
    return table


def _wait_turn(table: Table, turn: int, seconds: float) -> float:
    began = time.monotonic()
    while table.view(None)["turn"] < turn:
        assert time.monotonic() - began < seconds, f"turn {turn} not reached"
        time.sleep(0.02)
    return time.monotonic() - began


@pytest.mark.single_redis
def test_a_due_bot_turn_waits_for_a_worker_then_plays(quiet_app: Flask) -> None:
    client = quiet_app.test_client()
    table = _due_bot_game(client)
    store = quiet_app.extensions["hanabi"].store
    time.sleep(0.5)
    assert table.view(None)["turn"] == 1  # nobody plays it...
    assert store.is_bot_due(table.id)  # ...but it is due
    worker = BotWorker(*bot_parts(quiet_app), 1, lease=1.0).start()
    try:
        assert _wait_turn(table, 2, 5) < 1.0
    finally:
        worker.stop()
    assert not store.is_bot_due(table.id)  # the human is to move


@pytest.mark.single_redis
def test_a_claim_whose_worker_died_is_taken_again_after_its_lease(quiet_app: Flask) -> None:
    client = quiet_app.test_client()
    table = _due_bot_game(client)
    store = quiet_app.extensions["hanabi"].store
    assert store.claim_bot_turn(lease_ms=800) == table.id  # a worker claims, then dies
    worker = BotWorker(*bot_parts(quiet_app), 1, lease=1.0).start()
    try:
        assert store.claim_bot_turn(lease_ms=800) is None  # nobody else takes a live claim
        waited = _wait_turn(table, 2, 5)
    finally:
        worker.stop()
    assert 0.5 < waited < 2.0, waited


@pytest.mark.single_redis
def test_a_wake_up_names_its_game_and_the_game_is_claimed_once(quiet_app: Flask) -> None:
    """A worker claims the game a wake-up names, in one call to its bucket, without a look
    at every bucket; a game whose claim is held is not claimed twice."""
    client = quiet_app.test_client()
    store = quiet_app.extensions["hanabi"].store
    wakes = store.bot_wakes()
    try:
        wakes.wait(0.2)  # the subscription is confirmed; nothing announced yet
        table = _due_bot_game(client)
        named = wakes.wait(2)
        assert named == [table.id]
        other = make_table(client, 2, seed="no-bot")
        assert not store.claim_bot_game(other.id, 1000)  # no bot there: nothing due
        assert store.claim_bot_game(table.id, 1000)
        assert not store.claim_bot_game(table.id, 1000)  # the claim is held
        assert store.claim_bot_turn(1000) is None
    finally:
        wakes.close()


@pytest.mark.single_redis
def test_a_bot_due_while_the_server_restarts_still_plays(redis_url: str) -> None:
    """gunicorn without bot workers takes the human's move and stops; once a server with
    workers is back, the bot's turn is played though no client asks for anything."""
    url = redis_url.rsplit("/", 1)[0] + "/8"
    port = free_port()
    first = gunicorn(port, {"REDIS_URL": url, "HANABI_BOT_WORKER": "0"})
    try:
        http = Http(port)
        created = http("POST", "/games", {"name": "host", "seed": "restart"})[2]
        gid, token = created["id"], created["token"]
        assert http("POST", f"/games/{gid}/bots", {}, token)[0] == 201
        view = http("POST", f"/games/{gid}/start", {}, token)[2]
        assert (
            http("POST", f"/games/{gid}/actions", {"turn": 0, **human_move(view)}, token)[0] == 201
        )
    finally:
        _stop(first)
    second = gunicorn(port, {"REDIS_URL": url})
    try:
        deadline = time.monotonic() + 10
        while (view := Http(port)("GET", f"/games/{gid}")[2])["turn"] < 2:
            assert time.monotonic() < deadline, "the due bot turn was never played"
            time.sleep(0.05)
        assert view["current_seat"] == 0
    finally:
        _stop(second)


@pytest.mark.single_redis
@pytest.mark.serial  # measures time: alone, not beside another worker
def test_human_requests_are_not_held_up_by_bot_games(redis_url: str) -> None:
    """While one server process plays 4 all-bot games flat out, a person's reads on the
    same process still answer in milliseconds; and a bot moves within milliseconds of
    becoming due."""
    url = redis_url.rsplit("/", 1)[0] + "/9"
    port = free_port()
    proc = gunicorn(port, {"REDIS_URL": url})
    try:
        http = Http(port)
        # due -> committed: the human's move makes the bot due; a long-poll sees its move
        gid, token = _http_table(http, ["conventions"])
        view = http("POST", f"/games/{gid}/start", {}, token)[2]
        delays = []
        for _ in range(10):
            if view["result"] is not None:
                break
            status, _, body = http(
                "POST", f"/games/{gid}/actions", {"turn": view["turn"], **human_move(view)}, token
            )
            assert status == 201
            moved = time.monotonic()
            etag = f'"{body["game"]["version"]}.0"'
            status, _, view = http(
                "GET", f"/games/{gid}?wait=5", token=token, **{"If-None-Match": etag}
            )
            assert status == 200
            delays.append(time.monotonic() - moved)
        print(
            f"\nbot move, due -> seen by a long-poll: median {statistics.median(delays) * 1000:.1f} ms, max {max(delays) * 1000:.1f} ms"
        )
        assert statistics.median(delays) < 0.1, delays
        # reads while bots play: 4 all-bot tables at once on this one process
        watched = []
        for _ in range(4):
            g, t = _http_table(http, ["hat", "hat", "hat"])
            assert http("POST", f"/games/{g}/start", {"watch": True}, t)[0] == 200
            watched.append(g)
        reader, latencies = Http(port), []
        _, _, mine = http("POST", "/games", {"name": "reader"})
        for _ in range(200):
            began = time.monotonic()
            assert reader("GET", f"/games/{mine['id']}", token=mine["token"])[0] == 200
            latencies.append(time.monotonic() - began)
        turns = [http("GET", f"/games/{g}")[2]["turn"] for g in watched]
        latencies.sort()
        p50, p99 = latencies[100] * 1000, latencies[197] * 1000
        print(f"reads during 4 bot games: p50 {p50:.1f} ms, p99 {p99:.1f} ms; turns {turns}")
        assert sum(turns) > 20  # the bots really were playing meanwhile
        assert p50 < 15 and p99 < 60, (p50, p99)
    finally:
        _stop(proc)


def _http_table(http: Http, bots: list[str]) -> tuple[str, str]:
    status, _, created = http("POST", "/games", {"name": "host"})
    assert status == 201
    for strategy in bots:
        assert (
            http("POST", f"/games/{created['id']}/bots", {"strategy": strategy}, created["token"])[
                0
            ]
            == 201
        )
    return created["id"], created["token"]


def test_bot_moves_keep_going_across_many_games(client: FlaskClient) -> None:
    """Several all-bot tables at once all finish (bots take turns across games)."""
    tables = []
    for i in range(4):
        table = make_table(client, 1, start=False, seed=f"many-{i}", max_players=3)
        add_bot(table)
        add_bot(table, strategy="hat")
        assert table.post("/start", 0, {"watch": True}).status_code == 200
        tables.append(table)
    done = threading.Event()
    deadline = time.monotonic() + 60
    while not done.is_set() and time.monotonic() < deadline:
        if all(t.view(None)["result"] is not None for t in tables):
            done.set()
        time.sleep(0.05)
    assert done.is_set()
