"""Clocks the server keeps: timed games (a Fischer clock per seat) and idle games.

A game may be timed (``options.timer``: ``base`` seconds per seat, plus ``per_turn``
seconds after each of the seat's moves) and always has an idle limit
(``options.idle_limit`` seconds without a move; default ``HANABI_IDLE_END``). The clocks
are Redis's, not any API node's: the commit script reads ``TIME`` and does all the
arithmetic (:mod:`hanabi.server.storage.scripts`, which says what it keeps), so nodes
whose clocks disagree still agree on every clock. This module holds what the table makes
of them: the timing a new game asks for, and the time keys of a view. The workers of
:mod:`hanabi.server.table.deadlines` end the games whose deadline passed.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..ops.times import iso
from ..storage.record import GameStatus, SeatKind
from .refusals import Invalid
from .wording import Plural


def timing_of(options: dict[str, Any], config: dict[str, Any]) -> dict[str, Any]:
    """The timing settings of a new game from its create options (which lose them: the
    engine knows no clocks); 400 ``invalid_option`` past the server's limits."""
    idle = options.pop("idle_limit", None)
    timer = options.pop("timer", None)
    move_clock = options.pop("move_clock", None)
    if move_clock is not None:  # a turn-based table: its move clock is its only limit
        return {"idle_limit": 0, "timer": None, "move_clock": check_move_clock(
            move_clock, timer is not None or idle is not None, config)}  # fmt: skip
    if idle is None:
        idle = config["HANABI_IDLE_END"]
    elif idle > config["HANABI_IDLE_MAX"]:
        raise Invalid(
            "invalid_option",
            "idle_limit may be at most {time} on this server.",
            time=seconds(config["HANABI_IDLE_MAX"]),
        )
    if timer is not None and timer["base"] < config["HANABI_TIMER_MIN_BASE"]:
        raise Invalid(
            "invalid_option",
            "timer.base must be at least {time}.",
            time=seconds(config["HANABI_TIMER_MIN_BASE"]),
        )
    return {"idle_limit": idle, "timer": None if timer is None else dict(timer)}


def check_move_clock(seconds: int, other: bool, config: dict[str, Any]) -> int:
    """A turn-based table's ``move_clock`` (seconds per move) within the server's bounds
    (``HANABI_MOVE_CLOCK_MIN`` .. ``HANABI_MOVE_CLOCK_MAX``); 400 ``invalid_option`` past
    them, or beside a timer or an idle limit (the move clock replaces both)."""
    if other:
        raise Invalid(
            "invalid_option",
            "A turn-based table (move_clock) has no timer or idle_limit: its move clock is "
            "its only limit.",
        )
    low, high = config["HANABI_MOVE_CLOCK_MIN"], config["HANABI_MOVE_CLOCK_MAX"]
    if not low <= seconds <= high:
        raise Invalid(
            "invalid_option",
            "move_clock must be between {low} and {high} on this server.",
            low=Plural(low, "{n} second", "{n} seconds"),
            high=Plural(high, "{n} second", "{n} seconds"),
        )
    return seconds


def timing_options(record: Any) -> dict[str, Any]:
    """The view's ``options.idle_limit`` and ``options.timer`` (0 and null for games from
    before clocks), and ``options.move_clock`` for a turn-based table only."""
    timing = record.timing or {}
    out = {"idle_limit": timing.get("idle_limit", 0), "timer": timing.get("timer")}
    if timing.get("move_clock"):
        out["move_clock"] = timing["move_clock"]
    return out


@dataclass(frozen=True)
class ClockState:
    """What the view's time keys depend on (kept beside a cached view)."""

    status: str
    turn: int
    clock: dict[str, Any] | None
    people: tuple[bool, ...]  # per seat: a person (whose clock runs), not a bot

    @classmethod
    def of(cls, record: Any) -> ClockState:
        people = tuple(p.kind is SeatKind.PERSON for p in record.players)
        return cls(record.status, record.turn, record.clock, people)


def clocks_view(record: Any, now: int) -> dict[str, Any]:
    """The view's time keys as of ``now`` (ms, Redis time): ``clocks`` (seconds left per
    seat, the running one counted down to now; null if untimed), ``deadline`` and
    ``server_time`` (RFC 3339, UTC). ``record``: a record or its :class:`ClockState`."""
    state = record if isinstance(record, ClockState) else ClockState.of(record)
    out: dict[str, Any] = {"clocks": None, "deadline": None, "server_time": iso(now)}
    clock = state.clock
    if state.status is not GameStatus.PLAYING or not clock or not state.people:
        return out
    if clock.get("ps") is not None:  # paused (pause.py): every clock stands still
        now = min(now, clock["ps"])
    current = state.turn % len(state.people)
    left = []
    for seat, ms in enumerate(clock["left"]):
        if seat == current and state.people[seat]:
            ms -= max(0, now - clock["ts"])
        left.append(round(max(0, ms) / 1000, 3))
    out["clocks"] = left or None
    out["deadline"] = None if clock["dl"] is None else iso(clock["dl"])
    return out


def seconds(n: int) -> Plural:
    """``n`` seconds in words, in the reader's language ("1 second", "5 секунд")."""
    return Plural(n, "{n} second", "{n} seconds")
