"""Trust, but check: how the conventions bot guards against partners who read or give
clues differently (people, and bots of other codes).

One part of :class:`~hanabi.bots.conventions.ConventionsBot`, held as its ``trust``. The conventions read every
clue as a play or a save; a partner who does not follow them (a person who half knows
them, a random clue) makes that reading wrong. So the bot

* remembers who gave the clue each card's reading comes from (``read_from``), and how
  often that seat's clues have led to a misplay lately (``misled``: +1 for each misplay,
  -1/4 for each successful play from a bot's clue, -1/12 from a person's: a person who
  misled it once may do so again whenever they improvise, a bot only where its code
  and ours differ);
* *fixes its picture* when a player shows that a reading was wrong: a misplay of a card
  read from a seat's clue, or a player discarding a card that (by the reading) they
  knew was playable. Every other card of that player read from the same seat's clues
  then goes back to what the clues themselves say. The events are public and the rule
  is the same for everyone, so every bot keeps the same public picture;
* before it plays a card, *checks* the reading (:meth:`Trust.may_play`): with a strike
  on the board it plays a reading from a seat that misled it lately only when the
  clues alone prove the card playable, and with two strikes it plays a card no clue
  touched (a finesse) only when that is certain too. Since every seat knows when blind
  plays are off (:meth:`Trust.blind_plays_allowed`), finesses are then neither given
  nor read, and a finessed player's other move does not say the finesse was wrong
  (measured, bench/bots.py, 1000 games: strikeouts with a partner who plays blind on
  5 % of turns fell from 7.5 to 5.6 % at 3 players and from 4.5 to 2.5 % at 4).
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from .observation import Observation
from .reading import Reading


class Trust:
    """Who gave which reading, how reliable their clues have been, and the checks."""

    TRUST_AFTER = 1  # a seat's clues are doubted while ``misled`` is at least this
    # What one successful play from a bot's clue takes off ``misled``. A quarter: with a
    # third (what floating point made nearly four plays, until exact fractions) a table
    # with a partner giving random clues struck out in 1.4 % of 3-player games, not 1.0.
    CREDIT = Fraction(1, 4)
    # ... and from a person's (measured: bench/bots.py's clue20 rows lose a third as many
    # games to strikeouts, with the same self-play scores)
    PERSON_CREDIT = Fraction(1, 12)

    def __init__(self, obs: Observation, reading: Reading) -> None:
        self.obs = obs
        self.reading = reading
        self.read_from: dict[int, int] = {}  # order -> seat whose clue gave its reading
        # lately, misplays read from each seat's clues; exact (in floating point three
        # thirds of a misplay left 1e-16)
        self.misled = [Fraction(0)] * obs.num_players

    def copy(self, obs: Observation, reading: Reading) -> Trust:
        """An independent copy over another seat's picture (a search's rollout)."""
        out = Trust(obs, reading)
        out.read_from = dict(self.read_from)
        out.misled = list(self.misled)
        return out

    def credit(self, giver: int, table: list[str | None] | None) -> Fraction:
        """How much one play that a seat's clue asked for restores trust in that seat
        (``table``: who sits where, None for a person)."""
        if table is not None and table[giver] is None:
            return self.PERSON_CREDIT
        return self.CREDIT

    def note_reading(self, giver: int, touched: Any) -> None:
        """The cards ``touched`` by ``giver``'s clue take their reading from it."""
        for order in touched:
            self.read_from[order] = giver

    def check_outcome(
        self, event: dict[str, Any], focus: int | None, table: list[str | None] | None
    ) -> None:
        """Before the event is applied: learn from a play, misplay or discard whether
        the readings of one seat's clues hold (see the module doc). ``focus``: the focus
        of the clue whose finesse asked for a blind play of the card, if one did."""
        kind = event["type"]
        order = event["card"]
        giver = self.read_from.pop(order, None)
        if giver is None and focus is not None:
            giver = self.read_from.get(focus)
        if giver is None:
            if kind == "misplay" and self.obs.turns_left is None:
                # A blind play no clue asked for: that player plays off-convention.
                self.misled[event["seat"]] += 1
            return
        if kind == "play":
            credit = self.credit(giver, table)
            self.misled[giver] = max(Fraction(0), self.misled[giver] - credit)
            return
        obs = self.obs
        inf = self.reading.inf
        if kind == "discard":
            k = self.reading.public(inf[order], True)
            if not k or k & ~obs.playable:
                return  # not a card they were told to play
        elif event["suit"] is None:
            return  # thrown in a hole: what it was is not known
        elif inf[order] >> obs.ids[event["suit"], event["rank"]] & 1:
            return  # the reading was right; the card was a copy played since
        self.misled[giver] += 1
        for other in obs.hands[event["seat"]]:
            if other != order and self.read_from.get(other) == giver:
                inf[other] = obs.told[other]

    def certain(self, order: int) -> bool:
        """Whether the clues alone (no convention) prove the card playable now."""
        obs = self.obs
        k = obs.told[order] & ~obs.seen_full
        return bool(k) and not k & ~obs.playable

    def blind_plays_allowed(self) -> bool:
        """Whether a player may blind-play a finessed card now (the same for every seat:
        strikes and ``misled`` are public). Givers give no finesse, and targets read no
        refusal into a finessed player's other move, while this is False."""
        strikes = self.obs.strikes
        return strikes == 0 or (strikes < 2 and not any(self.misled))

    def may_play(self, order: int) -> bool:
        """Whether the bot may act on its reading that its card ``order`` is playable.

        The more strikes, the more it takes. None: any reading. One: a reading from a
        seat whose clues have not misled it lately; a blind (finesse) play only while no
        clue at the table has misled anyone. Two: never a blind play; a clued card only
        from a seat that never misled, and only while no one has. A card whose clues
        alone prove it playable is always played.
        """
        obs = self.obs
        if obs.strikes == 0 or self.certain(order):
            return True
        if not obs.clued[order]:
            return self.blind_plays_allowed()
        doubt = any(self.misled)
        if obs.strikes >= 2 and doubt:
            return False
        giver = self.read_from.get(order)
        return giver is None or self.misled[giver] < self.TRUST_AFTER
