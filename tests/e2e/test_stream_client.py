"""The client library's event stream (``Table.stream``) against a live gevent server, and
its fallback: a proxy that buffers, or a server without the stream, leaves the caller
``StreamUnavailable`` quickly, and the table session long-polls instead."""

from __future__ import annotations

import threading
import time

import pytest
from e2e_support import FaultProxy, full_deck
from test_library import HEAD, started

from hanabi.client.api import ApiError, Client, StreamEvent, StreamUnavailable


def test_stream_yields_the_view_then_each_change_with_its_events(api: Client) -> None:
    alice, bob = started(api, deck=full_deck(HEAD))
    table = api.table(alice.game_id, bob.token)
    got: list[StreamEvent] = []
    done = threading.Event()

    def follow() -> None:
        for item in table.stream():
            got.append(item)
            if item.type == "view" and item.data["turn"] == 1:
                done.set()
                return

    reader = threading.Thread(target=follow, daemon=True)
    reader.start()
    deadline = time.monotonic() + 5
    while not got and time.monotonic() < deadline:
        time.sleep(0.02)
    assert got[0].type == "view" and got[0].data["you"] == 1
    api.table(alice.game_id, alice.token).clue(turn=0, target=1, color="red")
    assert done.wait(5)
    assert [g.type for g in got] == ["view", "clue", "view"]
    assert got[1].seq == got[2].seq and got[1].data["seq"] == got[1].seq
    assert {**got[2].data, "server_time": None} == {**table.game(), "server_time": None}


def test_stream_resumes_after_a_seq_and_ends_when_the_game_does(api: Client) -> None:
    alice, bob = started(api, deck=full_deck(HEAD))
    api.table(alice.game_id, alice.token).clue(turn=0, target=1, color="red")
    api.table(alice.game_id, alice.token).vote()
    api.table(alice.game_id, bob.token).terminate()
    log = api.table(alice.game_id, bob.token).all_events()
    after = log[-4]["seq"]
    items = list(api.table(alice.game_id, bob.token).stream(after=after))
    assert [(i.type, i.seq) for i in items[:-2]] == [(e["type"], e["seq"]) for e in log[-3:]]
    assert items[-2].type == "view" and items[-2].data["status"] == "finished"
    assert (items[-1].type, items[-1].data) == ("end", {"reason": "finished"})


def test_a_refusal_is_an_api_error(api: Client) -> None:
    alice, _ = started(api)
    with pytest.raises(ApiError) as caught:
        next(api.stream(alice.game_id, token="not-a-token-of-this-game"))
    assert caught.value.code == "not_a_player" and caught.value.status == 403
    with pytest.raises(ApiError) as caught:
        next(api.stream("nosuchgame12"))
    assert caught.value.code == "game_not_found"


def test_a_buffering_proxy_makes_the_stream_unavailable_quickly(api: Client, proxy: FaultProxy):
    alice, _ = started(api)
    started_at = time.monotonic()
    with pytest.raises(StreamUnavailable):
        next(Client(proxy.url).stream(alice.game_id, first=1.0))
    assert time.monotonic() - started_at < 5


def test_a_server_without_the_stream_makes_it_unavailable(api: Client, proxy: FaultProxy):
    alice, _ = started(api)

    def old_server(phase: str, method: str, target: str) -> str:
        return "404" if "/stream" in target else "forward" if phase == "request" else "deliver"

    proxy.set(old_server)
    with pytest.raises(StreamUnavailable):
        next(Client(proxy.url).stream(alice.game_id))
