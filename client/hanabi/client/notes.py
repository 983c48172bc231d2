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

from .narrate import card_text, player_names, slots_text
from .variants import VariantInfo
from .words import seat_name

#: The longest note the server keeps.
NOTE_MAX = 100

USAGE = "note SLOT TEXT (your card), note WHO SLOT TEXT (theirs); no TEXT deletes the note."


class NoteError(ValueError):
    """A ``note`` line that names no card; the message is the one-line reason."""


def parse_note(line: str, view: Mapping[str, Any] | None) -> tuple[int, str]:
    """(card order, text) of a ``note`` line read against ``view``."""
    if view is None or not view.get("hands") or not any(view["hands"]):
        raise NoteError("There are no cards to write on yet.")
    you = view.get("you")
    if you is None:
        raise NoteError("You are watching: spectators keep no notes.")
    parts = line.strip().split(None, 2)[1:]
    if not parts:
        raise NoteError(f"Which card? {USAGE}")
    seat = you
    if not parts[0].isdigit():
        seat = _who(parts[0], player_names(view))
        parts = line.strip().split(None, 3)[2:]
        if not parts or not parts[0].isdigit():
            raise NoteError(f"Which of their cards? {USAGE}")
    hand = view["hands"][seat]
    slot = int(parts[0])
    if not 1 <= slot <= len(hand):
        raise NoteError(f"There is no slot {slot}: slots are 1-{len(hand)}.")
    text = parts[1].strip() if len(parts) > 1 else ""
    if len(text) > NOTE_MAX:
        raise NoteError(f"A note holds at most {NOTE_MAX} characters (this one {len(text)}).")
    return int(hand[slot - 1]["order"]), text


def _who(word: str, names: Sequence[str]) -> int:
    lowered = [n.lower() for n in names]
    w = word.lower()
    found = [i for i, n in enumerate(lowered) if n == w] or [
        i for i, n in enumerate(lowered) if n.startswith(w)
    ]
    if len(found) == 1:
        return found[0]
    if found:
        raise NoteError(f'"{word}" could be {" or ".join(names[i] for i in found)}.')
    raise NoteError(f'Nobody called "{word}" here: players are {", ".join(names)}.')


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


def note_lines(view: Mapping[str, Any], cards: Sequence[Mapping[str, Any]]) -> list[str]:
    """The notes on a hand's cards, one line per noted slot ("note 2: chop?")."""
    notes = my_notes(view)
    return [
        f"note {slot}: {notes[card['order']]}"
        for slot, card in enumerate(cards, start=1)
        if card.get("order") in notes
    ]


def last_move(view: Mapping[str, Any], info: VariantInfo) -> str | None:
    """The view's ``last_action`` in words ("bob clued alice red, touching slots 2 and
    4"), None before the first move."""
    last = view.get("last_action")
    if not isinstance(last, Mapping):
        return None
    names = player_names(view)
    who = seat_name(names, last.get("seat"))
    kind = last.get("type")
    if kind == "clue":
        target = last.get("target")
        what = last.get("color") or last.get("rank") or last.get("sound") or "a clue"
        hands = view.get("hands") or []
        hand = hands[target] if isinstance(target, int) and target < len(hands) else []
        orders = [c.get("order") for c in hand]
        slots = sorted(orders.index(o) + 1 for o in last.get("touched") or [] if o in orders)
        return f"{who} clued {seat_name(names, target)} {what}, {slots_text(slots)}"
    if kind in ("play", "misplay", "discard"):
        verb = {"play": "played", "misplay": "misplayed", "discard": "discarded"}[kind]
        return f"{who} {verb} {card_text(info, last.get('suit'), last.get('rank'))}"
    if kind == "terminate":
        return "The game was ended" if last.get("seat") is None else f"{who} ended the game"
    return None
