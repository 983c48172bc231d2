"""The table's clocks: counted down locally from the view, red in the last 10 s."""

from __future__ import annotations

import pytest

from hanabi.client.clocks import clock_text, clocks_line, parse_timer, seconds_left
from hanabi.client.render import render_plain

VIEW = {
    "status": "playing",
    "current_seat": 1,
    "players": [{"seat": 0, "name": "alice", "bot": None}, {"seat": 1, "name": "bob", "bot": None}],
    "clocks": [95.5, 12.25],
    "deadline": "2026-12-03T08:00:12.250Z",
    "server_time": "2026-12-03T08:00:00.000Z",
    "result": None,
}


def styled(text) -> list[tuple[str, str]]:
    return [(text.plain[s.start : s.end], str(s.style)) for s in text.spans]


def test_parse_timer():
    assert parse_timer("120+20") == {"base": 120, "per_turn": 20}
    assert parse_timer("300") == {"base": 300, "per_turn": 0}
    with pytest.raises(ValueError, match="BASE\\+INCREMENT"):
        parse_timer("2m")


def test_the_running_clock_counts_down_and_turns_red():
    assert seconds_left(VIEW, 0) == [95.5, 12.25]
    assert seconds_left(VIEW, 2.0) == [95.5, 10.25]  # only the seat to move loses time
    assert seconds_left(VIEW, 20.0) == [95.5, 0.0]
    assert clock_text(95.5) == "1:36" and clock_text(0) == "0:00" and clock_text(3600) == "1:00:00"
    line = clocks_line(VIEW, ["alice", "bob"], 0)
    assert line is not None and line.plain == "Clocks   alice 1:36   ▶ bob 0:13"
    assert ("▶ bob 0:13", "bold") in styled(line)
    late = clocks_line(VIEW, ["alice", "bob"], 3.0)
    assert late is not None and ("▶ bob 0:10", "bold red") in styled(late)  # under 10 s


def test_no_clocks_for_untimed_or_finished_games():
    assert clocks_line({**VIEW, "clocks": None}, ["alice", "bob"], 0) is None
    finished = {**VIEW, "status": "finished", "result": {"reason": "timeout", "score": 0}}
    assert clocks_line(finished, ["alice", "bob"], 0) is None


def test_a_bots_clock_never_runs():
    view = {**VIEW, "players": [VIEW["players"][0], {"seat": 1, "name": "robo", "bot": "hat"}]}
    assert seconds_left(view, 5.0) == [95.5, 12.25]


def test_the_table_shows_the_clocks_and_why_the_game_ended():
    view = {
        "id": "g", "status": "playing", "variant": "no_variant", "turn": 3, "current_seat": 1,
        "you": 0, "players": VIEW["players"], "clocks": [95.5, 12.25], "hands": [[], []],
        "fireworks": {}, "discards": [], "clue_tokens": 8, "strikes": 0, "deck_size": 30,
        "score": 0, "max_score": 25, "result": None,
    }  # fmt: skip
    lines = render_plain(view, elapsed=4.0).splitlines()
    assert lines[2] == "Clocks   alice 1:36   ▶ bob 0:09"
    over = {**view, "status": "finished", "result": {"reason": "timeout", "score": 0}}
    text = render_plain(over)
    assert "Clocks" not in text
    assert "Game over (a clock ran out): final score 0/25" in text
    idle = {**over, "result": {"reason": "idle", "score": 0}}
    assert "Game over (nobody moved for too long)" in render_plain(idle)
