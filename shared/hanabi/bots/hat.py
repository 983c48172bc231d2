"""``hat``: a hat-guessing information strategy for tables of bots.

After the "information strategy" of Cox et al., "How to Make the Perfect Fireworks
Display" (2015), as improved by Jeff Wu's hanabi.rs. Written for this engine and its
variants; conventions:

* **Public knowledge.** Every player keeps, for every card in every hand, the set of
  identities the whole table considers possible. A card's probability of being playable
  (or dead) is computed from it, weighting identities by their unseen copies.
* **Questions.** From a hand's public knowledge alone, everyone derives the same list of
  questions about that hand: "is card i playable?", "is card i dead?", which part of a
  partition of its possible identities card i is in. The answers fit in a number modulo
  ``T``, the number of distinct clues the giver can give.
* **Clues are sums.** A clue encodes the sum, modulo ``T``, of every other player's
  answer. Each receiver sees all the other hands, subtracts their answers, and is left
  with its own. Which clue encodes which value: the clue's target, and whether it is a
  rank or colour clue that does or does not touch that target's "hint card" (the card
  with the least public knowledge) — what the clue actually touches is extra information.
* **Which card would you throw away?** Once a player knows a playable card, the next
  question asks whether the card it would discard (the cheapest by public knowledge) is
  a last copy, when that is uncertain.
* **Discards speak too.** A discard while clue tokens were left says that no other player
  holds a playable card without knowing it; a choice between several publicly useless
  cards encodes a further number.
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

from .base import Bot

Question = tuple  # ("play"|"dead", index) | ("combo", [(kind, index)...]) | ("part", index, {id: block}, n)


def clue_kind(hit: bool, is_rank: bool, kinds: int) -> int:
    """Which of a target's ``kinds`` (3 or 4) values a clue to it says: whether it touches
    the target's hinted card, and whether it is a rank or a colour clue. Giver and
    receivers must agree exactly, so both sides call this."""
    if hit:
        return 0 if is_rank else 1
    if kinds == 3:
        return 2
    return 2 if is_rank else 3


class _MaskMemo(dict[int, Any]):
    """A pure function of a mask of card ids, memoised: hat reads a card's knowledge,
    which changes slowly, so a rollout asks about the same masks again and again. Shared
    by every bot; cleared at ``LIMIT`` entries (a search meets some 200 000 masks a game,
    most of them once)."""

    LIMIT = 1 << 14

    def __missing__(self, m: int) -> Any:
        if len(self) >= self.LIMIT:
            self.clear()
        self[m] = out = self.compute(m)
        return out

    @staticmethod
    def compute(m: int) -> Any:
        raise NotImplementedError


class _BitLists(_MaskMemo):
    """The set bits of a mask (the card ids): hat sums weights over them."""

    @staticmethod
    def compute(m: int) -> list[int]:
        out = []
        while m:
            low = m & -m
            out.append(low.bit_length() - 1)
            m ^= low
        return out


class _SuitsRanks(_MaskMemo):
    """The suits and the ranks a mask allows, as bit sets (suit ``s`` is bit ``s``, rank
    ``r`` bit ``r``; a card id is ``5 * suit + rank - 1`` in every variant): which clue
    kinds a hand allows, and which of its cards a clue points at."""

    @staticmethod
    def compute(m: int) -> tuple[int, int]:
        suits = ranks = 0
        for c in BITS[m]:
            suits |= 1 << (c // 5)
            ranks |= 1 << (c % 5 + 1)
        return suits, ranks


BITS = _BitLists()
SUITS_RANKS = _SuitsRanks()


class Modulus:
    """A value known modulo ``modulus`` (hat_helpers' ModulusInformation)."""

    __slots__ = ("modulus", "value")

    def __init__(self, modulus: int, value: int) -> None:
        self.modulus = modulus
        self.value = value

    def remaining(self, limit: int) -> int:
        return (limit - self.value - 1) // self.modulus + 1

    def combine(self, other: Modulus, limit: int) -> None:
        self.value += self.modulus * other.value
        self.modulus = min(limit, self.modulus * other.modulus)

    def split(self, modulus: int) -> Modulus:
        original = self.modulus
        value = self.value % modulus
        self.value //= modulus
        self.modulus = (original - value - 1) // modulus + 1
        return Modulus(modulus, value)


class HatBot(Bot):
    """Hat-guessing information strategy (see module doc)."""

    name = "hat"
    description = (
        "only with other hat bots (a private code no person reads; seated with anyone "
        "else it plays conventions)"
    )
    fallback = "conventions"

    def __init__(
        self,
        variant: Variant | str,
        num_players: int,
        seat: int,
        options: dict[str, Any] | None = None,
    ) -> None:
        super().__init__(variant, num_players, seat, options)
        obs = self.obs
        v = obs.variant
        self.copies = v.copies
        self.pub = list(obs.told)
        self.present = obs.told[0]
        # Four kinds of clue per target only where "a colour clue not touching card i"
        # is guaranteed to exist when the hand is publicly not all one suit.
        self.simple_colors = all(
            not s.all_colors and not s.no_colors and not s.all_ranks and not s.no_ranks
            and (s.touched_by is None or s.touched_by == (s.color,))
            for s in v.suits
        )  # fmt: skip
        self.color_clues = list(v.color_masks.items())
        self.rank_clues = list(v.rank_masks.items())
        distinct = sum(1 for n in v.copies if n)
        self.discard_threshold = v.card_count - distinct - num_players * obs.hand_size
        self._pub_w: list[int] | None = None  # pub_weights(), until a card is gone

    # -- small helpers -------------------------------------------------------------------

    def pub_weights(self) -> list[int]:
        """Unseen-by-the-table copies of each identity (callers only read the list: it is
        kept until the next play, misplay or discard, the hottest call of a rollout)."""
        w = self._pub_w
        if w is None:
            w = self._pub_w = [c - g for c, g in zip(self.copies, self.obs.gone)]
        return w

    def priv_weights(self) -> list[int]:
        seen = self.obs.seen
        return [c - s for c, s in zip(self.copies, seen)]

    def prob(self, m: int, pred: int, w: list[int]) -> tuple[int, int]:
        """(weight of ``m``'s identities in ``pred``, total weight of ``m``)."""
        good = total = 0
        for c in BITS[m]:
            x = w[c]
            total += x
            if pred >> c & 1:
                good += x
        return good, total

    # -- questions ---------------------------------------------------------------------

    def ask(self, masks: list[int], info: int, w: list[int]) -> Question | None:
        """The next question about a hand with public knowledge ``masks`` (None: stop)."""
        if info <= 1:
            return None
        obs = self.obs
        playable = obs.playable
        dead = obs.dead
        aug = []
        know_play = know_dead = False
        bits = BITS
        for i, m in enumerate(masks):
            total = 0
            for c in bits[m]:
                total += w[c]
            gp = 0
            for c in bits[m & playable]:
                gp += w[c]
            gd = 0
            for c in bits[m & dead]:
                gd += w[c]
            if total == 0:
                total = 1
            if gp == total and total:
                know_play = True
            if gd == total:
                know_dead = True
            if gd == total or not m & (m - 1) or not m & ~dead:
                continue
            aug.append((i, gp / total, gd / total))
        if not know_play:
            to_ask = [(0, i, pp) for i, pp, _ in aug if pp > 0]
            if not know_dead:
                to_ask += [(1, i, pd) for i, _, pd in aug if pd > 0]
            cap = info - 1
            if len(to_ask) > cap:
                to_ask.sort(key=lambda t: (t[0], -t[2]))
                del to_ask[cap:]
            if to_ask:
                to_ask.sort(key=lambda t: (t[0], t[2]))
                return ("combo", [(kind, i) for kind, i, _ in to_ask])
        if not know_dead:
            q = self.chop_question(masks, w)
            if q is not None:
                return q
        ask_play = [(abs(pp - 0.7), i) for i, pp, _ in aug if abs(pp - 0.7) < 0.2]
        if ask_play:
            ask_play.sort()
            return ("play", ask_play[0][1])
        if not aug:
            return None
        aug.sort(key=lambda t: (t[2], t[0]))
        i = aug[0][0]
        q = self.partition(i, masks[i], info)
        return q if q[3] > 1 else None

    CRIT_LO = 0.1

    def chop_question(self, masks: list[int], w: list[int]) -> Question | None:
        """ "Is the card you would discard a last copy?", when it may or may not be."""
        i, _ = self.safest_discard(masks, w, public=True)
        m = masks[i]
        crit = self.obs.critical & ~self.obs.dead
        good, total = self.prob(m, crit, w)
        if total and self.CRIT_LO * total < good < total:
            return ("crit", i)
        return None

    def partition(self, i: int, m: int, info: int) -> Question:
        dead = self.obs.dead
        has_dead = bool(m & dead)
        effective = info - 1 if has_dead else info
        blocks = {}
        cur = n = 0
        for c in BITS[m & ~dead]:
            blocks[c] = cur
            cur = (cur + 1) % effective
            if n < effective:
                n += 1
        if has_dead:
            for c in BITS[m & dead]:
                blocks[c] = n
            n += 1
        return ("part", i, blocks, n)

    @staticmethod
    def amount(q: Question) -> int:
        if q[0] == "combo":
            return len(q[1]) + 1
        if q[0] == "part":
            return q[3]
        return 2

    def answer(self, q: Question, cards: list[int]) -> int:
        obs = self.obs
        kind = q[0]
        if kind == "play":
            return 1 if obs.playable >> cards[q[1]] & 1 else 0
        if kind == "dead":
            return 1 if obs.dead >> cards[q[1]] & 1 else 0
        if kind == "crit":
            return 1 if (obs.critical & ~obs.dead) >> cards[q[1]] & 1 else 0
        if kind == "part":
            # A card outside the partition means the public knowledge was wrong (a
            # teammate not playing this strategy): any answer will do.
            return q[2].get(cards[q[1]], 0)
        for k, (sub, i) in enumerate(q[1]):
            pred = obs.dead if sub else obs.playable
            if pred >> cards[i] & 1:
                return k + 1
        return 0

    def acknowledge(self, q: Question, value: int, masks: list[int]) -> None:
        obs = self.obs
        kind = q[0]
        if kind in ("play", "dead", "crit"):
            if kind == "crit":
                pred = obs.critical & ~obs.dead
            else:
                pred = obs.playable if kind == "play" else obs.dead
            i = q[1]
            masks[i] = masks[i] & pred if value else masks[i] & ~pred
        elif kind == "part":
            i = q[1]
            keep = 0
            for c, block in q[2].items():
                if block == value:
                    keep |= 1 << c
            masks[i] &= keep
        else:
            # "combo": value k>0 means question k-1 is the first yes; 0 means all no.
            subs = q[1]
            stop = len(subs) if value == 0 else value - 1
            for k in range(stop):
                sub, i = subs[k]
                masks[i] &= ~(obs.dead if sub else obs.playable)
            if value:
                sub, i = subs[value - 1]
                masks[i] &= obs.dead if sub else obs.playable

    def hat_info(self, seat: int, total: int, w: list[int]) -> tuple[Modulus, list[int]]:
        """``seat``'s answer (this seat can see its cards) and its knowledge after it."""
        masks = [self.pub[o] for o in self.obs.hands[seat]]
        cards = [self.obs.card[o] for o in self.obs.hands[seat]]
        info = Modulus(1, 0)
        while True:
            q = self.ask(masks, info.remaining(total), w)
            if q is None:
                break
            value = self.answer(q, cards)
            self.acknowledge(q, value, masks)
            info.combine(Modulus(self.amount(q), value), total)
        info.modulus = total
        return info, masks

    def learn(self, masks: list[int], info: Modulus, w: list[int]) -> None:
        while True:
            q = self.ask(masks, info.modulus, w)
            if q is None:
                break
            self.acknowledge(q, info.split(self.amount(q)).value, masks)

    def answers(self, source: int, total: int) -> dict[int, tuple[Modulus, list[int]]]:
        """The answer of everyone but ``source`` and this seat to a hat value of
        ``total``, and their knowledge after answering."""
        w = self.pub_weights()
        me = self.obs.me
        return {
            seat: self.hat_info(seat, total, w)
            for seat in range(self.obs.num_players)
            if seat not in (source, me)
        }

    def hat_sum(self, source: int, total: int) -> tuple[int, dict[int, list[int]]]:
        """The sum of the answers of everyone but ``source`` and this seat, and their
        knowledge after answering."""
        return self._summed(self.answers(source, total), total)

    @staticmethod
    def _summed(
        answers: dict[int, tuple[Modulus, list[int]]], total: int
    ) -> tuple[int, dict[int, list[int]]]:
        value = sum(info.value for info, _ in answers.values())
        return value % total, {seat: masks for seat, (_, masks) in answers.items()}

    def apply_hat(self, source: int, total: int, value: int) -> None:
        """Everyone learns their answer to a hat value of ``total`` given by ``source``.

        Where ``source`` is this seat and the value is not the table's sum (a search
        played another clue than hat's, or threw away another useless card), every
        partner reads a wrong answer: its knowledge is what that reading leaves, and this
        seat records that, not what the true answer would have taught. Otherwise the two
        seats' public knowledge would part (at two players, where only the source can
        tell), and the giver's rollouts would expect the partner to know its cards
        (measured: a search game struck out on three such misplays)."""
        obs = self.obs
        answers = self.answers(source, total)  # kept: a deviation needs each answer
        others, after = self._summed(answers, total)
        w = self.pub_weights()
        if obs.me != source:
            masks = [self.pub[o] for o in obs.hands[obs.me]]
            self.learn(masks, Modulus(total, (value - others) % total), w)
            after[obs.me] = masks
        elif value % total != others:
            shift = value - others
            for seat, (answer, _) in answers.items():
                masks = [self.pub[o] for o in obs.hands[seat]]
                self.learn(masks, Modulus(total, (answer.value + shift) % total), w)
                after[seat] = masks
        for seat, masks in after.items():
            for order, m in zip(obs.hands[seat], masks):
                # An empty set means someone did not follow the protocol: fall back on
                # what the clues said.
                self.pub[order] = m or obs.told[order]

    # -- clue encoding -----------------------------------------------------------------

    def kinds(self, seat: int) -> int:
        """How many clue kinds a clue to ``seat`` can signal (3, or 4 when it is public
        that the hand has two suits and two ranks)."""
        if not self.simple_colors:
            return 3
        hand = self.obs.hands[seat]
        if len(hand) < 2:
            return 3
        suits = ranks = -1  # a suit (a rank) that every card may be of
        pub = self.pub
        for order in hand:
            s, r = SUITS_RANKS[pub[order]]
            suits &= s
            ranks &= r
        return 3 if suits or ranks else 4

    def hint_index(self, seat: int) -> int:
        dead = self.obs.dead
        best = 0
        best_score = -1
        for i, order in enumerate(self.obs.hands[seat]):
            m = self.pub[order]
            if not m & ~dead or not m & (m - 1):
                score = 0
            else:
                suits, ranks = SUITS_RANKS[m]
                # 1, and 1 more for each of suit and rank that is not known yet
                score = 1 + bool(suits & (suits - 1)) + bool(ranks & (ranks - 1))
            if score > best_score:
                best_score = score
                best = i
        return best

    def encoding(self, giver: int) -> list[tuple[int, int, int]]:
        """(target, kinds, offset) for each other player, in seat order after ``giver``."""
        n = self.obs.num_players
        out = []
        offset = 0
        for k in range(1, n):
            seat = (giver + k) % n
            kinds = self.kinds(seat)
            out.append((seat, kinds, offset))
            offset += kinds
        return out

    def decode(self, giver: int, target: int, is_rank: bool, touched: Any) -> tuple[int, int]:
        """(total, value) that a clue from ``giver`` encodes."""
        enc = self.encoding(giver)
        total = sum(k for _, k, _ in enc)
        for seat, kinds, offset in enc:
            if seat == target:
                i = self.hint_index(seat)
                hit = self.obs.hands[seat][i] in touched
                return total, offset + clue_kind(hit, is_rank, kinds)
        raise ValueError("clue to self")

    # -- watching ------------------------------------------------------------------------

    def observe(self, events: Any) -> None:
        obs = self.obs
        for e in events:
            kind = e["type"]
            if kind == "clue":
                total, value = self.decode(
                    e["seat"], e["target"], e["rank"] is not None, e["touched"]
                )
                self.apply_hat(e["seat"], total, value)
                obs.handle(e)
                told = obs.told
                pub = self.pub
                for order in obs.hands[e["target"]]:
                    pub[order] &= told[order]
            elif kind == "discard":
                seat = e["seat"]
                if obs.clue_tokens > 0:
                    self.no_one_needs_clue(seat)
                useless = self.useless(seat, public=True)
                hand = obs.hands[seat]
                chosen = [hand[i] for i in useless]
                if len(useless) > 1 and e["card"] in chosen:
                    self.apply_hat(seat, len(useless), chosen.index(e["card"]))
                obs.handle(e)
                self._pub_w = None
            elif kind == "draw":
                obs.handle(e)
                w = self.pub_weights()
                self.pub[e["card"]] = sum(1 << c for c, x in enumerate(w) if x > 0)
            else:
                obs.handle(e)
                self._pub_w = None
        obs.end_turn()

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

    def knows_playable(self, seat: int, w: list[int]) -> bool:
        playable = self.obs.playable
        for order in self.obs.hands[seat]:
            good, total = self.prob(self.pub[order], playable, w)
            if total and good == total:
                return True
        return False

    def no_one_needs_clue(self, source: int) -> None:
        """``source`` discarded with tokens left: every other player who does not know a
        playable card holds none."""
        w = self.pub_weights()
        playable = self.obs.playable
        for seat in range(self.obs.num_players):
            if seat == source or self.knows_playable(seat, w):
                continue
            for order in self.obs.hands[seat]:
                m = self.pub[order] & ~playable
                if m:
                    self.pub[order] = m

    def useless(self, seat: int, public: bool) -> list[int]:
        """Indices of cards in ``seat``'s hand that are known useless (dead, or a second
        copy of a known card) from public or (for this seat) private knowledge."""
        obs = self.obs
        dead = obs.dead
        w = self.pub_weights() if public else self.priv_weights()
        out = set()
        seen: dict[int, int] = {}
        for i, order in enumerate(obs.hands[seat]):
            m = self.pub[order] if public else self.private(order, w)
            if not m & ~dead:
                out.add(i)
            elif not m & (m - 1):
                if m in seen:
                    out.add(i)
                    out.add(seen[m])
                else:
                    seen[m] = i
        return sorted(out)

    def private(self, order: int, w: list[int]) -> int:
        m = self.pub[order]
        k = 0
        for c in BITS[m]:
            if w[c] > 0:
                k |= 1 << c
        return k or m

    # -- deciding ----------------------------------------------------------------------

    def act(self) -> Action:
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
        if will_clue:
            return self.clue()
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

    def visible_cards(self) -> int:
        """Mask of the identities this seat sees in the other hands."""
        obs = self.obs
        visible = 0
        for seat, h in enumerate(obs.hands):
            if seat != obs.me:
                for o in h:
                    visible |= 1 << obs.card[o]
        return visible

    NONCRIT = 0.15
    SEEN = 0.02

    def safest_discard(
        self, masks: list[int], w: list[int], public: bool = False
    ) -> tuple[int, float]:
        """(index, expected points lost) of the card whose discard costs least: a last
        copy costs the ranks it blocks, another copy little (less if one is in view)."""
        obs = self.obs
        dead = obs.dead
        critical = obs.critical
        visible = 0 if public else self.visible_cards()
        best = (0, float("inf"))
        for i, m in enumerate(masks):
            total = cost = 0.0
            for c in BITS[m]:
                x = w[c]
                if not x:
                    continue
                total += x
                if dead >> c & 1:
                    continue
                r = c % 5 + 1
                if critical >> c & 1:
                    cost += x * (6 - r)
                elif visible >> c & 1:
                    cost += x * self.SEEN * (6 - r)
                else:
                    cost += x * self.NONCRIT * (6 - r)
            cost = cost / total if total else 0.0
            if cost < best[1]:
                best = (i, cost)
        return best

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
            score += x * (10 - (c % 5 + 1)) / (1 + held.get(c, 0))
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
            for key, mask in clues:
                present = any(mask >> obs.card[o] & 1 for o in hand)
                if not present and not obs.options.get("empty_clues"):
                    continue
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
        assert best is not None
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
