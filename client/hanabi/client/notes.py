"""Card notes and the last move, at the table: ``note SLOT TEXT`` (a card of your own
hand), ``note WHO SLOT TEXT`` (a card in someone else's), ``note SLOT`` alone deletes the
note; the notes drawn under each hand; and the last move in words, drawn above the board.

Notes are the server's (``PUT /games/{id}/notes/{order}``): private to their author while
the game is on, everyone's once it is over. Cards are named by slot as the table shows
them (1 = newest, on the left), players by name, or the start of one.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from .i18n import _
from .narrate import Narrator, player_names
from .smartnotes import smart_hint
from .variants import VariantInfo
from .words import seat_name

#: The longest note the server keeps.
NOTE_MAX = 100


def usage() -> str:
    return _("note SLOT TEXT (your card), note WHO SLOT TEXT (theirs); no TEXT deletes the note.")


class NoteError(ValueError):
    """A ``note`` line that names no card; the message is the one-line reason."""


def parse_note(line: str, view: Mapping[str, Any] | None) -> tuple[int, str]:
    """(card order, text) of a ``note`` line read against ``view``."""
    if view is None or not view.get("hands") or not any(view["hands"]):
        raise NoteError(_("There are no cards to write on yet."))
    you = view.get("you")
    if you is None:
        raise NoteError(_("You are watching: spectators keep no notes."))
    parts = line.strip().split(None, 2)[1:]
    if not parts:
        raise NoteError(_("Which card? {usage}", usage=usage()))
    seat = you
    if not parts[0].isdigit():
        seat = seat_named(parts[0], player_names(view))
        parts = line.strip().split(None, 3)[2:]
        if not parts or not parts[0].isdigit():
            raise NoteError(_("Which of their cards? {usage}", usage=usage()))
    hand = view["hands"][seat]
    slot = int(parts[0])
    if not 1 <= slot <= len(hand):
        raise NoteError(
            _("There is no slot {slot}: slots are 1-{last}.", slot=slot, last=len(hand))
        )
    text = parts[1].strip() if len(parts) > 1 else ""
    if len(text) > NOTE_MAX:
        raise NoteError(
            _("A note holds at most {most} characters (this one {n}).", most=NOTE_MAX, n=len(text))
        )
    return int(hand[slot - 1]["order"]), text


def seat_named(word: str, names: Sequence[str], error: type[ValueError] = NoteError) -> int:
    """The seat of the player ``word`` names (any case): the one so called, else the one
    whose name it begins; ``error`` (its message a sentence) when none or several do.
    The table's commands (``clue``) and notes both read a player's name this way."""
    lowered = [n.lower() for n in names]
    w = word.lower()
    found = [i for i, n in enumerate(lowered) if n == w] or [
        i for i, n in enumerate(lowered) if n.startswith(w)
    ]
    if len(found) == 1:
        return found[0]
    if found:
        some = _(", ").join(names[i] for i in found[:-1])
        raise error(
            _('"{word}" could be {some} or {last}.', word=word, some=some, last=names[found[-1]])
        )
    players = _(", ").join(names)
    raise error(
        _('Nobody called "{word}" here: players are {players}.', word=word, players=players)
    )


def my_notes(view: Mapping[str, Any]) -> dict[int, str]:
    """The notes this view shows its viewer: their own while the game is on, everyone's
    (joined, by seat) once it is over."""
    by_seat = view.get("notes") or []
    names = player_names(view)
    out: dict[int, list[str]] = {}
    over = bool(view.get("result"))
    for seat, notes in enumerate(by_seat):
        for order, text in (notes or {}).items():
            label = f"{seat_name(names, seat)}: {text}" if over else text
            out.setdefault(int(order), []).append(label)
    return {order: " | ".join(texts) for order, texts in out.items()}


def note_lines(
    view: Mapping[str, Any], cards: Sequence[Mapping[str, Any]], info: VariantInfo | None = None
) -> list[str]:
    """The notes on a hand's cards, one line per noted slot ("note 2: chop?"); while the
    game is on, given ``info``, with what the note narrows the card to (a smart note:
    "note 2: r1 b1 (may be R1 B1)")."""
    notes = my_notes(view)
    lines = []
    for slot, card in enumerate(cards, start=1):
        if card.get("order") not in notes:
            continue
        text = notes[card["order"]]
        line = _("note {slot}: {text}", slot=slot, text=text)
        hint = smart_hint(info, card, text) if info and not view.get("result") else None
        lines.append(f"{line} ({hint})" if hint else line)
    return lines


def last_move(view: Mapping[str, Any], info: VariantInfo) -> str | None:
    """The view's ``last_action`` in words, as the narrator says a move ("bob clued alice
    red, touching slots 2 and 4"); None before the first move."""
    last = view.get("last_action")
    if not isinstance(last, Mapping):
        return None
    narrator = Narrator(player_names(view), info)
    # A clue moves no card: its slots are where the cards sit in this view's hands.
    hands = view.get("hands") or []
    narrator.hands = {seat: [c.get("order") for c in hand] for seat, hand in enumerate(hands)}
    said = narrator.feed_moves([last])
    return said[0] if said else None
