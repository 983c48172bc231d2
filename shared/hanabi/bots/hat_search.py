"""The search layer on the hat strategy: ``search`` at a table of ``search`` bots only.

Hat's clues carry far more than the conventions' (each one tells every other player
something about their own hand), so among bots that all run it, it is the stronger
blueprint: at two players 23.3 points against the conventions' 22.3 (at three and more
hat alone scores 24.9, and is played without a search). Its public
knowledge of each card is the same at every seat, which is exactly what a rollout needs
to rebuild a partner's state in a sampled world (see :mod:`.search`). Next to a person,
or a bot of another strategy, ``search`` keeps the conventions as its blueprint
(:mod:`.registry`).
"""

from __future__ import annotations

from hanabi.game import MAX_CLUE_TOKENS, Action

from .hat import HatBot
from .search import Search


class HatSearchBot(Search, HatBot):
    """Hat plus a rollout search of its moves (self-play among ``search`` bots)."""

    name = "search"
    description = "hat plus a search of its moves, among search bots only"
    BLUEPRINT = HatBot
    fallback = None
    # Hat alone scores 24.9 of 25 at 3-5 players; there every clue to every seat is a
    # different candidate (20-50 of them), so a move's budget buys too few samples.
    SEARCH_UP_TO = 2  # players
    # Every move, not only late ones: hat's public knowledge pins its own cards down far
    # better than the conventions' reading, so early samples are good ones. Measured
    # over the same 2-player deals (50 samples, no clock): searching the last 20 cards
    # +0.32 +- 0.15 points over hat alone (25 games), every move +0.57 +- 0.26 (28).
    DECK_AT = 10**6
    # Most of its candidates are about as good as hat's move: drop each one as soon as
    # it cannot reach MIN_GAIN (mean + 1 s.e.). Measured: 133 rollouts a search instead
    # of 490, a game 3.3 times faster, +0.61 +- 0.19 over hat (38 games).
    PRUNE_AFTER = 4
    PRUNE_Z = 1.0
    # Rollouts from the last LATE_AT cards are less than half a game long: there three
    # times the samples cost about what an early move's do, and measure gains finely
    # enough to take smaller ones. Measured over 200 two-player deals, searching the
    # last 20 cards only: +0.27 +- 0.06 points over hat at 32 samples and a 0.25 gain,
    # +0.35 +- 0.05 at 96 and 0.15 (0.08: +0.32; 0.15 at 1.5 s.e.: +0.33).
    LATE_AT = 20
    LATE_SAMPLES = 3  # times SAMPLES
    LATE_GAIN = 0.15

    def _budget(self) -> tuple[int, float]:
        if self.obs.deck_size <= self.LATE_AT:
            return self.SAMPLES * self.LATE_SAMPLES, self.LATE_GAIN
        return super()._budget()

    def act(self) -> Action:
        if self.obs.num_players > self.SEARCH_UP_TO:
            return HatBot.act(self)
        return super().act()

    def _own_mask(self, order: int) -> int:
        return self.private(order, self.priv_weights())

    def _candidates(self, blueprint: Action) -> list[Action]:
        """The blueprint's move first, then every move that might do better: a play of
        any card that may be playable (only a certain one on the last strike), a discard
        of any card, and every clue (each says a different hat sum)."""
        obs = self.obs
        out = [blueprint]
        hand = obs.hands[obs.me]
        w = self.priv_weights()
        for order in hand:
            good, total = self.prob(self.private(order, w), obs.playable, w)
            if good and (obs.strikes < 2 or good == total):
                out.append(Action.play(order))
        if obs.clue_tokens < MAX_CLUE_TOKENS:
            out += [Action.discard(order) for order in hand]
        if obs.clue_tokens > 0:
            n = obs.num_players
            for offset in range(1, n):
                target = (obs.me + offset) % n
                present = 0
                for order in obs.hands[target]:
                    present |= 1 << obs.card[order]
                out += [
                    Action.clue(target, color=color)
                    for color, mask in self.color_clues
                    if mask & present
                ]
                out += [
                    Action.clue(target, rank=rank)
                    for rank, mask in self.rank_clues
                    if mask & present
                ]
        return out
