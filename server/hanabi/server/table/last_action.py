"""The last move of a game as a viewer may see it (the view's ``last_action``).

Built from the game's state and the last entry of its compact action log, with no read of
the event log: the clue as the table heard it (with the cards it touched), the card a play
or discard revealed, an ending. It is what the move's events say, and it goes through the
same redaction as those events (:func:`hanabi.game.views.redact_event`, given the variant
so that a hidden clue or a card thrown in the hole stays hidden): a view never tells more
than the event log does.
"""

from __future__ import annotations

from typing import Any

from hanabi.game import ActionKind, Game
from hanabi.game.views import redact_event

from ..storage.archive import decode_action
from ..storage.record import Record


def last_action(
    record: Record,
    game: Game | None,
    viewer: int | None,
    reveal: bool = False,
    hidden: bool = False,
) -> dict[str, Any] | None:
    """The game's last move as ``viewer`` (a seat, None: a spectator) may see it; None
    before the first move. ``reveal``: everything may be seen (a replay, an all-bot
    table); ``hidden``: as a spectator saw it during play, even once the game is over (a
    seed's deal the viewer may not see)."""
    if game is None or game.turn == 0:
        return None
    log = record.compact_log
    turn = game.turn - 1
    if log is None or len(log) <= turn:
        return None
    seat, action = decode_action(log[turn])
    event = _event(game, turn, seat, action)
    if event is None:
        return None
    over = (reveal or game.is_over) and not hidden
    return redact_event(event, viewer, over, game.variant)


def _event(game: Game, turn: int, seat: int, action: Any) -> dict[str, Any] | None:
    """The move's main event, as the engine made it."""
    kind = action.type
    if kind == ActionKind.CLUE:
        clue = game.clues[-1] if game.clues else None
        if clue is None or clue.get("turn") != turn:
            return None
        return {**clue, "touched": list(clue["touched"])}
    if kind == ActionKind.TERMINATE:
        event: dict[str, Any] = {"type": "terminate", "turn": turn}
        if action.seat is not None:
            event["seat"] = action.seat
        if action.reason:
            event["reason"] = action.reason
        return event
    order = action.card
    variant = game.variant
    card = game.deck[order]
    suit, rank = variant.card(card)
    out: dict[str, Any] = {"turn": turn, "seat": seat, "card": order, "suit": suit, "rank": rank}
    if order in game.misplays:
        out["type"] = "misplay"
    elif order in game.discards:
        out["type"] = "discard"
    else:
        out["type"] = "play"
        stack = next((f for f, s in enumerate(game.stacks) if order in s), None)
        out["firework"] = None if stack is None else variant.suits[stack].id
    if variant.inverted_mask >> card & 1:
        out["inverted"] = True
    return out
