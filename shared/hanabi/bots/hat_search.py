"""The search layer on the hat strategy: ``search`` at a table of ``search`` bots only.

Hat's clues carry far more than the conventions' (each one tells every other player
something about their own hand), so among bots that all run it, it is the stronger
blueprint: at two players 23.43 points against the conventions' 22.3 (at three and more
hat alone scores 24.9, and is played without a search). Its public
knowledge of each card is the same at every seat, which is exactly what a rollout needs
to rebuild a partner's state in a sampled world (see :mod:`.search`); it stays the same
after the search's own deviations, each of which tells the partner a wrong answer that
the deviating seat records too (:meth:`.hat_code.HatCode.apply_hat`). Next to a person,
or a bot of another strategy, ``search`` keeps the conventions as its blueprint
(:mod:`.registry`).
"""

from __future__ import annotations

from typing import Any

from hanabi.game import MAX_CLUE_TOKENS, Action, Variant

from .base import Bot
from .hat import HatBot
from .observation import Observation
from .search import Search
from .wording import N_


class HatSearch(Search):
    """The search tuned for hat: the last cards only, with a finer budget."""

    # The last DECK_AT cards only, each move with SAMPLE_FACTOR times the samples and
    # gains from MIN_GAIN. Rollouts from there are shorter than half a game, so such a
    # move costs about what an early one does with a third of the samples; the finer
    # measure finds the smaller gains, and the early moves' searches (hat's public
    # knowledge makes their samples good, but 32 of them tell few gains from luck)
    # added little. Measured over 200 two-player deals, gain over hat alone (no clock):
    # the last 20 cards at 96 samples and a 0.15 gain +0.35 +- 0.05 points, the last
    # 30 +0.59 +- 0.07 (the last 20 at 32 samples and 0.25: +0.27 +- 0.06). Over the
    # benchmark's 100 deals the last 30 score 23.84 at half the CPU of searching every
    # move (32 samples early, 96 in the last 20: 23.82).
    DECK_AT = 30
    SAMPLE_FACTOR = 3
    MIN_GAIN = 0.15
    # Most of its candidates are about as good as hat's move: drop each one as soon as
    # it cannot reach MIN_GAIN (mean + 1 s.e.). Measured: 133 rollouts a search instead
    # of 490, a game 3.3 times faster, +0.61 +- 0.19 over hat (38 games).
    PRUNE_AFTER = 4
    PRUNE_Z = 1.0

    def _budget(self) -> tuple[int, float]:
        return self.SAMPLES * self.SAMPLE_FACTOR, self.MIN_GAIN


class HatSearchBot(HatBot):
    """Hat plus a rollout search of its moves (self-play among ``search`` bots)."""

    name = "search"
    description = N_("hat plus a search of its moves, among search bots only")
    fallback = None
    # Hat alone scores 24.9 of 25 at 3-5 players; there every clue to every seat is a
    # different candidate (20-50 of them), so a move's budget buys too few samples.
    SEARCH_UP_TO = 2  # players

    def __init__(
        self,
        variant: Variant | str,
        num_players: int,
        seat: int,
        options: dict[str, Any] | None = None,
    ) -> None:
        super().__init__(variant, num_players, seat, options)
        self.search = HatSearch(self)

    def observe(self, events: Any) -> None:
        events = list(events)
        self.search.observe(events)
        super().observe(events)

    def decide(self) -> Action | None:
        if self.obs.num_players > self.SEARCH_UP_TO:
            return super().decide()
        return self.search.improve(super().decide())

    def blueprint_copy(self, obs: Observation) -> Bot:
        """A hat bot with this seat's state: its attributes (containers copied, one
        level deep), ``obs`` for its picture."""
        bot = HatBot.__new__(HatBot)
        for name, value in vars(self).items():
            if name == "search":
                continue
            if isinstance(value, (list, set, dict)):
                value = value.copy()  # the rollout changes them; this seat's stay
            setattr(bot, name, value)
        bot.obs = obs
        return bot

    def certain_play(self, action: Action) -> bool:
        """A certain play is searched too while a token is left and the next player
        holds a last copy it does not know: hat judges that player's next discard by
        public knowledge, and where it judges wrong, only a clue now (which the search
        finds among its candidates) keeps the card. Measured over the benchmark's first
        100 deals, paired: +0.15 +- 0.05 points (11 games changed, all up), for 1.12
        times the CPU; one of the 5s lost in search self-play was thrown away right
        after such an unsearched play."""
        if not self.search.known_playable(action):
            return False
        obs = self.obs
        if obs.clue_tokens == 0 or obs.deck_size == 0:
            return True
        nxt = (obs.me + 1) % obs.num_players
        last_copies = obs.critical & ~obs.dead
        for order in obs.hands[nxt]:
            m = self.pub[order]
            unknown = m & (m - 1) and m & ~obs.playable
            if unknown and last_copies >> obs.card[order] & 1:
                return False
        return True

    def own_mask(self, order: int) -> int:
        return self.private(order, self.priv_weights())

    def sampling_order(self, mine: list[int], masks: dict[int, int]) -> list[int]:
        return Search.most_constrained_first(mine, masks)

    def search_candidates(self, blueprint: Action) -> list[Action]:
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
