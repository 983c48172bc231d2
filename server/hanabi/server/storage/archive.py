"""Finished games: the compact action log they are archived as, and their rebuilding.

The commit that ends a game keeps only its state blob (see :mod:`.record`):
the settings, the compact action log (:func:`encode_action`, one short string per turn)
and the table's own events. Its events and final state are rebuilt from that by replaying
the engine (:func:`rebuild`), which is deterministic given the deal.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from hanabi.game import Action, ActionKind, Game, Setup

from .record import Record


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


def setup_of(record: Record) -> Setup:
    return Setup.create(
        record.variant,
        [p.name for p in record.players],
        record.options,
        record.seed,
        record.deck,
    )


@dataclass
class Finished:
    """A finished game rebuilt from its archived log: state, events, and per-turn ranges."""

    game: Game
    events: list[dict[str, Any]]
    ranges: list[tuple[int, int]]  # per turn: (first event index, count)
    seats: list[int]


def rebuild(record: Record) -> Finished:
    """Replay a finished game's archive: the engine's events, with the table's own events
    (``record.chat``, by seq) back in their places."""
    game = Game(setup_of(record))
    engine_events: list[tuple[int, dict[str, Any]]] = [(-1, e) for e in game.deal_events()]
    seats = []
    for turn, entry in enumerate(record.acts or ()):
        seat, action = decode_action(entry)
        seats.append(seat)
        for event in game.apply(action, None if action.type == ActionKind.TERMINATE else seat):
            engine_events.append((turn, event))
    chat = {seq: event for seq, event in record.chat or ()}
    events: list[dict[str, Any]] = []
    ranges: dict[int, tuple[int, int]] = {}
    source = iter(engine_events)
    for seq in range(1, len(engine_events) + len(chat) + 1):
        if seq in chat:
            events.append(chat[seq])
            continue
        turn, event = next(source)
        events.append(event)
        if turn >= 0:
            first, count = ranges.get(turn, (len(events) - 1, 0))
            ranges[turn] = (first, count + 1)
    return Finished(game, events, [ranges[t] for t in range(game.turn)], seats)
