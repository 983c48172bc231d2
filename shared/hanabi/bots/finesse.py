"""Finesses and prompts for the conventions bot: who is asked to blind-play what.

A mixin of :class:`~hanabi.bots.conventions.ConventionsBot` (its state: ``finesses``,
``committed``, ``inf``); the conventions themselves are described there.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .observation import UNKNOWN


class Finesses:
    """Reading, giving and tracking finesses and prompts (see the conventions module)."""

    # Set by ConventionsBot.
    obs: Any
    inf: list[int]
    finesses: list[list[Any]]
    committed: set[int]
    _delayed: int | None
    MAX_CHAIN: int
    PROMPTS: bool
    blind_plays_allowed: Callable[[], bool]  # Trust's

    def delayed(self) -> int:  # pragma: no cover - ConventionsBot's
        raise NotImplementedError

    def _add_finesses(self, found: list[list[Any]]) -> None:
        me = self.obs.me
        for rec in found:
            self.finesses.append(rec)
            for seat, order, x in rec[2]:
                self.committed.add(order)
                if seat == me and rec[4]:
                    self.inf[order] = 1 << x

    def _drop_finesse(self, rec: list[Any], failed: bool) -> None:
        self.finesses.remove(rec)
        obs = self.obs
        inf = self.inf
        if failed:
            focus = rec[0]
            left = inf[focus] & ~(1 << rec[1])
            if left:
                inf[focus] = left
            for seat, order, _ in rec[2][rec[3] :]:
                if seat == obs.me and not any(
                    order == o for r in self.finesses for _, o, _ in r[2][r[3] :]
                ):
                    inf[order] = obs.told[order]
        self.committed = {o for r in self.finesses for _, o, _ in r[2][r[3] :]}
        self._delayed = None

    def _track_finesses(self, event: dict[str, Any]) -> None:
        """Advance finesses on blind plays; a finessed player who clues or discards
        while their card is playable was not finessed (so the focus is not that id),
        unless the strikes and trust forbade them a blind play then: the finesse waits."""
        obs = self.obs
        kind = event["type"]
        actor = event["seat"]
        card = event.get("card")
        playable = obs.playable
        for rec in list(self.finesses):
            chain = rec[2]
            seat, order, x = chain[rec[3]]
            if card == order:
                if kind == "play":
                    rec[3] += 1
                    if rec[3] == len(chain):
                        self._drop_finesse(rec, False)
                    continue
                self._drop_finesse(rec, True)
            elif card == rec[0]:
                self._drop_finesse(rec, False)
            elif (
                seat == actor
                and kind != "play"
                and playable >> x & 1
                and (obs.clued[order] or self.blind_plays_allowed())
            ):
                self._drop_finesse(rec, True)

    def _slot(self, seat: int, used: set[int]) -> int | None:
        """``seat``'s finesse position: its newest card no clue or finesse has claimed."""
        clued = self.obs.clued
        committed = self.committed
        for order in self.obs.hands[seat]:
            if not clued[order] and order not in committed and order not in used:
                return order
        return None

    def _connect(self, f: int, giver: int, target: int) -> list[tuple[int, int, int]] | None:
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
        delayed = self.delayed()
        k = obs.fireworks[s]
        while k + 1 < 5 and delayed >> (s * 5 + k + 1) & 1:
            k += 1
        if not delayed >> (s * 5 + k) & 1 or k >= r or r - k > self.MAX_CHAIN:
            return None
        me = obs.me
        card = obs.card
        clued = obs.clued
        inf = self.inf
        dead = obs.dead
        claimed = 0
        for rec in self.finesses:
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
        blind_ok = self.blind_plays_allowed()
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
                slot = self._slot(p, used)
                if slot is not None and card[slot] == x:
                    if found is not None:
                        return []
                    found = (p, slot, x)
            if found is None:
                if me in (giver, target):
                    return []
                slot = self._slot(me, used)
                if slot is None:
                    return None
                found = (me, slot, x)
            used.add(found[1])
            chain.append(found)
        return chain
