"""The game state machine: applying actions and the events they produce.

A :class:`Game` is its :class:`~hanabi.game.setup.Setup` plus the actions applied to it.
An action costs O(hand size + clue colours), never a replay; :func:`replay` rebuilds any
earlier state from the log. What a clue touches is the variant's data (:mod:`.touch`),
what a firework takes :mod:`.fireworks`, when the game ends :mod:`.ending`. Deterministic, no I/O.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from . import ending, legal, snapshots
from .actions import CLUE, DISCARD, PLAY, TERMINATE, Action
from .catalogue import get_variant
from .ending import DECK_OUT, END_REASONS, IDLE, PERFECT, STRIKEOUT, TERMINATED, TIMEOUT
from .errors import IllegalAction, SetupError, no_seat
from .fireworks import Direction, direction_after, initial_directions, next_ranks, suit_max
from .legal import COLOR, RANK
from .setup import (
    MAX_CLUE_TOKENS,
    MAX_PLAYERS,
    MIN_PLAYERS,
    Setup,
    explicit_deck,
    hand_size,
    shuffled_deck,
)
from .variants import Variant

__all__ = [
    "DECK_OUT",
    "END_REASONS",
    "EVENT_TYPES",
    "IDLE",
    "PERFECT",
    "STRIKEOUT",
    "TERMINATED",
    "TIMEOUT",
    "Game",
    "replay",
]

# The kinds of event that apply() and deal_events() produce; logs may hold others (chat,
# lobby) that are not part of the game's state.
EVENT_TYPES = frozenset(
    ("clue", "play", "misplay", "strike", "discard", "clue_token", "draw", "final_round",
     "cycle", "terminate", "game_over")
)  # fmt: skip


def resolve_variant(name: str) -> Variant:
    try:
        return get_variant(name)
    except KeyError:
        raise SetupError(
            "unknown_variant", "There is no variant {name}.", name=repr(name)
        ) from None


class Game:
    """A game in progress (or over): the full, hidden-information state.

    Cards are named by ``order`` (their position in the deck); their identities are card
    ids (see :class:`~hanabi.game.variants.Variant`). Hands list orders newest first.
    ``clue_tokens`` counts in the variant's clue units (two a token in Clue Starved).
    Per-seat redaction is the job of :mod:`hanabi.game.views`.
    """

    __slots__ = (
        "actions",
        "card_clues",
        "clue_tokens",
        "clues",
        "current",
        "deck",
        "directions",
        "discarded",
        "discards",
        "done",
        "fireworks",
        "hand_size",
        "hands",
        "last_clue_kind",
        "live",
        "max_possible",
        "misplays",
        "next_draw",
        "num_players",
        "result",
        "score",
        "setup",
        "stacks",
        "starts",
        "strikes",
        "suit_max",
        "told",
        "tops",
        "turns_left",
        "variant",
    )

    def __init__(self, setup: Setup) -> None:
        variant = resolve_variant(setup.variant)
        n = len(setup.players)
        if not MIN_PLAYERS <= n <= MAX_PLAYERS:
            raise SetupError(
                "invalid_player_count",
                "A game needs {low} to {high} players, not {n}.",
                low=MIN_PLAYERS,
                high=MAX_PLAYERS,
                n=n,
            )
        self.setup = setup
        self.variant = variant
        self.num_players = n
        self.hand_size = hand_size(n, setup.options)
        if setup.deck is None:
            self.deck = shuffled_deck(variant, setup.seed)
        else:
            self.deck = explicit_deck(variant, setup.deck)
        if self.hand_size * n > len(self.deck):
            raise SetupError(
                "invalid_deck", "{variant} has too few cards to deal.", variant=variant.name
            )
        self.told = [variant.all_cards_mask & _present_mask(variant)] * len(self.deck)
        self.card_clues: dict[int, list[dict[str, Any]]] = {}
        self.hands: list[list[int]] = [[] for _ in range(n)]
        self.next_draw = 0
        for seat in range(n):
            for _ in range(self.hand_size):
                self.hands[seat].insert(0, self.next_draw)
                self.next_draw += 1
        suits = len(variant.suits)
        self.fireworks = [0] * suits
        self.stacks: list[list[int]] = [[] for _ in variant.suits]
        self.tops = [0] * suits
        self.directions = initial_directions(variant)
        self.starts = [0] * suits
        self.score = 0
        self.max_possible = variant.max_score
        self.suit_max = [
            variant.stack_size if s in variant.firework_suits else 0 for s in range(suits)
        ]
        self.clue_tokens = MAX_CLUE_TOKENS * variant.clue_unit
        self.strikes = 0
        self.current = 0
        self.discards: list[int] = []
        self.misplays: set[int] = set()
        self.discarded = [0] * len(variant.copies)
        self.live = list(variant.copies)
        self.done = [False] * n
        self.last_clue_kind: int | None = None
        self.clues: list[dict[str, Any]] = []
        self.turns_left: int | None = None
        self.result: dict[str, Any] | None = None
        self.actions: list[Action] = []

    # -- snapshots (see hanabi.game.snapshots) -------------------------------------------

    def snapshot(self) -> dict[str, Any]:
        """The state as a JSON-ready dict, so a store can load a game without a replay.

        With the setup and the action log it restores the game exactly; the log stays the
        truth (see :func:`replay`).
        """
        return snapshots.take(self)

    @classmethod
    def from_snapshot(cls, setup: Setup, actions: Iterable[Action], snap: dict[str, Any]) -> Game:
        """Restore a game from :meth:`snapshot` output taken after ``actions``."""
        game = cls.__new__(cls)
        game.setup = setup
        game.variant = resolve_variant(setup.variant)
        game.num_players = len(setup.players)
        game.hand_size = hand_size(game.num_players, setup.options)
        snapshots.restore(game, snap)
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

    @property
    def max_clue_tokens(self) -> int:
        """The clue-token cap, in this game's units (16 half tokens in Clue Starved)."""
        return MAX_CLUE_TOKENS * self.variant.clue_unit

    def card(self, order: int) -> int:
        """The identity (card id) of a card: hidden information, for the engine's callers
        that are allowed to know it (views, bots' simulations of other hands, exports)."""
        return self.deck[order]

    def max_score_possible(self) -> int:
        """The best score the cards allow, given those gone for good (as hanab.live counts
        it: the discard pile decides, never the hands): what the fireworks can still reach.

        A finished game keeps the figure it ended with, not its final score: a game ended
        by vote scores 0, yet showing "4 of 0" would say its fireworks exceed their maximum.
        """
        return self.max_possible

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

    def next_ranks(self, suit_index: int) -> tuple[int, ...]:
        """The ranks the firework of ``suit_index`` takes now (public information)."""
        return next_ranks(
            self.variant,
            suit_index,
            self.fireworks[suit_index],
            self.tops[suit_index],
            self.directions[suit_index],
            self.starts,
        )

    def wild_choices(self, order: int) -> list[int]:
        """Fireworks a card could go to if it is wild, from what its holder was told.

        Public information only: it says when a play must name its firework without
        telling the holder anything about the card.
        """
        return self.variant.wild_fireworks(self.told[order], self.fireworks)

    def deck_play_allowed(self) -> bool:
        """Deck plays: with one card left in the deck, it may be played blind."""
        return self.setup.options.deck_plays and self.deck_size == 1

    def legal_actions(self) -> list[Action]:
        """Every action the seat to move may take (empty once the game is over)."""
        return legal.legal_actions(self)

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
        final_round = self.turns_left is not None
        if kind == CLUE:
            events = self._clue(action, actor, turn)
        elif kind in (PLAY, DISCARD):
            events = self._play_or_discard(action, actor, turn)
        else:
            raise IllegalAction("unknown_action", "Unknown action type {kind}.", kind=repr(kind))
        self.actions.append(action)
        ending.end_turn(self, events, turn, actor, final_round)
        return events

    def _clue(self, action: Action, actor: int, turn: int) -> list[dict[str, Any]]:
        variant = self.variant
        rules = variant.rules
        if self.clue_tokens < variant.clue_unit:
            raise IllegalAction("no_clue_tokens", "There are no clue tokens left to give a clue.")
        target = action.target
        if type(target) is not int or not 0 <= target < self.num_players:
            raise no_seat(target)
        if target == actor:
            raise IllegalAction("clue_to_self", "You cannot give a clue to yourself.")
        color, rank = action.color, action.rank
        if (color is None) == (rank is None):
            raise IllegalAction("invalid_clue", "A clue names exactly one colour or one rank.")
        if color is not None:
            # type checks first: JSON input may bring a list (unhashable) or True (== 1).
            mask = variant.color_masks.get(color) if type(color) is str else None
            if mask is None:
                colors = ", ".join(variant.clue_colors) or "none"
                raise IllegalAction(
                    "unknown_color",
                    "{color} is not a clue colour of {variant} (colours: {colors}).",
                    color=repr(color),
                    variant=variant.name,
                    colors=colors,
                )
            kind = COLOR
        else:
            mask = variant.rank_masks.get(rank) if type(rank) is int else None
            if mask is None:
                ranks = ", ".join(map(str, variant.clue_ranks)) or "none"
                raise IllegalAction(
                    "unknown_rank",
                    "{rank} is not a clue rank of {variant} ({ranks}).",
                    rank=repr(rank),
                    variant=variant.name,
                    ranks=ranks,
                )
            kind = RANK
        if rules.alternating_clues and kind == self.last_clue_kind:
            if kind == COLOR:
                raise IllegalAction(
                    "alternating_clues", "After that last clue, the next clue must be a rank."
                )
            raise IllegalAction(
                "alternating_clues", "After that last clue, the next clue must be a colour."
            )
        deck = self.deck
        hand = self.hands[target]
        touched = [order for order in hand if mask >> deck[order] & 1]
        free = rules.color_clues_touch_nothing if kind == COLOR else rules.rank_clues_touch_nothing
        if not touched and not self.setup.options.empty_clues and not free:
            raise IllegalAction(
                "empty_clue", "That clue would touch no card, and empty clues are off."
            )
        told = self.told
        keep = ~mask
        narrow = not rules.hides_clues  # Cow & Pig, Duck: the holder is not told what it was
        clue = {"turn": turn, "color": color, "rank": rank}
        for order in hand:
            if mask >> deck[order] & 1:
                if narrow:
                    told[order] &= mask
                self.card_clues.setdefault(order, []).append(clue)
            elif narrow:
                told[order] &= keep
        self.clue_tokens -= variant.clue_unit
        self.last_clue_kind = kind
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
        events = [event]
        if self.setup.options.card_cycle:
            self._cycle(actor, turn, events)
        return events

    def _cycle(self, seat: int, turn: int, events: list[dict[str, Any]]) -> None:
        """Card cycling: the giver's oldest card never touched by a clue moves to the newest
        slot (nothing moves when every card was touched or it is already the newest)."""
        hand = self.hands[seat]
        for i in range(len(hand) - 1, -1, -1):
            if hand[i] not in self.card_clues:
                if i > 0:
                    order = hand.pop(i)
                    hand.insert(0, order)
                    events.append({"type": "cycle", "turn": turn, "seat": seat, "card": order})
                return

    def _play_or_discard(self, action: Action, actor: int, turn: int) -> list[dict[str, Any]]:
        order = action.card
        hand = self.hands[actor]
        variant = self.variant
        events: list[dict[str, Any]] = []
        from_deck = type(order) is int and order == self.next_draw and self.deck_play_allowed()
        if from_deck:
            if action.type == DISCARD and not variant.inverted_mask:
                raise IllegalAction(
                    "deck_discard", "Only the last card of the deck can be played, not discarded."
                )
            self.next_draw += 1  # drawn and used at once: it never joins the hand
            events.append(self._draw_event(turn, actor, order))
        elif type(order) is not int or order not in hand:  # True and 1.0 are not card 1
            raise IllegalAction(
                "card_not_in_hand", "Card {card} is not in your hand.", card=repr(order)
            )
        card = self.deck[order]
        discard = action.type == DISCARD
        if (
            discard
            and not from_deck
            and self.clue_tokens >= self.max_clue_tokens
            and not variant.inverted_mask  # decided before looking at the card
        ):
            raise IllegalAction(
                "clue_tokens_full", "You cannot discard while all 8 clue tokens are available."
            )
        firework = None
        if not discard:
            firework = self._firework_for(action, order, card)
        inverted = bool(variant.inverted_mask >> card & 1)
        if inverted:
            discard = not discard  # an inverted card does the opposite of what was asked
            firework = variant.suit_of[card]
        if not from_deck:
            hand.remove(order)
        reshaped = False
        if discard:
            self._discard(order, card, actor, turn, events, inverted)
        else:
            reshaped = self._play(order, card, firework, actor, turn, events, inverted)
        self._update_max_possible(card, reshaped)
        if not from_deck and self.next_draw < len(self.deck):
            drawn = self.next_draw
            self.next_draw += 1
            hand.insert(0, drawn)
            events.append(self._draw_event(turn, actor, drawn))
        return events

    def _card_event(self, kind: str, turn: int, seat: int, order: int) -> dict[str, Any]:
        suit, rank = self.variant.card(self.deck[order])
        return {"type": kind, "turn": turn, "seat": seat, "card": order, "suit": suit, "rank": rank}

    def _discard(
        self, order: int, card: int, actor: int, turn: int, events: list, inverted: bool
    ) -> None:
        if self.clue_tokens < self.max_clue_tokens:
            self.clue_tokens += 1
        self.discards.append(order)
        self.discarded[card] += 1
        self.live[card] -= 1
        event = self._card_event("discard", turn, actor, order)
        event["clue_tokens"] = self.clue_tokens
        if inverted:
            event["inverted"] = True
        events.append(event)

    def _play(
        self,
        order: int,
        card: int,
        firework: int | None,
        actor: int,
        turn: int,
        events: list,
        inverted: bool,
    ) -> bool:
        """Play a card (or misplay it); True when the play set a firework's direction or
        start, which can change the best score still reachable."""
        variant = self.variant
        rank = variant.rank_of[card]
        if firework is not None and variant.wild_mask:
            ok = self.fireworks[firework] == rank - 1
        else:
            ok = firework is not None and rank in self.next_ranks(firework)
        self.live[card] -= 1
        if not ok:
            self.strikes += 1
            self.discards.append(order)
            self.misplays.add(order)
            self.discarded[card] += 1
            event = self._card_event("misplay", turn, actor, order)
            if inverted:
                event["inverted"] = True
            events += [event, {"type": "strike", "turn": turn, "strikes": self.strikes}]
            return False
        assert firework is not None
        count = self.fireworks[firework] + 1
        self.fireworks[firework] = count
        self.tops[firework] = rank
        if variant.rules.sudoku and count == 1:
            self.starts[firework] = rank
        before = self.directions[firework]
        direction = direction_after(variant, rank, count, before)
        self.directions[firework] = direction
        self.stacks[firework].append(order)
        self.score += 1
        event = self._card_event("play", turn, actor, order)
        event["firework"] = variant.suits[firework].id
        if inverted:
            event["inverted"] = True
        events.append(event)
        complete = rank == 5 if variant.wild_mask else direction == Direction.FINISHED
        if (
            complete
            and not variant.rules.throw_it_in_a_hole
            and self.clue_tokens < self.max_clue_tokens
        ):
            self.clue_tokens += 1
            events.append({"type": "clue_token", "turn": turn, "clue_tokens": self.clue_tokens})
        return direction != before or (variant.rules.sudoku and count == 1)

    def _update_max_possible(self, card: int, reshaped: bool) -> None:
        """hanab.live's running maximum: recomputed after every play or discard (only the
        card's own firework, unless the fireworks depend on each other), and never raised
        again once lowered. ``reshaped``: a play set a firework's direction or start."""
        variant = self.variant
        rules = variant.rules
        if self.discarded[card] < variant.copies[card] and not reshaped and not variant.wild_mask:
            return  # a copy is left and no firework changed its way: nothing changes
        if rules.sudoku or variant.wild_mask:
            best = ending.max_score_now(self)
        else:
            suit = variant.suit_of[card]
            base = suit * variant.stride
            copies, discarded = variant.copies, self.discarded
            left = [copies[c] - discarded[c] for c in range(base, base + variant.stride)]
            self.suit_max[suit] = suit_max(variant, left, 0, self.directions[suit])
            best = sum(self.suit_max)
        if best < self.max_possible:
            self.max_possible = best

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
                    "unknown_firework",
                    "There is no firework {firework} in this game.",
                    firework=repr(action.firework),
                )
        if not variant.wild_mask:
            return variant.suit_of[card]
        # Decided from what the holder was told, before looking at the card: refusing only
        # real wild cards would tell the player which of their cards are wild.
        if named is None and len(self.wild_choices(order)) > 1:
            raise IllegalAction(
                "firework_required",
                "This card may be wild and more than one firework could take it: "
                "name the firework to play it on.",
            )
        suit_index = variant.suit_of[card]
        if not variant.suits[suit_index].wild:
            return suit_index
        rank = variant.rank_of[card]
        takers = [f for f in variant.firework_suits if self.fireworks[f] == rank - 1]
        if len(takers) == 1:
            return takers[0]
        if named in takers:
            return named
        return None

    def _draw_event(self, turn: int, seat: int, order: int) -> dict[str, Any]:
        return self._card_event("draw", turn, seat, order)

    def _terminate(self, action: Action) -> list[dict[str, Any]]:
        """End the game with score 0: by a seat, or by the table (seat None) for a reason
        decided outside the rules (a vote, a clock run out, an idle game)."""
        seat, reason = action.seat, action.reason or TERMINATED
        if seat is not None and (type(seat) is not int or not 0 <= seat < self.num_players):
            raise no_seat(seat)
        if reason not in END_REASONS:
            raise IllegalAction(
                "unknown_reason", "A game cannot end for {reason}.", reason=repr(reason)
            )
        turn = len(self.actions)
        self.actions.append(action)
        event: dict[str, Any] = {"type": "terminate", "turn": turn}
        if seat is not None:
            event["seat"] = seat
        if reason != TERMINATED:
            event["reason"] = reason
        events = [event]
        ending.finish(self, events, turn, reason, 0)
        return events

    def deal_events(self) -> list[dict[str, Any]]:
        """The draws of the opening deal, as events of turn 0 (for event logs)."""
        return [
            self._draw_event(0, seat, order)
            for seat, hand in enumerate(self.hands)
            for order in range(seat * self.hand_size, (seat + 1) * self.hand_size)
        ]


def _present_mask(variant: Variant) -> int:
    return sum(1 << c for c, n in enumerate(variant.copies) if n)


def replay(setup: Setup, actions: Iterable[Action], upto: int | None = None) -> Game:
    """The game after its first ``upto`` actions (all of them by default)."""
    game = Game(setup)
    for i, action in enumerate(actions):
        if upto is not None and i >= upto:
            break
        game.apply(action, None if action.type == TERMINATE else game.current)
    return game
