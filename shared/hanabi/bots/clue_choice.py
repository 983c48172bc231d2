"""Giving clues for the conventions bot: which clue, and what it is worth.

One part of :class:`~hanabi.bots.conventions.ConventionsBot`, held as its
``clue_choice``: it rates every clue this
seat could give by what the target (and, through finesses and prompts, the others) would
read from it under the conventions, refuses clues whose reading would be false, and
knows which chops need saving first. The conventions themselves are described in that module; the tuned weights it uses
(``CRIT_TOUCH``, ``FINESSE_W``, ...) are here.
"""

from __future__ import annotations

from hanabi.game import Action

from .finesse import Finesses
from .observation import UNKNOWN, Observation
from .reading import ClueReader, Reading


class ClueChoice:
    """Rating, choosing and saving with clues (see the module doc)."""

    CRIT_TOUCH = 0.6
    FINESSE_W = 1.4
    BUSY_PEN = 0.05
    PROMPT_W = 0.8
    FINAL_TARGETS = True
    NO_LOCK = True
    STALL_TOUCH = 0.0

    def __init__(
        self, obs: Observation, reading: Reading, finesses: Finesses, reader: ClueReader
    ) -> None:
        self.obs = obs
        self.reading = reading
        self.finesses = finesses
        self.reader = reader
        v = obs.variant
        self.all_clues: list[tuple[str | None, int | None, int]] = [
            (color, None, m) for color, m in v.color_masks.items()
        ] + [(None, r, m) for r, m in v.rank_masks.items()]

    @property
    def clues(self) -> list[tuple[str | None, int | None, int]]:
        """The clues of the variant this seat may give now: (colour, rank, mask); with
        Alternating Clues, only those of the other kind than the last clue."""
        rules = self.obs.variant.rules
        if not rules.alternating_clues or self.obs.last_clue_kind is None:
            return self.all_clues
        rank_next = not self.obs.last_clue_kind
        return [c for c in self.all_clues if (c[1] is not None) == rank_next]

    def important(self, seat: int, order: int) -> bool:
        """Whether the card at ``order`` (in ``seat``'s hand) must not be discarded."""
        obs = self.obs
        c = obs.card[order]
        if c == UNKNOWN or obs.dead >> c & 1:
            return False
        # Another copy already clued in some hand: not worth a clue.
        inf = self.reading.inf
        for hand in obs.hands:
            for o in hand:
                if o != order and obs.clued[o] and (obs.card[o] == c or inf[o] == 1 << c):
                    return False
        if obs.critical >> c & 1:
            return True
        if obs.variant.rank_of[c] == 2:
            for s, hand in enumerate(obs.hands):
                if s != seat and s != obs.me:
                    for o in hand:
                        if obs.card[o] == c:
                            return False
            return True
        return False

    def has_safe_action(self, seat: int) -> bool:
        obs = self.obs
        playable = obs.playable
        dead = obs.dead
        inf = self.reading.inf
        clued = obs.clued
        for order in obs.hands[seat]:
            k = self.reading.public(inf[order], clued[order])
            if not k & ~playable or not k & ~dead:
                return True
        return False

    def locks(self, res: list[tuple[int, int]], touched: list[int]) -> bool:
        """Whether a hand whose knowledge becomes ``res`` is all clued with no known
        play or known-useless card."""
        obs = self.obs
        clued = obs.clued
        playable = obs.playable
        dead = obs.dead
        for order, m in res:
            if not clued[order] and order not in touched:
                return False
            k = self.reading.public(m, True)  # clued by now
            if not k & ~playable or not m & ~dead:
                return False
        return True

    def busy(self, seat: int) -> bool:
        """Whether ``seat`` knows a card it can play (by public knowledge) or has a
        finessed card to play blind."""
        obs = self.obs
        playable = obs.playable
        inf = self.reading.inf
        clued = obs.clued
        committed = self.finesses.committed
        for order in obs.hands[seat]:
            if clued[order]:
                if not self.reading.public(inf[order], True) & ~playable:
                    return True
            elif order in committed:
                return True
        return False

    def needs_save(self, seat: int) -> bool:
        obs = self.obs
        if obs.deck_size == 0:
            return False
        chop = obs.chop(seat)
        if chop is None or not self.important(seat, chop):
            return False
        return not self.has_safe_action(seat)

    def save_clue(self, seat: int) -> Action | None:
        obs = self.obs
        chop = obs.chop(seat)
        c = obs.card[chop]
        best = None
        best_gain = -99.0
        for color, rank, mask in self.clues:
            if not mask >> c & 1:
                continue
            gain = self.evaluate(seat, mask, rank)
            if gain is not None and gain > best_gain:
                best_gain = gain
                best = Action.clue(seat, color=color, rank=rank)
        return best

    def queued(self) -> int:
        """Card ids some player already knows to play (from this seat's point of view)."""
        obs = self.obs
        playable = obs.playable
        inf = self.reading.inf
        card = obs.card
        q = 0
        for hand in obs.hands:
            for order in hand:
                if not obs.clued[order]:
                    continue
                k = self.reading.public(inf[order], True)
                if not k & ~playable:
                    c = card[order]
                    if c != UNKNOWN:
                        q |= 1 << c
                    elif not k & (k - 1):
                        q |= k
        for rec in self.finesses.pending:
            if rec[4]:
                for _, _, x in rec[2][rec[3] :]:
                    q |= 1 << x
        return q

    def clued_elsewhere(self, target: int) -> int:
        """Card ids clued in hands other than ``target``'s (as far as this seat knows)."""
        obs = self.obs
        out = 0
        card = obs.card
        clued = obs.clued
        inf = self.reading.inf
        for s, hand in enumerate(obs.hands):
            if s == target:
                continue
            for order in hand:
                if clued[order]:
                    c = card[order]
                    if c != UNKNOWN:
                        out |= 1 << c
                    else:
                        m = inf[order]
                        if m and not m & (m - 1):
                            out |= m
        return out

    def evaluate(
        self,
        target: int,
        mask: int,
        rank: int | None,
        queued: int | None = None,
        elsewhere: int | None = None,
        stall: float = 0.15,
    ) -> float | None:
        """How good a clue is, or None if it would tell ``target`` something false."""
        obs = self.obs
        hand = obs.hands[target]
        card = obs.card
        touched = [o for o in hand if mask >> card[o] & 1]
        if not touched:
            return None
        res, found, misleading = self.reader.interpret(target, mask, rank, touched, obs.me)
        if misleading:
            return None
        playable = obs.playable
        dead = obs.dead
        gone_full = obs.gone_full
        clued = obs.clued
        inf = self.reading.inf
        if queued is None:
            queued = self.queued()
        if elsewhere is None:
            elsewhere = self.clued_elsewhere(target)
        delayed = None
        gain = 0.0
        seen_here = 0
        chop = obs.chop(target)
        for order, m in res:
            c = card[order]
            if not m >> c & 1:
                return None
            if order not in touched:
                continue
            bit = 1 << c
            ka = m & ~gone_full
            if not ka & ~playable:
                if self.reading.public(inf[order], clued[order]) & ~playable:
                    if not clued[order] and (elsewhere | seen_here) & bit:
                        return None
                    if queued & bit or seen_here & bit:
                        gain -= 1.0
                    else:
                        gain += 1.0
                        queued |= bit
            elif not clued[order]:
                if dead & bit or elsewhere & bit or seen_here & bit:
                    return None
                else:
                    if delayed is None:
                        delayed = self.reading.delayed()
                    if not ka & ~delayed and delayed & bit:
                        gain += 0.7
                    elif order == chop and self.important(target, order):
                        gain += 1.0
                    elif obs.critical & bit:
                        gain += self.CRIT_TOUCH
                    else:
                        gain += stall
            if not clued[order]:
                seen_here |= bit
        for rec in found:
            # The focus and each blind (or prompted) play become plays.
            gain += 0.3
            for _, o, _ in rec[2]:
                gain += self.PROMPT_W if clued[o] else self.FINESSE_W
        if (
            self.NO_LOCK
            and obs.clue_tokens == 1
            and target == (obs.me + 1) % obs.num_players
            and self.locks(res, touched)
        ):
            # The last token would leave the next player a full hand of clued cards, no
            # known play and no token to stall with: they would throw a kept card away.
            return None
        # Sooner is better: the next player acts on it first.
        gain -= 0.01 * ((target - obs.me) % obs.num_players)
        if self.BUSY_PEN and gain > 0 and self.busy(target):
            # They have a play to make already: this one waits a round.
            gain -= self.BUSY_PEN
        return gain

    def best(self, everything: bool = False, any_clue: bool = False) -> tuple[Action | None, float]:
        """The best clue to give: by default only clues that touch a playable card."""
        obs = self.obs
        me = obs.me
        n = obs.num_players
        card = obs.card
        playable = obs.playable
        best = None
        best_gain = -99.0
        queued = self.queued()
        fin_next = self.finesse_targets() if everything and not any_clue else 0
        last = obs.turns_left if self.FINAL_TARGETS and obs.turns_left is not None else n
        for offset in range(1, min(n, last)):
            target = (me + offset) % n
            hand = obs.hands[target]
            elsewhere = None
            present = 0
            if everything:
                if any_clue:
                    for order in hand:
                        present |= 1 << card[order]
                else:
                    # Only clues that can make a play, a delayed play or a save.
                    delayed = self.reading.delayed()
                    clued = obs.clued
                    for order in hand:
                        c = card[order]
                        if (delayed >> c & 1 and not clued[order]) or playable >> c & 1:
                            present |= 1 << c
                    chop = obs.chop(target)
                    if chop is not None and self.important(target, chop):
                        present |= 1 << card[chop]
                    if fin_next:
                        for order in hand:
                            c = card[order]
                            if fin_next >> c & 1 and not clued[order]:
                                present |= 1 << c
            else:
                for order in hand:
                    if playable >> card[order] & 1:
                        present |= 1 << card[order]
            if not present:
                continue
            for color, rank, mask in self.clues:
                if not mask & present:
                    continue
                if elsewhere is None:
                    elsewhere = self.clued_elsewhere(target)
                gain = self.evaluate(
                    target, mask, rank, queued, elsewhere, self.STALL_TOUCH if any_clue else 0.15
                )
                if gain is None:
                    continue
                if gain > best_gain:
                    best_gain = gain
                    best = Action.clue(target, color=color, rank=rank)
        if best is None and any_clue:
            return self.stall_clue(), -99.0
        return best, best_gain

    def stall_clue(self) -> Action | None:
        """A clue when every clue would say something false (eight tokens, nothing to
        discard): one whose reading asks no one to play a card that is not playable (a
        false save keeps a card; a false play clue costs a strike), else the first.
        Measured (1000 games a row): self-play +0.02 at 2-3 players, a partner giving
        random clues +0.15 at 2 (17.03 to 17.18), one playing blind +0.08 at 2."""
        obs = self.obs
        first = None
        for offset in range(1, obs.num_players):
            target = (obs.me + offset) % obs.num_players
            hand = obs.hands[target]
            for color, rank, mask in self.clues:
                touched = [o for o in hand if mask >> obs.card[o] & 1]
                if not touched:
                    continue
                clue = Action.clue(target, color=color, rank=rank)
                first = first or clue
                reading, _, _ = self.reader.interpret(target, mask, rank, touched, obs.me)
                if not any(self.false_play(order, m) for order, m in reading):
                    return clue
        return first

    def false_play(self, order: int, reading: int) -> bool:
        """Whether a reading says "play it" of a card (seen here) that is not playable."""
        playable = self.obs.playable
        return (
            bool(reading) and not reading & ~playable and not playable >> self.obs.card[order] & 1
        )

    def finesse_targets(self) -> int:
        """Card ids one or two above a suit's frontier whose missing cards sit on some
        other player's finesse position (a cheap filter before evaluating clues)."""
        obs = self.obs
        if obs.wild or not obs.plain or obs.num_players < 3:
            return 0
        at_slots = 0
        for seat in range(obs.num_players):
            if seat == obs.me:
                continue
            slot = self.finesses.slot(seat, set())
            if slot is not None:
                at_slots |= 1 << obs.card[slot]
        delayed = self.reading.delayed()
        out = 0
        for s, height in enumerate(obs.fireworks):
            k = height
            while k + 1 < 5 and delayed >> (s * 5 + k + 1) & 1:
                k += 1
            if k < 4 and at_slots >> (s * 5 + k) & 1:
                out |= 1 << (s * 5 + k + 1)
                if k < 3:
                    out |= 1 << (s * 5 + k + 2)
        return out
