"""The conventions bot's picture of the table: every card's public reading, and what a
clue means.

Two parts of :class:`~hanabi.bots.conventions.ConventionsBot` (the conventions are
described there): :class:`Reading` holds the convention-narrowed knowledge of every card
that every seat computes alike from public events (``inf``) and what follows from it
(the cards known to be queued, a card's public knowledge); :class:`ClueReader` reads one
clue under the conventions (its focus, a play or a save, a finesse), for the clues seen
and for the ones this seat weighs giving.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .observation import UNKNOWN, Observation

if TYPE_CHECKING:
    from .finesse import Finesses


class Reading:
    """Public, convention-narrowed knowledge per card order, and its consequences."""

    def __init__(self, obs: Observation) -> None:
        self.obs = obs
        v = obs.variant
        self.inf = list(obs.told)  # public, convention-narrowed knowledge per card order
        self.rank_bits = [0] * 8  # per rank (7: START), the ids of that rank
        self.present = sum(1 << c for c, n in enumerate(v.copies) if n)
        for c, n in enumerate(v.copies):
            if n:
                self.rank_bits[v.rank_of[c]] |= 1 << c
        self.clue_dead: dict[int, int] = {}  # order -> dead ids when first clued
        self._delayed: int | None = None  # cache of delayed(), reset by every event

    def copy(self, obs: Observation) -> Reading:
        """An independent copy over another seat's picture (a search's rollout)."""
        out = Reading.__new__(Reading)
        out.obs = obs
        out.inf = list(self.inf)
        out.rank_bits = list(self.rank_bits)
        out.present = self.present
        out.clue_dead = dict(self.clue_dead)
        out._delayed = None
        return out

    def delayed(self) -> int:
        """Card ids playable now or right after cards every player knows are queued."""
        if self._delayed is None:
            self._delayed = self._compute_delayed()
        return self._delayed

    def forget(self) -> None:
        """Drop what :meth:`delayed` kept: the knowledge it was computed from changed."""
        self._delayed = None

    def _compute_delayed(self) -> int:
        obs = self.obs
        ok = obs.playable
        if obs.wild or not obs.plain:
            return ok
        known = 0
        inf = self.inf
        clued = obs.clued
        dead = obs.dead
        for hand in obs.hands:
            for order in hand:
                if clued[order]:
                    m = inf[order]
                    m = m & ~dead or m
                    if m & (m - 1) == 0:
                        known |= m
        known &= ~dead
        while True:
            step = known & ok
            nxt = ok | ((step & ~self.rank_bits[5]) << 1)
            if nxt == ok:
                return ok
            ok = nxt
            known &= ~step

    def public(self, m: int, clued: bool) -> int:
        """Knowledge ``m`` of a card as every player reads it: no identity whose copies are
        all gone and, if the card is clued, none already played (good touch), unless that
        would leave nothing."""
        k = m & ~self.obs.gone_full
        if clued:
            k = k & ~self.obs.dead or k
        return k

    def pace(self) -> int:
        """Discards the team can still afford before the best score is out of reach."""
        obs = self.obs
        live = self.present & ~obs.dead
        return obs.deck_size + obs.num_players - live.bit_count()


class ClueReader:
    """What a clue means under the conventions (see the conventions module)."""

    def __init__(self, obs: Observation, reading: Reading, finesses: Finesses) -> None:
        self.obs = obs
        self.reading = reading
        self.finesses = finesses

    def interpret(
        self, target: int, mask: int, rank: int | None, touched: Any, giver: int
    ) -> tuple[list[tuple[int, int]], list[list[Any]], bool]:
        """The public knowledge of ``target``'s cards after a clue, under the conventions.

        Everyone computes the same thing: it uses only public information (clues, the
        fireworks and the discards), never anyone's cards.
        """
        obs = self.obs
        hand = obs.hands[target]
        clued = obs.clued
        inf = self.reading.inf
        dead = obs.dead
        chop = None
        for order in reversed(hand):
            if not clued[order]:
                chop = order
                break
        out = []
        newest_new = None
        tempo = None
        playable = obs.playable
        gone_full = obs.gone_full
        for order in hand:
            if order in touched:
                m = inf[order] & mask
                if not clued[order]:
                    g = m & ~dead
                    if g:
                        m = g
                    if newest_new is None:
                        newest_new = order
                elif tempo is None:
                    k = m & ~gone_full
                    if k & ~playable:
                        tempo = order
            else:
                m = inf[order] & ~mask
            out.append((order, m))
        if chop is not None and chop in touched:
            focus = chop
        elif newest_new is not None:
            focus = newest_new
        else:
            focus = tempo
        if focus is None:
            return out, [], False
        allowed = self.reading.delayed()
        if focus == chop:
            # 5s are saved with a 5 clue only: a colour clue on a chop 5 is a play clue.
            allowed |= (
                obs.critical if rank is not None else obs.critical & ~self.reading.rank_bits[5]
            )
            if rank == 2:
                allowed |= self.reading.rank_bits[2] & ~dead
        found: list[list[Any]] = []
        misleading = False
        for i, (order, m) in enumerate(out):
            if order == focus:
                narrowed = m & allowed
                if not obs.wild and obs.plain and obs.num_players > 2 and not clued[order]:
                    # A finesse: the focus is playable after blind plays of cards others
                    # hold on their finesse positions.
                    cand = m & ~allowed & ~dead
                    c = obs.card[order]
                    if c != UNKNOWN:
                        cand &= 1 << c
                    while cand:
                        low = cand & -cand
                        cand ^= low
                        f = low.bit_length() - 1
                        chain = self.finesses.connect(f, giver, target)
                        if chain:
                            narrowed |= low
                            found.append([order, f, chain, 0, c != UNKNOWN])
                        elif chain is not None and giver == obs.me:
                            misleading = True
                if narrowed:
                    out[i] = (order, narrowed)
                break
        return out, found, misleading
