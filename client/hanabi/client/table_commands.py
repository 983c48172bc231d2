"""What a line typed at the table does: looking (help, history, a redraw, quit) stays on
this terminal; a move, a chat line or a vote is sent to the server, and so are the lobby's
requests (start, start watch, bot, leave). The words themselves are read in
:mod:`.commands`; the answers are drawn on the :class:`~.screen.TableScreen`."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from rich.text import Text

from .api import ApiError, Client, Unreachable
from .codes import GameStatus
from .commands import HELP, Command, CommandKind, InputError, parse
from .i18n import N_, _
from .narrate import player_names
from .premove import PreMove, Verdict
from .screen import TableScreen
from .words import seat_name

#: What was sent, in words ("Your clue was not sent").
SENT = {
    CommandKind.PLAY: (
        N_("Your play may or may not have reached it"),
        N_("Your play was not sent"),
    ),
    CommandKind.DISCARD: (
        N_("Your discard may or may not have reached it"),
        N_("Your discard was not sent"),
    ),
    CommandKind.CLUE: (
        N_("Your clue may or may not have reached it"),
        N_("Your clue was not sent"),
    ),
    CommandKind.VOTE: (
        N_("Your vote may or may not have reached it"),
        N_("Your vote was not sent"),
    ),
    CommandKind.CHAT: (
        N_("Your chat line may or may not have reached it"),
        N_("Your chat line was not sent"),
    ),
    CommandKind.START: (
        N_("Your request to deal may or may not have reached it"),
        N_("Your request to deal was not sent"),
    ),
    CommandKind.BOT: (
        N_("Your request for a bot may or may not have reached it"),
        N_("Your request for a bot was not sent"),
    ),
    CommandKind.LEAVE: (
        N_("Your request to leave may or may not have reached it"),
        N_("Your request to leave was not sent"),
    ),
    CommandKind.NOTE: (
        N_("Your note may or may not have reached it"),
        N_("Your note was not sent"),
    ),
    CommandKind.OPEN: (
        N_("Your request may or may not have reached it"),
        N_("Your request was not sent"),
    ),
    CommandKind.PAUSE: (
        N_("Your vote may or may not have reached it"),
        N_("Your vote was not sent"),
    ),
}

MOVE_SENT = (N_("Your move may or may not have reached it"), N_("Your move was not sent"))


class TableCommands:
    """Runs the lines typed at one table. ``on_leave`` forgets the saved seat (it is given
    up); ``watch(view)`` follows the game as a spectator from ``view`` on, after a
    ``start watch``, and says whether the session is over (its exit status)."""

    def __init__(
        self,
        client: Client,
        screen: TableScreen,
        *,
        on_leave: Callable[[], None] | None,
        watch: Callable[[dict[str, Any]], int | None],
    ) -> None:
        self.client = client
        self.screen = screen
        self.game_id = screen.game_id
        self.on_leave = on_leave
        self.watch = watch
        self.requests: dict[CommandKind, Callable[[Command], int | None]] = {
            CommandKind.CHAT: self._chat,
            CommandKind.VOTE: self._vote,
            CommandKind.START: self._start,
            CommandKind.BOT: self._seat_bot,
            CommandKind.LEAVE: self._leave,
            CommandKind.NOTE: self._note,
            CommandKind.NEXT: self._next,
            CommandKind.PAUSE: self._pause,
            CommandKind.OPEN: self._open_kept,
        }
        self.premove: PreMove | None = None

    def run(self, line: str) -> int | None:
        """Do what ``line`` says; the session's exit status when it ends the session."""
        screen = self.screen
        try:
            command = parse(line, screen.view, screen.info)
        except InputError as exc:
            screen.refuse(str(exc), code="bad_input")
            return None
        kind = command.kind
        if kind == CommandKind.QUIT:
            screen.say(_("Left the table. {hint}", hint=screen.resume_hint()), code="quit")
            return 0
        if kind == CommandKind.HELP:
            screen.say(_(HELP), code="help")
            screen.prompt()
            return None
        if kind == CommandKind.REDRAW:
            if screen.view is not None:
                screen.show(screen.view, force=True)
            return None
        if kind == CommandKind.HISTORY:
            lines = screen.narrator.history() if screen.narrator else []
            screen.say("\n".join(lines) or _("Nothing has happened yet."), code="history")
            screen.prompt()
            return None
        if screen.token is None:
            screen.refuse(_("You are watching: spectators can only look."), code="spectator")
            return None
        try:
            return self.requests.get(kind, self._move)(command)
        except Unreachable as exc:
            maybe, lost = SENT.get(kind, MOVE_SENT)
            what = _(maybe) if exc.maybe_sent else _(lost)
            screen.refuse(
                _(
                    "{problem}. {what}; the table will refresh when the server is back.",
                    problem=exc.detail,
                    what=what,
                ),
                code="unreachable",
            )
        except ApiError as exc:
            self._refused(exc)
        return None

    # -- at play --------------------------------------------------------------------

    def _move(self, command: Command) -> int | None:
        """Play, discard or clue, as the move of the turn on screen."""
        screen = self.screen
        assert screen.view is not None
        result = self.client.act(
            self.game_id, screen.view["turn"], command.action, token=screen.token
        )
        if result.repeated:
            screen.notice = Text(
                _("(The server had already made that move: its first answer was lost on the way.)"),
                style="dim",
            )
        screen.show(result.game, force=result.repeated)
        return screen.over()

    def _next(self, command: Command) -> int | None:
        """``next MOVE``: queue the move for this seat's turn (sent at once when it is
        already this seat's turn); ``next cancel`` forgets it."""
        screen = self.screen
        if not command.action:
            self.premove = None
            screen.say(_("No move is queued now."), code="premove_cancelled")
            screen.prompt()
            return None
        assert screen.view is not None
        self.premove = PreMove.queue(command.action, command.text, screen.view)
        screen.say(
            _("Queued: {move}. It is sent when your turn comes.", move=command.text),
            code="premove_queued",
        )
        outcome = self.after_view()
        if self.premove is not None:
            screen.prompt()  # queued, not sent: the table is as it was
        return outcome

    def after_view(self) -> int | None:
        """With each new view: the queued move is sent on this seat's turn, or dropped
        (and said) when it can no longer be made as it was meant."""
        screen, queued = self.screen, self.premove
        if queued is None or screen.view is None:
            return None
        verdict = queued.verdict(screen.view)
        if verdict == Verdict.WAIT:
            return None
        self.premove = None
        if verdict == Verdict.OVER:
            return None
        if verdict == Verdict.SEND:
            screen.say(
                _("Your queued move was sent: {move}.", move=queued.text), code="premove_sent"
            )
            try:
                return self._move(Command(CommandKind(queued.action["type"]), queued.action))
            except Unreachable as exc:
                screen.refuse(f"{exc.detail}. {_(MOVE_SENT[0])}", code="unreachable")
            except ApiError as exc:
                self._refused(exc)
            return None
        if verdict == Verdict.TOUCHED:
            said = _(
                "Your queued move ({move}) was dropped: a clue touched that card.", move=queued.text
            )
        elif verdict == Verdict.ILLEGAL:
            said = _(
                "Your queued move ({move}) was dropped: it is not a legal move now.",
                move=queued.text,
            )
        else:
            said = _(
                "Your queued move ({move}) was dropped: that card is no longer in your hand.",
                move=queued.text,
            )
        screen.say(said, code="premove_dropped", style="bold")
        screen.prompt()
        return None

    def _chat(self, command: Command) -> int | None:
        self.client.chat(self.game_id, command.text, token=self.screen.token)
        self.screen.refresh()
        return None

    def _note(self, command: Command) -> int | None:
        """Write (or delete) a note; the table is redrawn with it at once (the server's
        stream brings it with the next change only)."""
        screen = self.screen
        notes = self.client.note(
            self.game_id, command.action["card"], command.text, token=screen.token
        )
        view = screen.view
        you = view.get("you") if view else None
        if view is not None and isinstance(you, int):
            by_seat = list(view.get("notes") or [{} for _ in view.get("players") or []])
            by_seat[you : you + 1] = [notes]
            screen.show({**view, "notes": by_seat}, force=True)
        return None

    def _vote(self, command: Command) -> int | None:
        end = command.action["end"]
        self.screen.show(self.client.vote(self.game_id, end, token=self.screen.token))
        return self.screen.over()

    def _pause(self, command: Command) -> int | None:
        """``pause`` / ``resume``: a vote; the table says the count (or the pause)."""
        paused = command.action["paused"]
        view = self.client.vote_pause(self.game_id, paused, token=self.screen.token)
        pause = view.get("pause") or {}
        if pause.get("paused") == paused:
            said = _("The game is paused.") if paused else _("The game goes on.")
        else:
            said = _(
                "Your vote counts: {votes} of {needed}.",
                votes=pause.get("votes"),
                needed=pause.get("needed"),
            )
        self.screen.notice = Text(said, style="bold")
        self.screen.show(view, force=True)
        return None

    def _open_kept(self, command: Command) -> int | None:
        """``open NAME``: the seat kept for NAME at this next game goes to anyone."""
        view = self.client.open_kept_seat(self.game_id, command.text, token=self.screen.token)
        self.screen.notice = Text(_("The seat kept for {name} is open.", name=command.text))
        self.screen.show(view, force=True)
        return None

    def _refused(self, exc: ApiError) -> None:
        screen = self.screen
        if exc.code == "stale_turn":
            screen.notice = Text(
                _(
                    "The game had moved on before your move arrived, so it was not made "
                    "(an earlier move of yours may have gone through after all): "
                    "here is the table as it is now."
                ),
                style="bold red",
            )
            screen.refresh()
            return
        screen.refuse(_("The server refused: {problem}", problem=exc.detail), code=exc.code)

    # -- in the lobby ---------------------------------------------------------------

    def _start(self, command: Command) -> int | None:
        if command.action.get("watch"):
            if command.pace is not None:
                self.screen.pace = command.pace
            return self._start_and_watch()
        self.screen.show(self.client.start(self.game_id, token=self.screen.token))
        return None

    def _start_and_watch(self) -> int | None:
        """Deal without us: the seat goes at the deal and this terminal becomes a
        spectator's. The follower follows the screen's token, so it is dropped before the
        request (a poll that the deal wakes with the old token is not an error)."""
        screen = self.screen
        token, screen.token = screen.token, None
        try:
            view = self.client.start(self.game_id, watch=True, token=token)
        except BaseException:
            screen.token = token
            raise
        if self.on_leave:
            self.on_leave()  # the saved token holds no seat any more
        screen.notice = Text(_("You gave up your seat: watching the game."), style="bold")
        return self.watch(view)

    def _seat_bot(self, command: Command) -> int | None:
        strategy, name = command.action.get("strategy"), command.action.get("name")
        seated = self.client.add_bot(self.game_id, strategy, name, token=self.screen.token)
        who = seat_name(player_names(seated.game), seated.seat, _("A bot"))
        self.screen.notice = Text(
            _("{who} (a bot the server plays) took seat {seat}.", who=who, seat=seated.seat + 1)
        )
        self.screen.show(seated.game, force=True)
        return None

    def _leave(self, command: Command) -> int | None:
        screen = self.screen
        view = screen.view
        you = view.get("you") if view else None
        if you is None or not view or view.get("status") != GameStatus.LOBBY:
            screen.refuse(_("You can only leave a table before the game starts."), code="bad_input")
            return None
        self.client.leave(self.game_id, you, token=screen.token)
        if self.on_leave:
            self.on_leave()
        screen.say(_("You left the table."), code="left")
        return 0
