"""Server-side bot seats through the library: POST /games/{id}/bots and start with watch,
against a live server (gunicorn, real Redis) that plays the bots' turns itself."""

from __future__ import annotations

import pytest
from e2e_support import FaultProxy

from hanabi.bots import STRATEGIES, descriptions
from hanabi.client.api import ApiError, BotSeat, Client, Unreachable


def refusal(call, *args, **kwargs) -> ApiError:
    with pytest.raises(ApiError) as caught:
        call(*args, **kwargs)
    return caught.value


def test_add_bot_seats_a_bot_the_server_plays(api):
    host = api.create_game("alice", max_players=3)
    table = api.table(host.game_id, host.token)
    first = table.add_bot()
    assert isinstance(first, BotSeat) and first.seat == 1 and first.game_id == host.game_id
    assert first.game["you"] == 0  # the host's view
    assert first.game["players"][1] == {
        "seat": 1,
        "name": "conventions-bot-2",
        "bot": "conventions",
        "plays": "conventions",
        "playing": "conventions",
    }
    second = api.add_bot(host.game_id, "hat", "Robo", token=host.token)
    assert second.seat == 2
    players = api.game(host.game_id)["players"]
    assert [(p["name"], p["bot"]) for p in players] == [
        ("alice", None),
        ("conventions-bot-2", "conventions"),
        ("Robo", "hat"),
    ]
    assert players[2]["playing"] == "conventions"  # a hat bot next to alice, a person
    # The host frees a bot's seat like any other.
    api.leave(host.game_id, 2, token=host.token)
    assert len(api.game(host.game_id)["players"]) == 2


def test_add_bot_refusals(api):
    host = api.create_game("alice", max_players=2)
    gid = host.game_id
    bob = api.join(gid, "bob")
    assert refusal(api.add_bot, gid, token=bob.token).code == "not_host"
    assert refusal(api.add_bot, gid, token=bob.token).status == 403
    assert refusal(api.add_bot, gid).status == 401
    unknown = refusal(api.add_bot, gid, "nosuch", token=host.token)
    assert unknown.status == 400
    assert (unknown.code, unknown.status) == ("validation_error", 400)
    # The server's sentence lists the strategies it has, and what each expects.
    listed = f"Use one of: {', '.join(STRATEGIES)} ({descriptions()})."
    assert unknown.problem["errors"]["strategy"] == [listed]
    assert "hat: only with other hat bots" in listed
    full = refusal(api.add_bot, gid, token=host.token)
    assert (full.code, full.status) == ("game_full", 409)
    assert refusal(api.add_bot, "no-such-game", token=host.token).status == 404
    api.leave(gid, 1, token=host.token)
    api.add_bot(gid, token=host.token)
    api.start(gid, token=host.token)
    started = refusal(api.add_bot, gid, token=host.token)
    assert (started.code, started.status) == ("game_started", 409)


def test_start_with_watch_leaves_an_all_bot_table_to_play_itself(api):
    host = api.create_game("alice", max_players=3, seed="bots-1")
    gid = host.game_id
    assert refusal(api.start, gid, watch=True, token=host.token).code == "not_enough_players"
    api.add_bot(gid, "hat", token=host.token)
    assert refusal(api.start, gid, watch=True, token=host.token).code == "not_enough_players"
    api.add_bot(gid, "hat", token=host.token)
    view = api.table(gid, host.token).start(watch=True)
    assert view["status"] == "playing" and view["you"] is None
    assert [p["bot"] for p in view["players"]] == ["hat", "hat"]
    # Nobody at the table has cards to hide: a spectator sees every card.
    assert all(c["suit"] is not None for hand in view["hands"] for c in hand)
    assert refusal(api.game, gid, token=host.token).code == "not_a_player"
    final = list(api.watch(gid, wait=10))[-1]
    assert final["status"] == "finished" and final["result"]["score"] > 0


def test_add_bot_is_not_blindly_retried(api, proxy: FaultProxy):
    """A bot seat whose answer is lost is not re-sent: a second bot would be seated."""
    host = api.create_game("alice", max_players=3)
    proxy.set(lambda phase, method, target: "drop" if phase == "response" else "forward")
    with pytest.raises(Unreachable):
        Client(proxy.url, retries=3, backoff=0.01).add_bot(host.game_id, token=host.token)
    assert len([m for m, _, d in proxy.log if d == "forward"]) == 1
    assert len(api.game(host.game_id)["players"]) == 2
