"""The rules: game setup, applying actions, and the events they produce.

A :class:`Game` is its :class:`Setup` plus the actions applied to it. Applying an action
costs O(hand size + clue colours), never a replay; :func:`replay` rebuilds any earlier
state from the log. Everything here is deterministic and does no I/O.
"""

from __future__ import annotations

import functools
import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from .actions import CLUE, DISCARD, PLAY, TERMINATE, Action
from .errors import IllegalAction, SetupError
from .variants import RANKS, Variant, get_variant

MIN_PLAYERS = 2
MAX_PLAYERS = 6
MAX_CLUE_TOKENS = 8
MAX_STRIKES = 3
HAND_SIZES = {2: 5, 3: 5, 4: 4, 5: 4, 6: 3}

PERFECT = "perfect"
DECK_OUT = "deck_out"
STRIKEOUT = "strikeout"
TERMINATED = "terminated"
TIMEOUT = "timeout"  # a seat's clock ran out (the server keeps the clocks)
IDLE = "idle"  # nobody moved for too long (the server decides how long)
END_REASONS = (TERMINATED, TIMEOUT, IDLE)  # the reasons a terminate action may give

# The kinds of event that apply() and deal_events() produce; logs may hold others (chat,
# lobby) that are not part of the game's state.
EVENT_TYPES = frozenset(
    ("clue", "play", "misplay", "strike", "discard", "clue_token", "draw", "final_round",
     "terminate", "game_over")
)  # fmt: skip


@dataclass(frozen=True)
class Options:
    """Game options where the rule books disagree (see docs/rules.md, "Options")."""

    empty_clues: bool = False
    strikeout_keeps_score: bool = False

    def to_dict(self) -> dict[str, bool]:
        return {
            "empty_clues": self.empty_clues,
            "strikeout_keeps_score": self.strikeout_keeps_score,
        }


@dataclass(frozen=True)
class Setup:
    """Everything needed to deal a game: with the action log, the whole game.

    ``deck`` is an explicit deal as (suit id, rank) pairs, top card first; without it the
    deck is the variant's cards shuffled by ``seed``.
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
            players = tuple(f"Player {i + 1}" for i in range(players))
        if isinstance(options, dict):
            unknown = set(options) - set(Options.__dataclass_fields__)
            if unknown:
                names = ", ".join(sorted(unknown))
                label = "option" if len(unknown) == 1 else "options"
                raise SetupError("unknown_option", f"Unknown game {label}: {names}.")
            options = Options(**{k: bool(v) for k, v in options.items()})
        if deck is not None:
            deck = tuple(_card_pair(c) for c in deck)
        return cls(variant, tuple(players), options or Options(), str(seed), deck)

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
    for position, (suit, rank) in enumerate(deck):
        try:
            cards.append(variant.card_of(suit, rank))
        except (KeyError, ValueError, TypeError):
            raise SetupError(
                "invalid_deck",
                f"Card {position} of the deck ({suit} {rank}) is not a card of {variant.name}.",
            ) from None
    counts = [0] * len(variant.copies)
    for c in cards:
        counts[c] += 1
    problems = []
    for c, (have, want) in enumerate(zip(counts, variant.copies, strict=True)):
        if have != want:
            suit, rank = variant.card(c)
            problems.append(f"{have} × {suit} {rank} instead of {want}")
    if problems:
        raise SetupError(
            "invalid_deck",
            f"The deck is not the {variant.card_count} cards of {variant.name}: it has "
            + ", ".join(problems[:5])
            + (f" and {_more(len(problems) - 5)}." if len(problems) > 5 else "."),
        )
    return cards


def _more(count: int) -> str:
    """The tail of a list cut short, in words: "1 more difference", "3 more differences"."""
    return f"{count} more difference{'' if count == 1 else 's'}"


class Game:
    """A game in progress (or over): the full, hidden-information state.

    Cards are named by ``order`` (their position in the deck); their identities are card
    ids (see :class:`~hanabi.game.variants.Variant`). Hands list orders newest first.
    Per-seat redaction is the job of :mod:`hanabi.game.views`.
    """

    __slots__ = (
        "actions",
        "card_clues",
        "clue_tokens",
        "clues",
        "current",
        "deck",
        "discarded",
        "discards",
        "fireworks",
        "hand_size",
        "hands",
        "misplays",
        "next_draw",
        "num_players",
        "result",
        "score",
        "setup",
        "stacks",
        "strikes",
        "told",
        "turns_left",
        "variant",
    )

    def __init__(self, setup: Setup) -> None:
        try:
            variant = get_variant(setup.variant)
        except KeyError:
            raise SetupError("unknown_variant", f"There is no variant {setup.variant!r}.") from None
        n = len(setup.players)
        if not MIN_PLAYERS <= n <= MAX_PLAYERS:
            raise SetupError(
                "invalid_player_count",
                f"A game needs {MIN_PLAYERS} to {MAX_PLAYERS} players, not {n}.",
            )
        self.setup = setup
        self.variant = variant
        self.num_players = n
        self.hand_size = HAND_SIZES[n]
        if setup.deck is None:
            self.deck = shuffled_deck(variant, setup.seed)
        else:
            self.deck = explicit_deck(variant, setup.deck)
        self.told = [variant.all_cards_mask & _present_mask(variant)] * len(self.deck)
        self.card_clues: dict[int, list[dict[str, Any]]] = {}
        self.hands: list[list[int]] = [[] for _ in range(n)]
        self.next_draw = 0
        for seat in range(n):
            for _ in range(self.hand_size):
                self.hands[seat].insert(0, self.next_draw)
                self.next_draw += 1
        self.fireworks = [0] * len(variant.suits)
        self.stacks: list[list[int]] = [[] for _ in variant.suits]
        self.score = 0
        self.clue_tokens = MAX_CLUE_TOKENS
        self.strikes = 0
        self.current = 0
        self.discards: list[int] = []
        self.misplays: set[int] = set()
        self.discarded = [0] * len(variant.copies)
        self.clues: list[dict[str, Any]] = []
        self.turns_left: int | None = None
        self.result: dict[str, Any] | None = None
        self.actions: list[Action] = []

    # -- snapshots ----------------------------------------------------------------------

    _SNAPSHOT_FIELDS = (
        "deck", "next_draw", "hands", "told", "fireworks", "stacks", "score", "clue_tokens",
        "strikes", "current", "discards", "discarded", "clues", "turns_left", "result",
    )  # fmt: skip

    def snapshot(self) -> dict[str, Any]:
        """The state as a JSON-ready dict, so a store can load a game without a replay.

        With the setup and the action log it restores the game exactly; the log stays the
        truth (see :func:`replay`).
        """
        snap = {}
        for name in self._SNAPSHOT_FIELDS:  # copies: the game goes on, the snapshot must not
            value = getattr(self, name)
            if isinstance(value, list):
                value = [list(v) if isinstance(v, list) else v for v in value]
            snap[name] = value
        snap["clues"] = [{**c, "touched": list(c["touched"])} for c in self.clues]
        snap["result"] = None if self.result is None else dict(self.result)
        snap["misplays"] = sorted(self.misplays)
        snap["card_clues"] = {str(k): [dict(c) for c in v] for k, v in self.card_clues.items()}
        return snap

    @classmethod
    def from_snapshot(cls, setup: Setup, actions: Sequence[Action], snap: dict[str, Any]) -> Game:
        """Restore a game from :meth:`snapshot` output taken after ``actions``."""
        game = cls.__new__(cls)
        game.setup = setup
        game.variant = get_variant(setup.variant)
        game.num_players = len(setup.players)
        game.hand_size = HAND_SIZES[game.num_players]
        for name in cls._SNAPSHOT_FIELDS:
            value = snap[name]
            if isinstance(value, list):
                value = [list(v) if isinstance(v, list) else v for v in value]
            setattr(game, name, value)
        if game.result is not None:
            game.result = dict(game.result)
        game.clues = [{**c, "touched": list(c["touched"])} for c in snap["clues"]]
        game.misplays = set(snap["misplays"])
        game.card_clues = {}
        for key, clues in snap["card_clues"].items():
            game.card_clues[int(key)] = [dict(c) for c in clues]
        game.actions = list(actions)
        return game

    # -- reading the state -------------------------------------------------------------

    @property
    def turn(self) -> int:
        """Number of actions taken so far (0 before the first move)."""
        return len(self.actions)

    @property
    def deck_size(self) -> int:
        return len(self.deck) - self.next_draw

    @property
    def is_over(self) -> bool:
        return self.result is not None

    def card(self, order: int) -> int:
        """The identity (card id) of a card: hidden information, for the engine's callers
        that are allowed to know it (views, bots' simulations of other hands, exports)."""
        return self.deck[order]

    def max_score_possible(self) -> int:
        """The best score the cards allow, given those gone for good (discarded or
        misplayed): what the fireworks can still reach.

        A finished game keeps the figure it ended with, not its final score: a game ended
        by vote scores 0, yet showing "4 of 0" would say its fireworks exceed their maximum.
        """
        variant = self.variant
        left = [c - d for c, d in zip(variant.copies, self.discarded, strict=True)]
        if not variant.wild_mask:
            total = 0
            for f in variant.firework_suits:
                height = self.fireworks[f]
                while height < 5 and left[f * 5 + height]:
                    height += 1
                total += height
            return total
        return _max_score_with_wilds(variant, self.fireworks, left, self.stacks, self.deck)

    def pace(self, max_score: int | None = None) -> int:
        """Discards the team can still afford before the max score becomes unreachable
        (score + cards in deck + players - max score, as hanab.live computes it).

        ``max_score`` saves recomputing :meth:`max_score_possible` when the caller has it.
        """
        if max_score is None:
            max_score = self.max_score_possible()
        return self.score + self.deck_size + self.num_players - max_score

    def final_score(self) -> int:
        return self.result["score"] if self.result is not None else self.score

    def wild_choices(self, order: int) -> list[int]:
        """Fireworks a card could go to if it is wild, from what its holder was told.

        Public information only: it says when a play must name its firework without
        telling the holder anything about the card.
        """
        return self.variant.wild_fireworks(self.told[order], self.fireworks)

    def legal_actions(self) -> list[Action]:
        """Every action the seat to move may take (empty once the game is over)."""
        if self.result is not None:
            return []
        seat = self.current
        hand = self.hands[seat]
        variant = self.variant
        if variant.wild_mask:
            out: list[Action] = []
            for order in hand:
                choices = self.wild_choices(order)
                if len(choices) > 1:
                    out += [Action(PLAY, card=order, firework=variant.suits[f].id) for f in choices]
                else:
                    out.append(_PLAYS[order])
        else:
            out = [_PLAYS[order] for order in hand]
        if self.clue_tokens < MAX_CLUE_TOKENS:
            out += [_DISCARDS[order] for order in hand]
        if self.clue_tokens > 0:
            empty_ok = self.setup.options.empty_clues
            deck = self.deck
            clues = _clue_actions(variant, self.num_players)
            for offset in range(1, self.num_players):
                target = (seat + offset) % self.num_players
                present = 0
                for order in self.hands[target]:
                    present |= 1 << deck[order]
                for mask, action in clues[target]:
                    if empty_ok or present & mask:
                        out.append(action)
        return out

    # -- changing the state ------------------------------------------------------------

    def apply(self, action: Action, seat: int | None = None) -> list[dict[str, Any]]:
        """Apply one action for ``seat`` (default: the seat to move) and return its events.

        Raises :class:`IllegalAction` and changes nothing if the rules refuse it.
        """
        if self.result is not None:
            raise IllegalAction("game_over", "The game is over.")
        kind = action.type
        if kind == TERMINATE:
            return self._terminate(action)
        actor = self.current if seat is None else seat
        if actor != self.current:
            raise IllegalAction("not_your_turn", "It is not your turn.")
        turn = len(self.actions)
        if kind == CLUE:
            events = self._clue(action, actor, turn)
        elif kind in (PLAY, DISCARD):
            events = self._play_or_discard(action, actor, turn)
        else:
            raise IllegalAction("unknown_action", f"Unknown action type {kind!r}.")
        self.actions.append(action)
        self._end_turn(events, turn)
        return events

    def _clue(self, action: Action, actor: int, turn: int) -> list[dict[str, Any]]:
        if self.clue_tokens == 0:
            raise IllegalAction("no_clue_tokens", "There are no clue tokens left to give a clue.")
        target = action.target
        if type(target) is not int or not 0 <= target < self.num_players:
            raise IllegalAction("unknown_seat", f"There is no seat {target!r} at this table.")
        if target == actor:
            raise IllegalAction("clue_to_self", "You cannot give a clue to yourself.")
        variant = self.variant
        color, rank = action.color, action.rank
        if (color is None) == (rank is None):
            raise IllegalAction("invalid_clue", "A clue names exactly one colour or one rank.")
        if color is not None:
            # type checks first: JSON input may bring a list (unhashable) or True (== 1).
            mask = variant.color_masks.get(color) if type(color) is str else None
            if mask is None:
                raise IllegalAction(
                    "unknown_color",
                    f"{color!r} is not a clue colour of {variant.name} "
                    f"(colours: {', '.join(variant.clue_colors)}).",
                )
        else:
            mask = variant.rank_masks.get(rank) if type(rank) is int else None
            if mask is None:
                raise IllegalAction("unknown_rank", f"{rank!r} is not a clue rank (1 to 5).")
        deck = self.deck
        hand = self.hands[target]
        touched = [order for order in hand if mask >> deck[order] & 1]
        if not touched and not self.setup.options.empty_clues:
            raise IllegalAction(
                "empty_clue", "That clue would touch no card, and empty clues are off."
            )
        told = self.told
        keep = ~mask
        clue = {"turn": turn, "color": color, "rank": rank}
        for order in hand:
            if mask >> deck[order] & 1:
                told[order] &= mask
                self.card_clues.setdefault(order, []).append(clue)
            else:
                told[order] &= keep
        self.clue_tokens -= 1
        event = {
            "type": "clue",
            "turn": turn,
            "seat": actor,
            "target": target,
            "color": color,
            "rank": rank,
            "touched": touched,
        }
        self.clues.append({**event, "touched": list(touched)})  # callers may change theirs
        return [event]

    def _play_or_discard(self, action: Action, actor: int, turn: int) -> list[dict[str, Any]]:
        order = action.card
        hand = self.hands[actor]
        if type(order) is not int or order not in hand:  # True and 1.0 are not card 1
            raise IllegalAction("card_not_in_hand", f"Card {order!r} is not in your hand.")
        variant = self.variant
        card = self.deck[order]
        suit_index, rank = divmod(card, 5)
        rank += 1
        suit_id = variant.suits[suit_index].id
        events: list[dict[str, Any]]
        if action.type == DISCARD:
            if self.clue_tokens == MAX_CLUE_TOKENS:
                raise IllegalAction(
                    "clue_tokens_full", "You cannot discard while all 8 clue tokens are available."
                )
            hand.remove(order)
            self.clue_tokens += 1
            self.discards.append(order)
            self.discarded[card] += 1
            events = [
                {
                    "type": "discard",
                    "turn": turn,
                    "seat": actor,
                    "card": order,
                    "suit": suit_id,
                    "rank": rank,
                    "clue_tokens": self.clue_tokens,
                }
            ]
        else:
            firework = self._firework_for(action, order, card)
            hand.remove(order)
            if firework is not None and self.fireworks[firework] == rank - 1:
                self.fireworks[firework] = rank
                self.stacks[firework].append(order)
                self.score += 1
                events = [
                    {
                        "type": "play",
                        "turn": turn,
                        "seat": actor,
                        "card": order,
                        "suit": suit_id,
                        "rank": rank,
                        "firework": variant.suits[firework].id,
                    }
                ]
                if rank == 5 and self.clue_tokens < MAX_CLUE_TOKENS:
                    self.clue_tokens += 1
                    events.append(
                        {"type": "clue_token", "turn": turn, "clue_tokens": self.clue_tokens}
                    )
            else:
                self.strikes += 1
                self.discards.append(order)
                self.misplays.add(order)
                self.discarded[card] += 1
                events = [
                    {
                        "type": "misplay",
                        "turn": turn,
                        "seat": actor,
                        "card": order,
                        "suit": suit_id,
                        "rank": rank,
                    },
                    {"type": "strike", "turn": turn, "strikes": self.strikes},
                ]
        if self.next_draw < len(self.deck):
            drawn = self.next_draw
            self.next_draw += 1
            hand.insert(0, drawn)
            events.append(self._draw_event(turn, actor, drawn))
        return events

    def _firework_for(self, action: Action, order: int, card: int) -> int | None:
        """The firework a played card goes to (None: no firework can take it)."""
        variant = self.variant
        named = None
        if action.firework is not None:
            try:
                named = variant.suit_index(action.firework)
            except KeyError:
                named = None
            if named is None or named not in variant.firework_suits:
                raise IllegalAction(
                    "unknown_firework", f"There is no firework {action.firework!r} in this game."
                )
        # Decided from what the holder was told, before looking at the card: refusing only
        # real wild cards would tell the player which of their cards are wild.
        if named is None and len(self.wild_choices(order)) > 1:
            raise IllegalAction(
                "firework_required",
                "This card may be wild and more than one firework could take it: "
                "name the firework to play it on.",
            )
        suit_index = card // 5
        if not variant.suits[suit_index].wild:
            return suit_index
        rank = card % 5 + 1
        takers = [f for f in variant.firework_suits if self.fireworks[f] == rank - 1]
        if len(takers) == 1:
            return takers[0]
        if named in takers:
            return named
        return None

    def _draw_event(self, turn: int, seat: int, order: int) -> dict[str, Any]:
        suit, rank = self.variant.card(self.deck[order])
        return {
            "type": "draw",
            "turn": turn,
            "seat": seat,
            "card": order,
            "suit": suit,
            "rank": rank,
        }

    def _end_turn(self, events: list[dict[str, Any]], turn: int) -> None:
        if self.strikes >= MAX_STRIKES:
            score = self.score if self.setup.options.strikeout_keeps_score else 0
            self._finish(events, turn, STRIKEOUT, score)
        elif self.score == self.variant.max_score:
            self._finish(events, turn, PERFECT, self.score)
        elif self.turns_left is not None:
            self.turns_left -= 1
            if self.turns_left == 0:
                self._finish(events, turn, DECK_OUT, self.score)
        elif self.next_draw == len(self.deck) and events[-1]["type"] == "draw":
            self.turns_left = self.num_players
            events.append({"type": "final_round", "turn": turn, "turns_left": self.turns_left})
        self.current = (self.current + 1) % self.num_players

    def _terminate(self, action: Action) -> list[dict[str, Any]]:
        """End the game with score 0: by a seat, or by the table (seat None) for a reason
        decided outside the rules (a vote, a clock run out, an idle game)."""
        seat, reason = action.seat, action.reason or TERMINATED
        if seat is not None and (type(seat) is not int or not 0 <= seat < self.num_players):
            raise IllegalAction("unknown_seat", f"There is no seat {seat!r} at this table.")
        if reason not in END_REASONS:
            raise IllegalAction("unknown_reason", f"A game cannot end for {reason!r}.")
        turn = len(self.actions)
        self.actions.append(action)
        event: dict[str, Any] = {"type": "terminate", "turn": turn}
        if seat is not None:
            event["seat"] = seat
        if reason != TERMINATED:
            event["reason"] = reason
        events = [event]
        self._finish(events, turn, reason, 0)
        return events

    def _finish(self, events: list[dict[str, Any]], turn: int, reason: str, score: int) -> None:
        self.result = {"reason": reason, "score": score}
        events.append({"type": "game_over", "turn": turn, "reason": reason, "score": score})

    def deal_events(self) -> list[dict[str, Any]]:
        """The draws of the opening deal, as events of turn 0 (for event logs)."""
        return [
            self._draw_event(0, seat, order)
            for seat, hand in enumerate(self.hands)
            for order in range(seat * self.hand_size, (seat + 1) * self.hand_size)
        ]


_PLAYS = [Action(PLAY, card=order) for order in range(256)]
_DISCARDS = [Action(DISCARD, card=order) for order in range(256)]


@functools.cache
def _clue_actions(variant: Variant, num_players: int) -> list[list[tuple[int, Action]]]:
    """Per target seat, every clue (colours, then ranks) with the mask of cards it touches.

    Shared by all games of a variant and table size: legal_actions() only filters them.
    """
    return [
        [(m, Action(CLUE, target=t, color=c)) for c, m in variant.color_masks.items()]
        + [(m, Action(CLUE, target=t, rank=r)) for r, m in variant.rank_masks.items()]
        for t in range(num_players)
    ]


def _present_mask(variant: Variant) -> int:
    return sum(1 << c for c, n in enumerate(variant.copies) if n)


def _max_score_with_wilds(
    variant: Variant,
    fireworks: list[int],
    left: list[int],
    stacks: list[list[int]],
    deck: list[int],
) -> int:
    """Exact best reachable score when wild cards can stand in for any suit.

    Goes rank by rank over the set of fireworks still growing: a firework continues on its
    own card if one is left, otherwise it needs one of the wild cards of that rank. A
    dynamic programme over (rank, growing set) finds the best assignment exactly.
    """
    wild_left = [0] * 6
    for c, n in enumerate(left):
        if n and variant.suits[c // 5].wild:
            wild_left[c % 5 + 1] += n
    fws = variant.firework_suits
    # A wild card already on a firework is no longer available (left counts it still).
    for f in fws:
        for order in stacks[f]:
            c = deck[order]
            if variant.suits[c // 5].wild:
                wild_left[c % 5 + 1] -= 1
    # A copy of a suit's own card stranded under its firework's height still counts in
    # ``left``, but it can only be used at its own rank, which is already done.
    best = sum(fireworks[f] for f in fws)
    states: dict[int, int] = {0: best}  # bitmask of growing fireworks -> score so far
    for rank in RANKS:
        starting = 0
        for i, f in enumerate(fws):
            if fireworks[f] == rank - 1:
                starting |= 1 << i
        nxt: dict[int, int] = {}
        for growing, score in states.items():
            candidates = growing | starting
            own = [i for i, f in enumerate(fws) if candidates >> i & 1 and left[f * 5 + rank - 1]]
            needy = [i for i, f in enumerate(fws) if candidates >> i & 1 and i not in own]
            base = sum(1 << i for i in own)
            for pick in _subsets(needy, wild_left[rank]):
                state = base | pick
                gained = score + bin(state).count("1")
                if nxt.get(state, -1) < gained:
                    nxt[state] = gained
        states = nxt
        best = max(best, *states.values())
    return best


def _subsets(items: list[int], limit: int) -> list[int]:
    """Bitmasks of the subsets of ``items`` with at most ``limit`` members."""
    out = [0]
    for i in items:
        out += [s | 1 << i for s in out if bin(s).count("1") < limit]
    return out


def replay(setup: Setup, actions: Iterable[Action], upto: int | None = None) -> Game:
    """The game after its first ``upto`` actions (all of them by default)."""
    game = Game(setup)
    for i, action in enumerate(actions):
        if upto is not None and i >= upto:
            break
        game.apply(action, None if action.type == TERMINATE else game.current)
    return game
