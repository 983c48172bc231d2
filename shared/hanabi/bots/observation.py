"""What one seat may see, rebuilt from the public event log with its own draws hidden.

An :class:`Observation` is the only game state a bot ever gets. It is fed event dicts
(exactly what :func:`hanabi.game.views.redact_event` gives that seat) and keeps plain
lists and ints, never a reference to a :class:`~hanabi.game.Game`; so a bot cannot read
the deck or its own cards, however it is written. Updating it costs a few list operations
per event, which keeps whole self-play games in the millisecond range.

Cards are named by ``order`` and identities are card ids (``suit_index * 5 + rank - 1``),
as in the engine; masks are ints with one bit per card id.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from hanabi.game import HAND_SIZES, MAX_CLUE_TOKENS, Action, Variant, get_variant

UNKNOWN = -1
ACTION_EVENTS = frozenset(("clue", "play", "misplay", "discard", "terminate"))


class Observation:
    """The state of a game as seen from ``seat``: updated event by event.

    ``card[order]`` is the identity of a card this seat has seen, or ``UNKNOWN`` (its own
    cards until they are played or discarded, and cards not drawn yet). ``told[order]``
    is the public clue knowledge of a card (as the engine computes it), ``clued[order]``
    whether any clue ever touched it. ``gone`` counts played and discarded copies per card
    id, ``discarded`` the lost ones, ``seen`` every copy this seat can see (gone ones and
    the other hands); ``gone_full`` and ``seen_full`` are the masks of card ids all of
    whose copies are gone, or seen. ``playable``, ``dead`` and ``critical`` are masks of card ids that
    are playable now, can never score, and are the last copy of a card that still can.
    """

    __slots__ = (
        "_fw_index",
        "_pending",
        "_turns_set",
        "card",
        "clue_tokens",
        "clued",
        "critical",
        "current",
        "dead",
        "deck_size",
        "discarded",
        "fireworks",
        "gone",
        "gone_full",
        "hand_size",
        "hands",
        "ids",
        "me",
        "num_players",
        "options",
        "over",
        "playable",
        "score",
        "seen",
        "seen_full",
        "strikes",
        "told",
        "turn",
        "turns_left",
        "variant",
        "wild",
    )

    def __init__(
        self,
        variant: Variant | str,
        num_players: int,
        seat: int,
        options: dict[str, Any] | None = None,
    ) -> None:
        if isinstance(variant, str):
            variant = get_variant(variant)
        if not 0 <= seat < num_players:
            raise ValueError(f"no seat {seat} at a {num_players}-player table")
        self.variant = variant
        self.num_players = num_players
        self.me = seat
        self.options = dict(options or {})
        self.hand_size = HAND_SIZES[num_players]
        size = variant.card_count
        ncards = len(variant.copies)
        self.ids = {
            (s.id, r): i * 5 + r - 1 for i, s in enumerate(variant.suits) for r in range(1, 6)
        }
        self._fw_index = {s.id: i for i, s in enumerate(variant.suits)}
        self.wild = bool(variant.wild_mask)
        self.hands: list[list[int]] = [[] for _ in range(num_players)]
        self.card = [UNKNOWN] * size
        present = sum(1 << c for c, n in enumerate(variant.copies) if n)
        self.told = [present] * size
        self.clued = [False] * size
        self.fireworks = [0] * len(variant.suits)
        self.gone = [0] * ncards
        self.discarded = [0] * ncards
        self.seen = [0] * ncards
        self.gone_full = 0
        self.seen_full = 0
        self.clue_tokens = MAX_CLUE_TOKENS
        self.strikes = 0
        self.score = 0
        self.deck_size = size
        self.turns_left: int | None = None
        self.turn = 0
        self.current = 0
        self.over = False
        self._pending = False
        self._turns_set = False
        self.playable = 0
        self.dead = 0
        self.critical = 0
        for s in range(len(variant.suits)):
            self._refresh_suit(s)
        if self.wild:
            self._refresh_all()

    # -- feeding events --------------------------------------------------------------

    def observe(self, events: Iterable[dict[str, Any]]) -> None:
        """Apply the events of one action (or of the opening deal), then end the turn if
        they held an action."""
        for event in events:
            self.handle(event)
        self.end_turn()

    def handle(self, event: dict[str, Any]) -> None:
        """Apply one event; an action event opens a turn that :meth:`end_turn` closes."""
        kind = event["type"]
        if kind == "draw":
            order = event["card"]
            self.hands[event["seat"]].insert(0, order)
            self.deck_size -= 1
            suit = event["suit"]
            if suit is not None:
                c = self.ids[suit, event["rank"]]
                self.card[order] = c
                self.seen[c] += 1
                if self.seen[c] >= self.variant.copies[c]:
                    self.seen_full |= 1 << c
        elif kind == "clue":
            self._pending = True
            self.clue_tokens -= 1
            variant = self.variant
            color = event["color"]
            mask = (
                variant.color_masks[color]
                if color is not None
                else variant.rank_masks[event["rank"]]
            )
            touched = event["touched"]
            told = self.told
            clued = self.clued
            keep = ~mask
            for order in self.hands[event["target"]]:
                if order in touched:
                    told[order] &= mask
                    clued[order] = True
                else:
                    told[order] &= keep
        elif kind == "play":
            self._pending = True
            c = self._reveal(event)
            fw = self._fw_index[event["firework"]]
            self.fireworks[fw] = event["rank"]
            self.score += 1
            if self.wild:
                self._refresh_all()
            else:
                self._refresh_suit(c // 5)
        elif kind == "discard" or kind == "misplay":
            self._pending = True
            c = self._reveal(event)
            self.discarded[c] += 1
            if kind == "discard":
                self.clue_tokens = event["clue_tokens"]
            if self.wild:
                self._refresh_all()
            else:
                self._refresh_suit(c // 5)
        elif kind == "clue_token":
            self.clue_tokens = event["clue_tokens"]
        elif kind == "strike":
            self.strikes = event["strikes"]
        elif kind == "final_round":
            self.turns_left = event["turns_left"]
            self._turns_set = True
        elif kind == "game_over":
            self.over = True
        elif kind == "terminate":
            self._pending = True
            self.over = True

    def end_turn(self) -> None:
        """Close the turn opened by an action event (no-op after the opening deal)."""
        if not self._pending:
            return
        self._pending = False
        self.turn += 1
        self.current = (self.current + 1) % self.num_players
        if self.turns_left is not None and not self._turns_set:
            self.turns_left -= 1
        self._turns_set = False

    def _reveal(self, event: dict[str, Any]) -> int:
        order = event["card"]
        c = self.ids[event["suit"], event["rank"]]
        self.hands[event["seat"]].remove(order)
        copies = self.variant.copies[c]
        if self.card[order] == UNKNOWN:
            self.card[order] = c
            self.seen[c] += 1
            if self.seen[c] >= copies:
                self.seen_full |= 1 << c
        self.gone[c] += 1
        if self.gone[c] >= copies:
            self.gone_full |= 1 << c
        return c

    # -- derived card classes ----------------------------------------------------------

    def _refresh_suit(self, s: int) -> None:
        """Recompute the playable/dead/critical bits of one (non-wild) suit."""
        variant = self.variant
        base = s * 5
        bits = 0b11111 << base
        height = self.fireworks[s]
        playable = dead = critical = 0
        if variant.suits[s].wild:
            return
        copies = variant.copies
        discarded = self.discarded
        blocked = False
        for r in range(1, 6):
            c = base + r - 1
            if r <= height or blocked:
                dead |= 1 << c
                continue
            left = copies[c] - discarded[c]
            if left <= 0:
                blocked = True
                dead |= 1 << c
            elif left == 1:
                critical |= 1 << c
        if height < 5 and not dead >> (base + height) & 1:
            playable = 1 << (base + height)
        self.playable = (self.playable & ~bits) | playable
        self.dead = (self.dead & ~bits) | dead
        self.critical = (self.critical & ~bits) | critical

    def _refresh_all(self) -> None:
        """Recompute every class, with wild cards able to stand in for any firework."""
        variant = self.variant
        copies = variant.copies
        discarded = self.discarded
        fws = variant.firework_suits
        wild_suits = [i for i, s in enumerate(variant.suits) if s.wild]
        wild_left = [0] * 6
        for w in wild_suits:
            for r in range(1, 6):
                c = w * 5 + r - 1
                wild_left[r] += copies[c] - discarded[c]
        playable = dead = critical = 0
        reach = {}
        for f in fws:
            h = self.fireworks[f]
            top = h
            while top < 5 and (
                copies[f * 5 + top] - discarded[f * 5 + top] > 0 or wild_left[top + 1] > 0
            ):
                top += 1
            reach[f] = top
            for r in range(1, 6):
                c = f * 5 + r - 1
                left = copies[c] - discarded[c]
                if r <= h or r > top or left <= 0:
                    dead |= 1 << c
                elif left == 1:
                    critical |= 1 << c
            if h < 5:
                playable |= 1 << (f * 5 + h)
        for w in wild_suits:
            for r in range(1, 6):
                c = w * 5 + r - 1
                left = copies[c] - discarded[c]
                useful = any(self.fireworks[f] < r <= reach[f] for f in fws)
                if not useful or left <= 0:
                    dead |= 1 << c
                    continue
                if left == 1:
                    critical |= 1 << c
                if any(self.fireworks[f] == r - 1 for f in fws):
                    playable |= 1 << c
        playable &= ~dead
        self.playable, self.dead, self.critical = playable, dead, critical

    # -- questions strategies ask ------------------------------------------------------

    @property
    def max_clues(self) -> bool:
        """True when all clue tokens are available (discarding is illegal)."""
        return self.clue_tokens >= MAX_CLUE_TOKENS

    def chop(self, seat: int) -> int | None:
        """The oldest card of ``seat`` that no clue touched (None if all are clued)."""
        clued = self.clued
        for order in reversed(self.hands[seat]):
            if not clued[order]:
                return order
        return None

    def play(self, order: int, belief: int) -> Action:
        """A play of ``order`` that names a firework when the rules require one.

        The engine asks for a firework when the card's public clue knowledge allows a wild
        identity that more than one firework could take; ``belief`` (the bot's mask for
        the card) picks the firework its wild identities fit.
        """
        variant = self.variant
        choices = variant.wild_fireworks(self.told[order], self.fireworks)
        if len(choices) <= 1:
            return Action.play(order)
        fits = variant.wild_fireworks(belief, self.fireworks)
        f = next((f for f in choices if f in fits), choices[0])
        return Action.play(order, variant.suits[f].id)


def split_turns(events: Iterable[dict[str, Any]]) -> list[list[dict[str, Any]]]:
    """Group a flat event log into batches: the deal's draws, then one batch per action."""
    batches: list[list[dict[str, Any]]] = [[]]
    for event in events:
        if event.get("type") in ACTION_EVENTS and batches[-1]:
            batches.append([])
        batches[-1].append(event)
    return [b for b in batches if b]
