"""Sitting at a table: follow the game, redraw on change, read moves at the prompt.

Two helper threads feed one inbox: a follower (:mod:`.follow`: the game's event stream,
or long-polls where there is none, with a clear message while the server is away) and the
keyboard (:mod:`.keyboard`: lines typed on stdin, or single keys while watching). The
main thread does everything else, so drawing and sending never interleave: it draws on
the :class:`~.screen.TableScreen`, runs what is typed with :mod:`.table_commands`, and
paces a watched game (:mod:`.pacing`).
"""

from __future__ import annotations

import queue
import sys
import threading
import time
from collections.abc import Callable
from typing import Any

from rich.console import Console
from rich.text import Text

from .api import ApiError, Client
from .follow import POLL_WAIT, Follower
from .i18n import _
from .inbox import Inbox, Message, MessageKind
from .keyboard import Keyboard
from .pacing import (
    DEFAULT_PACE,
    PAUSE_KEYS,
    PAUSE_WORDS,
    QUIT_KEYS,
    STEP_KEYS,
    STEP_WORDS,
    Pacer,
    split_keys,
)
from .screen import TableScreen
from .table_commands import TableCommands


class TableSession:
    """One terminal at one table, as a seat (``token``) or a spectator (no token)."""

    def __init__(
        self,
        client: Client,
        game_id: str,
        token: str | None,
        *,
        console: Console,
        json_mode: bool = False,
        clear: bool = True,
        input_fd: int | None = None,
        on_leave: Callable[[], None] | None = None,
        poll_wait: float = POLL_WAIT,
        join_hint: str | None = None,
        stream: bool = True,
        resume_command: Callable[[], str] | None = None,
        pace: float = DEFAULT_PACE,
        shadow: int | None = None,
    ) -> None:
        self.client = client
        self.game_id = game_id
        self.on_leave = on_leave
        self.inbox: Inbox = queue.Queue()
        self.stop = threading.Event()
        self.screen = TableScreen(
            client,
            game_id,
            token,
            console=console,
            json_mode=json_mode,
            clear=clear,
            join_hint=join_hint,
            resume_command=resume_command,
            streaming=stream,
            pace=pace,
        )
        self.follower = Follower(
            client,
            game_id,
            self.inbox,
            self.stop,
            seat_token=lambda: self.screen.token,
            after=lambda: self.screen.last_seq,
            poll_wait=poll_wait,
            stream=stream,
            shadow=shadow,
        )
        fd = sys.stdin.fileno() if input_fd is None else input_fd
        self.keyboard = Keyboard(fd, self.inbox, self.stop)
        self.commands = TableCommands(client, self.screen, on_leave=on_leave, watch=self._watch)

    def run(self) -> int:
        """Sit at the table until the game ends, the player quits or Ctrl-C."""
        threading.Thread(target=self.follower.run, name="hanabi-follow", daemon=True).start()
        threading.Thread(target=self.keyboard.run, name="hanabi-input", daemon=True).start()
        screen = self.screen
        try:
            while True:
                pacer = screen.pacer
                wait = 0.5 if pacer is None else min(0.5, pacer.wait(time.monotonic()))
                try:
                    message = self.inbox.get(timeout=max(wait, 0.02))
                except queue.Empty:
                    screen.tick_clocks()
                    outcome = None
                else:
                    # A streamed view comes with the events that led to it.
                    screen.streamed.extend(message.events)
                    outcome = self._handle(message)
                if outcome is None and screen.pacer is not None:
                    outcome = self._next_frame()
                if outcome is not None:
                    return outcome
        except KeyboardInterrupt:
            screen.say(
                "\n" + _("Left the table. {hint}", hint=screen.resume_hint()), code="interrupted"
            )
            return 130
        finally:
            self.stop.set()
            self.keyboard.keys_off()

    def _handle(self, message: Message) -> int | None:
        screen, payload = self.screen, message.payload
        match message.kind:
            case MessageKind.VIEW:
                return self._view(payload)
            case MessageKind.POLLING:
                screen.streaming = False
            case MessageKind.KEY:
                return self._key(payload)
            case MessageKind.LINE:
                if screen.pacer is not None and self._pace_word(payload):
                    return None
                return self.commands.run(payload)
            case MessageKind.EOF:
                if screen.token is None:
                    return None  # a spectator without a keyboard keeps watching
                screen.say(_("Input closed. {hint}", hint=screen.resume_hint()), code="quit")
                return 0
            case MessageKind.DOWN:
                screen.say(
                    _(
                        "Lost the server at {server} ({reason}). Trying again; Ctrl-C leaves, "
                        "and `{command}` resumes later.",
                        server=self.client.server,
                        reason=getattr(payload, "reason", payload.detail),
                        command=screen.resume_or_watch(),
                    ),
                    code="server_down",
                    style="bold red",
                )
            case MessageKind.UP:
                screen.say(_("Reconnected to the server."), code="server_up", style="bold green")
                screen.prompt()
            case MessageKind.FATAL:
                return self._fatal(payload)
        return None

    def _view(self, view: dict[str, Any]) -> int | None:
        if self._pacing():
            assert self.screen.pacer is not None
            self.screen.pacer.offer(view)
            return None
        self.screen.show(view)
        over = self.screen.over()
        return over if over is not None else self.commands.after_view()

    def _fatal(self, exc: ApiError) -> int:
        """The follower cannot go on: say why; the exit status."""
        screen = self.screen
        if exc.code == "not_a_player" and screen.token is not None:
            if self.on_leave:
                self.on_leave()  # the saved token is worthless now
            screen.say(
                _("You no longer hold a seat at this table (the host may have removed you)."),
                code=exc.code,
                style="bold red",
            )
            return 1
        screen.say(f"{exc.detail}", code=exc.code, style="bold red")
        return 1

    def _watch(self, view: dict[str, Any]) -> int | None:
        """Follow the game as a spectator from ``view`` on (after ``start watch``)."""
        if self._pacing():
            assert self.screen.pacer is not None
            self.screen.pacer.offer(view)
            return None  # drawn by the run loop, one move at a time
        self.screen.show(view, force=True)
        return self.screen.over()

    # -- watching at a pace ---------------------------------------------------------

    def _pacing(self) -> bool:
        """Watching (no seat) at a pace: start the pacer, and single keys on a terminal."""
        screen = self.screen
        if screen.token is not None or screen.pace <= 0:
            return False
        if screen.pacer is None:
            screen.pacer = Pacer(screen.pace, lambda turn: self.client.replay(self.game_id, turn))
            if not screen.json_mode:
                self.keyboard.keys_on()
        return True

    def _next_frame(self) -> int | None:
        """Draw the frame that is due, if any; the game's end after the last one."""
        screen = self.screen
        assert screen.pacer is not None
        now = time.monotonic()
        try:
            frame = screen.pacer.due(now)
        except ApiError as exc:  # the replay of a frame: try again in a moment
            # refused for good (the account plays this deal at another table): the end next
            if exc.status in (401, 403, 409):
                screen.pacer.without_replay()
                screen.notice = Text(exc.detail, style="bold")
                return None
            screen.pacer.retry_later(now)
            screen.notice = Text(
                _("Cannot fetch the next move: {reason}", reason=exc.detail), style="bold red"
            )
            return None
        if frame is None:
            return None
        screen.show(frame, force=True, frame=True)
        return screen.over() if screen.pacer.done else None

    def _key(self, keys: str) -> int | None:
        pacer = self.screen.pacer
        if pacer is None:
            return None
        for key in split_keys(keys):
            if key in QUIT_KEYS:
                hint = self.screen.resume_hint()
                self.screen.say("\n" + _("Stopped watching. {hint}", hint=hint), code="quit")
                return 0
            if key in PAUSE_KEYS:
                pacer.toggle()
            elif key in STEP_KEYS:
                pacer.step()
            else:
                continue
            self.screen.pace_status()
        return None

    def _pace_word(self, line: str) -> bool:
        """Pause and step typed as words (input in lines: --json, a pipe)."""
        pacer = self.screen.pacer
        assert pacer is not None
        word = line.strip().lower()
        if word in PAUSE_WORDS:
            pacer.toggle()
        elif word in STEP_WORDS:
            pacer.step()
        else:
            return False
        self.screen.pace_status()
        return True
