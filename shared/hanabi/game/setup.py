"""Setting a game up: table sizes, the options, the setup record and the deck.

A :class:`Setup` (variant, players, options, seed or explicit deck) plus the action log
is the whole game. Everything here is deterministic and does no I/O.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, fields
from typing import Any

from .errors import Listing, Phrase, SetupError, SuitName
from .variants import Variant

MIN_PLAYERS = 2
MAX_PLAYERS = 6
MAX_CLUE_TOKENS = 8
MAX_STRIKES = 3
HAND_SIZES = {2: 5, 3: 5, 4: 4, 5: 4, 6: 3}

# The options every view and stored setup has always listed; the others appear only when on,
# so that a game that uses none of them reads exactly as before they existed.
LEGACY_OPTIONS = ("empty_clues", "strikeout_keeps_score")


@dataclass(frozen=True)
class Options:
    """Game options where the rule books disagree (see docs/rules.md, "Options"), and
    hanab.live's table options that change the rules (see docs/variants.md).

    ``one_extra_card``/``one_less_card`` change the hand size by one; ``deck_plays`` lets
    the player holding the turn play the last card of the deck blind; ``all_or_nothing``
    plays on after the deck runs out and scores 0 unless perfect; ``card_cycle`` moves a
    clue giver's oldest unclued card to their newest slot; ``end_at_max_possible`` ends the
    game once the score reaches the highest still possible, or no firework can grow, as
    hanab.live always does.
    """

    empty_clues: bool = False
    strikeout_keeps_score: bool = False
    one_extra_card: bool = False
    one_less_card: bool = False
    deck_plays: bool = False
    all_or_nothing: bool = False
    card_cycle: bool = False
    end_at_max_possible: bool = False

    def to_dict(self) -> dict[str, bool]:
        out = {name: getattr(self, name) for name in LEGACY_OPTIONS}
        for f in fields(self):
            if f.name not in LEGACY_OPTIONS and getattr(self, f.name):
                out[f.name] = True
        return out


def hand_size(num_players: int, options: Options) -> int:
    """Cards per hand: by table size, one more or one less as the options say."""
    return HAND_SIZES[num_players] + options.one_extra_card - options.one_less_card


@dataclass(frozen=True)
class Setup:
    """Everything needed to deal a game: with the action log, the whole game.

    ``variant`` is one of this service's ids or a hanab.live variant name. ``deck`` is an
    explicit deal as (suit id, rank) pairs, top card first; without it the deck is the
    variant's cards shuffled by ``seed``.
    """

    variant: str = "no_variant"
    players: tuple[str, ...] = ("Player 1", "Player 2")
    options: Options = field(default_factory=Options)
    seed: str = "0"
    deck: tuple[tuple[str, int], ...] | None = None

    @classmethod
    def create(
        cls,
        variant: str = "no_variant",
        players: int | Sequence[str] = 2,
        options: Options | dict[str, bool] | None = None,
        seed: str | int = "0",
        deck: Iterable[Any] | None = None,
    ) -> Setup:
        """Build a setup from loose input: a player count or names, an options dict, and a
        deck of (suit, rank) pairs or {"suit", "rank"} dicts."""
        if isinstance(players, int):
            players = _NAMES[players] if 0 <= players < len(_NAMES) else _names(players)
        if isinstance(options, dict):
            unknown = set(options) - set(Options.__dataclass_fields__)
            if unknown:
                names = ", ".join(sorted(unknown))
                if len(unknown) == 1:
                    raise SetupError("unknown_option", "Unknown game option: {names}.", names=names)
                raise SetupError("unknown_option", "Unknown game options: {names}.", names=names)
            options = Options(**{k: bool(v) for k, v in options.items()})
        if deck is not None:
            deck = tuple(_card_pair(c) for c in deck)
        return cls(variant, tuple(players), options or DEFAULT_OPTIONS, str(seed), deck)

    def to_dict(self) -> dict[str, Any]:
        return {
            "variant": self.variant,
            "players": list(self.players),
            "options": self.options.to_dict(),
            "seed": self.seed,
            "deck": None if self.deck is None else [list(c) for c in self.deck],
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Setup:
        return cls.create(
            data["variant"], data["players"], data.get("options"), data["seed"], data.get("deck")
        )


def _names(count: int) -> tuple[str, ...]:
    """The default player names of a table of ``count``."""
    return tuple(f"Player {i + 1}" for i in range(count))


_NAMES = tuple(_names(n) for n in range(MAX_PLAYERS + 1))
#: Options are immutable: every setup without options shares this one.
DEFAULT_OPTIONS = Options()


def _card_pair(card: Any) -> tuple[Any, Any]:
    """(suit, rank) of a loosely written card; a malformed one is kept for the deck check
    to refuse with its position, rather than failing here with a bare KeyError."""
    if isinstance(card, dict):
        return card.get("suit"), card.get("rank")
    if isinstance(card, (list, tuple)) and len(card) == 2:
        return card[0], card[1]
    return card, None


def shuffled_deck(variant: Variant, seed: str) -> list[int]:
    """The variant's cards in the order that ``seed`` deals them (top first)."""
    cards = variant.deck()
    random.Random(f"{variant.id}:{seed}").shuffle(cards)
    return cards


def explicit_deck(variant: Variant, deck: Iterable[tuple[str, int]]) -> list[int]:
    """Card ids of an explicit deck; refuses a deck that is not exactly the variant's cards."""
    cards = []
    names = {s.id: SuitName(s.display_name or s.name) for s in variant.suits}
    for position, (suit, rank) in enumerate(deck):
        try:
            cards.append(variant.card_of(suit, rank))
        except (KeyError, ValueError, TypeError):
            raise SetupError(
                "invalid_deck",
                "Card {position} of the deck ({suit} {rank}) is not a card of {variant}.",
                position=position,
                suit=names.get(suit, suit) if isinstance(suit, str) else suit,
                rank=rank,
                variant=variant.name,
            ) from None
    counts = [0] * len(variant.copies)
    for c in cards:
        counts[c] += 1
    problems = []
    for c, (have, want) in enumerate(zip(counts, variant.copies, strict=True)):
        if have != want:
            suit, rank = variant.card(c)
            card = Phrase("{suit} {rank}", suit=names[suit], rank=rank)
            problems.append(
                Phrase("{have} × {card} instead of {want}", have=have, card=card, want=want)
            )
    if problems:
        values = {"count": variant.card_count, "variant": variant.name}
        shown, more = Listing(problems[:5]), len(problems) - 5
        if more > 1:
            raise SetupError(
                "invalid_deck",
                "The deck is not the {count} cards of {variant}: it has {problems} and "
                "{more} more differences.",
                problems=shown,
                more=more,
                **values,
            )
        if more == 1:
            raise SetupError(
                "invalid_deck",
                "The deck is not the {count} cards of {variant}: it has {problems} and "
                "1 more difference.",
                problems=shown,
                **values,
            )
        raise SetupError(
            "invalid_deck",
            "The deck is not the {count} cards of {variant}: it has {problems}.",
            problems=shown,
            **values,
        )
    return cards
