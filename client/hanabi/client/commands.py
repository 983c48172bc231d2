"""The words typed at the table prompt, read against the current view.

``play 2``, ``discard 5``, ``clue bob red``, ``clue 2 3`` and the short forms ``p 2``,
``d 5``, ``c bob r``. Slots and players are numbered from 1, as the table shows them; a
player may also be named (or a unique start of a name). Anything that cannot be a move
raises :class:`InputError` with a one-line reason.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from .codes import ActionKind, GameStatus
from .i18n import N_, _
from .narrate import player_names
from .notes import NoteError, parse_note, seat_named
from .variants import VariantInfo
from .words import colour_word, seat_name

HELP = N_(
    """\
Moves (on your turn; slots and players are numbered as the table shows them):
  play SLOT            p 2        play the card in slot 2
  discard SLOT         d 5        discard the card in slot 5
  clue WHO WHAT        c bob r    WHO: a name or player number; WHAT: a colour or a rank
                       c 2 3      (clue player 2 about their 3s)
  play SLOT FIREWORK   p 2 g      wild rainbow: the firework to play it on
  next MOVE            next p 2   queue a move during the others' turns: it is sent when
                       your turn comes, dropped if a clue touches that card or it is
                       no longer legal then; next cancel forgets it
Any time:
  chat TEXT            say something to the table
  note SLOT TEXT       note 2 chop?  your own note on your card in slot 2 (private
  note WHO SLOT TEXT   until the game ends); on someone else's card; no TEXT deletes
  history              every move so far, in words
  help                 this text
  quit                 leave the table (join again later to resume)
Watching: space pauses and plays on, n (or →) shows the next move, q quits.
In the lobby:
  start                deal the cards (host)
  start watch [SECS]   deal and watch: you give up your seat (host; e.g. bots only),
                       one move every SECS seconds (default 1; space pauses, n steps)
  bot [STRATEGY] [NAME]  seat a bot the server plays (host; e.g. bot, bot hat, bot hat robo):
                       conventions plays with anyone, hat only with other hat bots,
                       search is conventions with a late-game search (hat with
                       it among search bots only)
  leave                give up your seat
  open NAME            open the seat kept for NAME at the next game (host)
To end a game early (score 0): vote end; it ends once half of the people seated voted
(both of two). vote keep takes your vote back.
To pause (unrated games without a chess clock): pause votes to pause, resume votes to go
on; it changes once as many voted as end a game. Clocks and deadlines stop meanwhile."""
)


class CommandKind(StrEnum):
    """What a typed line asks for: a move, something said or voted at the table, a lobby
    request (sent to the server), or something this terminal does by itself."""

    PLAY = "play"
    DISCARD = "discard"
    CLUE = "clue"
    CHAT = "chat"
    VOTE = "vote"
    START = "start"
    BOT = "bot"
    LEAVE = "leave"
    HELP = "help"
    HISTORY = "history"
    REDRAW = "redraw"
    QUIT = "quit"
    NOTE = "note"
    NEXT = "next"
    PAUSE = "pause"  # a vote to pause, or (resume) to go on
    OPEN = "open"  # the host opens a seat kept at the next game (docs/lobby.md)


#: Every word a line may begin with, and what it asks for (``terminate now`` is a vote).
ALIASES = {
    "p": CommandKind.PLAY,
    "play": CommandKind.PLAY,
    "d": CommandKind.DISCARD,
    "discard": CommandKind.DISCARD,
    "c": CommandKind.CLUE,
    "clue": CommandKind.CLUE,
    "h": CommandKind.HELP,
    "?": CommandKind.HELP,
    "help": CommandKind.HELP,
    "history": CommandKind.HISTORY,
    "hist": CommandKind.HISTORY,
    "log": CommandKind.HISTORY,
    "chat": CommandKind.CHAT,
    "say": CommandKind.CHAT,
    "q": CommandKind.QUIT,
    "quit": CommandKind.QUIT,
    "exit": CommandKind.QUIT,
    "start": CommandKind.START,
    "leave": CommandKind.LEAVE,
    "bot": CommandKind.BOT,
    "note": CommandKind.NOTE,
    "next": CommandKind.NEXT,
    "pause": CommandKind.PAUSE,
    "resume": CommandKind.PAUSE,
    "unpause": CommandKind.PAUSE,
    "open": CommandKind.OPEN,
    "terminate": CommandKind.VOTE,
    "vote": CommandKind.VOTE,
    "": CommandKind.REDRAW,
}
MOVES = (CommandKind.PLAY, CommandKind.DISCARD, CommandKind.CLUE)


class InputError(ValueError):
    """Typed text that is not a command; the message is the one-line reason."""


@dataclass(frozen=True)
class Command:
    """A parsed line: ``kind`` is a command name; moves carry the API ``action``, lobby
    commands (``start``, ``bot``) their request body."""

    kind: CommandKind
    action: dict[str, Any] = field(default_factory=dict)
    text: str = ""
    pace: float | None = None  # start watch [SECONDS]: seconds per move while watching


def parse(
    line: str, view: Mapping[str, Any] | None, info: VariantInfo | None, *, queued: bool = False
) -> Command:
    """Read one line typed at the prompt; moves are checked against ``view``. ``queued``:
    a move for a later turn (``next MOVE``), read while another seat is to move."""
    words = line.strip().split()
    head = words[0].lower() if words else ""
    kind = ALIASES.get(head)
    if kind is None:
        raise InputError(
            _('Unknown command "{word}". Type "help" for the commands.', word=words[0])
        )
    if kind == CommandKind.NEXT and not queued:
        return _next(line.strip()[len(words[0]) :].strip(), view, info)
    if kind == CommandKind.CHAT:
        text = line.strip()[len(words[0]) :].strip()
        if not text:
            raise InputError(_("Say what? For example: chat good luck!"))
        return Command(kind, text=text)
    if kind == CommandKind.NOTE:
        try:
            order, text = parse_note(line, view)
        except NoteError as exc:
            raise InputError(str(exc)) from None
        return Command(kind, {"card": order}, text=text)
    if head == "terminate":
        if [w.lower() for w in words[1:]] != ["now"]:
            raise InputError(_('This votes to end the game with score 0: type "terminate now".'))
        return Command(kind, {"end": True})
    if kind == CommandKind.VOTE:
        choice = [w.lower() for w in words[1:]]
        if choice not in (["end"], ["keep"]):
            raise InputError(
                _('Type "vote end" to vote to end the game, "vote keep" to take it back.')
            )
        return Command(kind, {"end": choice == ["end"]})
    if kind == CommandKind.PAUSE:
        if len(words) > 1:
            raise InputError(_('"{command}" takes no arguments.', command=head))
        return Command(kind, {"paused": head == "pause"})
    if kind == CommandKind.OPEN:
        name = line.strip()[len(words[0]) :].strip()
        if not name:
            raise InputError(_("Open whose seat? For example: open bob"))
        return Command(kind, text=name)
    if kind in (CommandKind.START, CommandKind.BOT):
        return _lobby(kind, line.strip())
    if kind not in MOVES:
        if len(words) > 1:
            raise InputError(_('"{command}" takes no arguments.', command=kind))
        return Command(kind)
    if view is None or view.get("status") == GameStatus.LOBBY:
        raise InputError(_("The game has not started yet."))
    if view.get("result"):
        raise InputError(_("The game is over."))
    you = view.get("you")
    if you is None:
        raise InputError(_("You are watching: spectators cannot move."))
    if view.get("current_seat") != you and not queued:
        whose = seat_name(player_names(view), view.get("current_seat"), _("someone"))
        raise InputError(_("It is not your turn: {who} is to play.", who=whose))
    info = info or VariantInfo.from_view(view)
    if kind == CommandKind.CLUE:
        return Command(kind, _clue(words[1:], view, info))
    return Command(kind, _play_or_discard(kind, words[1:], view, info))


def _lobby(kind: CommandKind, line: str) -> Command:
    """``start``, ``start watch``; ``bot [STRATEGY] [NAME]`` (the name may have spaces).

    Who may, and when, and the strategies, are the server's to know: its refusal says
    (an unknown strategy's lists them).
    """
    words = line.split()
    if kind == CommandKind.START:
        rest = [w.lower() for w in words[1:]]
        pace = None
        if len(rest) == 2 and rest[0] == "watch":
            try:
                pace = float(rest[1])
            except ValueError:
                pace = -1.0
            if not 0 <= pace <= 60:
                raise InputError(
                    _("start watch SECONDS: seconds per move, 0 to 60 (0: as fast as they come).")
                )
            rest = rest[:1]
        if rest not in ([], ["watch"]):
            raise InputError(
                _('Type "start", or "start watch [SECONDS]" to give up your seat and watch.')
            )
        return Command(kind, {"watch": True} if rest else {}, pace=pace)
    body: dict[str, Any] = {}
    parts = line.split(None, 2)
    if len(parts) > 1:
        body["strategy"] = parts[1].lower()
    if len(parts) > 2:
        body["name"] = parts[2].strip()
    return Command(kind, body)


def _next(rest: str, view: Mapping[str, Any] | None, info: VariantInfo | None) -> Command:
    """``next MOVE``: a move to send when this seat's turn comes (``action`` empty and
    ``text`` "cancel" for ``next cancel``); ``text`` is the move as typed."""
    if rest.lower() in ("cancel", "off", "none"):
        return Command(CommandKind.NEXT, text="cancel")
    if not rest:
        raise InputError(_("Queue which move? For example: next p 2, or next c bob r."))
    move = parse(rest, view, info, queued=True)
    if move.kind not in MOVES:
        raise InputError(_("Only a play, a discard or a clue can be queued."))
    return Command(CommandKind.NEXT, move.action, text=rest)


def _play_or_discard(
    kind: CommandKind, args: list[str], view: Mapping[str, Any], info: VariantInfo
) -> dict[str, Any]:
    hand = (view.get("hands") or [])[view["you"]]
    if not args:
        raise InputError(
            _("Which slot? For example: {command} 1 (slots 1-{n}).", command=kind, n=len(hand))
        )
    if len(args) > (2 if kind == CommandKind.PLAY else 1):
        raise InputError(_("Too many words: {command} takes one slot number.", command=kind))
    slot = _number(args[0], _("slot, a number from 1 to {n}", n=len(hand)))
    if not 1 <= slot <= len(hand):
        raise InputError(
            _("There is no slot {slot}: your slots are 1-{n}.", slot=slot, n=len(hand))
        )
    action: dict[str, Any] = {"type": ActionKind(kind), "card": hand[slot - 1]["order"]}
    if len(args) == 2:
        suits = [s for s in info.suits if s.id in (view.get("fireworks") or {})]
        firework = _pick_suit(args[1], suits, N_("firework"))
        action["firework"] = firework
    return action


def _clue(args: list[str], view: Mapping[str, Any], info: VariantInfo) -> dict[str, Any]:
    names = player_names(view)
    you = view["you"]
    if len(args) == 1 and len(names) == 2:
        args = [names[1 - you], *args]  # two players: the clue can only be for the other one
    if len(args) != 2:
        raise InputError(_("Clue whom with what? For example: clue bob red, or clue 2 3."))
    target = _player(args[0], names)
    if target == you:
        raise InputError(_("You cannot clue yourself."))
    value = args[1].lower()
    if value.isdigit():
        rank = int(value)
        if rank not in info.clue_ranks:
            ranks = ", ".join(map(str, info.clue_ranks))
            raise InputError(
                _("{rank} is not a rank you can clue ({ranks}).", rank=rank, ranks=ranks)
            )
        return {"type": ActionKind.CLUE, "target": target, "rank": rank}
    colors = [c for c in info.clue_colors]
    exact = [c for c in colors if c == value]
    by_letter = [c for c in colors if info.color_letter(c) == value]
    by_prefix = [c for c in colors if c.startswith(value)]
    said = [c for c in colors if colour_word(c).lower() == value]  # "красный", "红色"
    for found in (exact, by_letter, by_prefix, said):
        if len(found) == 1:
            return {"type": ActionKind.CLUE, "target": target, "color": found[0]}
    choices = ", ".join(f"{colour_word(c)} ({info.color_letter(c)})" for c in colors)
    raise InputError(
        _(
            '"{word}" is not a clue colour or rank. Colours: {colours}; ranks 1-5.',
            word=args[1],
            colours=choices,
        )
    )


def _player(word: str, names: list[str]) -> int:
    """A player by number (1-n, as the table lists them) or by name (:func:`seat_named`)."""
    if word.isdigit() and word.lower() not in (n.lower() for n in names):
        number = int(word)
        if 1 <= number <= len(names):
            return number - 1
        raise InputError(
            _("There is no player {number}: players are 1-{n}.", number=number, n=len(names))
        )
    return seat_named(word, names, InputError)


def _pick_suit(word: str, suits: list[Any], what: str) -> str:
    w = word.lower()
    for match in (
        [s for s in suits if s.id == w],
        [s for s in suits if s.letter.lower() == w],
        [s for s in suits if s.id.startswith(w)],
    ):
        if len(match) == 1:
            return match[0].id
    ids = ", ".join(s.id for s in suits)
    raise InputError(_('"{word}" is not a {what}: {ids}.', word=word, what=_(what), ids=ids))


def _number(word: str, what: str) -> int:
    try:
        return int(word)
    except ValueError:
        raise InputError(_('"{word}" is not a {what}.', word=word, what=what)) from None
