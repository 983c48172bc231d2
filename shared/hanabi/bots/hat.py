"""``hat``: a hat-guessing information strategy for tables of bots.

After the "information strategy" of Cox et al., "How to Make the Perfect Fireworks
Display" (2015), as improved by Jeff Wu's hanabi.rs. What a clue or a discard says (the
hat code every seat shares: public knowledge, questions, clues as sums) is in
:mod:`hanabi.bots.hat_code`; this module holds the player's choices:

* **Actions.** Play a card known to be playable (lowest rank, unique cards first); with a
  strike to spare, play a card that is either playable or dead if it is playable with
  probability over 3/4; give a clue when someone has a playable card without knowing it
  (or when tokens are plentiful, or, with three or more, when even the cheapest discard
  is expected to cost over half a point); else discard a useless card, or the card whose
  loss costs the fewest expected points (a last copy costs the ranks it would block;
  another copy a tenth of that or less, least when a copy is in view). Before
  discarding with a token left, and even before playing a known playable card while the
  deck lasts, look at the next player: if it knows no playable or useless card and would
  discard a last copy, give a clue (of the kind the hat sum asks for) after which, by its
  public knowledge, it would not. (Before a play too: two players 23.28 to 23.43 over
  6000 deals, three +0.02, four and five the same.) At two players, once the tokens
  reach two thirds of the deck, clue rather than discard at all: tokens held at the end
  are wasted (two players 23.46 to 23.54 over 6000 deals).
"""

from __future__ import annotations

from typing import Any

from hanabi.game import Action, Variant

from .hat_code import BITS, HatCode, clue_kind
from .wording import N_


class HatBot(HatCode):
    """Hat-guessing information strategy (see module doc): the choices of a seat that
    reads and speaks the hat code."""

    name = "hat"
    description = N_(
        "only with other hat bots (a private code no person reads; seated with anyone "
        "else it plays conventions)"
    )
    fallback = "conventions"

    @classmethod
    def plays_variant(cls, variant: Variant) -> bool:
        """The hat code needs a clue of each kind able to touch any card (its clue says
        a value by touching the hinted card or not, with a colour or a rank clue) and
        public fireworks (a play thrown in a hole is hidden): white, brown, null and muddy
        suits, Throw It in a Hole and Up or Down (whose START cards its reading of ranks
        does not model) are played with conventions, which keeps its strength there
        (measured: hat struck out in 56-98 % of such games, 3 players)."""
        rules = variant.rules
        if rules.throw_it_in_a_hole or rules.up_or_down:
            return False
        colors = ranks = 0
        for m in variant.color_masks.values():
            colors |= m
        for m in variant.rank_masks.values():
            ranks |= m
        present = sum(1 << c for c, n in enumerate(variant.copies) if n)
        return colors & present == present and ranks & present == present

    RISK = 0.75
    CLUE_ABOVE = 4  # tokens above which a seat with nothing better to do clues
    # With more than STALL_TOKENS tokens, a clue (it always says something) rather than
    # a discard that costs more than STALL_COST expected points (a last copy, likely).
    # Measured over 2000 two-player games: +0.06 points (3-5 players: same).
    STALL_TOKENS = 2
    STALL_COST = 0.55
    # At two players, a clue rather than a discard once the tokens reach LATE_CLUES of
    # the deck (tokens * LATE_CLUES >= deck): see spend_tokens.
    LATE_CLUES = 1.5
    LATE_CLUES_UP_TO = 2  # players

    # -- deciding ----------------------------------------------------------------------

    def decide(self) -> Action | None:
        obs = self.obs
        me = obs.me
        hand = obs.hands[me]
        w = self.priv_weights()
        playable = obs.playable
        dead = obs.dead
        masks = [self.private(o, w) for o in hand]
        best = None
        for i, m in enumerate(masks):
            good, total = self.prob(m, playable, w)
            if total and good == total:
                score = self.play_score(m, w)
                if best is None or score > best[0]:
                    best = (score, i)
        if best is not None:
            # A play can wait a turn; a last copy the next player throws away cannot.
            if obs.clue_tokens > 0 and obs.deck_size > 0:
                warning = self.warning()
                if warning is not None:
                    return warning
            i = best[1]
            return obs.play(hand[i], masks[i])
        discards = sum(obs.discarded)
        if obs.strikes < 2 and discards <= self.discard_threshold:
            risky = None
            for i, m in enumerate(masks):
                good, total = self.prob(m, playable, w)
                safe = total and not m & ~(playable | dead) and good / total > self.RISK
                if safe and (risky is None or good / total > risky[0]):
                    risky = (good / total, i)
            if risky is not None:
                i = risky[1]
                return obs.play(hand[i], masks[i] & playable)
        public_useless = self.useless(me, public=True)
        useless = self.useless(me, public=False)
        tokens = obs.clue_tokens
        if tokens > 0 and self.someone_needs_clue():
            will_clue = True
        elif discards <= self.discard_threshold and useless:
            will_clue = False
        elif tokens > 0 and self.someone_can_play():
            will_clue = True
        else:
            will_clue = tokens > self.CLUE_ABOVE
        cheapest = None  # (index, expected loss) of the discard, once it is needed
        if not will_clue and tokens > self.STALL_TOKENS and not useless:
            cheapest = self.safest_discard(masks, w)
            will_clue = cheapest[1] > self.STALL_COST
        if obs.max_clues or self.spend_tokens():
            will_clue = True
        last_round = obs.turns_left is not None and obs.strikes < 2
        if last_round and not (tokens > 0 and self.someone_needs_clue()):
            guess = self.final_guess(masks, w)
            if guess is not None:
                return obs.play(hand[guess], masks[guess] & playable)
        clue = self.clue() if will_clue else None
        if clue is not None or (will_clue and not obs.can_discard()):
            return clue  # (None: act()'s legal fallback, a clue that says another sum)
        if tokens > 0:
            warning = self.warning()
            if warning is not None:
                return warning
        if len(public_useless) > 1:
            # Others will read the choice after learning that no one needed a clue.
            saved = self.pub
            self.pub = list(saved)
            try:
                if tokens > 0:
                    self.no_one_needs_clue(me)
                value, _ = self.hat_sum(me, len(public_useless))
            finally:
                self.pub = saved
            return Action.discard(hand[public_useless[value]])
        if useless:
            return Action.discard(hand[useless[0]])
        if cheapest is None:
            cheapest = self.safest_discard(masks, w)
        return Action.discard(hand[cheapest[0]])

    def spend_tokens(self) -> bool:
        """Whether to clue rather than discard because the game is nearly over: two
        players, and the tokens at least two thirds of the deck (``LATE_CLUES``; with
        cards in the deck, so at least one token).

        Tokens still held when the game ends are wasted (3.3 a game at two players), and
        late in the game a discard, even of a useless card, draws one of the last cards
        and brings the final round closer, while a clue keeps the deck for the plays
        still to come and tells the partner more about its hand for them. Measured
        over 6000 two-player deals: +0.08 points (most of it with one or two cards
        left in the deck); at three to five players 0.01-0.02 points lower, so it is
        not played there."""
        obs = self.obs
        return (
            obs.num_players <= self.LATE_CLUES_UP_TO
            and 0 < obs.deck_size <= obs.clue_tokens * self.LATE_CLUES
        )

    def final_guess(self, masks: list[int], w: list[int]) -> int | None:
        best = None
        for i, m in enumerate(masks):
            good, total = self.prob(m, self.obs.playable, w)
            if total and good and (best is None or good / total > best[0]):
                best = (good / total, i)
        return None if best is None else best[1]

    def play_score(self, m: int, w: list[int]) -> float:
        obs = self.obs
        held = {}
        if obs.deck_size > 0:
            for seat, hand in enumerate(obs.hands):
                if seat != obs.me:
                    for o in hand:
                        c = obs.card[o]
                        held[c] = held.get(c, 0) + 1
        total = score = 0.0
        for c in BITS[m]:
            x = w[c]
            total += x
            score += x * (10 - min(obs.variant.rank_of[c], 5)) / (1 + held.get(c, 0))
        return score / total if total else 0.0

    def someone_needs_clue(self) -> bool:
        obs = self.obs
        w = self.pub_weights()
        playable = obs.playable
        for seat, hand in enumerate(obs.hands):
            if seat == obs.me:
                continue
            if any(playable >> obs.card[o] & 1 for o in hand) and not self.knows_playable(seat, w):
                return True
        return False

    def someone_can_play(self) -> bool:
        obs = self.obs
        playable = obs.playable
        return any(
            playable >> obs.card[o] & 1
            for seat, hand in enumerate(obs.hands)
            if seat != obs.me
            for o in hand
        )

    def will_discard_critical(self, seat: int, masks: list[int], w: list[int]) -> bool:
        """Whether ``seat``, with public knowledge ``masks``, would (as far as this seat
        can tell) throw away a last copy if it discarded now."""
        obs = self.obs
        playable = obs.playable
        dead = obs.dead
        seen: set[int] = set()
        for m in masks:
            good, total = self.prob(m, playable, w)
            if total and good == total:
                return False
            if not m & ~dead:
                return False
            if not m & (m - 1):
                if m in seen:
                    return False
                seen.add(m)
        i, _ = self.safest_discard(masks, w, public=True)
        c = obs.card[obs.hands[seat][i]]
        return bool((obs.critical & ~dead) >> c & 1)

    def warning(self) -> Action | None:
        """A clue (encoding the hat sum as always) chosen so that the next player, who
        would otherwise discard a last copy, learns enough not to."""
        obs = self.obs
        nxt = (obs.me + 1) % obs.num_players
        w = self.pub_weights()
        hand = obs.hands[nxt]
        if not self.will_discard_critical(nxt, [self.pub[o] for o in hand], w):
            return None

        def safe(seat: int, mask: int, after: dict[int, list[int]]) -> bool:
            masks = list(after[nxt])
            if seat == nxt:
                for k, o in enumerate(hand):
                    masks[k] &= mask if mask >> obs.card[o] & 1 else ~mask
            return not self.will_discard_critical(nxt, masks, w)

        return self.clue(safe)

    def clue(self, accept: Any = None) -> Action | None:
        """The clue that encodes the current hat sum (the best of the equivalent ones);
        with ``accept``, only one it accepts (or None)."""
        obs = self.obs
        me = obs.me
        enc = self.encoding(me)
        total = sum(k for _, k, _ in enc)
        value, after = self.hat_sum(me, total)
        seat, kinds, offset = next(e for e in enc if e[2] <= value < e[2] + e[1])
        kind = value - offset
        hand = obs.hands[seat]
        target_card = obs.card[hand[self.hint_index(seat)]]
        options = []
        for is_rank, clues in ((False, self.color_clues), (True, self.rank_clues)):
            if not obs.clue_kind_allowed(is_rank):
                continue
            for key, mask in clues:
                present = any(mask >> obs.card[o] & 1 for o in hand)
                if not present and not obs.is_legal(
                    Action.clue(seat, rank=key) if is_rank else Action.clue(seat, color=key)
                ):
                    continue  # (a clue touching nothing is legal where a variant says so)
                hit = bool(mask >> target_card & 1)
                k = clue_kind(hit, is_rank, kinds)
                options.append((k == kind, is_rank, key, mask))
        good = [o for o in options if o[0]] or options
        if accept is not None:
            good = [o for o in options if o[0] and accept(seat, o[3], after)]
            if not good:
                return None
        best = None
        best_score = -1.0
        for _, is_rank, key, mask in good:
            score = self.goodness(seat, mask, after[seat])
            if score > best_score:
                best_score = score
                best = (is_rank, key)
        if best is None:
            return None  # no clue to that seat touches a card (null suits, blind variants)
        is_rank, key = best
        return Action.clue(seat, rank=key) if is_rank else Action.clue(seat, color=key)

    def goodness(self, seat: int, mask: int, masks: list[int]) -> float:
        obs = self.obs
        w = self.pub_weights()
        dead = obs.dead
        score = 1.0
        for order, m in zip(obs.hands[seat], masks):
            if not m & ~dead or not m & (m - 1):
                continue
            c = obs.card[order]
            new = m & mask if mask >> c & 1 else m & ~mask
            _, before = self.prob(m, 0, w)
            _, after = self.prob(new, 0, w)
            if not after:
                continue
            bonus = 2 if (not new & (new - 1) or not new & ~dead) else 1
            score *= bonus * before / after
        return score
