"""Snapshots: a game's state as a JSON-ready dict, so a store can load it without a replay.

The action log stays the truth; a snapshot only saves the replay. Snapshots written before
a field existed still load: the missing fields are derived from the others.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .ending import max_score_now
from .fireworks import Direction, initial_directions, suit_max
from .legal import COLOR, RANK

if TYPE_CHECKING:
    from .game import Game

FIELDS = (
    "deck", "next_draw", "hands", "told", "fireworks", "stacks", "score", "clue_tokens",
    "strikes", "current", "discards", "discarded", "clues", "turns_left", "result",
)  # fmt: skip
# Added with the hanab.live catalogue; an older snapshot lacks them (see restore()).
NEW_FIELDS = (
    "tops", "directions", "starts", "max_possible", "suit_max", "live", "done", "last_clue_kind",
)  # fmt: skip


def _copy(value: Any) -> Any:
    if isinstance(value, list):
        return [list(v) if isinstance(v, list) else v for v in value]
    return value


def take(game: Game) -> dict[str, Any]:
    snap = {name: _copy(getattr(game, name)) for name in FIELDS + NEW_FIELDS}
    snap["directions"] = [int(d) for d in game.directions]
    snap["clues"] = [{**c, "touched": list(c["touched"])} for c in game.clues]
    snap["result"] = None if game.result is None else dict(game.result)
    snap["misplays"] = sorted(game.misplays)
    snap["card_clues"] = {str(k): [dict(c) for c in v] for k, v in game.card_clues.items()}
    return snap


def restore(game: Game, snap: dict[str, Any]) -> None:
    for name in FIELDS:
        setattr(game, name, _copy(snap[name]))
    if game.result is not None:
        game.result = dict(game.result)
    game.clues = [{**c, "touched": list(c["touched"])} for c in snap["clues"]]
    game.misplays = set(snap["misplays"])
    game.card_clues = {int(k): [dict(c) for c in v] for k, v in snap["card_clues"].items()}
    variant = game.variant
    if "tops" in snap:
        for name in NEW_FIELDS:
            setattr(game, name, _copy(snap[name]))
        return
    # A snapshot from before the catalogue: a standard game, whose missing fields follow.
    game.tops = list(game.fireworks)
    game.directions = [
        Direction.FINISHED if n >= variant.stack_size else d
        for n, d in zip(game.fireworks, initial_directions(variant), strict=True)
    ]
    game.starts = [0] * len(variant.suits)
    last = game.clues[-1] if game.clues else None
    game.last_clue_kind = None if last is None else (COLOR if last["color"] is not None else RANK)
    game.done = [False] * game.num_players
    live = list(variant.copies)
    for c, n in enumerate(game.discarded):
        live[c] -= n
    for stack in game.stacks:
        for order in stack:
            live[game.deck[order]] -= 1
    game.live = live
    game.max_possible = max_score_now(game)
    game.suit_max = [
        suit_max(
            variant, [c - d for c, d in zip(variant.copies, game.discarded)], s, game.directions[s]
        )
        if s in variant.firework_suits and not variant.wild_mask
        else 0
        for s in range(len(variant.suits))
    ]
