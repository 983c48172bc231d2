"""``hanabi-client bot``: a seat played by a :mod:`hanabi.bots` strategy over the public API.

The bot sees exactly what a third-party program would: its seat's JSON view (long-polled
with its ETag) and the event log as the server shows that seat (its own draws hidden). On
its turn it fetches the events it has not seen yet, asks
:func:`hanabi.bots.choose_action_from_view` for a move and sends it with the view's
``turn``, so a move re-sent after a network failure is never made twice. It says which
strategy it plays (with its join, or once back at a seat in the lobby), so that the
table's other bots read it right (two API hat bots play hat). A bot that holds
the host's seat starts the game once every seat is taken.

This module imports :mod:`hanabi.bots` (the ``hanabi-core`` distribution); the rest of
the client does not, so only this command needs it.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Mapping
from typing import Any

from rich.console import Console
from rich.text import Text

from hanabi.bots import choose_action_from_view, playing, view_table

from .api import ApiError, Client, Unreachable
from .codes import GAME_EVENTS, GameStatus
from .follow import POLL_WAIT, RETRY_DELAYS, server_away
from .i18n import _
from .narrate import Narrator, player_names
from .render import game_over_line
from .variants import VariantInfo, variant_info

MAX_CONFUSED = 5  # decisions in a row that fail before the bot gives up


class BotError(Exception):
    """The bot cannot go on (its seat was taken away, the server refused its move, ...)."""


class BotPlayer:
    """One seat at one game, played by ``strategy`` until the game ends."""

    def __init__(
        self,
        client: Client,
        game_id: str,
        token: str,
        strategy: str,
        *,
        console: Console,
        json_mode: bool = False,
        name: str = "bot",
        on_leave: Callable[[], None] | None = None,
        resume_hint: str = "",
        poll_wait: float = POLL_WAIT,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        self.client = client
        self.game_id = game_id
        self.token = token
        self.strategy = strategy
        self.console = console
        self.json_mode = json_mode
        self.name = name
        self.on_leave = on_leave
        self.resume_hint = resume_hint
        self.poll_wait = poll_wait
        self.sleep = sleep
        # Long-polls retry on their own schedule (and say so); moves use the client's
        # safe retries.
        self.poller = Client(client.server, token, timeout=client.timeout, retries=0)
        self.view: dict[str, Any] | None = None
        self.events: list[dict[str, Any]] = []  # the whole log as this seat sees it
        self.last_seq = 0
        self.narrator: Narrator | None = None
        self.info: VariantInfo | None = None
        self.announced_lobby = False
        self.announced_start = False
        self.confused = 0
        self.look_again = False  # the move was not made: ask for the view again at once

    # -- the loop -------------------------------------------------------------------

    def run(self) -> int:
        """Play until the game ends (0), the bot cannot go on (1) or Ctrl-C (130)."""
        try:
            return self._loop()
        except KeyboardInterrupt:
            return self._interrupted()
        except BotError as exc:
            self._say(str(exc), code="bot_error")
            return 1

    def _loop(self) -> int:
        etag = None
        failures = 0
        announced = False
        while True:
            if self.look_again:
                self.look_again, etag = False, None
            try:
                # After a failure, ask without waiting: the answer says "back" at once.
                wait = self.poll_wait if etag and not failures else None
                polled = self.poller.poll(self.game_id, etag, wait=wait)
                if polled.game is not None:
                    etag = polled.etag
                    done = self._on_view(polled.game)
                    if done is not None:
                        return done
                else:
                    etag = polled.etag
            except ApiError as exc:
                if not server_away(exc):
                    raise self._fatal(exc) from None
                # One failure may be a blip (a worker restarting): say so from the second.
                if failures >= 1 and not announced:
                    self._say(
                        _(
                            "Lost the server at {server} ({reason}). Trying again; Ctrl-C leaves.",
                            server=self.client.server,
                            reason=getattr(exc, "reason", exc.detail),
                        ),
                        code="server_down",
                    )
                    announced = True
                self.sleep(RETRY_DELAYS[min(failures, len(RETRY_DELAYS) - 1)])
                failures += 1
                etag = None  # ask for the whole view when it is back
                continue
            if announced:
                self._say(_("Reconnected to the server."), code="server_up")
            failures, announced = 0, False

    def _on_view(self, view: dict[str, Any]) -> int | None:
        self.view = view
        if view.get("you") is None:
            if self.on_leave:
                self.on_leave()
            raise BotError(_("The bot no longer holds a seat at this table."))
        status = view.get("status")
        if status == GameStatus.LOBBY:
            return self._in_lobby(view)
        if not self.announced_start:
            self.announced_start = True
            names = ", ".join(player_names(view))
            said = _("The game is on: {names}.", names=names) + self._fallback_note(view)
            self._say(said, code="started")
        if view.get("result"):
            return self._over(view)
        if view.get("current_seat") == view.get("you"):
            self._move(view)
        return None

    def _in_lobby(self, view: dict[str, Any]) -> None:
        players = view.get("players") or []
        me = view.get("you")
        mine = players[me] if isinstance(me, int) and 0 <= me < len(players) else {}
        if "plays" in mine and mine["plays"] != self.strategy:
            # A resumed seat (a join says it at once): the table's bots read who plays what
            # from it, so say it before the deal.
            try:
                self.client.declare(self.game_id, me, self.strategy, token=self.token)
            except ApiError as exc:
                if exc.code != "game_started" and not server_away(exc):
                    raise BotError(
                        _("Could not say which strategy it plays: {reason}", reason=exc.detail)
                    ) from None
            self.look_again = True
            return None
        full = len(players) >= int(view.get("max_players") or 0) >= 2
        if view.get("host") == view.get("you") and full:
            try:
                self.client.start(self.game_id, token=self.token)
            except ApiError as exc:
                if exc.code != "game_started" and not server_away(exc):
                    raise BotError(
                        _("Could not start the game: {reason}", reason=exc.detail)
                    ) from None
                self.look_again = True
            return None
        if not self.announced_lobby:
            self.announced_lobby = True
            if view.get("host") == view.get("you"):
                text = _("Waiting for every seat to be taken; the bot starts the game then.")
            else:
                text = _("Waiting for the host to start the game.")
            self._say(text, code="lobby")
        return None

    def _fallback_note(self, view: dict[str, Any]) -> str:
        """What it says when the table makes it play another strategy than asked (hat
        next to anyone who does not play hat)."""
        seat = view.get("you")
        try:
            table = view_table(view, self.strategy)
            plays = self.strategy if table is None else playing(self.strategy, seat, table)
        except (KeyError, TypeError, ValueError):
            return ""
        if plays == self.strategy:
            return ""
        return " " + _(
            "{strategy} plays {strategy} only when every seat does: at this table it plays "
            "{plays}.",
            strategy=self.strategy,
            plays=plays,
        )

    # -- moves ----------------------------------------------------------------------

    def _fetch_events(self) -> list[dict[str, Any]]:
        new = self.client.all_events(self.game_id, self.last_seq, token=self.token)
        return self._add_events(new)

    def _add_events(self, events: list[dict[str, Any]]) -> list[str]:
        """Keep the events not seen yet; their sentences (draws left out)."""
        new = [e for e in events if int(e.get("seq", 0)) > self.last_seq]
        if not new:
            return []
        self.events.extend(new)
        self.last_seq = max(int(e.get("seq", 0)) for e in new)
        return self._narrator(self.view or {}).feed_moves(new)

    def _move(self, view: dict[str, Any]) -> None:
        try:
            self._fetch_events()
        except ApiError as exc:
            if server_away(exc):
                self.look_again = True  # the poll loop waits for the server
                return
            raise self._fatal(exc) from None
        # Only the game's own events: the table's (join, leave, start, chat) come before
        # the deal in the server's log and would hide where the game starts.
        game_events = [e for e in self.events if e.get("type") in GAME_EVENTS]
        try:
            action = choose_action_from_view(self.strategy, view, game_events)
        except ValueError as exc:
            # The log and the view disagree (a move between the two reads): look again.
            self.confused += 1
            if self.confused >= MAX_CONFUSED:
                raise BotError(_("The bot cannot decide: {reason}.", reason=exc)) from None
            self.sleep(0.2)
            self.look_again = True
            return
        self.confused = 0
        turn = view["turn"]
        try:
            result = self.client.act(self.game_id, turn, action, token=self.token)
        except Unreachable:
            # Safe: the same move for the same turn is sent again once the server is back.
            self.look_again = True
            return
        except ApiError as exc:
            if server_away(exc) or exc.code in ("stale_turn", "not_your_turn", "game_over"):
                self.look_again = True  # or the game moved on (a retried move went through)
                return
            raise BotError(
                _(
                    "The server refused the bot's {action}: {reason}",
                    action=action["type"],
                    reason=exc.detail,
                )
            ) from None
        self.view = result.game
        said = self._add_events(result.events)
        self._log_move(turn, view["you"], action, result.game, said, result.repeated)

    def _log_move(
        self,
        turn: int,
        seat: int,
        action: dict[str, Any],
        game: Mapping[str, Any],
        said: list[str],
        repeated: bool,
    ) -> None:
        text = "; ".join(said) or _(
            "{name} made a {action} (turn {turn})",
            name=self.name,
            action=action["type"],
            turn=turn + 1,
        )
        state = _(
            "score {score}, clues {clues}, strikes {strikes}",
            score=game.get("score"),
            clues=game.get("clue_tokens"),
            strikes=game.get("strikes"),
        )
        if self.json_mode:
            self._emit(
                {
                    "type": "move",
                    "game_id": self.game_id,
                    "turn": turn,
                    "seat": seat,
                    "name": self.name,
                    "strategy": self.strategy,
                    "action": action,
                    "text": text,
                    "repeated": repeated,
                    "score": game.get("score"),
                    "clue_tokens": game.get("clue_tokens"),
                    "strikes": game.get("strikes"),
                }
            )
            return
        # The table numbers turns from 1; the API counts moves made.
        said = _("turn {turn}: {text} ({state})", turn=turn + 1, text=text, state=state)
        self.console.print(Text(said), soft_wrap=True)

    def _narrator(self, view: Mapping[str, Any]) -> Narrator:
        if self.narrator is None:
            self.info = variant_info(self.client, view)
            self.narrator = Narrator(player_names(view), self.info)
        names = player_names(view)
        if names:
            self.narrator.names = names
        return self.narrator

    # -- endings --------------------------------------------------------------------

    def _over(self, view: Mapping[str, Any]) -> int:
        result = view["result"]
        # Out of the variant's perfect score: the view's max_score is the best score still
        # reachable, which at the end is the score itself.
        self._narrator(view)
        assert self.info is not None
        if self.json_mode:
            self._emit(
                {
                    "type": "result",
                    "game_id": self.game_id,
                    "result": result,
                    "perfect_score": self.info.top_score(view),
                    "turns": view.get("turn"),
                }
            )
            return 0
        self.console.print(Text(game_over_line(view, self.info), style="bold"))
        command = f"hanabi-client export {self.game_id} -o FILE"
        self.console.print(_("Save the replay:  {command}", command=command))
        return 0

    def _interrupted(self) -> int:
        view = self.view
        if (
            view is not None
            and view.get("status") == GameStatus.LOBBY
            and view.get("you") is not None
        ):
            # Nobody waits for a bot that is gone: give the seat back.
            try:
                self.client.leave(self.game_id, view["you"], token=self.token)
            except ApiError:
                pass
            else:
                if self.on_leave:
                    self.on_leave()
                self._say("\n" + _("Left the table (its seat is free again)."), code="left")
                return 130
        said = _("Left the table. {hint}", hint=self.resume_hint).rstrip()
        self._say("\n" + said, code="interrupted")
        return 130

    def _fatal(self, exc: ApiError) -> BotError:
        if exc.code == "not_a_player" or exc.status in (401, 403):
            if self.on_leave:
                self.on_leave()  # the saved token is worthless now
            return BotError(_("The bot no longer holds a seat at this table."))
        return BotError(exc.detail)

    # -- output ---------------------------------------------------------------------

    def _say(self, text: str, *, code: str) -> None:
        if self.json_mode:
            self._emit({"type": "message", "code": code, "text": text.strip()})
        else:
            self.console.print(Text(text), soft_wrap=True)

    def _emit(self, data: Mapping[str, Any]) -> None:
        self.console.file.write(json.dumps(data, separators=(",", ":")) + "\n")
        self.console.file.flush()
