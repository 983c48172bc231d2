"""Sitting at a table: follow the game, redraw on change, read moves at the prompt.

Two helper threads feed one queue: a follower and a reader (lines typed on stdin). The
follower listens to the game's event stream (server-sent events: each change arrives with
its events and the new view), and falls back to long-polling the view with its ETag when
there is no stream (an older server, a proxy that buffers). Either way it keeps trying
with a clear message while the server is away. The main thread does everything else, so
drawing and sending never interleave.
"""

from __future__ import annotations

import contextlib
import json
import os
import queue
import sys
import threading
import time
from collections.abc import Callable, Mapping
from typing import Any, TextIO

from rich.console import Console
from rich.text import Text

from .api import ApiError, Client, StreamUnavailable, Unreachable
from .clocks import clocks_line
from .codes import GameStatus
from .commands import HELP, Command, InputError, parse
from .narrate import Narrator, player_names
from .pacing import (
    DEFAULT_PACE,
    PAUSE_KEYS,
    PAUSE_WORDS,
    QUIT_KEYS,
    STEP_KEYS,
    STEP_WORDS,
    Pacer,
    narrate_upto,
    split_keys,
)
from .render import TableRenderer
from .variants import VariantInfo, variant_info
from .words import code_words

POLL_WAIT = 25  # seconds the server may hold a long-poll
STREAM_QUIET = 25  # seconds without a byte (keep-alives come every 15) before a stream is dead
RECENT = 6  # last moves shown under the table
CLOCK_ROW = 3  # the table's line that shows the clocks (title, score, clocks, fireworks)
RETRY_DELAYS = (0.5, 1, 2, 2, 3)  # seconds between reconnection attempts (last repeats)


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
    ) -> None:
        self.client = client
        self.game_id = game_id
        self.token = token
        self.console = console
        self.json_mode = json_mode
        self.clear = (
            clear and console.is_terminal and not console.is_dumb_terminal and not json_mode
        )
        self.input_fd = sys.stdin.fileno() if input_fd is None else input_fd
        self.on_leave = on_leave
        self.poll_wait = poll_wait
        self.join_hint = join_hint
        self.streaming = stream  # False once the stream proved unavailable
        self.streamed: list[dict[str, Any]] = []  # events the stream brought, not yet shown
        self.resume_command = resume_command or (lambda: f"hanabi-client join {game_id}")
        self.queue: queue.Queue[tuple[str, Any]] = queue.Queue()
        self.view: dict[str, Any] | None = None
        self.info: VariantInfo | None = None
        self.renderer: TableRenderer | None = None
        self.narrator: Narrator | None = None
        self.last_seq = 0
        self.notice: Text | None = None
        self.stop = threading.Event()
        self.view_at = time.monotonic()  # when self.view arrived: clocks count down from it
        self.clock_drawn: str | None = None
        self.log: list[dict[str, Any]] = []  # the event log as far as fetched
        # Watching (no seat): frames one move at a time (see pacing.py); 0: as they come.
        self.pace = pace
        self.pacer: Pacer | None = None
        self.keys = False  # single keys, not lines, are read (watching on a terminal)
        self.saved_tty: Any = None

    # -- threads --------------------------------------------------------------------

    def _follow_loop(self) -> None:
        """Follow the game over its stream; long-poll when there is none."""
        if self.streaming:
            try:
                self._stream_loop()
                return
            except StreamUnavailable:
                self.streaming = False
        self._poll_loop()

    def _stream_loop(self) -> None:
        streamer = Client(self.client.server, None, timeout=self.client.timeout, retries=0)
        trouble = _Trouble(self)
        while not self.stop.is_set():
            token = self.token  # None once the seat is given up (start watch)
            events: list[dict[str, Any]] = []
            try:
                items = streamer.stream(
                    self.game_id, after=self.last_seq, token=token, resume=False, quiet=STREAM_QUIET
                )
                for item in items:
                    trouble.ok()
                    if self.stop.is_set() or token != self.token:
                        break  # stopped, or the seat was just given up: follow as we are now
                    if item.type == "view":
                        self.queue.put(("view", item.data, events))
                        events = []
                        if item.data.get("status") == GameStatus.FINISHED:
                            return
                    elif item.type == "end":
                        if item.data.get("reason") == GameStatus.FINISHED or token != self.token:
                            break
                        reason = item.data.get("reason", "gone")
                        said = (
                            _ENDED.get(reason)
                            or f"The server closed the game ({code_words(reason)})."
                        )
                        self.queue.put(("fatal", ApiError(reason, 410, said)))
                        return
                    else:
                        events.append(item.data)
            except StreamUnavailable:
                raise  # the follower long-polls instead
            except ApiError as exc:
                if token != self.token:
                    continue
                if not trouble.away(exc):
                    return

    def _poll_loop(self) -> None:
        poller = Client(self.client.server, None, timeout=self.client.timeout, retries=0)
        etag = None
        trouble = _Trouble(self)
        while not self.stop.is_set():
            token = self.token  # None once the seat is given up (start watch)
            try:
                # After a failure, ask without waiting: the answer says "back" at once.
                wait = self.poll_wait if etag and not trouble.failures else None
                polled = poller.poll(self.game_id, etag, wait=wait, token=token)
            except ApiError as exc:
                if token != self.token:
                    etag = None  # asked with the seat just given up: ask again as we are
                    continue
                if not trouble.away(exc):
                    return
                continue
            trouble.ok()
            if token != self.token:
                etag = None  # a view for the seat just given up: ask again
                continue
            etag = polled.etag
            if polled.game is not None:
                self.queue.put(("view", polled.game))
                if polled.game.get("status") == GameStatus.FINISHED:
                    return

    def _read_loop(self) -> None:
        buffer = b""
        while not self.stop.is_set():
            try:
                chunk = os.read(self.input_fd, 4096)
            except OSError:
                chunk = b""
            if not chunk:
                if buffer:
                    self.queue.put(("line", buffer.decode("utf-8", "replace")))
                self.queue.put(("eof", None))
                return
            buffer += chunk
            if self.keys:  # watching on a terminal: every key counts at once
                self.queue.put(("key", buffer.decode("utf-8", "replace")))
                buffer = b""
                continue
            while b"\n" in buffer:
                line, buffer = buffer.split(b"\n", 1)
                self.queue.put(("line", line.decode("utf-8", "replace").rstrip("\r")))

    # -- main loop ------------------------------------------------------------------

    def run(self) -> int:
        """Sit at the table until the game ends, the player quits or Ctrl-C."""
        threading.Thread(target=self._follow_loop, name="hanabi-follow", daemon=True).start()
        threading.Thread(target=self._read_loop, name="hanabi-input", daemon=True).start()
        try:
            while True:
                wait = 0.5 if self.pacer is None else min(0.5, self.pacer.wait(time.monotonic()))
                try:
                    kind, payload, *rest = self.queue.get(timeout=max(wait, 0.02))
                except queue.Empty:
                    kind, payload, rest = "tick", None, []
                    self._tick_clocks()
                if rest:  # a streamed view comes with the events that led to it
                    self.streamed.extend(rest[0])
                outcome = self._handle(kind, payload)
                if outcome is None and self.pacer is not None:
                    outcome = self._next_frame()
                if outcome is not None:
                    return outcome
        except KeyboardInterrupt:
            self._say(f"\nLeft the table. {self._resume_hint()}", code="interrupted")
            return 130
        finally:
            self.stop.set()
            self._keys_off()

    def _handle(self, kind: str, payload: Any) -> int | None:
        if kind == "view":
            if self._pacing():
                assert self.pacer is not None
                self.pacer.offer(payload)
                return None
            self._show(payload)
            return self._maybe_over()
        if kind == "key":
            return self._key(payload)
        if kind == "down":
            self._say(
                f"Lost the server at {self.client.server} "
                f"({getattr(payload, 'reason', payload.detail)}). "
                "Trying again; Ctrl-C leaves, and "
                f"`{self._resume_or_watch()}` resumes later.",
                code="server_down",
                style="bold red",
            )
            return None
        if kind == "up":
            self._say("Reconnected to the server.", code="server_up", style="bold green")
            self._prompt()
            return None
        if kind == "fatal":
            if payload.code == "not_a_player" and self.token is not None:
                if self.on_leave:
                    self.on_leave()  # the saved token is worthless now
                self._say(
                    "You no longer hold a seat at this table (the host may have removed you).",
                    code=payload.code,
                    style="bold red",
                )
                return 1
            self._say(f"{payload.detail}", code=payload.code, style="bold red")
            return 1
        if kind == "eof":
            if self.token is None:
                return None  # a spectator without a keyboard keeps watching
            self._say(f"Input closed. {self._resume_hint()}", code="quit")
            return 0
        if kind == "line":
            if self.pacer is not None and self._pace_word(payload):
                return None
            return self._command(payload)
        return None

    # -- watching at a pace ---------------------------------------------------------

    def _pacing(self) -> bool:
        """Watching (no seat) at a pace: start the pacer, and single keys on a terminal."""
        if self.token is not None or self.pace <= 0:
            return False
        if self.pacer is None:
            self.pacer = Pacer(self.pace, lambda turn: self.client.replay(self.game_id, turn))
            self._keys_on()
        return True

    def _next_frame(self) -> int | None:
        """Draw the frame that is due, if any; the game's end after the last one."""
        assert self.pacer is not None
        now = time.monotonic()
        try:
            frame = self.pacer.due(now)
        except ApiError as exc:  # the replay of a frame: try again in a moment
            self.pacer.retry_later(now)
            self.notice = Text(f"Cannot fetch the next move: {exc.detail}", style="bold red")
            return None
        if frame is None:
            return None
        self._show(frame, force=True, frame=True)
        return self._maybe_over() if self.pacer.done else None

    def _key(self, keys: str) -> int | None:
        if self.pacer is None:
            return None
        for key in split_keys(keys):
            if key in QUIT_KEYS:
                self._say(f"\nStopped watching. {self._resume_hint()}", code="quit")
                return 0
            if key in PAUSE_KEYS:
                self.pacer.toggle()
            elif key in STEP_KEYS:
                self.pacer.step()
            else:
                continue
            self._status()
        return None

    def _pace_word(self, line: str) -> bool:
        """Pause and step typed as words (input in lines: --json, a pipe)."""
        assert self.pacer is not None
        word = line.strip().lower()
        if word in PAUSE_WORDS:
            self.pacer.toggle()
        elif word in STEP_WORDS:
            self.pacer.step()
        else:
            return False
        self._status()
        return True

    def _status(self) -> None:
        assert self.pacer is not None
        if self.json_mode:
            self._emit({"type": "pace", "paused": self.pacer.paused, "pace": self.pacer.pace})
        elif not self.pacer.done:
            # Rewrite the last line (the status line) in place on a terminal.
            prefix = "\r\x1b[K" if self.clear else ""
            self.console.file.write(prefix)
            self.console.print(Text(self.pacer.status(), style="dim"), end="")
            self.console.file.write("" if self.clear else "\n")
            self.console.file.flush()

    def _keys_on(self) -> None:
        """Single keys (no Enter, no echo) while watching on a terminal."""
        if self.json_mode or not os.isatty(self.input_fd):
            return
        try:
            import termios
            import tty

            self.saved_tty = termios.tcgetattr(self.input_fd)
            tty.setcbreak(self.input_fd)
        except (ImportError, OSError):  # no termios (Windows): words and Enter then
            return
        self.keys = True

    def _keys_off(self) -> None:
        if self.saved_tty is None:
            return
        import termios

        with contextlib.suppress(OSError):
            termios.tcsetattr(self.input_fd, termios.TCSADRAIN, self.saved_tty)
        self.saved_tty = None

    # -- drawing --------------------------------------------------------------------

    def _variant(self, view: Mapping[str, Any]) -> None:
        if self.info is not None and self.info.id == view.get("variant"):
            return
        self.info = variant_info(self.client, view)
        self.renderer = TableRenderer(self.info)

    def _fetch_events(self) -> list[dict[str, Any]]:
        if self.streaming:  # each stream starts after last_seq: it brings every event
            events, self.streamed = self.streamed, []
        else:
            try:
                events = self.client.events(self.game_id, self.last_seq, token=self.token)
            except ApiError:
                return []
        events = [e for e in events if int(e.get("seq", 0)) > self.last_seq]
        if events:
            self.last_seq = max(int(e.get("seq", 0)) for e in events)
            self.log.extend(events)
        return events

    def _show(self, view: dict[str, Any], *, force: bool = False, frame: bool = False) -> None:
        """Draw ``view``; a ``frame`` (watching at a pace) may be older than the last view
        drawn, is narrated up to its own turn and redrawn in place."""
        old = self.view.get("version") if self.view else None
        new = view.get("version")
        if not frame and isinstance(old, int) and isinstance(new, int) and new < old:
            return  # a late answer about an older state (a held poll, a raced act)
        self._variant(view)
        assert self.info is not None and self.renderer is not None
        if self.narrator is None:
            self.narrator = Narrator(player_names(view), self.info)
        self.narrator.names = player_names(view) or self.narrator.names
        # Chat changes the ETag but not the view: new events alone are worth a redraw.
        events = self._fetch_events()
        self.narrator.feed(events)
        if view == self.view and not events and not force:
            return
        changed = view != self.view
        self.view = view
        self.view_at = time.monotonic()
        if self.json_mode:
            if changed or force:
                self._emit({"type": "view", "game": view})
            if events:
                self._emit({"type": "events", "events": events})
            return
        recent = self.narrator.recent(RECENT)
        if frame:
            turn = int(view.get("turn") or 0)
            recent = narrate_upto(self.narrator.names, self.info, self.log, turn, RECENT)
        if self.clear:
            # In place when watching (no screenfuls of scrollback); else a clean screen.
            self.console.file.write("\x1b[H\x1b[J" if frame else "\x1b[H\x1b[2J")
        self.console.print(
            self.renderer.render(
                view,
                recent=recent,
                game_id=self.game_id,
                join_hint=self.join_hint,
                elapsed=time.monotonic() - self.view_at,
            ),
            soft_wrap=True,
        )
        if self.notice is not None:
            self.console.print(self.notice, soft_wrap=True)
            self.notice = None
        if not view.get("result"):
            self._prompt()

    def _tick_clocks(self) -> None:
        """Count the running clock down on screen between answers: the clocks line (the
        table's third, right under the score) is rewritten in place, the cursor and
        whatever is being typed at the prompt left where they are."""
        view = self.view
        if self.json_mode or not self.clear or view is None or self.pacer is not None:
            return
        line = clocks_line(view, player_names(view), time.monotonic() - self.view_at)
        if line is None or line.plain == self.clock_drawn:
            return
        self.clock_drawn = line.plain
        self.console.file.write(f"\x1b7\x1b[{CLOCK_ROW};1H\x1b[2K")
        self.console.print(line, end="", soft_wrap=True)
        self.console.file.write("\x1b8")
        self.console.file.flush()

    def _prompt(self) -> None:
        if self.json_mode or self.view is None or self.view.get("result"):
            return
        if self.pacer is not None:
            self._status()
            return
        view = self.view
        you = view.get("you")
        lobby = view.get("status") == GameStatus.LOBBY
        if lobby and you is not None:
            prompt = "lobby> "
        elif you is not None and view.get("current_seat") == you:
            prompt = "Your move> "
        else:
            current = view.get("current_seat")
            names = player_names(view)
            who = names[current] if isinstance(current, int) and current < len(names) else "?"
            what = "history, help, quit" if you is None else "chat, history, help, quit"
            if not lobby:
                self.console.print(Text(f"Waiting for {who} to play… ({what})", style="dim"))
            # A spectator's own prompt: nothing typed there is a move or a lobby command.
            prompt = "watching> " if you is None else "> "
        self.console.print(Text(prompt, style="bold"), end="")
        self.console.file.flush()

    def _say(self, text: str, *, code: str = "info", style: str = "") -> None:
        if self.json_mode:
            self._emit({"type": "message", "code": code, "text": text.strip()})
            return
        self.console.print(Text(text, style=style), soft_wrap=True)

    def _refuse(self, text: str, *, code: str) -> None:
        self._say(text, code=code, style="bold red")
        self._prompt()

    def _emit(self, data: Mapping[str, Any]) -> None:
        self.console.file.write(json.dumps(data, separators=(",", ":")) + "\n")
        self.console.file.flush()

    def _resume_or_watch(self) -> str:
        if self.token is None:
            return f"hanabi-client watch {self.game_id}"
        return self.resume_command()

    def _resume_hint(self) -> str:
        if self.token is None:
            return f"Watch again with: {self._resume_or_watch()}"
        return f"Resume with: {self._resume_or_watch()}"

    def _maybe_over(self) -> int | None:
        view = self.view
        if view is None or not view.get("result"):
            return None
        lines = [
            "",
            f"Save the replay:  hanabi-client export {self.game_id} -o {self.game_id}.json",
            f"Step through it:  hanabi-client replay {self.game_id} --turn N",
        ]
        if self.json_mode:
            self._emit({"type": "result", "result": view["result"], "game_id": self.game_id})
        else:
            self.console.print(Text("\n".join(lines)), soft_wrap=True)
        return 0

    # -- commands -------------------------------------------------------------------

    def _command(self, line: str) -> int | None:
        try:
            command = parse(line, self.view, self.info)
        except InputError as exc:
            self._refuse(str(exc), code="bad_input")
            return None
        kind = command.kind
        if kind == "quit":
            self._say(f"Left the table. {self._resume_hint()}", code="quit")
            return 0
        if kind == "help":
            self._say(HELP, code="help")
            self._prompt()
            return None
        if kind == "redraw":
            if self.view is not None:
                self._show(self.view, force=True)
            return None
        if kind == "history":
            lines = self.narrator.history() if self.narrator else []
            self._say("\n".join(lines) or "Nothing has happened yet.", code="history")
            self._prompt()
            return None
        if self.token is None:
            self._refuse("You are watching: spectators can only look.", code="spectator")
            return None
        try:
            return self._send(command)
        except Unreachable as exc:
            sent = _SENT.get(command.kind, command.kind)
            if exc.maybe_sent:
                what = f"Your {sent} may or may not have reached it"
            else:
                what = f"Your {sent} was not sent"
            self._refuse(
                f"{exc.detail}. {what}; the table will refresh when the server is back.",
                code="unreachable",
            )
        except ApiError as exc:
            self._server_refused(exc)
        return None

    def _send(self, command: Command) -> int | None:
        kind = command.kind
        if kind == "chat":
            self.client.chat(self.game_id, command.text, token=self.token)
            self._refresh()
            return None
        if kind == "start":
            if command.action.get("watch"):
                if command.pace is not None:
                    self.pace = command.pace
                return self._start_and_watch()
            self._show(self.client.start(self.game_id, token=self.token))
            return None
        if kind == "bot":
            strategy, name = command.action.get("strategy"), command.action.get("name")
            seated = self.client.add_bot(self.game_id, strategy, name, token=self.token)
            names = player_names(seated.game)
            who = names[seated.seat] if seated.seat < len(names) else "A bot"
            self.notice = Text(f"{who} (a bot the server plays) took seat {seated.seat + 1}.")
            self._show(seated.game, force=True)
            return None
        if kind == "leave":
            you = self.view.get("you") if self.view else None
            if you is None or not self.view or self.view.get("status") != GameStatus.LOBBY:
                self._refuse("You can only leave a table before the game starts.", code="bad_input")
                return None
            self.client.leave(self.game_id, you, token=self.token)
            if self.on_leave:
                self.on_leave()
            self._say("You left the table.", code="left")
            return 0
        if kind == "vote":
            self._show(self.client.vote(self.game_id, command.action["end"], token=self.token))
            return self._maybe_over()
        assert self.view is not None
        result = self.client.act(self.game_id, self.view["turn"], command.action, token=self.token)
        if result.repeated:
            self.notice = Text(
                "(The server had already made that move: its first answer was lost on the way.)",
                style="dim",
            )
        self._show(result.game, force=result.repeated)
        return self._maybe_over()

    def _start_and_watch(self) -> int | None:
        """Deal without us: the seat goes at the deal and this terminal becomes a
        spectator's. The poller follows ``self.token``, so it is dropped before the
        request (a poll that the deal wakes with the old token is not an error)."""
        token, self.token = self.token, None
        try:
            view = self.client.start(self.game_id, watch=True, token=token)
        except BaseException:
            self.token = token
            raise
        if self.on_leave:
            self.on_leave()  # the saved token holds no seat any more
        self.notice = Text("You gave up your seat: watching the game.", style="bold")
        if self._pacing():
            assert self.pacer is not None
            self.pacer.offer(view)
            return None  # drawn by the run loop, one move at a time
        self._show(view, force=True)
        return self._maybe_over()

    def _refresh(self) -> None:
        try:
            self._show(self.client.game(self.game_id, token=self.token), force=True)
        except ApiError:
            self._prompt()

    def _server_refused(self, exc: ApiError) -> None:
        if exc.code == "stale_turn":
            self.notice = Text(
                "The game had moved on before your move arrived, so it was not made "
                "(an earlier move of yours may have gone through after all): "
                "here is the table as it is now.",
                style="bold red",
            )
            self._refresh()
            return
        self._refuse(f"The server refused: {exc.detail}", code=exc.code)


#: What was sent, in words ("Your clue was not sent"; play, discard and vote say themselves).
_SENT = {
    "chat": "chat line",
    "start": "request to deal",
    "bot": "request for a bot",
    "leave": "request to leave",
}

#: What the table says when the server ends its stream for good (other than a finish).
_ENDED = {
    "gone": "This game is gone (its lobby emptied, or it expired).",
    "not_a_player": "You no longer hold a seat at this table.",
    "revoked": "Your session ended (a logout or a password change elsewhere): log in again.",
}


class _Trouble:
    """A follower's failures: the server away (say so from the second failure, wait a
    little longer each time, say when it is back) or a refusal (fatal for the session)."""

    def __init__(self, session: TableSession) -> None:
        self.session = session
        self.failures = 0
        self.announced = False

    def ok(self) -> None:
        if self.announced:
            self.session.queue.put(("up", None))
        self.failures, self.announced = 0, False

    def away(self, exc: ApiError) -> bool:
        """Handle ``exc``; False when the follower must stop."""
        queue_ = self.session.queue
        if not (isinstance(exc, Unreachable) or (exc.status or 0) >= 500):
            queue_.put(("fatal", exc))
            return False
        # One failure may be a blip (a worker restarting): say so from the second.
        if self.failures >= 1 and not self.announced:
            queue_.put(("down", exc))
            self.announced = True
        delay = RETRY_DELAYS[min(self.failures, len(RETRY_DELAYS) - 1)]
        self.failures += 1
        return not self.session.stop.wait(delay)


def plain_console(file: TextIO | None = None) -> Console:
    """A console for tests and pipes: no colour, no wrapping surprises."""
    return Console(file=file, no_color=True, highlight=False, width=100)
