"""Acting, idempotent retries, rule refusals, chat, events, long-polls, the end of a game."""

from __future__ import annotations

import threading
import time
from typing import Any

import pytest
from api_helpers import Table, assert_problem, assert_valid, bearer, make_table
from flask.testing import FlaskClient

from hanabi.game import Game, Setup
from hanabi.server.api.schemas.events import ActionResultSchema, ChatResultSchema, EventPageSchema
from hanabi.server.api.schemas.views import GameViewSchema, HanabLiveGameSchema
from hanabi.server.table.refusals import Refused

pytestmark = pytest.mark.cluster  # run again on a Redis Cluster (make test-cluster)


def _clue_for(view: dict[str, Any], target: int) -> dict[str, Any]:
    return next(a for a in view["legal_actions"] if a["type"] == "clue" and a["target"] == target)


def test_action_applies_once_and_retry_returns_original(table: Table) -> None:
    view = table.view(0)
    clue = _clue_for(view, 1)
    first = table.act(0, 0, **clue)
    assert first.status_code == 201
    body = first.get_json()
    assert_valid(ActionResultSchema, body)
    assert body["events"][0]["type"] == "clue" and body["events"][0]["seq"] > 0
    assert body["game"]["turn"] == 1 and body["game"]["clue_tokens"] == 7
    again = table.act(0, 0, **clue)
    assert again.status_code == 200
    assert again.get_json()["events"] == body["events"]
    assert table.view(0)["turn"] == 1 and table.view(0)["clue_tokens"] == 7
    # the same turn with a different action, or by another seat, is stale
    other = next(a for a in view["legal_actions"] if a != clue and a["type"] == "clue")
    assert_problem(table.act(0, 0, **other), 409, "stale_turn")
    assert_problem(table.act(1, 0, **clue), 409, "stale_turn")
    assert_problem(table.act(1, 5, type="clue", target=2, rank=1), 409, "stale_turn")


def test_rule_refusals_are_409_with_engine_codes(table: Table) -> None:
    rank = table.view(1)["hands"][2][0]["rank"]
    assert_problem(table.act(1, 0, type="clue", target=2, rank=rank), 409, "not_your_turn")
    assert_problem(table.act(0, 0, type="discard", card=0), 409, "clue_tokens_full")
    assert_problem(table.act(0, 0, type="play", card=7), 409, "card_not_in_hand")
    assert_problem(table.act(0, 0, type="clue", target=0, rank=1), 409, "clue_to_self")
    # a colour of another variant is the engine's refusal; one of no variant, the schema's
    assert_problem(table.act(0, 0, type="clue", target=1, color="black"), 409, "unknown_color")
    assert_problem(table.act(0, 0, type="clue", target=1, color="pink"), 409, "unknown_color")
    assert_problem(table.act(0, 0, type="clue", target=1, color="mauve"), 400, "validation_error")
    # a seat no table this size has is the engine's refusal; past any table's, the schema's
    assert_problem(table.act(0, 0, type="clue", target=5, rank=1), 409, "unknown_seat")
    assert_problem(table.act(0, 0, type="clue", target=9, rank=1), 400, "validation_error")
    assert table.view(0)["turn"] == 0  # nothing applied


def test_empty_clue_and_no_clue_tokens(client: FlaskClient) -> None:
    table = make_table(client, 2, seed="tokens")
    for turn in range(8):
        seat = turn % 2
        view = table.view(seat)
        clue = _clue_for(view, 1 - seat)
        assert table.act(seat, turn, **clue).status_code == 201
    view = table.view(0)
    assert view["clue_tokens"] == 0
    assert_problem(table.act(0, 8, type="clue", target=1, rank=1), 409, "no_clue_tokens")
    # an empty clue is refused (which rank misses seat 1's hand is visible to seat 0)
    table.act(0, 8, type="discard", card=view["hands"][0][0]["order"])
    table.act(1, 9, type="discard", card=table.view(1)["hands"][1][0]["order"])
    hand = {c["rank"] for c in table.view(0)["hands"][1]}
    missing = next(r for r in range(1, 6) if r not in hand)
    assert_problem(table.act(0, 10, type="clue", target=1, rank=missing), 409, "empty_clue")


def test_action_schema_errors(table: Table) -> None:
    for body, field in [
        ({"type": "play"}, "card"),
        ({"type": "clue", "target": 1}, "color"),
        ({"type": "clue", "target": 1, "color": "red", "rank": 1}, "rank"),
        ({"type": "clue", "rank": 1}, "target"),
        ({"type": "dance", "card": 1}, "type"),
        ({"type": "play", "card": "1"}, "card"),
        ({"type": "discard", "card": 1, "target": 2}, "target"),
    ]:
        response = table.post("/actions", 0, {"turn": 0, **body})
        assert field in assert_problem(response, 400, "validation_error")["errors"]
    response = table.post("/actions", 0, {"type": "play", "card": 1})
    assert "turn" in assert_problem(response, 400, "validation_error")["errors"]


def test_auth_errors(table: Table, client: FlaskClient) -> None:
    response = client.post(f"{table.url}/actions", json={"turn": 0, "type": "play", "card": 0})
    assert_problem(response, 401, "auth_required")
    assert response.headers["WWW-Authenticate"].startswith("Bearer")
    response = client.post(
        f"{table.url}/actions",
        json={"turn": 0, "type": "play", "card": 0},
        headers={"Authorization": "Basic abc"},
    )
    assert_problem(response, 401, "invalid_auth")
    other = make_table(client, 2, start=False)
    response = client.post(
        f"{table.url}/actions",
        json={"turn": 0, "type": "play", "card": 0},
        headers=bearer(other.tokens[0]),
    )
    assert_problem(response, 403, "not_a_player")
    assert_problem(client.get(table.url, headers=bearer("x" * 32)), 403, "not_a_player")
    lobby = make_table(client, 2, start=False)
    assert_problem(lobby.act(0, 0, type="play", card=0), 409, "game_not_started")


def test_views_spectator_and_etag(table: Table) -> None:
    spectator = table.get()
    assert spectator.status_code == 200 and spectator.get_json()["you"] is None
    # an unrated table shows its spectators every hand (docs/watching.md)
    assert spectator.get_json()["spectating"] == "hands"
    assert all(c["suit"] is not None for hand in spectator.get_json()["hands"] for c in hand)
    assert table.view(0)["spectating"] is None
    etags = {seat: table.get(seat).headers["ETag"] for seat in (None, 0, 1, 2)}
    assert len(set(etags.values())) == 4  # each viewer sees something different
    for seat, etag in etags.items():
        unchanged = table.get(seat, headers={"If-None-Match": etag})
        assert unchanged.status_code == 304 and unchanged.headers["ETag"] == etag
        assert unchanged.get_data() == b""
    table.act(0, 0, **_clue_for(table.view(0), 1))
    for seat, etag in etags.items():
        changed = table.get(seat, headers={"If-None-Match": etag})
        assert changed.status_code == 200 and changed.headers["ETag"] != etag
    assert_problem(table.get(0, query_string={"wait": 99}), 400, "invalid_query")


@pytest.mark.serial  # measures time: alone, not beside another worker
def test_long_poll_wakes_within_100ms(table: Table) -> None:
    etag = table.get(1).headers["ETag"]
    got: dict[str, Any] = {}

    def poll() -> None:
        start = time.monotonic()
        response = table.client.get(
            table.url,
            query_string={"wait": 10},
            headers={"If-None-Match": etag, **bearer(table.tokens[1])},
        )
        got["response"], got["at"] = response, time.monotonic()
        got["waited"] = got["at"] - start

    waiter = threading.Thread(target=poll)
    waiter.start()
    time.sleep(0.4)
    assert "response" not in got
    changed_at = time.monotonic()
    table.act(0, 0, **_clue_for(table.view(0), 1))
    waiter.join(5)
    assert got["response"].status_code == 200
    assert got["response"].get_json()["turn"] == 1
    assert got["at"] - changed_at < 0.1
    # a wait that sees no change ends in 304 after the wait
    start = time.monotonic()
    etag = got["response"].headers["ETag"]
    quiet = table.get(
        1, query_string={"wait": 0.3}, headers={"If-None-Match": etag, **bearer(table.tokens[1])}
    )
    assert quiet.status_code == 304 and 0.25 < time.monotonic() - start < 2


def test_chat_and_events(table: Table, client: FlaskClient) -> None:
    said = table.post("/chat", 1, {"text": " hello table "})
    assert said.status_code == 201
    event = said.get_json()["event"]
    assert_valid(ChatResultSchema, said.get_json())
    assert event["type"] == "chat" and event["text"] == "hello table" and event["name"] == "p1"
    assert_problem(table.post("/chat", None, {"text": "hi"}), 401, "auth_required")
    long = table.post("/chat", 0, {"text": "x" * 1000})
    assert "text" in assert_problem(long, 400, "validation_error")["errors"]
    table.act(0, 0, **_clue_for(table.view(0), 2))
    page = client.get(f"{table.url}/events", headers=bearer(table.tokens[0])).get_json()
    assert_valid(EventPageSchema, page)
    types = [e["type"] for e in page["events"]]
    assert types.count("draw") == 15 and "chat" in types and types[-1] == "clue"
    assert [e["seq"] for e in page["events"]] == list(range(1, page["last_seq"] + 1))
    for e in page["events"]:
        if e["type"] == "draw":
            assert (e["suit"] is None) == (e["seat"] == 0)
    spectator = client.get(f"{table.url}/events").get_json()  # it sees the hands: every draw
    assert all(e["suit"] is not None for e in spectator["events"] if e["type"] == "draw")
    tail = client.get(f"{table.url}/events?after={page['last_seq'] - 1}").get_json()
    assert [e["seq"] for e in tail["events"]] == [page["last_seq"]]
    assert client.get(f"{table.url}/events?after=999").get_json()["events"] == []
    assert_problem(client.get(f"{table.url}/events?after=-1"), 400, "invalid_query")


def _play_out(table: Table, players: int) -> dict[str, Any]:
    """Play until the end: clue when possible, else discard the oldest card."""
    while True:
        view = table.view(0)
        if view["status"] == "finished":
            return view
        seat = view["current_seat"]
        mine = table.view(seat)
        plays = [a for a in mine["legal_actions"] if a["type"] == "discard"]
        clues = [a for a in mine["legal_actions"] if a["type"] == "clue"]
        action = plays[-1] if plays and mine["clue_tokens"] < 3 else (clues or plays)[0]
        assert table.act(seat, mine["turn"], **action).status_code == 201


def test_finished_game_export_replay_and_retry(client: FlaskClient) -> None:
    table = make_table(client, 2, seed="end")
    final = _play_out(table, 2)
    assert final["result"]["reason"] == "deck_out"
    assert all(c["suit"] is not None for hand in final["hands"] for c in hand)
    assert_problem(table.act(0, final["turn"], type="play", card=0), 409, "game_over")
    # the last action, re-sent, still answers with the original events
    export = client.get(f"{table.url}/export")
    assert export.status_code == 200
    doc = export.get_json()
    assert_valid(HanabLiveGameSchema, doc)
    assert doc["players"] == ["p0", "p1"] and doc["seed"] == "end"
    assert len(doc["actions"]) == final["turn"]
    replayed = client.get(f"{table.url}/replay", query_string={"turn": 3}).get_json()
    assert_valid(GameViewSchema, replayed)
    assert replayed["turn"] == 3 and all(c["suit"] for h in replayed["hands"] for c in h)
    assert client.get(f"{table.url}/replay").get_json()["turn"] == final["turn"]
    bad = client.get(f"{table.url}/replay", query_string={"turn": final["turn"] + 1})
    assert_problem(bad, 404, "no_such_turn")
    events = client.get(f"{table.url}/events").get_json()["events"]
    assert events[-1]["type"] == "game_over" and all(
        e["suit"] is not None for e in events if e["type"] == "draw"
    )
    # the log of a finished game is rebuilt exactly as it was written
    game = Game(Setup.create("no_variant", ["p0", "p1"], seed="end"))
    lobby = ["join", "join", "start"]  # the lobby's events come first
    assert [e["type"] for e in events[:13]] == lobby + ["draw"] * 10
    assert events[3]["suit"] == game.variant.card(game.deck[0])[0]
    assert_problem(table.post("/chat", 1, {"text": "gg"}), 409, "game_finished")
    assert client.get(f"{table.url}/events").get_json()["events"] == events
    last = doc["actions"][-1]
    assert last["type"] in (1, 2, 3)


def test_export_and_replay_refused_while_on(table: Table, client: FlaskClient) -> None:
    assert_problem(client.get(f"{table.url}/export"), 409, "game_not_finished")
    assert_problem(client.get(f"{table.url}/replay"), 409, "game_not_finished")


def test_terminate(table: Table, client: FlaskClient) -> None:
    assert_problem(table.post("/terminate", None), 401, "auth_required")
    assert table.post("/terminate", 1).get_json()["game"]["status"] == "playing"  # 1 of 2
    response = table.post("/terminate", 2)
    assert response.status_code == 200
    body = response.get_json()
    assert_valid(ActionResultSchema, body)
    assert body["game"]["status"] == "finished"
    assert body["game"]["result"] == {"reason": "terminated", "score": 0}
    assert [e["type"] for e in body["events"]] == ["vote", "terminate", "game_over"]
    assert_problem(table.post("/terminate", 0), 409, "game_over")
    lobby = make_table(client, 2, start=False)
    assert_problem(lobby.post("/terminate", 0), 409, "game_not_started")
    doc = client.get(f"{table.url}/export").get_json()
    assert doc["actions"] == [{"type": 4, "target": 0, "value": 4}]


def test_retry_of_the_final_action(client: FlaskClient) -> None:
    table = make_table(client, 2, seed="final")
    final = _play_out(table, 2)
    doc = client.get(f"{table.url}/export").get_json()
    last = doc["actions"][-1]
    seat = (final["turn"] - 1) % 2
    kind = {0: "play", 1: "discard"}.get(last["type"])
    if kind is None:  # a clue ended it
        action = {"type": "clue", "target": last["target"]}
        if last["type"] == 3:
            action["rank"] = last["value"]
        else:
            action["color"] = ["red", "yellow", "green", "blue", "white"][last["value"]]
    else:
        action = {"type": kind, "card": last["target"]}
    again = table.act(seat, final["turn"] - 1, **action)
    assert again.status_code == 200, again.get_json()
    assert again.get_json()["events"][-1]["type"] == "game_over"


def test_wild_rainbow_names_a_firework(client: FlaskClient) -> None:
    table = make_table(client, 2, variant="wild_rainbow", seed="w")
    view = table.view(0)
    assert view["variant"] == "wild_rainbow" and "wild_rainbow" not in view["fireworks"]
    response = table.act(0, 0, type="play", card=view["hands"][0][0]["order"], firework="black")
    assert_problem(response, 409, "unknown_firework")  # a suit, but not of this variant


def test_finished_event_log_is_the_live_one(client: FlaskClient) -> None:
    """The archive rebuilds exactly the log players saw, chat lines in place."""
    table = make_table(client, 2, start=False, seed="archive")
    table.post("/chat", 1, {"text": "before the start"})
    table.start()
    table.act(0, 0, type="clue", target=1, rank=table.view(0)["hands"][1][0]["rank"])
    table.post("/chat", 0, {"text": "during the game"})
    live = client.get(f"{table.url}/events", headers=bearer(table.tokens[0])).get_json()["events"]
    table.end()
    final = client.get(f"{table.url}/events").get_json()["events"]
    assert [e["seq"] for e in final] == list(range(1, len(final) + 1))
    assert [e["type"] for e in final[:4]] == ["join", "join", "chat", "start"]
    assert final[2]["text"] == "before the start" and final[len(live) - 1] == live[-1]
    for before, after in zip(live, final):
        if before["type"] != "draw" or before["suit"] is not None:
            assert before == after
    assert [e["type"] for e in final[len(live) :]] == ["vote", "vote", "terminate", "game_over"]


def _poll_in_thread(
    table: Table, seat: int, etag: str, wait: float
) -> tuple[threading.Thread, dict[str, Any]]:
    got: dict[str, Any] = {}

    def poll() -> None:
        got["response"] = table.get(
            seat, query_string={"wait": wait}, headers={"If-None-Match": etag}
        )
        got["at"] = time.monotonic()

    thread = threading.Thread(target=poll)
    thread.start()
    return thread, got


@pytest.mark.serial  # measures time: alone, not beside another worker
def test_repeated_long_polls_each_wake_quickly(table: Table) -> None:
    for turn in range(3):
        seat = turn % 3
        etag = table.get(2).headers["ETag"]
        thread, got = _poll_in_thread(table, 2, etag, 10)
        time.sleep(0.2)
        view = table.view(seat)
        clue = _clue_for(view, (seat + 1) % 3)
        assert table.act(seat, turn, **clue).status_code == 201
        acted = time.monotonic()
        thread.join(5)
        assert got["response"].status_code == 200 and got["at"] - acted < 0.1


def test_long_poll_survives_losing_the_pubsub_connection(table: Table, redis_url: str) -> None:
    import redis

    etag = table.get(1).headers["ETag"]
    thread, got = _poll_in_thread(table, 1, etag, 10)
    time.sleep(0.3)
    redis.Redis.from_url(redis_url).client_kill_filter(_type="pubsub")
    time.sleep(0.2)
    table.act(0, 0, **_clue_for(table.view(0), 1))
    acted = time.monotonic()
    thread.join(8)
    assert got["response"].status_code == 200
    assert got["at"] - acted < 3  # at worst the waiter's periodic re-check


def test_service_can_act_for_a_seat_without_a_token(app: Any, table: Table) -> None:
    """Room for bot seats: server-side code acts for a seat directly, same rules."""
    service = app.extensions["hanabi"]
    view = table.view(0)
    clue = _clue_for(view, 1)
    outcome = service.play.act(table.id, None, {"turn": 0, **clue}, as_seat=0)
    assert outcome.seat == 0 and outcome.events[0]["type"] == "clue"
    assert table.view(1)["turn"] == 1
    with pytest.raises(Refused) as refused:  # the rules still apply
        service.play.act(table.id, None, {**clue, "turn": 1}, as_seat=0)
    assert refused.value.code == "not_your_turn"
