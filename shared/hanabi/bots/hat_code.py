"""The hat code: what every hat bot agrees a clue, and a choice of discard, says.

After the "information strategy" of Cox et al., "How to Make the Perfect Fireworks
Display" (2015), as improved by Jeff Wu's hanabi.rs. :class:`HatCode` keeps the table's
public knowledge and reads every move by the code; :class:`hanabi.bots.hat.HatBot` decides
what to do with it. The code:

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
"""

from __future__ import annotations

from typing import Any

from hanabi.game import Variant

from .base import Bot

Question = tuple  # ("play"|"dead", index) | ("combo", [(kind, index)...]) | ("part", index, {id: block}, n)


def clue_kind(hit: bool, is_rank: bool, kinds: int) -> int:
    """Which of a target's ``kinds`` (2, 3 or 4) values a clue to it says: whether it touches
    the target's hinted card, and whether it is a rank or a colour clue. Giver and
    receivers must agree exactly, so both sides call this."""
    if kinds == 2:  # one clue kind to choose from (Alternating Clues, Duck)
        return 0 if hit else 1
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


class HatCode(Bot):
    """The table's public knowledge under the hat code, kept up to date from every move
    (``observe``), and the code's questions, answers and clue encoding. Every seat must
    read a move exactly as the others do, so this is kept apart from the choices of a
    player (:class:`hanabi.bots.hat.HatBot`), which may change without changing the
    code."""

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
        that the hand has two suits and two ranks; 2 when the kind of the next clue is
        not free, or not public: Alternating Clues, Duck)."""
        rules = self.obs.variant.rules
        if rules.duck or (rules.alternating_clues and self.obs.last_clue_kind is not None):
            return 2
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
                # (a Cow & Pig clue says its kind by its sound; a Duck clue not even that)
                is_rank = e["rank"] is not None or e.get("sound") == "oink"
                total, value = self.decode(e["seat"], e["target"], is_rank, e["touched"])
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

    # -- the card one would throw away -------------------------------------------------

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
                r = min(obs.variant.rank_of[c], 5)
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
