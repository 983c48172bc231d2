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
from .clues import give_clue
from .ending import (
    DECK_OUT,
    END_REASONS,
    IDLE,
    PERFECT,
    STRIKEOUT,
    TERMINATED,
    TIMEOUT,
    end_turn,
)
from .errors import IllegalAction, SetupError, no_seat
from .fireworks import next_ranks
from .plan import plan_of
from .plays import card_event, play_or_discard
from .setup import (
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
        "all_or_nothing",
        "always_clues",
        "card_clues",
        "card_cycle",
        "clue_tables",
        "clue_tokens",
        "clues",
        "current",
        "deck",
        "deck_plays",
        "directions",
        "discarded",
        "discards",
        "done",
        "early_ends",
        "fireworks",
        "hand_size",
        "hands",
        "last_clue_kind",
        "live",
        "max_possible",
        "misplays",
        "next_draw",
        "num_players",
        "plain",
        "plan",
        "result",
        "score",
        "setup",
        "stacks",
        "starts",
        "strikes",
        "suit_max",
        "targets",
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
        self.hand_size = size = hand_size(n, setup.options)
        self._derive()
        plan = self.plan
        if setup.deck is None:
            self.deck = shuffled_deck(variant, setup.seed)
        else:
            self.deck = explicit_deck(variant, setup.deck)
        if size * n > len(self.deck):
            raise SetupError(
                "invalid_deck", "{variant} has too few cards to deal.", variant=variant.name
            )
        self.told = [plan.told_start] * len(self.deck)
        self.card_clues: dict[int, list[dict[str, Any]]] = {}
        # Each seat is dealt the next cards in turn, newest first.
        self.hands: list[list[int]] = [
            list(range((seat + 1) * size - 1, seat * size - 1, -1)) for seat in range(n)
        ]
        self.next_draw = size * n
        suits = len(variant.suits)
        self.fireworks = [0] * suits
        self.stacks: list[list[int]] = [[] for _ in range(suits)]
        self.tops = [0] * suits
        self.directions = list(plan.start_directions)
        self.starts = [0] * suits
        self.score = 0
        self.max_possible = variant.max_score
        self.suit_max = list(plan.start_suit_max)
        self.clue_tokens = plan.max_tokens
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

    def _derive(self) -> None:
        """What the setup decides once for every move: the variant's plan (its rules as
        tables, :mod:`.plan`) and the options the moves ask about."""
        self.plan = plan_of(self.variant)
        self.clue_tables = self.plan.clue_tables(self.num_players)
        options = self.setup.options
        self.deck_plays = options.deck_plays
        self.card_cycle = options.card_cycle
        self.all_or_nothing = options.all_or_nothing
        # hanab.live's own ends, checked after every move (see hanabi.game.ending)
        self.early_ends = options.end_at_max_possible or options.all_or_nothing
        # plays and discards that the plain path serves (see hanabi.game.plays)
        self.plain = self.plan.plain and not options.deck_plays
        # the clues legal_actions() offers even when they touch no card
        self.always_clues = self.plan.all_clues if options.empty_clues else self.plan.free_clues
        self.targets = self.plan.targets(self.num_players)

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
        game._derive()
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
        return self.plan.max_tokens

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

    #: Every action the seat to move may take (empty once the game is over): the function
    #: itself as the method, which saves a call on every move of a search or a bench.
    legal_actions = legal.legal_actions

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
        actor = self.current
        if seat is not None and seat != actor:
            raise IllegalAction("not_your_turn", "It is not your turn.")
        turn = len(self.actions)
        final_round = self.turns_left is not None
        if kind == CLUE:
            events = give_clue(self, action, actor, turn)
        elif kind in (PLAY, DISCARD):
            events = play_or_discard(self, action, actor, turn)
        else:
            raise IllegalAction("unknown_action", "Unknown action type {kind}.", kind=repr(kind))
        self.actions.append(action)
        end_turn(self, events, turn, actor, final_round)
        return events

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
            card_event(self, "draw", 0, seat, order)
            for seat, hand in enumerate(self.hands)
            for order in range(seat * self.hand_size, (seat + 1) * self.hand_size)
        ]


def replay(setup: Setup, actions: Iterable[Action], upto: int | None = None) -> Game:
    """The game after its first ``upto`` actions (all of them by default)."""
    game = Game(setup)
    for i, action in enumerate(actions):
        if upto is not None and i >= upto:
            break
        game.apply(action, None if action.type == TERMINATE else game.current)
    return game
