"""hanab.live interchange: its JSON game format (version 3), both ways.

A hanab.live game is ``players``, a ``deck`` of ``{suitIndex, rank}`` top first (rank 7 is
a START card), ``actions`` of ``{type, target, value}``: 0 play (target = card order), 1
discard, 2 colour clue (target = seat, value = index in the variant's clue colours), 3 rank
clue (value = rank), 4 game over (target = seat, value = end condition), 5 ended by vote;
and ``options`` (``variant`` by its hanab.live name, and the table options
``emptyClues``, ``cardCycle``, ``deckPlays``, ``oneExtraCard``, ``oneLessCard``,
``allOrNothing``). Positions, not names, carry the meaning, so suits map by index.

hanab.live records what a play or discard *did*: playing an Orange (inverted) card
discards it and is stored as a discard. Export writes that, import turns it back into the
action the player chose.

hanab.live always ends a game once nothing more can be scored; a hanab.live import sets
``end_at_max_possible``. Three extensions make the round trip exact for what hanab.live has
no field for: ``options.endAtMaxPossible: false`` for a game that played on past that
point, ``options.strikeoutKeepsScore``, and a wild play's firework suit index in
``value``. Variants without a hanab.live name are exported under our own id.
"""

from __future__ import annotations

from typing import Any

from . import catalogue
from .actions import CLUE, DISCARD, PLAY, TERMINATE, Action
from .ending import (
    ALL_OR_NOTHING_FAILED,
    ALL_OR_NOTHING_STUCK,
    DECK_OUT,
    IDLE,
    MAX_POSSIBLE,
    PERFECT,
    STRIKEOUT,
    TERMINATED,
    TIMEOUT,
)
from .errors import HanabiError, ImportFormatError
from .game import Game
from .setup import Options, Setup
from .variants import VARIANTS, Variant

PLAY_TYPE, DISCARD_TYPE, COLOR_CLUE, RANK_CLUE, GAME_OVER, VOTED_END = range(6)
#: hanab.live's end conditions for the reasons a terminate action gives (its TIMEOUT,
#: TERMINATED and IDLE_TIMEOUT); any other value imports as terminated.
END_CONDITIONS = {TIMEOUT: 3, TERMINATED: 4, IDLE: 6}
REASONS = {value: reason for reason, value in END_CONDITIONS.items()}
#: hanab.live's end condition for each way our rules end a game (1 is its "normal").
RULE_END_CONDITIONS = {
    PERFECT: 1,
    DECK_OUT: 1,
    MAX_POSSIBLE: 1,
    STRIKEOUT: 2,
    ALL_OR_NOTHING_FAILED: 8,
    ALL_OR_NOTHING_STUCK: 9,
}
#: Our table options and hanab.live's option keys.
OPTION_KEYS = {
    "empty_clues": "emptyClues",
    "card_cycle": "cardCycle",
    "deck_plays": "deckPlays",
    "one_extra_card": "oneExtraCard",
    "one_less_card": "oneLessCard",
    "all_or_nothing": "allOrNothing",
    "strikeout_keeps_score": "strikeoutKeepsScore",  # ours: hanab.live always scores 0
}


def end_condition(game: Game) -> int | None:
    """hanab.live's end condition for a finished game (None while it is on)."""
    if game.result is None:
        return None
    reason = game.result["reason"]
    return RULE_END_CONDITIONS.get(reason) or END_CONDITIONS.get(reason, 4)


def export_game(game: Game) -> dict[str, Any]:
    """The game as a hanab.live JSON document."""
    variant = game.variant
    actions = []
    for action in game.actions:
        if action.type in (PLAY, DISCARD) and _inverted(game, action.card):
            swapped = DISCARD_TYPE if action.type == PLAY else PLAY_TYPE
            actions.append({"type": swapped, "target": action.card})
        elif action.type == PLAY:
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
    for ours, theirs in OPTION_KEYS.items():
        if getattr(game.setup.options, ours):
            options[theirs] = True
    if not game.setup.options.end_at_max_possible:
        options["endAtMaxPossible"] = False
    return {
        "players": list(game.setup.players),
        "deck": [{"suitIndex": variant.suit_of[c], "rank": variant.rank_of[c]} for c in game.deck],
        "actions": actions,
        "options": options,
        "seed": game.setup.seed,
    }


def _inverted(game: Game, order: Any) -> bool:
    return (
        type(order) is int
        and 0 <= order < len(game.deck)
        and bool(game.variant.inverted_mask >> game.deck[order] & 1)
    )


def find_variant(name: str, catalogue_names: bool = False) -> Variant:
    """Our variant for a hanab.live variant name or numeric id (or one of our ids or
    names). The five hanab.live variants this service had before the catalogue keep their
    old form (suits red to white, see :data:`hanabi.game.VARIANTS`) so that their imports
    replay as before, unless ``catalogue_names`` asks for hanab.live's own form."""
    if not catalogue_names or name in VARIANTS:
        for variant in VARIANTS.values():
            if name in (variant.hanablive_name, variant.id, variant.name):
                return variant
    found = catalogue.lookup(name)
    if found is None:
        raise ImportFormatError(
            "unsupported_variant",
            "Variant {name} is not one we play: hanab.live's variant names "
            "(such as 'Rainbow (6 Suits)') and {ours} are.",
            name=repr(name),
            ours=", ".join(sorted(VARIANTS)),
        )
    return found


def import_setup(data: Any, catalogue_names: bool = False) -> tuple[Setup, list[Action]]:
    """The setup and action log of a hanab.live JSON document (not yet replayed);
    ``catalogue_names`` as in :func:`find_variant`."""
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
    variant = find_variant(str(options.get("variant", "No Variant")), catalogue_names)
    cards = []
    for i, card in enumerate(deck):
        try:
            suit, rank = card["suitIndex"], card["rank"]
            if not (isinstance(suit, int) and 0 <= suit < len(variant.suits)):
                raise ValueError
            cards.append((variant.suits[suit].id, rank))
        except (KeyError, TypeError, ValueError):
            raise ImportFormatError(
                "invalid_import",
                "Deck card {index} is not a {{suitIndex, rank}} of {variant}.",
                index=i,
                variant=variant.name,
            ) from None
    flags = {ours: bool(options.get(theirs, False)) for ours, theirs in OPTION_KEYS.items()}
    flags["end_at_max_possible"] = bool(options.get("endAtMaxPossible", True))
    setup = Setup(
        variant.id,
        tuple(players),
        Options(**flags),
        str(data.get("seed", "hanablive")),
        tuple(cards),
    )
    deck_ids = []
    for suit, rank in cards:
        try:
            deck_ids.append(variant.card_of(suit, rank))
        except (KeyError, ValueError, TypeError):
            deck_ids.append(None)  # Game() refuses the deck with the card's position
    return setup, [_action(variant, deck_ids, i, a) for i, a in enumerate(actions)]


def _action(variant: Variant, deck: list[int | None], index: int, entry: Any) -> Action:
    try:
        kind, target, value = entry["type"], entry["target"], entry.get("value")
    except (KeyError, TypeError, AttributeError):
        raise ImportFormatError(
            "invalid_import", "Action {index} is not a {{type, target, value}} object.", index=index
        ) from None
    if kind in (PLAY_TYPE, DISCARD_TYPE) and type(target) is int and 0 <= target < len(deck):
        card = deck[target]
        if card is not None and variant.inverted_mask >> card & 1:
            # hanab.live stored what happened: the player chose the opposite
            return Action(DISCARD if kind == PLAY_TYPE else PLAY, card=target)
    if kind == PLAY_TYPE:
        firework = None
        if value is not None and variant.wild_mask:  # our extension: the firework's suit
            if not (type(value) is int and 0 <= value < len(variant.suits)):
                raise ImportFormatError(
                    "invalid_import", "Action {index} names no firework.", index=index
                )
            firework = variant.suits[value].id
        return Action(PLAY, card=target, firework=firework)
    if kind == DISCARD_TYPE:
        return Action(DISCARD, card=target)
    if kind == COLOR_CLUE:
        if not (isinstance(value, int) and 0 <= value < len(variant.clue_colors)):
            raise ImportFormatError(
                "invalid_import", "Action {index} names no clue colour.", index=index
            )
        return Action(CLUE, target=target, color=variant.clue_colors[value])
    if kind == RANK_CLUE:
        return Action(CLUE, target=target, rank=value)
    if kind == VOTED_END:
        return Action(TERMINATE)
    if kind == GAME_OVER:
        reason = REASONS.get(value) if type(value) is int else None
        return Action(TERMINATE, seat=target, reason=None if reason == TERMINATED else reason)
    raise ImportFormatError(
        "invalid_import", "Action {index} has unknown type {kind}.", index=index, kind=repr(kind)
    )


def import_game(data: Any, catalogue_names: bool = False) -> Game:
    """Replay a hanab.live JSON document; refuses a deck or action the rules refuse."""
    setup, actions = import_setup(data, catalogue_names)
    try:
        game = Game(setup)
    except HanabiError as exc:
        raise ImportFormatError(exc.code, exc.template, **exc.params) from None
    for i, action in enumerate(actions):
        if game.is_over:
            raise ImportFormatError(
                "invalid_import", "Action {index} comes after the game ended.", index=i
            )
        try:
            game.apply(action, None if action.type == TERMINATE else game.current)
        except HanabiError as exc:
            raise ImportFormatError(
                "invalid_import", "Action {index} is illegal: {reason}", index=i, reason=exc
            ) from None
    return game


__all__ = ["end_condition", "export_game", "find_variant", "import_game", "import_setup"]
