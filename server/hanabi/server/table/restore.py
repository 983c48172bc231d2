"""Games rebuilt from their records, one way each.

- A game in play: from the engine's snapshot its state carries (:func:`live_game`), no
  replay; with its action log when a caller needs what a seat saw (a bot), else with
  placeholders of the log's length (restoring needs only the turn count).
- A finished game: by replaying its archive (:func:`finished_game`), the engine's events
  with the table's own events put back in their places. The engine is deterministic given
  the deal, so this is the game as it was played.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from hanabi.game import ActionKind, Game, Setup

from ..storage.archive import decode_action
from ..storage.record import Record


def live_game(record: Record, compact_log: list[str] | None = None) -> Game:
    """The game in play as ``record`` holds it; with ``compact_log``, with its actions
    (decoding them on every move would be wasted work: only a bot needs them)."""
    assert record.snapshot is not None
    if compact_log is None:
        actions: list[Any] = [None] * record.turn
    else:
        actions = [decode_action(entry)[1] for entry in compact_log]
    return Game.from_snapshot(setup_of(record), actions, record.snapshot)


def setup_of(record: Record) -> Setup:
    """What deals the game: its settings and its seats' names."""
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


def finished_game(record: Record) -> Finished:
    """Replay a finished game's archive: the engine's events, with the table's own events
    (``record.table_events``, by seq) back in their places."""
    game = Game(setup_of(record))
    engine_events: list[tuple[int, dict[str, Any]]] = [(-1, e) for e in game.deal_events()]
    seats = []
    for turn, entry in enumerate(record.compact_log or ()):
        seat, action = decode_action(entry)
        seats.append(seat)
        for event in game.apply(action, None if action.type == ActionKind.TERMINATE else seat):
            engine_events.append((turn, event))
    chat = {seq: event for seq, event in record.table_events or ()}
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
