"""What one seat may see, rebuilt from the public event log with its own draws hidden.

An :class:`Observation` is the only game state a bot ever gets. It is fed event dicts
(exactly what :func:`hanabi.game.views.redact_event` gives that seat) and keeps plain
lists and ints, never a reference to a :class:`~hanabi.game.Game`; so a bot cannot read
the deck or its own cards, however it is written. Updating it costs a few list operations
per event, which keeps whole self-play games in the millisecond range.

Cards are named by ``order`` and identities are the engine's card ids
(``suit_index * stride + rank - 1``, the START card of Up or Down in slot 5); masks are
ints with one bit per card id.

Every hanab.live rule reaches a bot as data: clue masks come from the variant, fireworks
take the ranks :func:`hanabi.game.fireworks.next_ranks` says (reversed suits, Up or Down,
Sudoku), clue tokens count in the variant's units (half tokens in Clue Starved), clues
that hide what they were (Cow & Pig, Duck) narrow nothing, plays thrown in a hole keep
their card hidden, and card cycling moves a giver's card. :meth:`Observation.is_legal`
answers, from public facts only, whether the engine accepts an action, and
:meth:`Observation.fallback` gives a legal one when a strategy has none.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from hanabi.game import MAX_CLUE_TOKENS, Action, Variant, get_variant
from hanabi.game.fireworks import Direction, direction_after, initial_directions, next_ranks
from hanabi.game.setup import Options, hand_size

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
        "clue_units",
        "clued",
        "critical",
        "current",
        "dead",
        "deck_size",
        "directions",
        "discarded",
        "fireworks",
        "gone",
        "gone_full",
        "hand_size",
        "hands",
        "hole_doubt",
        "hole_guess",
        "ids",
        "last_clue_kind",
        "me",
        "num_players",
        "options",
        "over",
        "plain",
        "playable",
        "score",
        "seen",
        "seen_full",
        "starts",
        "strikes",
        "told",
        "tops",
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
        known = {k: v for k, v in self.options.items() if k in Options.__dataclass_fields__}
        self.hand_size = hand_size(num_players, Options(**known))
        size = variant.card_count
        ncards = len(variant.copies)
        self.ids = {
            (s.id, r): variant.card_id(i, r)
            for i, s in enumerate(variant.suits)
            for r in variant.card_ranks
        }
        # Fireworks built 1 up to 5 with five ranks a suit: the fast class computation,
        # and the conventions' delayed plays and finesses (card id + 1 is the next card).
        rules = variant.rules
        self.plain = not (variant.reversible or rules.sudoku or variant.stride != 5) and (
            rules.stack_size == 5
        )
        self.tops = [0] * len(variant.suits)
        self.directions = initial_directions(variant)
        self.starts = [0] * len(variant.suits)
        self.last_clue_kind: int | None = None
        #: Throw It in a Hole: what the strategy believes its own unseen cards are, so
        #: that its successful play of one grows the right firework in its picture.
        self.hole_guess: dict[int, int] = {}
        #: Throw It in a Hole: the cards this seat may have thrown in the hole itself
        #: without knowing which (its reading named several playable ones): a card that
        #: may be one of them may be a copy already played.
        self.hole_doubt = 0
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
        self.clue_units = MAX_CLUE_TOKENS * variant.clue_unit
        self.clue_tokens = MAX_CLUE_TOKENS  # whole clues this seat could give
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
            variant = self.variant
            self._set_units(self.clue_units - variant.clue_unit)
            color = event["color"]
            rank = event["rank"]
            touched = event["touched"]
            told = self.told
            clued = self.clued
            if color is None and rank is None:
                # Cow & Pig, Duck: the clue says which cards, not what it was.
                sound = event.get("sound")
                self.last_clue_kind = None if sound not in ("moo", "oink") else sound == "oink"
                for order in touched:
                    clued[order] = True
                return
            self.last_clue_kind = int(color is None)
            mask = variant.color_masks[color] if color is not None else variant.rank_masks[rank]
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
            self.score += 1
            if c == UNKNOWN:
                # Thrown in a hole unseen: the firework grew if its clues say which one.
                c = self.hole_guess.pop(event["card"], UNKNOWN)
                guess = self.told[event["card"]] & self.playable
                if c == UNKNOWN and guess and not guess & (guess - 1):
                    c = guess.bit_length() - 1
                if c == UNKNOWN:
                    self.hole_doubt |= guess
                    return
            firework = event.get("firework")
            fw = self._fw_index[firework] if firework is not None else self.variant.suit_of[c]
            self._grow(fw, self.variant.rank_of[c])
            if self.wild:
                self._refresh_all()
            else:
                self._refresh_suit(fw)
                if self.variant.rules.sudoku:
                    self._refresh_other_suits(fw)
        elif kind == "discard" or kind == "misplay":
            self._pending = True
            c = self._reveal(event)
            if kind == "discard":
                self._set_units(event["clue_tokens"])
            if c == UNKNOWN:
                return
            self.discarded[c] += 1
            if self.wild:
                self._refresh_all()
            else:
                self._refresh_suit(self.variant.suit_of[c])
        elif kind == "clue_token":
            self._set_units(event["clue_tokens"])
        elif kind == "cycle":
            hand = self.hands[event["seat"]]
            hand.remove(event["card"])
            hand.insert(0, event["card"])
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

    def _set_units(self, units: int) -> None:
        self.clue_units = units
        self.clue_tokens = units // self.variant.clue_unit

    def _grow(self, fw: int, rank: int) -> None:
        """A card of ``rank`` went on firework ``fw`` (as the engine's ``_play``). On a
        plain firework (1 up to 5) a card of rank r is its r-th: a count behind that catches
        up (Throw It in a Hole: this seat's own plays, thrown unseen, may have gone
        uncounted, and a partner's play it saw says how high the firework really is)."""
        count = self.fireworks[fw] + 1
        if self.plain and not self.variant.suits[fw].wild:
            count = max(count, rank)
        self.fireworks[fw] = count
        self.tops[fw] = rank
        if self.variant.rules.sudoku and count == 1:
            self.starts[fw] = rank
        self.directions[fw] = direction_after(self.variant, rank, count, self.directions[fw])

    def next_ranks(self, fw: int) -> tuple[int, ...]:
        """The ranks firework ``fw`` takes now (public information, as the engine's)."""
        return next_ranks(
            self.variant, fw, self.fireworks[fw], self.tops[fw], self.directions[fw], self.starts
        )

    def _refresh_other_suits(self, fw: int) -> None:
        for s in range(len(self.variant.suits)):
            if s != fw:
                self._refresh_suit(s)

    def _reveal(self, event: dict[str, Any]) -> int:
        order = event["card"]
        self.hands[event["seat"]].remove(order)
        if event["suit"] is None:  # Throw It in a Hole: a card played unseen
            c = self.card[order]
            if c == UNKNOWN:
                return UNKNOWN
        else:
            c = self.ids[event["suit"], event["rank"]]
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
        if not self.plain:
            self._refresh_reshaped(s)
            return
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

    def _refresh_reshaped(self, s: int) -> None:
        """The classes of one suit whose firework is not simply built 1 up to 5 (reversed,
        Up or Down, Sudoku, short stacks): playable are the ranks it takes next, dead the
        ranks it can no longer take, critical a last copy of a rank still needed."""
        variant = self.variant
        stride = variant.stride
        base = s * stride
        bits = ((1 << stride) - 1) << base
        playable = dead = critical = 0
        if not variant.suits[s].wild:
            copies = variant.copies
            discarded = self.discarded
            nxt = self.next_ranks(s)
            count = self.fireworks[s]
            direction = self.directions[s]
            top = self.tops[s]
            size = variant.rules.stack_size
            for c in range(base, base + stride):
                if not copies[c]:
                    continue
                r = variant.rank_of[c]
                if count >= size or direction == Direction.FINISHED:
                    useless = True
                elif variant.rules.sudoku:
                    useless = bool(top) and _sudoku_passed(self.starts[s], top, r, size)
                elif direction == Direction.UP:
                    useless = (r != 7 and r <= top) or (r == 7 and count > 0)
                elif direction == Direction.DOWN:
                    useless = (r == 7 and count > 0) or (r != 7 and top and r >= top)
                else:  # Up or Down, undecided: only the START card may be on it
                    useless = r == 7 and count > 0
                left = copies[c] - discarded[c]
                if useless or left <= 0:
                    dead |= 1 << c
                    continue
                if left == 1:
                    critical |= 1 << c
                if r in nxt:
                    playable |= 1 << c
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
        return self.clue_units >= MAX_CLUE_TOKENS * self.variant.clue_unit

    def clue_kind_allowed(self, is_rank: bool) -> bool:
        """Alternating Clues: the kind of clue the last one was is not allowed next."""
        return not self.variant.rules.alternating_clues or self.last_clue_kind != int(is_rank)

    def clue_touches(self, target: int, mask: int) -> bool:
        """Whether a clue of ``mask`` touches a card of ``target`` (another seat)."""
        card = self.card
        return any(card[o] != UNKNOWN and mask >> card[o] & 1 for o in self.hands[target])

    def can_discard(self) -> bool:
        """Discarding is refused with every clue token in hand (inverted suits excepted)."""
        return self.clue_units < MAX_CLUE_TOKENS * self.variant.clue_unit or bool(
            self.variant.inverted_mask
        )

    def is_legal(self, action: Action) -> bool:
        """Whether the engine accepts ``action`` from this seat on its turn, decided from
        public facts and the hands this seat sees (the same checks as the engine's)."""
        if self.over:
            return False
        hand = self.hands[self.me]
        kind = action.type
        if kind == "play":
            if action.card not in hand:
                return False
            if action.firework is not None:
                return action.firework in {
                    self.variant.suits[f].id for f in self._fw_index.values()
                }
            return len(self.variant.wild_fireworks(self.told[action.card], self.fireworks)) <= 1
        if kind == "discard":
            return action.card in hand and self.can_discard()
        if kind != "clue":
            return False
        variant = self.variant
        target = action.target
        if self.clue_units < variant.clue_unit or target == self.me:
            return False
        if type(target) is not int or not 0 <= target < self.num_players:
            return False
        is_rank = action.color is None
        mask = (
            variant.rank_masks.get(action.rank)
            if is_rank
            else variant.color_masks.get(action.color)
        )
        if mask is None or not self.clue_kind_allowed(is_rank):
            return False
        rules = variant.rules
        free = rules.rank_clues_touch_nothing if is_rank else rules.color_clues_touch_nothing
        return bool(self.options.get("empty_clues")) or free or self.clue_touches(target, mask)

    def legal_clues(self) -> list[tuple[Action, int]]:
        """Every clue this seat may give now, with the mask of identities it touches."""
        out: list[tuple[Action, int]] = []
        variant = self.variant
        if self.clue_units < variant.clue_unit:
            return out
        for offset in range(1, self.num_players):
            target = (self.me + offset) % self.num_players
            for color, mask in variant.color_masks.items():
                action = Action.clue(target, color=color)
                if self.is_legal(action):
                    out.append((action, mask))
            for rank, mask in variant.rank_masks.items():
                action = Action.clue(target, rank=rank)
                if self.is_legal(action):
                    out.append((action, mask))
        return out

    def fallback(self) -> Action:
        """A legal move for when a strategy has none the rules accept: a card every copy
        of whose identities is useless, else the chop, discarded; else the clue touching
        the most playable cards; else the card most likely playable by its clues."""
        hand = self.hands[self.me]
        if self.can_discard():
            for order in reversed(hand):
                if not self.told[order] & ~self.dead:
                    return Action.discard(order)
            chop = self.chop(self.me)
            return Action.discard(chop if chop is not None else hand[-1])
        clues = self.legal_clues()
        if clues:
            card = self.card

            def worth(item: tuple[Action, int]) -> tuple[int, int]:
                action, mask = item
                cards = [card[o] for o in self.hands[action.target] if card[o] != UNKNOWN]
                good = sum(1 for c in cards if mask >> c & 1 and self.playable >> c & 1)
                bad = sum(1 for c in cards if mask >> c & 1 and self.dead >> c & 1)
                return good, -bad

            return max(clues, key=worth)[0]
        best = max(
            hand,
            key=lambda o: (
                (self.told[o] & self.playable).bit_count() / max(self.told[o].bit_count(), 1)
            ),
        )
        return self.play(best, self.told[best])

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


def _sudoku_passed(start: int, top: int, rank: int, size: int) -> bool:
    """Sudoku: whether ``rank`` is already on a firework that started at ``start`` and
    now ends at ``top`` (it wraps round from ``size`` to 1)."""
    span = (top - start) % size
    return (rank - start) % size <= span


def split_turns(events: Iterable[dict[str, Any]]) -> list[list[dict[str, Any]]]:
    """Group a flat event log into batches: the deal's draws, then one batch per action."""
    batches: list[list[dict[str, Any]]] = [[]]
    for event in events:
        if event.get("type") in ACTION_EVENTS and batches[-1]:
            batches.append([])
        batches[-1].append(event)
    return [b for b in batches if b]
