"""Finesses and prompts for the conventions bot: who is asked to blind-play what.

One part of :class:`~hanabi.bots.conventions.ConventionsBot`, held as its ``finesses``:
the finesses a seat believes pending (``pending``) and the cards they claim
(``committed``), read from the table's public :class:`~.reading.Reading` and gated by
:class:`~.trust.Trust` (no blind play while it forbids them). The conventions themselves
are described in that module.
"""

from __future__ import annotations

from typing import Any

from .observation import UNKNOWN, Observation
from .reading import Reading
from .trust import Trust


class Finesses:
    """Reading, giving and tracking finesses and prompts (see the conventions module)."""

    MAX_CHAIN = 2  # missing cards a finesse may ask for
    PROMPTS = True

    def __init__(self, obs: Observation, reading: Reading, trust: Trust) -> None:
        self.obs = obs
        self.reading = reading
        self.trust = trust
        # Pending finesses: [focus, focus id, chain of (seat, order, id), step, certain].
        # A certain one is read from seeing the focus; the target's are hypotheses.
        self.pending: list[list[Any]] = []
        self.committed: set[int] = set()  # orders some finesse says will be blind-played

    def copy(self, obs: Observation, reading: Reading, trust: Trust) -> Finesses:
        """An independent copy over another seat's picture (a search's rollout)."""
        out = Finesses(obs, reading, trust)
        out.pending = [[r[0], r[1], list(r[2]), r[3], r[4]] for r in self.pending]
        out.committed = set(self.committed)
        return out

    def focus_asking(self, order: int) -> int | None:
        """The focus of the clue whose finesse asks for a blind play of ``order``."""
        for rec in self.pending:
            if any(o == order for _, o, _ in rec[2]):
                return rec[0]
        return None

    def add(self, found: list[list[Any]]) -> None:
        me = self.obs.me
        inf = self.reading.inf
        for rec in found:
            self.pending.append(rec)
            for seat, order, x in rec[2]:
                self.committed.add(order)
                if seat == me and rec[4]:
                    inf[order] = 1 << x

    def _drop(self, rec: list[Any], failed: bool) -> None:
        self.pending.remove(rec)
        obs = self.obs
        inf = self.reading.inf
        if failed:
            focus = rec[0]
            left = inf[focus] & ~(1 << rec[1])
            if left:
                inf[focus] = left
            for seat, order, _ in rec[2][rec[3] :]:
                if seat == obs.me and not any(
                    order == o for r in self.pending for _, o, _ in r[2][r[3] :]
                ):
                    inf[order] = obs.told[order]
        self.committed = {o for r in self.pending for _, o, _ in r[2][r[3] :]}
        self.reading.forget()

    def track(self, event: dict[str, Any]) -> None:
        """Advance finesses on blind plays; a finessed player who clues or discards
        while their card is playable was not finessed (so the focus is not that id),
        unless the strikes and trust forbade them a blind play then: the finesse waits."""
        obs = self.obs
        kind = event["type"]
        actor = event["seat"]
        card = event.get("card")
        playable = obs.playable
        for rec in list(self.pending):
            chain = rec[2]
            seat, order, x = chain[rec[3]]
            if card == order:
                if kind == "play":
                    rec[3] += 1
                    if rec[3] == len(chain):
                        self._drop(rec, False)
                    continue
                self._drop(rec, True)
            elif card == rec[0]:
                self._drop(rec, False)
            elif (
                seat == actor
                and kind != "play"
                and playable >> x & 1
                and (obs.clued[order] or self.trust.blind_plays_allowed())
            ):
                self._drop(rec, True)

    def slot(self, seat: int, used: set[int]) -> int | None:
        """``seat``'s finesse position: its newest card no clue or finesse has claimed."""
        clued = self.obs.clued
        committed = self.committed
        for order in self.obs.hands[seat]:
            if not clued[order] and order not in committed and order not in used:
                return order
        return None

    def connect(self, f: int, giver: int, target: int) -> list[tuple[int, int, int]] | None:
        """The blind plays that would make ``f`` playable, as everyone can work them out.

        Each missing card must sit on exactly one finesse position among the players
        other than the giver and the target (a seat that sees none takes it as its own),
        and no clued card may be a candidate for it (that would be a prompt). None if no
        one can read a finesse; ``[]`` if this seat cannot find one that others might
        read (from the giver's seat: the clue would mislead).
        """
        obs = self.obs
        s = f // 5
        r = f % 5
        delayed = self.reading.delayed()
        k = obs.fireworks[s]
        while k + 1 < 5 and delayed >> (s * 5 + k + 1) & 1:
            k += 1
        if not delayed >> (s * 5 + k) & 1 or k >= r or r - k > self.MAX_CHAIN:
            return None
        me = obs.me
        card = obs.card
        clued = obs.clued
        inf = self.reading.inf
        dead = obs.dead
        claimed = 0
        for rec in self.pending:
            for _, _, x in rec[2]:
                claimed |= 1 << x
        missing = 0
        for i in range(k, r):
            missing |= 1 << (s * 5 + i)
        if missing & claimed:
            return None
        n = obs.num_players
        prompts: dict[int, tuple[int, int, int]] = {}
        committed = self.committed
        for i in range(k, r):
            x = s * 5 + i
            bit = 1 << x
            for off in range(1, n):
                p = (giver + off) % n
                for o in obs.hands[p]:
                    if clued[o] and inf[o] & ~dead & bit and o not in committed:
                        break
                else:
                    continue
                # A prompt: the first clued card after the giver that could be it.
                if not self.PROMPTS or p == target:
                    return None
                c = card[o]
                if c != UNKNOWN and c != x:
                    return [] if me == giver else None
                prompts[x] = (p, o, x)
                break
        chain = []
        used: set[int] = set()
        blind_ok = self.trust.blind_plays_allowed()
        for i in range(k, r):
            x = s * 5 + i
            found = prompts.get(x)
            if found is not None:
                chain.append(found)
                continue
            if not blind_ok:
                return None  # no one may blind-play now: no one reads a finesse
            for off in range(1, n + 1):
                p = (giver + off) % n
                if p in (giver, target, me):
                    continue
                slot = self.slot(p, used)
                if slot is not None and card[slot] == x:
                    if found is not None:
                        return []
                    found = (p, slot, x)
            if found is None:
                if me in (giver, target):
                    return []
                slot = self.slot(me, used)
                if slot is None:
                    return None
                found = (me, slot, x)
            used.add(found[1])
            chain.append(found)
        return chain
