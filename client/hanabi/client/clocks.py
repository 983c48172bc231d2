"""Clocks at the table: each seat's time left, counted down locally between answers.

The server sends ``clocks`` (seconds left per seat, the running one as of
``server_time``) and ``deadline``. The table counts the running clock down from the
moment the view arrived, so it never reads the local wall clock (which may be off): only
how long ago the answer came. Under 10 s the running clock turns red.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from rich.text import Text

from .codes import GameStatus, SeatKind
from .i18n import _
from .words import seat_name

#: Seconds left below which the running clock is shown in red.
HURRY = 10.0


def parse_timer(text: str) -> dict[str, int]:
    """``"120+20"`` (base + seconds per move) or ``"120"`` -> ``{"base", "per_turn"}``."""
    base, _plus, per_turn = text.partition("+")
    try:
        return {"base": int(base), "per_turn": int(per_turn or 0)}
    except ValueError:
        raise ValueError(
            _("{text} is not BASE+INCREMENT in seconds, e.g. 120+20", text=repr(text))
        ) from None


def seconds_left(view: Mapping[str, Any], elapsed: float) -> list[float] | None:
    """Each seat's seconds left, ``elapsed`` seconds after ``view`` arrived; None if the
    game is not timed or not in progress."""
    clocks = view.get("clocks")
    if (
        not isinstance(clocks, list)
        or view.get("result")
        or view.get("status") != GameStatus.PLAYING
    ):
        return None
    current = view.get("current_seat")
    players = view.get("players") or []
    out = []
    for seat, left in enumerate(clocks):
        player = players[seat] if seat < len(players) else None
        bot = isinstance(player, Mapping) and SeatKind.of(player) is SeatKind.BOT
        if seat == current and not bot:
            left = left - elapsed
        out.append(max(0.0, float(left)))
    return out


def clock_text(seconds: float) -> str:
    """``m:ss`` (``h:mm:ss`` from an hour), rounded up: 0:00 only when time is out."""
    whole = int(-(-seconds // 1))
    hours, rest = divmod(whole, 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes}:{secs:02d}"


def clocks_line(view: Mapping[str, Any], names: Sequence[str], elapsed: float) -> Text | None:
    """``Clocks  alice 1:58  ▶ bob 0:09``: the running clock marked, red when short."""
    left = seconds_left(view, elapsed)
    if left is None:
        return None
    current = view.get("current_seat")
    line = Text("Clocks")
    for seat, seconds in enumerate(left):
        name = seat_name(names, seat)
        running = seat == current
        line.append("   ")
        style = "bold red" if running and seconds < HURRY else "bold" if running else ""
        line.append(f"{'▶ ' if running else ''}{name} {clock_text(seconds)}", style=style)
    return line
