"""Watching at a pace: one move at a time, with pause and step.

Bots play a whole game in a second or two, far faster than anyone can follow, and a
long-poll only ever answers with the newest view, so moves in between are never seen.
A :class:`Pacer` turns what the spectator's table receives into frames, one per move,
shown at most one every ``pace`` seconds:

- while the game is on, the views the table receives, in order (a move the poll skipped
  cannot be had yet: the next view waits up to ``GAP_GRACE`` for the game to end);
- once it is over, the moves not shown yet, one by one, from the finished game's replay
  (``GET /games/{id}/replay?turn=N``), then the final table.

The pacer decides only which frame is due; the table session draws it. It has no
thread and no clock of its own (``now`` is passed in), so it is tested without waiting.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from .codes import GameStatus
from .i18n import _
from .narrate import Narrator

DEFAULT_PACE = 1.0  # seconds per move when watching (0: every view as it arrives)
# A poll that skipped moves of a game still on: wait this long for its end (bots finish a
# game in a second or two), whose replay has every move, before showing the gap.
GAP_GRACE = 2.0

# Keys while watching on a terminal (read one at a time), and the words that do the
# same when input comes in lines (--json, a pipe).
PAUSE_KEYS = (" ", "p")
STEP_KEYS = ("n", "\x1b[C", "l")  # n, right arrow, l
QUIT_KEYS = ("q", "\x1b", "\x04")  # q, Esc, Ctrl-D
PAUSE_WORDS = ("pause", "resume", "space")
STEP_WORDS = ("next", "step", "n")


def view_turn(view: Mapping[str, Any]) -> int:
    return int(view.get("turn") or 0)


class Pacer:
    """Chooses the frame due next. ``replay(turn)`` fetches a finished game at ``turn``."""

    def __init__(self, pace: float, replay: Callable[[int], dict[str, Any]]) -> None:
        self.pace = max(0.0, pace)
        self.replay = replay
        self.paused = False
        self.latest: dict[str, Any] | None = None  # the newest view received
        self.pending: deque[dict[str, Any]] = deque()  # received views not shown yet
        self.shown: dict[str, Any] | None = None  # the frame on screen
        self.shown_at: float | None = None
        self.step_once = False
        self.gap_since: float | None = None  # when the next received view skipped moves
        self.not_before = 0.0  # after a failed replay fetch: when to try again
        self.no_replay = False  # the replay is refused (a deal the account plays elsewhere)

    # -- input ----------------------------------------------------------------------

    def offer(self, view: dict[str, Any]) -> None:
        """A view the table received (by polling, or the answer to ``start watch``)."""
        if self.latest is not None and _version(view) < _version(self.latest):
            return  # a late answer about an older state
        self.latest = view
        self.pending.append(view)

    def toggle(self) -> None:
        self.paused = not self.paused

    def step(self) -> None:
        """Show the next move now (and stay paused, or pause: stepping is for looking)."""
        self.paused = True
        self.step_once = True

    # -- output ---------------------------------------------------------------------

    @property
    def done(self) -> bool:
        """The final table is on screen."""
        return self.shown is not None and bool(self.shown.get("result"))

    def without_replay(self) -> None:
        """The server refuses this viewer the replay (a game dealt a seed it has not
        finished): the final table comes next, as the server shows it."""
        self.no_replay = True

    def retry_later(self, now: float, delay: float = 1.0) -> None:
        """The next frame could not be fetched (the server is away): not again at once."""
        self.not_before = now + delay

    def wait(self, now: float) -> float:
        """Seconds until a frame may be due (for the caller's next sleep)."""
        if (self.paused and not self.step_once) or now < self.not_before:
            return 0.5
        if self.shown_at is None or self.step_once:
            return 0.0
        return max(0.0, self.shown_at + self.pace - now)

    def due(self, now: float) -> dict[str, Any] | None:
        """The frame to draw now, or None (paused, too soon, nothing new)."""
        if (self.paused and not self.step_once) or now < self.not_before:
            return None
        if not self.step_once and self.shown_at is not None and now < self.shown_at + self.pace:
            return None
        frame = self._next(now)
        if frame is not None:
            self.shown, self.shown_at, self.step_once = frame, now, False
            self.gap_since = None
        return frame

    def _next(self, now: float) -> dict[str, Any] | None:
        latest = self.latest
        if latest is None or self.done:
            return None
        if self.shown is None:
            # The first view received (the deal, after start watch; a finished game: its end).
            return self.pending.popleft() if self.pending else latest
        if latest.get("result"):
            self.pending.clear()
            turn, last = view_turn(self.shown), view_turn(latest)
            replayed = self.shown.get("status") != GameStatus.LOBBY and not self.no_replay
            if replayed and turn + 1 < last:
                return self.replay(turn + 1)
            return latest
        while self.pending and _stage(self.pending[0]) <= _stage(self.shown):
            self.pending.popleft()  # chat, or a move already shown
        if not self.pending:
            return None
        in_game = GameStatus.LOBBY not in (self.pending[0].get("status"), self.shown.get("status"))
        if in_game and view_turn(self.pending[0]) > view_turn(self.shown) + 1:
            if self.gap_since is None:
                self.gap_since = now
            if now < self.gap_since + GAP_GRACE:
                return None  # the game's end may come soon, and its replay has every move
        return self.pending.popleft()

    def status(self) -> str:
        """The line under the frame: where we are and the keys."""
        if self.shown is None:
            return ""
        if self.shown.get("status") == GameStatus.LOBBY:  # no turns yet
            if self.paused:
                return _("Paused in the lobby: space plays on once the game is dealt, q quits.")
            return _("Watching the lobby: the game shows here once it is dealt; q quits.")
        turn = view_turn(self.shown) + 1
        if self.paused:
            return _(
                "Paused at turn {turn}: space plays on, n shows the next move, q quits.", turn=turn
            )
        return _(
            "Turn {turn}, one move every {pace} s: space pauses, n steps, q quits.",
            turn=turn,
            pace=format(self.pace, "g"),
        )


def split_keys(chunk: str) -> list[str]:
    """Keys read at once, one by one (an arrow key is one escape sequence)."""
    keys = []
    while chunk:
        size = 3 if chunk.startswith("\x1b[") and len(chunk) >= 3 else 1
        keys.append(chunk[:size])
        chunk = chunk[size:]
    return keys


def narrate_upto(
    names: Sequence[str], info: Any, events: Iterable[Mapping[str, Any]], turn: int, count: int
) -> list[str]:
    """The last ``count`` moves before ``turn`` (moves made), in words, from the event log
    (game events carry the turn they were made in; the table's own carry none)."""
    narrator = Narrator(names, info)
    narrator.feed(e for e in events if not isinstance(e.get("turn"), int) or e["turn"] < turn)
    return narrator.recent(count)


def _stage(view: Mapping[str, Any]) -> tuple[int, int]:
    """How far a view is: a lobby by its version (seats change), a game by its turn."""
    if view.get("status") == GameStatus.LOBBY:
        return (0, _version(view))
    return (1, view_turn(view))


def _version(view: Mapping[str, Any]) -> int:
    version = view.get("version")
    return version if isinstance(version, int) else -1
