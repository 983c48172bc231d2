"""Watching at a pace: which frame is due when, pause and step, the moves a poll skipped
filled in from the finished game's replay. The pacer has no clock: time is passed in."""

from __future__ import annotations

from typing import Any

from hanabi.client.pacing import Pacer, narrate_upto, split_keys
from hanabi.client.variants import VariantInfo
from hanabi.game import VARIANTS, Action


def frame(turn: int, *, version: int | None = None, result: Any = None) -> dict[str, Any]:
    return {
        "status": "finished" if result else "playing",
        "turn": turn,
        "version": turn + 2 if version is None else version,
        "result": result,
    }


class Replays:
    def __init__(self) -> None:
        self.asked: list[int] = []

    def __call__(self, turn: int) -> dict[str, Any]:
        self.asked.append(turn)
        return frame(turn, version=99)


def test_one_move_per_pace_then_the_skipped_moves_from_the_replay():
    replays = Replays()
    pacer = Pacer(1.5, replays)
    assert pacer.due(0.0) is None  # nothing received yet
    pacer.offer(frame(0))
    assert pacer.due(0.0)["turn"] == 0  # the first frame at once
    pacer.offer(frame(1))
    pacer.offer(frame(3))  # the poll skipped turn 2
    assert pacer.due(1.0) is None and abs(pacer.wait(1.1) - 0.4) < 1e-9
    assert pacer.due(1.5)["turn"] == 1  # live: what the poll saw, in order
    assert pacer.due(3.0) is None  # turn 2 was skipped: wait a little for the game's end
    over = frame(45, result={"reason": "deck_out", "score": 21})
    pacer.offer(over)
    shown = []
    now = 3.0
    while not pacer.done:
        shown.append(pacer.due(now)["turn"])
        now += 1.5
    assert shown == list(range(2, 46))  # every move after the last one shown, then the end
    assert replays.asked == list(range(2, 45))
    assert pacer.due(now + 10) is None


def test_a_gap_in_a_game_still_on_is_shown_after_a_grace():
    pacer = Pacer(0.5, Replays())
    pacer.offer(frame(0))
    pacer.due(0.0)
    pacer.offer(frame(2))  # two quick moves of people: the poll saw the second only
    assert pacer.due(1.0) is None and pacer.due(2.9) is None
    assert pacer.due(3.0)["turn"] == 2


def test_pause_and_step():
    pacer = Pacer(1.0, Replays())
    pacer.offer(frame(0))
    assert pacer.due(0.0)["turn"] == 0
    pacer.offer(frame(1))
    pacer.offer(frame(2))
    pacer.toggle()
    assert pacer.paused and pacer.due(5.0) is None
    assert "Paused at turn 1" in pacer.status()
    pacer.step()  # one move now, and still paused
    assert pacer.wait(5.0) == 0 and pacer.due(5.0)["turn"] == 1
    assert pacer.due(9.0) is None and pacer.paused
    pacer.toggle()
    assert pacer.due(9.0)["turn"] == 2 and "one move every 1 s" in pacer.status()


def test_a_finished_game_shows_its_end_chat_and_older_views_are_skipped():
    over = frame(30, result={"reason": "perfect", "score": 25})
    pacer = Pacer(1.0, Replays())
    pacer.offer(over)
    assert pacer.due(0.0) is over and pacer.done
    live = Pacer(1.0, Replays())
    live.offer(frame(4))
    live.offer(frame(3))  # a late answer about an older state
    assert live.latest["turn"] == 4
    assert live.due(0.0)["turn"] == 4
    live.offer(frame(4, version=7))  # chat: same turn, nothing to show
    assert live.due(2.0) is None


def test_a_lobby_then_the_deal():
    pacer = Pacer(1.0, Replays())
    pacer.offer({"status": "lobby", "turn": 0, "version": 1})
    assert pacer.due(0.0)["status"] == "lobby"
    pacer.offer({"status": "lobby", "turn": 0, "version": 2})  # someone sat down
    pacer.offer(frame(0, version=3))  # the deal
    assert pacer.due(1.0)["version"] == 2
    assert pacer.due(2.0)["status"] == "playing"


def test_a_frame_is_narrated_up_to_its_own_turn(make_table):
    t = make_table(cards=["r1", "y1", "g1", "b1", "w1", "r2", "r3", "y5", "b2", "r1"])
    t.do(Action.clue(1, color="red"), Action.play(t.hand(1)[0]), Action.discard(t.hand(0)[4]))
    info = VariantInfo.from_api(VARIANTS["no_variant"].to_dict())
    log = [{"type": "join", "seat": 1, "name": "bob", "seq": 0}, *t.log(None)]
    assert narrate_upto(["alice", "bob"], info, log, 2, 6) == [
        "bob joined",
        "alice clued bob red, touching slots 1, 4 and 5",
        "bob played R1 from slot 1",
    ]


def test_keys_read_together_are_taken_one_by_one():
    assert split_keys(" n\x1b[Cq") == [" ", "n", "\x1b[C", "q"]
    assert split_keys("\x1b") == ["\x1b"]


def test_a_replay_that_fails_is_tried_again_after_a_moment():
    calls = []

    def flaky(turn: int) -> dict[str, Any]:
        calls.append(turn)
        if len(calls) == 1:
            raise ConnectionError("away")
        return frame(turn, version=99)

    pacer = Pacer(0.1, flaky)
    pacer.offer(frame(0))
    pacer.due(0.0)
    pacer.offer(frame(5, result={"reason": "perfect", "score": 25}))
    try:
        pacer.due(1.0)
    except ConnectionError:
        pacer.retry_later(1.0)
    assert pacer.due(1.5) is None and pacer.wait(1.5) == 0.5 and calls == [1]
    assert pacer.due(2.0)["turn"] == 1 and calls == [1, 1]
