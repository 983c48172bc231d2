"""``search``: a search of each move on top of a blueprint bot (after SPARTA).

Lerer et al., "Improving Policies via Search in Cooperative Partially Observable Games"
(2020): a seat keeps a *blueprint* policy that every partner is assumed to follow, and on
its turn

1. samples decks consistent with everything it knows: its own cards drawn from the
   unseen copies, each within what the clues (hard facts) and the blueprint's reading
   (its belief) allow; the rest of the deck shuffled;
2. for each candidate move, plays the sampled game out with the blueprint at every seat
   (the same samples for every candidate, so their difference is measured, not noise);
3. deviates from the blueprint's own move only when another move's gain is clear: the
   best rival (at least ``MIN_GAIN`` points better on average) is checked again on
   fresh samples, and must again win by ``MIN_GAIN`` and twice its standard error
   (:meth:`Search._budget` gives both; on hat, which searches only the last cards, it
   takes three times the samples and a smaller gain).

:class:`Search` is that layer, a part a bot holds (its ``search``) and asks for a better
move than its own (:class:`Searcher` says what the search asks of it);
:class:`SearchBot` is :class:`~hanabi.bots.conventions.ConventionsBot` holding one, so partners who read conventions (people
included) read this bot too: it only plays a different move where the rollouts show that
the conventions' move loses points (a discard that throws away the game, a clue that
comes too late, ...). Where every seat is a ``search`` bot, the registry seats
:class:`~hanabi.bots.hat_search.HatSearchBot` instead: the same layer on hat, the
stronger code among bots.

**Budget.** ``SAMPLES`` sampled decks at most per move (the deterministic budget: the
same position always gives the same move), and a wall-clock cap of ``SECONDS`` per move,
which keeps a server bot's move under a second even on a loaded machine (a move cut
short by the clock can differ from an uncut one). Environment variables
``HANABI_SEARCH_SAMPLES`` and ``HANABI_SEARCH_SECONDS`` (0 = no cap) override both.
Moves whose outcome the search cannot change are not searched: a play of a card known
for certain (by its clues) to be playable.

**When.** Only once the deck is down to ``DECK_AT`` cards (default 20; env
``HANABI_SEARCH_DECK_AT``). Earlier, one deviation changes the whole rest of the game and
32 rollouts cannot tell a gain from luck: searching every move measured -0.03 +- 0.62
points over 40 two-player games, searching the last 20 cards +0.48 +- 0.13 over 60 (the
last 10: +0.25 +- 0.10; the last 25: +0.42 +- 0.17).
"""

from __future__ import annotations

import os
import random
import time
from typing import Any, Protocol

from hanabi.game import MAX_CLUE_TOKENS, Action, Game, Setup, Variant

from .base import Bot
from .conventions import ConventionsBot
from .observation import UNKNOWN, Observation
from .wording import N_


def _env_float(name: str, default: float) -> float:
    value = os.environ.get(name)
    return float(value) if value else default


class Searcher(Protocol):
    """What :class:`Search` asks of the seat it serves (the bot that holds it)."""

    obs: Observation

    def search_candidates(self, blueprint: Action) -> list[Action]:
        """The blueprint's move first, then the moves worth weighing against it (a move
        listed twice is weighed once)."""
        ...

    def own_mask(self, order: int) -> int:
        """The identities this seat considers possible for its card ``order``, as far as
        the blueprint's reading goes (sampled worlds draw from them)."""
        ...

    def certain_play(self, action: Action) -> bool:
        """Whether ``action`` is a play whose outcome no search can change."""
        ...

    def sampling_order(self, mine: list[int], masks: dict[int, int]) -> list[int]:
        """This seat's cards in the order a sample draws them."""
        ...

    def blueprint_copy(self, obs: Observation) -> Bot:
        """A blueprint bot in this seat's state over ``obs`` (a copy of its picture),
        sharing nothing a rollout could change."""
        ...


class Search:
    """The search layer for one seat (see the module doc): it keeps the game's actions
    and, asked with the blueprint's move, answers the move to play. The seat says which
    other moves to try, what it knows of its own cards and whether a play is certain
    (:class:`Searcher`)."""

    SAMPLES = int(_env_float("HANABI_SEARCH_SAMPLES", 32))
    SECONDS: float | None = _env_float("HANABI_SEARCH_SECONDS", 0.5) or None
    DECK_AT = int(_env_float("HANABI_SEARCH_DECK_AT", 20))  # search once the deck is this small
    MIN_GAIN = 0.25  # points a deviation must win on average ...
    MIN_Z = 2.0  # ... and by this many standard errors
    PRUNE_AFTER = 6  # samples before clearly worse candidates are dropped
    PRUNE_LOSS = 1.5  # ... when they trail the blueprint's move by this much
    PRUNE_Z: float | None = None  # ... or cannot reach MIN_GAIN by this many s.e.
    RACE_SHARE = 0.6  # of SECONDS for the race; the check of its winner gets the rest

    def __init__(self, seat: Searcher) -> None:
        self.seat = seat
        self.obs = seat.obs
        self.history: list[Action] = []  # every action so far, to replay sampled games

    def observe(self, events: list[dict[str, Any]]) -> None:
        """Keep the actions of one action's events (before the seat takes them in)."""
        for event in events:
            kind = event["type"]
            if kind == "clue":
                self.history.append(
                    Action.clue(event["target"], color=event["color"], rank=event["rank"])
                )
            elif kind in ("play", "misplay"):
                self.history.append(Action.play(event["card"]))
            elif kind == "discard":
                self.history.append(Action.discard(event["card"]))

    # -- deciding ---------------------------------------------------------------------

    def improve(self, blueprint: Action | None) -> Action | None:
        """The move to play where the blueprint's own is ``blueprint``."""
        obs = self.obs
        if (
            blueprint is None
            or not obs.is_legal(blueprint)
            or obs.wild
            or obs.variant.rules.hides_clues  # its clues cannot be replayed from the log
            or obs.over
            or self.SAMPLES <= 0
            or obs.deck_size > self.DECK_AT
            or self.seat.certain_play(blueprint)
        ):
            return blueprint
        candidates = [  # once each, in order; only moves the rules allow here
            a for a in dict.fromkeys(self.seat.search_candidates(blueprint)) if obs.is_legal(a)
        ]
        if len(candidates) < 2:
            return blueprint
        return self._search(blueprint, candidates)

    def known_playable(self, action: Action) -> bool:
        """Whether ``action`` plays a card this seat knows is playable: nothing to search
        (a seat's :meth:`Searcher.certain_play` may ask more)."""
        if action.type != "play":
            return False
        k = self.seat.own_mask(action.card)
        return bool(k) and not k & ~self.obs.playable

    def _play(self, order: int) -> Action:
        """The play of ``order``, naming the firework if the card could be wild."""
        obs = self.obs
        k = self.seat.own_mask(order)
        return obs.play(order, k & obs.playable or k)

    def _search(self, blueprint: Action, candidates: list[Action]) -> Action:
        """Race the candidates against the blueprint's move on common samples, then
        confirm the best one on fresh samples: picking the best of several noisy means
        favours a lucky one, and a second look removes that bias."""
        obs = self.obs
        tail = ",".join(str(a.to_dict()) for a in self.history[-6:])
        rng = random.Random(f"search:{obs.me}:{obs.turn}:{tail}")
        race = check = None
        if self.SECONDS is not None:
            # The check needs time of its own: a race that took the whole clock would
            # leave none, and an unchecked rival is never played.
            start = time.perf_counter()
            race = start + self.SECONDS * self.RACE_SHARE
            check = start + self.SECONDS
        samples, gain = self._budget()
        gains = self._race(blueprint, candidates[1:], samples, rng, race, gain)
        best = max(gains, key=lambda a: gains[a][0], default=None)
        if best is None or gains[best][0] < gain:
            return blueprint
        again = self._race(blueprint, [best], samples, rng, check, None)
        if best not in again:
            return blueprint
        mean, se = again[best]
        if mean < gain or mean < self.MIN_Z * se:
            return blueprint
        if best.type == "play":
            return self._play(best.card)
        return best

    def _budget(self) -> tuple[int, float]:
        """Samples for this move, and the gain a deviation must show."""
        return self.SAMPLES, self.MIN_GAIN

    def _race(
        self,
        blueprint: Action,
        rivals: list[Action],
        samples: int,
        rng: random.Random,
        deadline: float | None,
        prune: float | None,
    ) -> dict[Action, tuple[float, float]]:
        """Mean gain over the blueprint's move (and its standard error) of each rival
        that survives ``samples`` common samples (or the clock: only complete samples
        count; fewer than two give nothing). With ``prune`` (the gain to reach), rivals
        that are clearly not worth more samples are dropped on the way."""
        diffs: dict[Action, list[int]] = {a: [] for a in rivals}
        alive = list(rivals)
        done = skipped = 0
        obs = self.obs
        while done < samples and alive:
            deck = self._sample_deck(rng)
            if deck is None:
                break
            now = self._now(deck)
            snap = now[1]
            if snap["clue_tokens"] != obs.clue_units or snap["strikes"] != obs.strikes:
                # A sampled deck whose replayed history disagrees with the real table
                # (possible in some variants): its moves would not be the real ones.
                skipped += 1
                if skipped > samples:
                    break
                continue
            base = self._rollout(deck, now, blueprint)
            for action in alive:
                diffs[action].append(self._rollout(deck, now, action) - base)
                if deadline is not None and time.perf_counter() > deadline:
                    break
            else:
                done += 1
                if prune is not None and done >= self.PRUNE_AFTER:
                    alive = [a for a in alive if self._keep(diffs[a], done, prune)]
                continue
            break
        out = {}
        if done < 2:
            return out
        for action in alive:
            d = diffs[action][:done]
            mean = sum(d) / done
            var = sum((x - mean) ** 2 for x in d) / (done - 1)
            out[action] = (mean, (var / done) ** 0.5)
        return out

    def _keep(self, diffs: list[int], done: int, gain: float) -> bool:
        """Whether a rival is still worth samples: it does not trail the blueprint's
        move by ``PRUNE_LOSS``, and (with ``PRUNE_Z`` set) it may still reach
        ``gain``: its mean plus ``PRUNE_Z`` standard errors gets there."""
        mean = sum(diffs) / done
        if mean <= -self.PRUNE_LOSS:
            return False
        if self.PRUNE_Z is None:
            return True
        var = sum((x - mean) ** 2 for x in diffs) / (done - 1)
        return mean + self.PRUNE_Z * (var / done) ** 0.5 >= gain

    # -- sampled worlds ---------------------------------------------------------------

    def _sample_deck(self, rng: random.Random) -> list[int] | None:
        """Card ids by order, consistent with this seat's knowledge: its own cards drawn
        from the unseen copies within what its clues allow (and, where possible, within
        the conventions' reading of them), the undrawn cards shuffled."""
        obs = self.obs
        copies = obs.variant.copies
        pool = [max(n - s, 0) for n, s in zip(copies, obs.seen, strict=True)]
        deck = list(obs.card)
        mine = obs.hands[obs.me]
        told = obs.told
        masks = {o: told[o] & self.seat.own_mask(o) for o in mine}
        for order in self.seat.sampling_order(mine, masks):
            c = self._draw(pool, masks[order], rng)
            if c is None:
                c = self._draw(pool, told[order], rng)
            if c is None:
                return None
            pool[c] -= 1
            deck[order] = c
        rest = [c for c, k in enumerate(pool) for _ in range(k)]
        rng.shuffle(rest)
        start = len(deck) - obs.deck_size
        if len(rest) != obs.deck_size:
            return None
        deck[start:] = rest
        if UNKNOWN in deck:
            return None
        return deck

    @staticmethod
    def most_constrained_first(mine: list[int], masks: dict[int, int]) -> list[int]:
        """The most constrained cards first, so that they find a copy left."""
        return sorted(mine, key=lambda o: masks[o].bit_count())

    @staticmethod
    def _draw(pool: list[int], mask: int, rng: random.Random) -> int | None:
        total = 0
        m = mask
        while m:
            low = m & -m
            total += pool[low.bit_length() - 1]
            m ^= low
        if not total:
            return None
        pick = rng.randrange(total)
        m = mask
        while m:
            low = m & -m
            c = low.bit_length() - 1
            pick -= pool[c]
            if pick < 0:
                return c
            m ^= low
        return None  # pragma: no cover

    def _now(self, deck: list[int]) -> tuple[Setup, dict[str, Any]]:
        """The sampled game as it stands now (its setup and snapshot): replayed once per
        sample, and restored for each of its rollouts."""
        obs = self.obs
        variant = obs.variant
        setup = Setup.create(
            variant.id, obs.num_players, obs.options, seed="search",
            deck=[variant.card(c) for c in deck],
        )  # fmt: skip
        game = Game(setup)
        for action in self.history:
            game.apply(action)
        return setup, game.snapshot()

    def _rollout(self, deck: list[int], now: tuple[Setup, dict[str, Any]], first: Action) -> int:
        """The score of the sampled game (``now``: from :meth:`_now`) after ``first``,
        the blueprint playing on."""
        obs = self.obs
        game = Game.from_snapshot(now[0], self.history, now[1])
        bots = [self._blueprint_for(seat, deck) for seat in range(obs.num_players)]
        action = first
        while True:
            events = game.apply(action)
            if game.result is not None:
                return game.result["score"]
            for seat, bot in enumerate(bots):
                bot.observe(_redact(events, seat))
            action = bots[game.current].act()

    def _blueprint_for(self, seat: int, deck: list[int]) -> Bot:
        """A blueprint bot for ``seat`` of the sampled game, in the state it would be in
        now: this seat's own picture with ``seat``'s cards hidden and this seat's
        (sampled) cards shown. Exact for what the blueprint reads from public events
        (the conventions' reading of clues, hat's public knowledge); a partner's
        private guesses (a finesse it suspects) are taken to be this seat's."""
        bot = self.seat.blueprint_copy(_copy_obs(self.obs))
        obs = bot.obs
        if seat != obs.me:
            copies = obs.variant.copies
            for order in obs.hands[obs.me]:
                c = deck[order]
                obs.card[order] = c
                obs.seen[c] += 1
            for order in obs.hands[seat]:
                obs.seen[obs.card[order]] -= 1
                obs.card[order] = UNKNOWN
            obs.me = seat
            obs.seen_full = sum(1 << c for c, n in enumerate(copies) if n and obs.seen[c] >= n)
        return bot


class SearchBot(ConventionsBot):
    """Conventions plus a rollout search of its moves: the one for tables with people."""

    name = "search"
    description = N_(
        "conventions plus a search of its moves late in the game (sampled rollouts); "
        "plays with people and any bots; among search bots only, hat plus the search; "
        "stronger, up to 0.5 s a move"
    )
    CLUE_CANDIDATES = 2  # best clues (by the conventions' own rating) tried besides its move

    def __init__(
        self,
        variant: Variant | str,
        num_players: int,
        seat: int,
        options: dict[str, Any] | None = None,
    ) -> None:
        super().__init__(variant, num_players, seat, options)
        self.search = Search(self)

    def observe(self, events: Any) -> None:
        events = list(events)
        self.search.observe(events)
        super().observe(events)

    def decide(self) -> Action | None:
        return self.search.improve(super().decide())

    def blueprint_copy(self, obs: Observation) -> Bot:
        return self.replica(obs)

    def certain_play(self, action: Action) -> bool:
        """A play of a card whose clues alone prove it playable (not just the reading)."""
        return action.type == "play" and self.trust.certain(action.card)

    def own_mask(self, order: int) -> int:
        trust = self.trust
        giver = trust.read_from.get(order)
        if giver is not None and trust.misled[giver] >= trust.TRUST_AFTER:
            return self.obs.told[order]  # a reading from a seat that misled lately
        return self.knowledge(order)

    def search_candidates(self, blueprint: Action) -> list[Action]:
        """The blueprint's move first, then the moves a good player would weigh: plays of
        clued or finessed cards that may succeed (of any card once the deck is nearly
        gone), the chop and known-useless discards, and the clues the conventions rate
        best."""
        obs = self.obs
        out = [blueprint]
        hand = obs.hands[obs.me]
        late = obs.deck_size <= 2 or obs.turns_left is not None
        for order in hand:
            if (
                self.knowledge(order) & obs.playable
                and (late or obs.clued[order] or order in self.finesses.committed)
                and self.trust.may_play(order)
                and (obs.strikes < 2 or self.trust.certain(order))
            ):
                # Only plays the conventions bot's own checks allow: the rollouts
                # believe its reading, so they cannot judge a doubtful one.
                out.append(Action.play(order))
        if obs.clue_tokens < MAX_CLUE_TOKENS:
            out.append(Action.discard(self._discard_choice(hand)))
            out += [Action.discard(o) for o in hand if not self.knowledge(o) & ~obs.dead]
        if obs.clue_tokens > 0:
            rated = []
            n = obs.num_players
            last = obs.turns_left if obs.turns_left is not None else n
            for offset in range(1, min(n, last)):
                target = (obs.me + offset) % n
                present = 0
                for order in obs.hands[target]:
                    present |= 1 << obs.card[order]
                for color, rank, mask in self.clues:
                    if mask & present:
                        gain = self.clue_choice.evaluate(target, mask, rank)
                        if gain is not None:
                            clue = Action.clue(target, color=color, rank=rank)
                            rated.append((-gain, offset, len(rated), clue))
            rated.sort(key=lambda r: r[:3])
            out += [r[3] for r in rated[: self.CLUE_CANDIDATES]]
        return out

    def sampling_order(self, mine: list[int], masks: dict[int, int]) -> list[int]:
        told = self.obs.told
        inf = self.reading.inf
        return sorted(mine, key=lambda o: (told[o] & inf[o]).bit_count())


def _copy_obs(obs: Observation) -> Observation:
    out = Observation.__new__(Observation)
    for name in Observation.__slots__:
        value = getattr(obs, name)
        if isinstance(value, list):
            value = (
                [list(v) for v in value] if value and isinstance(value[0], list) else list(value)
            )
        setattr(out, name, value)
    return out


def _redact(events: list[dict[str, Any]], seat: int) -> list[dict[str, Any]]:
    """The events as ``seat`` sees them (its own draws hidden); a fast local version of
    ``redact_event`` for rollouts, which only bots read."""
    out = []
    for e in events:
        if e["type"] == "draw" and e["seat"] == seat:
            e = {**e, "suit": None, "rank": None}
        out.append(e)
    return out
