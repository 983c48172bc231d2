"""hanabi.client.api against a live server: every call, every error path.

The server is gunicorn on a real port with real Redis (see conftest.py); network faults
come from a real proxy in between, not from mocks.
"""

from __future__ import annotations

import threading
import time

import pytest
from e2e_support import FaultProxy, full_deck, pass_everything

from hanabi.client.api import ActResult, ApiError, Client, Poll, Seat, Unreachable
from hanabi.server.ops.redis_process import free_port

HEAD = [("red", 1), ("yellow", 1), ("green", 1), ("blue", 1), ("white", 1),
        ("red", 2), ("yellow", 2), ("green", 2), ("blue", 2), ("white", 2)]  # fmt: skip


def started(api: Client, names=("alice", "bob"), **create) -> list[Seat]:
    host = api.create_game(names[0], max_players=len(names), **create)
    seats = [host] + [api.join(host.game_id, n) for n in names[1:]]
    api.start(host.game_id, token=host.token)
    return seats


def code_of(call, *args, **kwargs) -> tuple[str, int | None]:
    with pytest.raises(ApiError) as caught:
        call(*args, **kwargs)
    return caught.value.code, caught.value.status


# -- service ---------------------------------------------------------------------------


def test_health_and_variants(api):
    assert api.health() == {"status": "ok"}
    page = api.variants(q="pink", suits=6, limit=5)
    assert page["total"] > 5 and len(page["variants"]) == 5 and page["next"]
    assert all("Pink" in v["name"] and len(v["suits"]) == 6 for v in page["variants"])
    assert api.variant("no_variant")["max_score"] == 25
    assert [s["abbreviation"] for s in api.variant("black_powder")["suits"]][-1] == "K"
    assert api.variant("pink & brown (6 suits)")["name"] == "Pink & Brown (6 Suits)"
    with pytest.raises(ApiError) as caught:
        api.variant("Nothing (9 Suits)")
    assert (caught.value.status, caught.value.code) == (404, "unknown_variant")


def test_server_url_may_carry_the_api_prefix(live_server):
    assert Client(live_server.url + "/api/v1/").health() == {"status": "ok"}


# -- lobby -----------------------------------------------------------------------------


def test_create_with_every_option(api):
    seat = api.create_game(
        "alice",
        variant="rainbow",
        max_players=3,
        options={"empty_clues": True, "strikeout_keeps_score": True},
        seed="fixed",
    )
    assert isinstance(seat, Seat) and seat.seat == 0 and len(seat.token) >= 22
    game = seat.game
    assert game["id"] == seat.game_id and game["status"] == "lobby" and game["host"] == 0
    assert game["variant"] == "rainbow" and game["max_players"] == 3
    assert game["options"] == {
        "empty_clues": True, "strikeout_keeps_score": True, "idle_limit": 1800, "timer": None,
        "spectators_see_hands": True,  # an unrated table's default (docs/watching.md)
    }  # fmt: skip
    assert game["players"] == [
        {"seat": 0, "name": "alice", "bot": None, "plays": None, "playing": None}
    ]


def test_create_refusals(api):
    with pytest.raises(ApiError) as unknown:
        api.create_game("alice", variant="nope")
    assert unknown.value.code == "validation_error" and "variant" in unknown.value.problem["errors"]
    assert code_of(api.create_game, "alice", deck=full_deck()[:-1]) == ("invalid_deck", 400)
    with pytest.raises(ApiError) as caught:
        api.create_game("alice", max_players=9)
    assert caught.value.code == "validation_error" and caught.value.status == 400
    assert "max_players" in caught.value.problem["errors"]
    assert caught.value.title and caught.value.problem["type"].endswith("validation_error")
    assert code_of(api.create_game, "") == ("validation_error", 400)


def test_join_leave_and_their_refusals(api):
    host = api.create_game("alice", max_players=3)
    gid = host.game_id
    bob = api.join(gid, "bob")
    assert bob.seat == 1 and bob.game["you"] == 1 and bob.token != host.token
    assert code_of(api.join, gid, "BOB") == ("name_taken", 409)
    cathy = api.join(gid, "cathy")
    assert code_of(api.join, gid, "dave") == ("game_full", 409)
    assert code_of(api.join, "no-such-game", "dave") == ("game_not_found", 404)
    # Leaving: yourself, or the host removes anyone; nobody else removes others.
    assert code_of(api.leave, gid, 2, token=bob.token) == ("not_host", 403)
    assert code_of(api.leave, gid, 2) == ("auth_required", 401)
    assert code_of(api.leave, gid, 7, token=host.token) == ("no_such_seat", 404)
    api.leave(gid, 1, token=bob.token)
    game = api.game(gid, token=cathy.token)
    assert [p["name"] for p in game["players"]] == ["alice", "cathy"] and game["you"] == 1
    assert code_of(api.game, gid, token=bob.token) == ("not_a_player", 403)
    api.leave(gid, 1, token=host.token)
    assert [p["name"] for p in api.game(gid)["players"]] == ["alice"]


def test_start_and_its_refusals(api):
    host = api.create_game("alice", max_players=2)
    gid = host.game_id
    assert code_of(api.start, gid, token=host.token) == ("not_enough_players", 409)
    bob = api.join(gid, "bob")
    assert code_of(api.start, gid, token=bob.token) == ("not_host", 403)
    assert code_of(api.start, gid) == ("auth_required", 401)
    assert code_of(api.start, gid, token="x" * 30) == ("not_a_player", 403)
    view = api.start(gid, token=host.token)
    assert view["status"] == "playing" and view["you"] == 0 and view["current_seat"] == 0
    assert code_of(api.start, gid, token=host.token) == ("game_started", 409)
    assert code_of(api.join, gid, "cathy") == ("game_started", 409)
    assert code_of(api.leave, gid, 1, token=bob.token) == ("game_started", 409)


def test_list_games_by_status_a_page_at_a_time(api):
    ids = []
    for i in range(3):
        ids.append(api.create_game(f"p{i}", max_players=2).game_id)
        time.sleep(0.005)  # lobbies list by last change in ms (here: their creation)
    page = api.list_games("lobby", limit=2)
    assert len(page.games) == 2 and page.cursor
    assert all(g["status"] == "lobby" for g in page.games)
    assert page.games[0]["id"] == ids[-1]  # newest first
    later = api.list_games("lobby", limit=2, cursor=page.cursor)
    assert later.games[0]["id"] == ids[0]
    everything = [g["id"] for g in api.iter_games("lobby", limit=2)]
    assert everything[:3] == ids[::-1] and len(everything) == len(set(everything))
    assert code_of(api.list_games, "sleeping") == ("invalid_query", 400)


# -- views, long-polls -----------------------------------------------------------------


def test_seat_view_and_spectator_view(api):
    alice, _ = started(api, deck=full_deck(HEAD))
    mine = api.game(alice.game_id, token=alice.token)
    assert mine["you"] == 0 and mine["legal_actions"]
    assert all(c["suit"] is None for c in mine["hands"][0])
    assert [c["suit"] for c in mine["hands"][1]] == ["white", "blue", "green", "yellow", "red"]
    spectator = api.game(alice.game_id)
    assert spectator["you"] is None and not spectator["legal_actions"]
    # an unrated table shows its spectators every hand (docs/watching.md)
    assert spectator["spectating"] == "hands" and mine["spectating"] is None
    assert all(c["suit"] is not None for hand in spectator["hands"] for c in hand)
    again = api.table(alice.game_id, alice.token).game()
    assert {**again, "server_time": None} == {**mine, "server_time": None}  # each has its own
    assert code_of(api.game, "nope") == ("game_not_found", 404)


def test_etag_and_long_poll(api):
    alice, bob = started(api)
    gid = alice.game_id
    first = api.poll(gid, token=bob.token)
    assert isinstance(first, Poll) and first.changed and first.etag
    same = api.poll(gid, first.etag, token=bob.token)
    assert not same.changed and same.game is None and same.etag == first.etag
    t0 = time.monotonic()
    assert not api.poll(gid, first.etag, wait=0.5, token=bob.token).changed
    assert 0.4 < time.monotonic() - t0 < 3
    # A change answers a held poll at once.
    timer = threading.Timer(
        0.4, lambda: api.act(gid, 0, view_action(api, gid, alice), token=alice.token)
    )
    timer.start()
    t0 = time.monotonic()
    changed = api.poll(gid, first.etag, wait=10, token=bob.token)
    elapsed = time.monotonic() - t0
    timer.join()
    assert changed.changed and changed.game["turn"] == 1 and changed.etag != first.etag
    assert elapsed < 2


def view_action(api: Client, gid: str, seat: Seat) -> dict:
    return api.game(gid, token=seat.token)["legal_actions"][0]


def test_watch_yields_each_change_until_the_end(api):
    alice, bob = started(api)
    gid = alice.game_id
    seen: list[tuple[int, int]] = []

    def watch() -> None:
        for view in api.table(gid).watch(wait=5):
            seen.append((view["turn"], view["votes"]["end"]))

    watcher = threading.Thread(target=watch)
    watcher.start()
    time.sleep(0.3)
    for turn, seat in enumerate((alice, bob)):
        api.act(gid, turn, view_action(api, gid, seat), token=seat.token)
        time.sleep(0.3)
    api.vote(gid, token=bob.token)
    api.terminate(gid, token=alice.token)
    watcher.join(10)
    assert not watcher.is_alive()
    assert seen[0] == (0, 0) and seen[-1] == (3, 2) and seen == sorted(set(seen))


# -- actions ---------------------------------------------------------------------------


def test_play_discard_clue_and_a_repeated_action(api):
    alice, bob = started(api, deck=full_deck(HEAD))
    a, b = api.table(alice.game_id, alice.token), api.table(bob.game_id, bob.token)
    red1 = a.game()["hands"][0][4]["order"]  # alice's oldest card: red 1
    played = a.play(0, red1)
    assert isinstance(played, ActResult) and not played.repeated
    assert played.events[0] == {**played.events[0], "type": "play", "suit": "red", "rank": 1}
    assert played.game["fireworks"]["red"] == 1 and played.game["turn"] == 1
    again = a.play(0, red1)  # the same action for the same turn: the original answer
    assert again.repeated and again.events == played.events
    clued = b.clue(1, 0, rank=1)
    assert clued.events[0]["type"] == "clue" and len(clued.events[0]["touched"]) == 5
    discarded = a.discard(2, a.game()["hands"][0][0]["order"])
    assert discarded.events[0]["type"] == "discard"
    colour = b.clue(3, 0, color="blue")
    assert colour.events[0]["color"] == "blue"
    assert colour.game["clue_tokens"] == 7


def test_action_refusals(api):
    alice, bob = started(api, deck=full_deck(HEAD))
    gid = alice.game_id
    mine = api.game(gid, token=alice.token)["hands"][0][0]["order"]
    theirs = api.game(gid, token=bob.token)["hands"][1][0]["order"]
    assert code_of(api.play, gid, 0, mine, token=bob.token) == ("not_your_turn", 409)
    assert code_of(api.play, gid, 0, theirs, token=alice.token) == ("card_not_in_hand", 409)
    assert code_of(api.clue, gid, 0, 0, rank=1, token=alice.token) == ("clue_to_self", 409)
    assert code_of(api.clue, gid, 0, 1, color="black", token=alice.token) == ("unknown_color", 409)
    assert code_of(api.clue, gid, 0, 1, color="pink", token=alice.token) == ("unknown_color", 409)
    assert code_of(api.clue, gid, 0, 1, color="mauve", token=alice.token) == (
        "validation_error",
        400,
    )
    assert code_of(api.discard, gid, 0, mine, token=alice.token) == ("clue_tokens_full", 409)
    assert code_of(api.play, gid, 5, mine, token=alice.token) == ("stale_turn", 409)
    assert code_of(api.act, gid, 0, {"type": "dance"}, token=alice.token)[1] == 400
    assert code_of(api.clue, gid, 0, 1, token=alice.token) == ("validation_error", 400)
    assert code_of(api.play, gid, 0, mine) == ("auth_required", 401)
    other = api.create_game("eve")
    assert code_of(api.play, gid, 0, mine, token=other.token) == ("not_a_player", 403)
    lobby = api.create_game("zed")
    assert code_of(api.play, lobby.game_id, 0, 0, token=lobby.token) == ("game_not_started", 409)
    # Nothing was applied by any of that.
    assert api.game(gid)["turn"] == 0


def test_events_chat_and_redaction(api):
    alice, bob = started(api, deck=full_deck(HEAD))
    gid = alice.game_id
    mine = api.events(gid, token=alice.token)
    last = len(mine)  # the table's own events (joins, the start) may come before the deal
    assert [e["seq"] for e in mine] == list(range(1, last + 1))
    deal = [e for e in mine if e["type"] == "draw"]
    assert [e["seq"] for e in deal] == list(range(last - 9, last + 1))
    assert all(e["suit"] is None for e in deal if e["seat"] == 0)  # alice's own draws hidden
    assert all(e["suit"] is not None for e in deal if e["seat"] == 1)
    spectator = api.events(gid)
    assert all(e["suit"] is not None for e in spectator if e["type"] == "draw")  # hands shown
    said = api.chat(gid, "good luck", token=bob.token)
    assert said["event"]["type"] == "chat" and said["event"]["name"] == "bob"
    after = api.events(gid, last, token=alice.token)
    assert after == [said["event"]]
    assert api.table(gid, alice.token).events(last + 1) == []
    page = api.event_page(gid, 3, token=alice.token)
    assert page.last_seq == last + 1 and page.events == mine[3:] + after
    assert api.all_events(gid, token=alice.token) == mine + after
    assert code_of(api.chat, gid, "x" * 5000, token=bob.token) == ("validation_error", 400)
    assert code_of(api.chat, gid, "hi") == ("auth_required", 401)


def test_events_follow_every_page(api):
    """The server sends 200 events a page by default: events() and all_events() follow
    ``next`` to the end, event_page() is one page."""
    alice, bob = started(api, deck=full_deck(HEAD))
    gid = alice.game_id
    for i in range(230):
        api.chat(gid, f"line {i}", token=(alice, bob)[i % 2].token)
    first = api.event_page(gid, token=alice.token)
    assert len(first.events) == 200 and first.next == 200 and first.last_seq > 240
    small = api.event_page(gid, 5, token=alice.token, limit=10)
    assert [e["seq"] for e in small.events] == list(range(6, 16)) and small.next == 15
    every = api.events(gid, token=alice.token)
    assert [e["seq"] for e in every] == list(range(1, first.last_seq + 1))
    assert api.all_events(gid, 100, token=bob.token)[-1]["text"] == "line 229"
    last = api.event_page(gid, first.last_seq - 3, token=alice.token)
    assert len(last.events) == 3 and last.next is None


def test_terminate_export_and_replay(api):
    alice, bob = started(api, deck=full_deck(HEAD))
    gid = alice.game_id
    assert code_of(api.export, gid) == ("game_not_finished", 409)
    assert code_of(api.replay, gid, 0) == ("game_not_finished", 409)
    api.clue(gid, 0, 1, rank=2, token=alice.token)
    voted = api.vote(gid, token=alice.token)
    assert voted["status"] == "playing" and voted["votes"] == {"end": 1, "needed": 2, "mine": True}
    assert api.vote(gid, False, token=alice.token)["votes"]["end"] == 0
    assert api.terminate(gid, token=alice.token)["votes"]["end"] == 1
    final = api.terminate(gid, token=bob.token)
    assert final["status"] == "finished" and final["result"] == {"reason": "terminated", "score": 0}
    assert code_of(api.terminate, gid, token=alice.token) == ("game_over", 409)
    doc = api.export(gid)
    assert doc["players"] == ["alice", "bob"] and len(doc["deck"]) == 50
    start = api.replay(gid, 0)
    assert start["turn"] == 0 and all(c["suit"] for hand in start["hands"] for c in hand)
    assert api.replay(gid)["result"]["reason"] == "terminated"
    assert code_of(api.replay, gid, 99) == ("no_such_turn", 404)


# -- the network -----------------------------------------------------------------------


def test_no_server_is_one_clear_error():
    client = Client(f"http://127.0.0.1:{free_port()}", retries=2, backoff=0.01)
    with pytest.raises(Unreachable) as caught:
        client.health()
    error = caught.value
    assert isinstance(error, ApiError) and error.code == "unreachable" and error.status is None
    assert "Cannot reach the server" in error.detail and "refused" in error.detail
    assert not error.maybe_sent


def test_a_lost_answer_to_an_action_is_retried_without_acting_twice(api, proxy: FaultProxy):
    alice, _ = started(api, deck=full_deck(HEAD))
    gid = alice.game_id
    via_proxy = Client(proxy.url, alice.token, retries=3, backoff=0.05)
    drops = []

    def drop_first_action_answer(phase: str, method: str, target: str) -> str:
        if phase == "response" and method == "POST" and not drops:
            drops.append(target)
            return "drop"
        return pass_everything(phase, method, target)

    proxy.set(drop_first_action_answer)
    card = api.game(gid, token=alice.token)["hands"][0][4]["order"]
    result = via_proxy.play(gid, 0, card)
    assert result.repeated  # the second attempt got the first one's result
    assert [m for m, t, d in proxy.log if m == "POST" and d == "forward"] == ["POST", "POST"]
    assert api.game(gid)["turn"] == 1 and api.game(gid)["score"] == 1
    assert len([e for e in api.events(gid) if e["type"] == "play"]) == 1


def test_a_stale_turn_after_the_retries_ran_out(api, proxy: FaultProxy):
    """The action went through but every answer was lost; the game moved on; a new move
    sent for the old turn is refused as stale, and nothing is applied twice."""
    alice, bob = started(api, deck=full_deck(HEAD))
    gid = alice.game_id
    via_proxy = Client(proxy.url, alice.token, retries=2, backoff=0.05)
    proxy.set(lambda phase, method, target: "drop" if phase == "response" else "forward")
    hand = api.game(gid, token=alice.token)["hands"][0]
    with pytest.raises(Unreachable) as caught:
        via_proxy.play(gid, 0, hand[4]["order"])
    assert caught.value.maybe_sent
    proxy.release()
    api.clue(gid, 1, 0, rank=1, token=bob.token)  # bob saw alice's play and answered
    with pytest.raises(ApiError) as stale:
        via_proxy.discard(gid, 0, hand[0]["order"])  # alice, unaware, tries something else
    assert stale.value.code == "stale_turn" and stale.value.status == 409
    assert api.game(gid)["turn"] == 2
    assert via_proxy.play(gid, 0, hand[4]["order"]).repeated  # the lost one, re-sent: 200


def test_gateway_errors_are_retried_when_safe_and_reported_plainly(api, proxy: FaultProxy):
    alice, _ = started(api)
    gid = alice.game_id
    count = []

    def one_502(phase: str, method: str, target: str) -> str:
        if phase == "request" and not count:
            count.append(1)
            return "502"
        return pass_everything(phase, method, target)

    proxy.set(one_502)
    assert Client(proxy.url, retries=1, backoff=0.01).game(gid)["id"] == gid
    proxy.set(lambda phase, method, target: "502" if phase == "request" else "deliver")
    with pytest.raises(ApiError) as caught:
        Client(proxy.url, retries=1, backoff=0.01).game(gid)
    assert caught.value.code == "bad_response" and caught.value.status == 502
    assert "502" in caught.value.detail


def test_join_is_not_blindly_retried(api, proxy: FaultProxy):
    """A join whose answer is lost is not re-sent: a second seat would be taken."""
    host = api.create_game("alice", max_players=3)
    proxy.set(lambda phase, method, target: "drop" if phase == "response" else "forward")
    with pytest.raises(Unreachable):
        Client(proxy.url, retries=3, backoff=0.01).join(host.game_id, "bob")
    assert len([m for m, _, d in proxy.log if d == "forward"]) == 1
    assert [p["name"] for p in api.game(host.game_id)["players"]] == ["alice", "bob"]
