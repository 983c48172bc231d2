"""The compact action log, one short string per turn (:func:`encode_action`): what a game's
state carries while it is on, and all that its archive keeps of its actions once it is
finished (see :mod:`.record`). Finished games are rebuilt from it by replaying the engine
(:mod:`hanabi.server.table.restore`), which is deterministic given the deal.
"""

from __future__ import annotations

from hanabi.game import Action, ActionKind


def encode_action(seat: int, action: Action) -> str:
    """A compact action-log entry for archives: ``<seat>:<code>``."""
    if action.type == ActionKind.PLAY:
        code = f"p{action.card}" + (f":{action.firework}" if action.firework else "")
    elif action.type == ActionKind.DISCARD:
        code = f"d{action.card}"
    elif action.type == ActionKind.CLUE and action.color is not None:
        code = f"c{action.target}:{action.color}"
    elif action.type == ActionKind.CLUE:
        code = f"r{action.target}:{action.rank}"
    else:  # terminate: by its own seat (-1: by the table), with its reason if not the default
        seat = -1 if action.seat is None else action.seat
        code = "t" + (f":{action.reason}" if action.reason else "")
    return f"{seat}:{code}"


def decode_action(entry: str) -> tuple[int, Action]:
    seat_text, code = entry.split(":", 1)
    seat, kind, rest = int(seat_text), code[0], code[1:]
    if kind == "p":
        card, _, firework = rest.partition(":")
        return seat, Action.play(int(card), firework or None)
    if kind == "d":
        return seat, Action.discard(int(rest))
    if kind in "cr":
        target, _, value = rest.partition(":")
        if kind == "c":
            return seat, Action.clue(int(target), color=value)
        return seat, Action.clue(int(target), rank=int(value))
    reason = rest[1:] or None  # "t" or "t:<reason>"
    return seat, Action.terminate(None if seat < 0 else seat, reason)
