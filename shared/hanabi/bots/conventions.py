"""``conventions``: a bot that plays the way a good human team does.

Its conventions are a small subset of the ones most online players use, so a person can
read its clues and give it clues it understands:

* **Chop.** A player's chop is their oldest card that no clue has touched. With nothing
  better to do a player discards their chop; cards touched by a clue are kept.
* **Focus.** A clue's focus is the chop if the clue touches it, else the newest card the
  clue newly touches (else, for a clue touching only clued cards, the newest of them).
* **Play clue.** The focus is playable now, or right after cards every player knows are
  about to be played (a delayed play clue). Its holder plays it once nothing else fits.
* **Save clue.** A clue whose focus is the chop may instead save it: a critical card
  (the last copy of a card still needed), a 5 saved with a 5 clue (a colour clue on a
  chop 5 is a play clue), or a 2 saved with a 2 clue. The next player's endangered chop
  is saved before anything else.
* **Finesse** (3+ players). A play clue whose focus is one or two ranks beyond what is playable
  (counting cards known to be queued) asks for the missing cards from the *finesse
  positions* (newest unclued card) of players other than the giver and the target. A
  player who sees no one else holding a missing card there knows it is theirs and plays
  that card blind on their next turn, before anything else. The target waits: if a
  finessed player clues or discards instead while their card is playable, the focus
  was not the finessed card. Givers give a finesse only when exactly one finesse
  position holds each missing card, and never give a clue that others could misread
  as a finesse.
* **Prompt** (3+ players). If a clued card could be a missing card, the clue asks for
  that one instead: the first such card after the giver (seat order, newest first) in
  a hand other than the giver's and the target's. Its holder plays it next, knowing
  what it is; a giver never prompts a card that is not the one needed.
* **Clue choice.** The clue that makes the most cards playable (finesses and prompts
  included), saves before plays; among equals, a player with no known play to make
  first, and sooner seats before later ones.
* **Endgame.** With few cards left in the deck a clue is worth giving for a single
  (delayed) play, and a player with nothing to do stalls with a clue rather than
  discard while someone else has a known play (each draw brings the end a turn
  closer); in the final round clues go only to players who still have a turn.
* **Good touch.** Clues do not touch cards that are already played, so a newly touched
  card is never one of those; and a player never gives a clue whose meaning (under
  these rules) would be false, except with eight tokens when no true clue exists: then
  one that asks no one to play a card that is not playable (at worst a false save).
* **Discards.** Known-useless cards go first, then the chop (never a finessed card). At
  three players or more, a player whose every card is clued stalls with a clue while
  tokens last; discarding a clued card is the last resort (at two, where tokens are
  scarcer, it discards the clued card least likely to matter: measured +0.08 points).
  A player whose chop just moved (a clue touched the old one) and whom no one else has
  seen since stalls rather than discard the new chop unchecked; so does everyone once
  the pace is below zero (stalling already at zero measured 0.06 points worse at 2p).
  Stall clues prefer to touch few new cards. The last token is not spent on a clue
  that leaves the next player all clued with nothing known to play.
* **Duplicates.** Good touch only rules out cards already played when the clue was
  given; at two players a clued card that is likely a copy played since is played only
  when there is nothing better to do; on the last strike (or with one down, once a
  clue at the table proved misleading) one that may be is not played while a safe move
  exists.
* **Trust, but check** (:mod:`.trust`). Readings are checked against strikes and
  against who gave the clue: a seat whose clues led to a misplay is doubted, and no
  blind play is made at two strikes (nor at one once a clue or a blind play misled the
  table). While blind plays are off, no one gives or reads a finesse, and a finessed
  player who does something else has not disproved one: the target waits.
* **No risky blind plays.** A card is played only when everything its holder knows
  about it (clues, conventions, a finesse) says it is playable; the only guesses are in
  the final round, with a strike to spare.

The bot is composed of plain parts, each with one concern, that it builds and holds:
the public reading of every card and of a clue (:mod:`.reading`), finesses and prompts
(:mod:`.finesse`), the checks (:mod:`.trust`) and choosing and rating the clues to give
(:mod:`.clue_choice`); this module watches the game through them and decides.
"""

from __future__ import annotations

from typing import Any

from hanabi.game import Action, Variant

from .base import Bot
from .clue_choice import ClueChoice
from .finesse import Finesses
from .observation import Observation
from .reading import ClueReader, Reading
from .trust import Trust
from .wording import N_


class ConventionsBot(Bot):
    """Human-style conventions: play clues, save clues, chop discards (see module doc)."""

    name = "conventions"
    description = N_(
        "human-style conventions (chop, play and save clues, finesses); "
        "the one to seat next to people"
    )

    def __init__(
        self,
        variant: Variant | str,
        num_players: int,
        seat: int,
        options: dict[str, Any] | None = None,
    ) -> None:
        super().__init__(variant, num_players, seat, options)
        self._compose(Reading(self.obs))
        # Seats whose chop moved (a clue touched the old one) with no other player to
        # look at the new chop since: it may be a card the team must keep.
        self.unvetted: set[int] = set()

    def _compose(
        self, reading: Reading, trust: Trust | None = None, finesses: Finesses | None = None
    ) -> None:
        """Hold the parts, each over this seat's ``obs`` and one ``reading``: the given
        ``trust`` and ``finesses`` (a copy's), or new ones."""
        obs = self.obs
        self.reading = reading
        self.trust = trust or Trust(obs, reading)
        self.finesses = finesses or Finesses(obs, reading, self.trust)
        self.reader = ClueReader(obs, reading, self.finesses)
        self.clue_choice = ClueChoice(obs, reading, self.finesses, self.reader)

    def replica(self, obs: Observation) -> ConventionsBot:
        """A conventions bot in this one's state over ``obs`` (a copy of this seat's
        picture), sharing nothing it could change: a search's rollout plays it."""
        bot = ConventionsBot.__new__(ConventionsBot)
        bot.obs = obs
        bot.table = self.table
        bot.fallbacks = self.fallbacks
        bot.unvetted = set(self.unvetted)
        reading = self.reading.copy(obs)
        trust = self.trust.copy(obs, reading)
        bot._compose(reading, trust, self.finesses.copy(obs, reading, trust))
        return bot

    @property
    def clues(self) -> list[tuple[str | None, int | None, int]]:
        """The clues this seat may give now (see :attr:`.ClueChoice.clues`)."""
        return self.clue_choice.clues

    # -- watching the game ------------------------------------------------------------

    def observe(self, events: Any) -> None:
        obs = self.obs
        reading = self.reading
        trust = self.trust
        finesses = self.finesses
        for event in events:
            kind = event["type"]
            if kind in ("clue", "play", "discard", "misplay"):
                actor = event["seat"]
                if self.unvetted:
                    self.unvetted &= {actor}
                if kind == "clue":
                    chop = obs.chop(event["target"])
                    if chop is not None and chop in event["touched"]:
                        self.unvetted.add(event["target"])
            if kind == "play" and event["suit"] is None and event["seat"] == obs.me:
                # Thrown in a hole: the firework it grew is the one this seat's reading
                # of the card says, where the reading names one playable card.
                k = self.knowledge(event["card"]) & obs.playable
                if k and not k & (k - 1):
                    obs.hole_guess[event["card"]] = k.bit_length() - 1
            if kind in ("play", "discard", "misplay"):
                trust.check_outcome(event, finesses.focus_asking(event["card"]), self.table)
            if finesses.pending and kind in ("clue", "play", "discard", "misplay"):
                finesses.track(event)
            if kind == "clue" and (event["color"] is not None or event["rank"] is not None):
                # (a Cow & Pig or Duck clue does not say what it was: no reading)
                variant = obs.variant
                color = event["color"]
                mask = (
                    variant.color_masks[color]
                    if color is not None
                    else variant.rank_masks[event["rank"]]
                )
                inf = reading.inf
                out, found, _ = self.reader.interpret(
                    event["target"], mask, event["rank"], event["touched"], event["seat"]
                )
                for order in event["touched"]:
                    if not obs.clued[order]:
                        reading.clue_dead[order] = obs.dead
                for order, m in out:
                    inf[order] = m
                trust.note_reading(event["seat"], event["touched"])
                if found:
                    finesses.add(found)
                reading.forget()
            obs.handle(event)
        obs.end_turn()
        reading.forget()

    # -- deciding -----------------------------------------------------------------------

    CRIT_W = 3.0
    LOCKED_STALL_FROM = 3  # players: a locked hand stalls rather than discard
    EVERYTHING_AT = 1
    LOW = 0.6
    HIGH = 0.9
    HIGH_AT = 5
    VET = True
    LAST_STRIKE = True
    STALL_DECK = 6
    STALL_BUSY = 1
    DUP_P = 0.4  # a card that may be a copy played since is "risky" above this chance
    DUP_P_MANY = 1.0  # ... at three players or more (with no strike on the board)
    END_DECK = 6
    END_LOW = 0.5
    PACE_STALL = -1
    PACE_MIN = -99.0
    VET_MIN = -99.0

    def threshold(self, tokens: int) -> float:
        """The least gain worth a clue token: lower when tokens are plentiful, or near
        the end of the deck, when they have few turns left to be worth anything."""
        if self.obs.deck_size <= self.END_DECK:
            return self.END_LOW
        return self.HIGH if tokens < self.HIGH_AT else self.LOW

    def knowledge(self, order: int, exhausted: int | None = None) -> int:
        """What this seat knows of one of its own cards (conventions + visible copies)."""
        obs = self.obs
        m = self.reading.inf[order]
        if exhausted is None:
            exhausted = obs.seen_full
        k = m & ~exhausted or m & ~obs.seen_full
        if k and obs.clued[order]:
            # Good touch: a clued card is not a copy that has been played since.
            g = k & ~obs.dead
            return g or k
        if k:
            return k
        k = obs.told[order] & ~obs.seen_full
        return k or obs.told[order]

    def _dup_risk(self, order: int, k: int) -> float:
        """The chance that a clued card is a copy played since it was clued (good touch
        only rules out cards already played when the clue was given)."""
        obs = self.obs
        reading = self.reading
        risk = reading.inf[order] & obs.dead & ~reading.clue_dead.get(order, 0) & ~obs.gone_full
        if not risk:
            return 0.0
        copies = obs.variant.copies
        seen = obs.seen
        bad = good = 0
        m = risk
        while m:
            low = m & -m
            c = low.bit_length() - 1
            bad += max(copies[c] - seen[c], 0)
            m ^= low
        m = k & ~risk
        while m:
            low = m & -m
            c = low.bit_length() - 1
            good += max(copies[c] - seen[c], 0)
            m ^= low
        return bad / (bad + good) if bad + good else 0.0

    def decide(self) -> Action | None:
        obs = self.obs
        me = obs.me
        hand = obs.hands[me]
        playable = obs.playable
        dead = obs.dead
        plays = []
        risky: list[tuple[int, int]] = []
        dup_p = self.DUP_P if obs.num_players == 2 else self.DUP_P_MANY
        if obs.strikes >= (1 if any(self.trust.misled) else 2) and self.LAST_STRIKE:
            # A card that may be trash is not played on the last strike, nor with a
            # strike down once some clue proved misleading (partners off-convention).
            dup_p = 0.0
        trash = []
        exhausted = obs.seen_full
        committed = self.finesses.committed
        for order in hand:
            k = self.knowledge(order, exhausted)
            if not k & ~playable:
                if not self.trust.may_play(order):
                    continue  # a reading its clues do not prove, from a doubtful source
                if order in committed:
                    # A finessed card: play it now, so the table can read the finesse.
                    return obs.play(order, k)
                if k & obs.hole_doubt or (
                    dup_p < 1.0 and obs.clued[order] and self._dup_risk(order, k) > dup_p
                ):
                    # Maybe a copy played since it was clued (or thrown in the hole by
                    # this seat unseen): play it only when there is nothing better to do
                    # (at two players time is not that short).
                    risky.append((order, k))
                    continue
                plays.append((order, k))
            elif not k & ~dead:
                trash.append(order)
        tokens = obs.clue_tokens
        n = obs.num_players
        nxt = (me + 1) % n
        if tokens > 0 and self.clue_choice.needs_save(nxt):
            action = self.clue_choice.save_clue(nxt)
            if action is not None:
                return action
        if plays:
            return self._best_play(plays)
        if tokens > 0:
            action, gain = self.clue_choice.best(everything=tokens >= self.EVERYTHING_AT)
            if action is not None and (gain >= self.threshold(tokens) or obs.max_clues):
                return action
        if risky and (dup_p > 0.0 or not self._safe_move_left(hand, trash)):
            return self._best_play(risky)
        if obs.turns_left is not None and obs.strikes < 2:
            guess = self._best_guess(hand)
            if guess is not None:
                return guess
        if not obs.max_clues:
            if (
                tokens
                and obs.deck_size
                and (
                    self.reading.pace() <= self.PACE_STALL
                    or (
                        obs.deck_size <= self.STALL_DECK
                        and sum(self.clue_choice.busy(s) for s in range(n) if s != me)
                        >= self.STALL_BUSY
                    )
                )
            ):
                # Every discard now costs a turn the team needs to play its cards.
                action, gain = self.clue_choice.best(everything=True, any_clue=True)
                if action is not None and gain > self.PACE_MIN:
                    return action
            if trash:
                return Action.discard(trash[-1])
            if tokens and self.VET and me in self.unvetted:
                # No one has looked at the new chop yet: stall so the next player can.
                action, gain = self.clue_choice.best(everything=True, any_clue=True)
                if action is not None and gain > self.VET_MIN:
                    return action
            if tokens and n >= self.LOCKED_STALL_FROM and obs.chop(me) is None:
                # Every card is clued (a locked hand): stall with a clue rather than
                # throw away a card the team chose to keep.
                action, gain = self.clue_choice.best(everything=True, any_clue=True)
                if action is not None and gain > -99.0:
                    return action
            return Action.discard(self._discard_choice(hand))
        # Eight tokens and no clue worth giving: any legal clue, else the safest play.
        action, _ = self.clue_choice.best(everything=True, any_clue=True)
        if action is not None:
            return action
        return Action.play(hand[-1])

    def _safe_move_left(self, hand: list[int], trash: list[int]) -> bool:
        """Whether this seat has a move that cannot strike or lose a card the team needs:
        a clue, or a discard of a card it knows is useless or not a last copy."""
        obs = self.obs
        if obs.clue_tokens > 0:
            return True
        if obs.max_clues:
            return False
        return bool(trash) or bool(self.knowledge(self._discard_choice(hand)) & ~obs.critical)

    def _best_play(self, plays: list[tuple[int, int]]) -> Action:
        obs = self.obs
        best = None
        best_score = -1.0
        for order, k in plays:
            score = 0.0
            if not k & (k - 1):
                c = k.bit_length() - 1
                rank = obs.variant.rank_of[c]
                score = 6 - rank if rank <= 5 else 5
                if rank == 5:
                    score += 3
                # Unlocks a card someone holds.
                if obs.plain and rank < 5 and obs.seen[c + 1] - obs.gone[c + 1] > 0:
                    score += 2
            else:
                score = 1.0
            if score > best_score:
                best_score = score
                best = (order, k)
        assert best is not None
        return obs.play(best[0], best[1])

    def _best_guess(self, hand: list[int]) -> Action | None:
        """In the final round, the card most likely to be playable (if any may be)."""
        obs = self.obs
        copies = obs.variant.copies
        seen = obs.seen
        best = None
        best_p = 0.0
        for order in hand:
            k = self.knowledge(order)
            total = good = 0
            m = k
            while m:
                low = m & -m
                c = low.bit_length() - 1
                w = copies[c] - seen[c]
                total += w
                if obs.playable & low:
                    good += w
                m ^= low
            if total and good / total > best_p:
                best_p = good / total
                best = (order, k)
        if best is None:
            return None
        return obs.play(best[0], best[1] & obs.playable)

    def _discard_choice(self, hand: list[int]) -> int:
        obs = self.obs
        clued = obs.clued
        for order in reversed(hand):
            if not clued[order] and order not in self.finesses.committed:
                return order
        # Every card is clued: drop the one least likely to matter.
        elsewhere = self.clue_choice.clued_elsewhere(obs.me)
        copies = obs.variant.copies
        seen = obs.seen
        junk_mask = obs.dead | elsewhere
        best = hand[-1]
        best_score = None
        for order in reversed(hand):
            k = self.knowledge(order)
            total = junk = crit = 0
            m = k
            while m:
                low = m & -m
                c = low.bit_length() - 1
                x = max(copies[c] - seen[c], 0) or 1
                total += x
                if junk_mask & low:
                    junk += x
                elif obs.critical & low:
                    crit += x
                m ^= low
            score = (junk - self.CRIT_W * crit) / (total or 1)
            if best_score is None or score > best_score:
                best_score = score
                best = order
        return best
