"""One terminal's picture of one table: the newest view, the event log read so far, and
how they are drawn: the table redrawn on every change, the running clock counted down in
place, the prompt, messages; or, with ``--json``, one JSON object per line.

The table session (:mod:`.session`) feeds it what arrives; the commands typed at the
table (:mod:`.table_commands`) draw through it too.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Mapping
from typing import Any

from rich.console import Console
from rich.text import Text

from .api import ApiError, Client
from .clocks import clocks_line
from .codes import GameStatus
from .i18n import _
from .narrate import Narrator, player_names
from .pacing import DEFAULT_PACE, Pacer, narrate_upto
from .render import TableRenderer
from .variants import VariantInfo, variant_info
from .words import seat_name

RECENT = 6  # last moves shown under the table
RECENT_CHAT = 4  # last chat lines, listed apart: chat never pushes a move out
CLOCK_ROW = 3  # the table's line that shows the clocks (title, score, clocks, fireworks)


class TableScreen:
    """One game as a seat (``token``) or a spectator (no token) sees it on this terminal."""

    def __init__(
        self,
        client: Client,
        game_id: str,
        token: str | None,
        *,
        console: Console,
        json_mode: bool = False,
        clear: bool = True,
        join_hint: str | None = None,
        resume_command: Callable[[], str] | None = None,
        streaming: bool = True,
        pace: float = DEFAULT_PACE,
    ) -> None:
        self.client = client
        self.game_id = game_id
        self.token = token  # None once the seat is given up (start watch)
        self.console = console
        self.json_mode = json_mode
        self.clear = (
            clear and console.is_terminal and not console.is_dumb_terminal and not json_mode
        )
        self.join_hint = join_hint
        self.resume_command = resume_command or (lambda: f"hanabi-client join {game_id}")
        self.streaming = streaming  # False once the stream proved unavailable
        self.streamed: list[dict[str, Any]] = []  # events the stream brought, not yet shown
        self.view: dict[str, Any] | None = None
        self.view_at = time.monotonic()  # when self.view arrived: clocks count down from it
        self.info: VariantInfo | None = None
        self.renderer: TableRenderer | None = None
        self.narrator: Narrator | None = None
        self.last_seq = 0
        self.log: list[dict[str, Any]] = []  # the event log as far as fetched
        self.notice: Text | None = None  # said under the next drawing
        self.clock_drawn: str | None = None
        # Watching (no seat): frames one move at a time (see pacing.py); 0: as they come.
        self.pace = pace
        self.pacer: Pacer | None = None

    # -- the table ------------------------------------------------------------------

    def show(self, view: dict[str, Any], *, force: bool = False, frame: bool = False) -> None:
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
                self.emit({"type": "view", "game": view})
            if events:
                self.emit({"type": "events", "events": events})
            return
        recent = self.narrator.recent(RECENT)
        chat = self.narrator.chat(RECENT_CHAT)
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
                chat=chat,
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
            self.prompt()

    def refresh(self) -> None:
        """Ask for the view again and draw it (after chat, or a move that came too late)."""
        try:
            self.show(self.client.game(self.game_id, token=self.token), force=True)
        except ApiError:
            self.prompt()

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

    def tick_clocks(self) -> None:
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

    def over(self) -> int | None:
        """Once the game is over: how to see it again, and the exit status 0; else None."""
        view = self.view
        if view is None or not view.get("result"):
            return None
        lines = [
            "",
            _("Save the replay:  hanabi-client export {id} -o {id}.json", id=self.game_id),
            _("Step through it:  hanabi-client replay {id} --turn N", id=self.game_id),
        ]
        if view.get("you") is not None:  # the host opens it, the others answer (lobby.md)
            lines.append(_("Again, same seats: hanabi-client again {id}", id=self.game_id))
        if self.json_mode:
            self.emit({"type": "result", "result": view["result"], "game_id": self.game_id})
        else:
            self.console.print(Text("\n".join(lines)), soft_wrap=True)
        return 0

    # -- the prompt and messages ----------------------------------------------------

    def prompt(self) -> None:
        if self.json_mode or self.view is None or self.view.get("result"):
            return
        if self.pacer is not None:
            self.pace_status()
            return
        view = self.view
        you = view.get("you")
        lobby = view.get("status") == GameStatus.LOBBY
        if lobby and you is not None:
            prompt = _("lobby> ")
        elif you is not None and view.get("current_seat") == you:
            prompt = _("Your move> ")
        else:
            who = seat_name(player_names(view), view.get("current_seat"), "?")
            what = "history, help, quit" if you is None else "chat, history, help, quit"
            if not lobby:
                waiting = _("Waiting for {who} to play… ({commands})", who=who, commands=what)
                self.console.print(Text(waiting, style="dim"))
            # A spectator's own prompt: nothing typed there is a move or a lobby command.
            prompt = _("watching> ") if you is None else "> "
        self.console.print(Text(prompt, style="bold"), end="")
        self.console.file.flush()

    def pace_status(self) -> None:
        """Where a paced watch stands, and its keys: the last line, rewritten in place."""
        assert self.pacer is not None
        if self.json_mode:
            self.emit({"type": "pace", "paused": self.pacer.paused, "pace": self.pacer.pace})
        elif not self.pacer.done:
            # Rewrite the last line (the status line) in place on a terminal.
            prefix = "\r\x1b[K" if self.clear else ""
            self.console.file.write(prefix)
            self.console.print(Text(self.pacer.status(), style="dim"), end="")
            self.console.file.write("" if self.clear else "\n")
            self.console.file.flush()

    def say(self, text: str, *, code: str = "info", style: str = "") -> None:
        if self.json_mode:
            self.emit({"type": "message", "code": code, "text": text.strip()})
            return
        self.console.print(Text(text, style=style), soft_wrap=True)

    def refuse(self, text: str, *, code: str) -> None:
        self.say(text, code=code, style="bold red")
        self.prompt()

    def emit(self, data: Mapping[str, Any]) -> None:
        self.console.file.write(json.dumps(data, separators=(",", ":")) + "\n")
        self.console.file.flush()

    def resume_or_watch(self) -> str:
        """The command that brings this terminal back: join for a seat, else watch."""
        if self.token is None:
            return f"hanabi-client watch {self.game_id}"
        return self.resume_command()

    def resume_hint(self) -> str:
        if self.token is None:
            return _("Watch again with: {command}", command=self.resume_or_watch())
        return _("Resume with: {command}", command=self.resume_or_watch())
