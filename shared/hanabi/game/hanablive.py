"""hanab.live interchange: its JSON game format (version 3), both ways.

A hanab.live game is ``players``, a ``deck`` of ``{suitIndex, rank}`` top first, and
``actions`` of ``{type, target, value}``: 0 play (target = card order), 1 discard,
2 colour clue (target = seat, value = index in the variant's clue colours), 3 rank clue
(value = rank), 4 game over (target = seat, value = end condition). Positions, not names,
carry the meaning, so our suits map to hanab.live's by index.

Two extensions make the round trip exact for what hanab.live has no field for: a wild
play stores its firework's suit index in ``value``, and ``options.strikeoutKeepsScore``.
Variants without a hanab.live name are exported under our own id.
"""

from __future__ import annotations

from typing import Any

from .actions import CLUE, DISCARD, PLAY, TERMINATE, Action
from .ending import IDLE, TERMINATED, TIMEOUT
from .errors import HanabiError, ImportFormatError
from .game import Game
from .setup import Options, Setup
from .variants import VARIANTS, Variant

PLAY_TYPE, DISCARD_TYPE, COLOR_CLUE, RANK_CLUE, GAME_OVER = range(5)
#: hanab.live's end conditions for the reasons a terminate action gives (its TIMEOUT,
#: TERMINATED and IDLE_TIMEOUT); any other value imports as terminated.
END_CONDITIONS = {TIMEOUT: 3, TERMINATED: 4, IDLE: 6}
REASONS = {value: reason for reason, value in END_CONDITIONS.items()}


def export_game(game: Game) -> dict[str, Any]:
    """The game as a hanab.live JSON document."""
    variant = game.variant
    actions = []
    for action in game.actions:
        if action.type == PLAY:
            entry = {"type": PLAY_TYPE, "target": action.card}
            if action.firework is not None:
                entry["value"] = variant.suit_index(action.firework)
            actions.append(entry)
        elif action.type == DISCARD:
            actions.append({"type": DISCARD_TYPE, "target": action.card})
        elif action.type == CLUE and action.color is not None:
            value = variant.clue_colors.index(action.color)
            actions.append({"type": COLOR_CLUE, "target": action.target, "value": value})
        elif action.type == CLUE:
            actions.append({"type": RANK_CLUE, "target": action.target, "value": action.rank})
        else:
            value = END_CONDITIONS[action.reason or TERMINATED]
            # hanab.live always names a seat: the table's own ends (a vote, idle) name seat 0
            seat = 0 if action.seat is None else action.seat
            actions.append({"type": GAME_OVER, "target": seat, "value": value})
    options: dict[str, Any] = {"variant": variant.hanablive_name or variant.id}
    if game.setup.options.empty_clues:
        options["emptyClues"] = True
    if game.setup.options.strikeout_keeps_score:
        options["strikeoutKeepsScore"] = True
    return {
        "players": list(game.setup.players),
        "deck": [{"suitIndex": variant.suit_of[c], "rank": variant.rank_of[c]} for c in game.deck],
        "actions": actions,
        "options": options,
        "seed": game.setup.seed,
    }


def find_variant(name: str) -> Variant:
    """Our variant for a hanab.live variant name (or one of our ids or names)."""
    for variant in VARIANTS.values():
        if name in (variant.hanablive_name, variant.id, variant.name):
            return variant
    known = ", ".join(sorted(v.hanablive_name for v in VARIANTS.values() if v.hanablive_name))
    raise ImportFormatError(
        "unsupported_variant", f"Variant {name!r} is not one we play (we have: {known})."
    )


def import_setup(data: Any) -> tuple[Setup, list[Action]]:
    """The setup and action log of a hanab.live JSON document (not yet replayed)."""
    if not isinstance(data, dict):
        raise ImportFormatError("invalid_import", "A hanab.live game is a JSON object.")
    players = data.get("players")
    deck = data.get("deck")
    actions = data.get("actions", [])
    options = data.get("options") or {}
    if not isinstance(options, dict):
        raise ImportFormatError("invalid_import", "'options' must be an object.")
    if not (isinstance(players, list) and all(isinstance(p, str) for p in players)):
        raise ImportFormatError("invalid_import", "'players' must be a list of names.")
    if not isinstance(deck, list) or not isinstance(actions, list):
        raise ImportFormatError("invalid_import", "'deck' and 'actions' must be lists.")
    if options.get("startingPlayer", 0) != 0:
        raise ImportFormatError(
            "invalid_import", "Only games where the first player starts can be imported."
        )
    variant = find_variant(str(options.get("variant", "No Variant")))
    cards = []
    for i, card in enumerate(deck):
        try:
            suit, rank = card["suitIndex"], card["rank"]
            if not (isinstance(suit, int) and 0 <= suit < len(variant.suits)):
                raise ValueError
            cards.append((variant.suits[suit].id, rank))
        except (KeyError, TypeError, ValueError):
            raise ImportFormatError(
                "invalid_import", f"Deck card {i} is not a {{suitIndex, rank}} of {variant.name}."
            ) from None
    setup = Setup(
        variant.id,
        tuple(players),
        Options(
            empty_clues=bool(options.get("emptyClues", False)),
            strikeout_keeps_score=bool(options.get("strikeoutKeepsScore", False)),
        ),
        str(data.get("seed", "hanablive")),
        tuple(cards),
    )
    return setup, [_action(variant, i, a) for i, a in enumerate(actions)]


def _action(variant: Variant, index: int, entry: Any) -> Action:
    try:
        kind, target, value = entry["type"], entry["target"], entry.get("value")
    except (KeyError, TypeError, AttributeError):
        raise ImportFormatError(
            "invalid_import", f"Action {index} is not a {{type, target, value}} object."
        ) from None
    if kind == PLAY_TYPE:
        firework = None
        if value is not None and variant.wild_mask:  # our extension: the firework's suit
            if not (type(value) is int and 0 <= value < len(variant.suits)):
                raise ImportFormatError("invalid_import", f"Action {index} names no firework.")
            firework = variant.suits[value].id
        return Action(PLAY, card=target, firework=firework)
    if kind == DISCARD_TYPE:
        return Action(DISCARD, card=target)
    if kind == COLOR_CLUE:
        if not (isinstance(value, int) and 0 <= value < len(variant.clue_colors)):
            raise ImportFormatError("invalid_import", f"Action {index} names no clue colour.")
        return Action(CLUE, target=target, color=variant.clue_colors[value])
    if kind == RANK_CLUE:
        return Action(CLUE, target=target, rank=value)
    if kind == GAME_OVER:
        reason = REASONS.get(value) if type(value) is int else None
        return Action(TERMINATE, seat=target, reason=None if reason == TERMINATED else reason)
    raise ImportFormatError("invalid_import", f"Action {index} has unknown type {kind!r}.")


def import_game(data: Any) -> Game:
    """Replay a hanab.live JSON document; refuses a deck or action the rules refuse."""
    setup, actions = import_setup(data)
    try:
        game = Game(setup)
    except HanabiError as exc:
        raise ImportFormatError(exc.code, exc.message) from None
    for i, action in enumerate(actions):
        if game.is_over:
            raise ImportFormatError("invalid_import", f"Action {i} comes after the game ended.")
        try:
            game.apply(action, None if action.type == TERMINATE else game.current)
        except HanabiError as exc:
            raise ImportFormatError(
                "invalid_import", f"Action {i} is illegal: {exc.message}"
            ) from None
    return game


__all__ = ["export_game", "find_variant", "import_game", "import_setup"]
