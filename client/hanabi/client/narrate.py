"""Events in words: "bob clued alice red, touching slots 2 and 4".

Slots are counted as the table shows them (1 = newest card, on the left). A clue's slots
are where the cards were when it was given, so the narrator replays the hands from the
event log's draws, plays and discards.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from .codes import EndReason, EventKind
from .i18n import _, n_
from .variants import VariantInfo
from .words import colour_word, end_reason, seat_name, suit_word


def player_names(view: Mapping[str, Any]) -> list[str]:
    """Names by seat, from the server's [{seat, name, bot}] or the engine's [name]."""
    names = []
    for i, p in enumerate(view.get("players") or []):
        names.append(str(p.get("name", f"seat {i + 1}")) if isinstance(p, Mapping) else str(p))
    return names


def card_text(info: VariantInfo, suit: str | None, rank: int | None) -> str:
    return f"{info.letter(suit) if suit else '?'}{rank if rank is not None else '?'}"


def slots_text(slots: Sequence[int]) -> str:
    """The tail of a clue's sentence: ", touching slots 2 and 4" (the web's words too)."""
    if not slots:
        return _(", touching nothing")
    if len(slots) == 1:
        return _(", touching slot {slot}", slot=slots[0])
    some = _(", ").join(map(str, slots[:-1]))
    return _(", touching slots {some} and {last}", some=some, last=slots[-1])


class Narrator:
    """Turns events into sentences, following the hands to name slots.

    ``names`` are the players by seat as the table sits now (from the newest view): the
    game's events number seats that way. The lobby's joins and leaves in the log number
    seats as they were then, and name their player themselves.
    """

    def __init__(self, names: Sequence[str], info: VariantInfo) -> None:
        self.names = list(names)
        self.info = info
        self.hands: dict[int, list[int]] = {}
        # (sentence, aside): asides (draws, the game-over line, which the table and the
        # bot print on their own) are in the history but not among the recent moves.
        self.lines: list[tuple[str, bool]] = []
        self.said: list[str] = []  # chat lines, listed apart from the moves

    def name(self, seat: Any) -> str:
        return seat_name(self.names, seat)

    def _slot(self, seat: int, order: int) -> int | None:
        hand = self.hands.get(seat)
        if hand is None or order not in hand:
            return None
        return hand.index(order) + 1

    def _take(self, seat: int, order: int) -> str:
        slot = self._slot(seat, order)
        if slot is not None:
            self.hands[seat].remove(order)
            return _(" from slot {slot}", slot=slot)
        return ""

    def feed(self, events: Iterable[Mapping[str, Any]]) -> list[str]:
        """Narrate ``events`` (in log order); returns the new sentences, draws included."""
        new: list[str] = []
        for event in events:
            line = self._one(event)
            if line is None:
                continue
            text, aside, joins_previous = line
            if event.get("type") == EventKind.CHAT:
                self.said.append(text)  # in the history, not among the recent moves
                self.lines.append((text, True))
                new.append(text)
                continue
            if joins_previous and self.lines:
                prev, prev_draw = self.lines[-1]
                self.lines[-1] = (prev + text, prev_draw)
                if new:
                    new[-1] = new[-1] + text
                else:
                    new.append(prev + text)
                continue
            self.lines.append((text, aside))
            new.append(text)
        return new

    def feed_moves(self, events: Iterable[Mapping[str, Any]]) -> list[str]:
        """Narrate ``events``; returns the new sentences without the asides (draws, game over)."""
        start = len(self.lines)
        self.feed(events)
        return [t for t, aside in self.lines[start:] if not aside]

    def recent(self, count: int) -> list[str]:
        """The last ``count`` sentences, asides left out (they are in the history)."""
        return [t for t, aside in self.lines if not aside][-count:]

    def chat(self, count: int) -> list[str]:
        """The last ``count`` chat lines."""
        return self.said[-count:] if count > 0 else []

    def history(self) -> list[str]:
        return [t for t, _ in self.lines]

    def _one(self, e: Mapping[str, Any]) -> tuple[str, bool, bool] | None:
        kind = e.get("type")
        who = self.name(e.get("seat"))
        if kind == EventKind.DRAW:
            seat = e.get("seat")
            if isinstance(seat, int):
                self.hands.setdefault(seat, []).insert(0, e.get("card"))
            if e.get("suit") is None:
                return _("{who} drew a card", who=who), True, False
            card = card_text(self.info, e.get("suit"), e.get("rank"))
            return _("{who} drew {card}", who=who, card=card), True, False
        if kind == EventKind.CLUE:
            target = e.get("target")
            what = colour_word(e["color"]) if e.get("color") is not None else e.get("rank")
            touched = list(e.get("touched") or [])
            slots = [self._slot(target, o) for o in touched] if isinstance(target, int) else []
            known = [s for s in slots if s is not None]
            tail = slots_text(sorted(known)) if len(known) == len(touched) else ""
            text = _("{who} clued {target} {clue}", who=who, target=self.name(target), clue=what)
            return text + tail, False, False
        if kind == EventKind.PLAY:
            card = card_text(self.info, e.get("suit"), e.get("rank"))
            where = self._take(e.get("seat"), e.get("card"))
            onto = ""
            if e.get("firework") and e.get("firework") != e.get("suit"):
                suit = suit_word(self.info.suit(e["firework"]).name)
                onto = _(" on the {suit} firework", suit=suit)
            return _("{who} played {card}", who=who, card=card) + where + onto, False, False
        if kind == EventKind.MISPLAY:
            card = card_text(self.info, e.get("suit"), e.get("rank"))
            where = self._take(e.get("seat"), e.get("card"))
            return _("{who} misplayed {card}", who=who, card=card) + where, False, False
        if kind == EventKind.STRIKE:
            return _(" (strike {strikes} of 3)", strikes=e.get("strikes")), False, True
        if kind == EventKind.CLUE_TOKEN:
            return " and got a clue back", False, True
        if kind == EventKind.DISCARD:
            card = card_text(self.info, e.get("suit"), e.get("rank"))
            where = self._take(e.get("seat"), e.get("card"))
            return _("{who} discarded {card}", who=who, card=card) + where, False, False
        if kind == EventKind.FINAL_ROUND:
            text = n_(
                "The deck is empty: final round, {n} turn left",
                "The deck is empty: final round, {n} turns left",
                int(e.get("turns_left") or 0),
            )
            return text, False, False
        if kind == EventKind.TERMINATE:
            return self._terminate(e, who), False, False
        if kind == EventKind.VOTE:
            votes = {"votes": e.get("votes"), "needed": e.get("needed")}
            if e.get("end"):
                return (
                    _("Someone voted to end the game ({votes} of {needed} needed)", **votes),
                    False,
                    False,
                )
            return (
                _("A vote to end the game was taken back ({votes} of {needed} needed)", **votes),
                False,
                False,
            )
        if kind == EventKind.GAME_OVER:
            reason = end_reason(e.get("reason"))
            return (
                _("Game over ({reason}): score {score}", reason=reason, score=e.get("score")),
                True,
                False,
            )
        if kind == EventKind.CHAT:
            speaker = e.get("name") or who
            return f"<{speaker}> {e.get('text', '')}", False, False
        return self._lobby(kind, e)

    @staticmethod
    def _terminate(e: Mapping[str, Any], who: str) -> str:
        reason = e.get("reason")
        if reason == EndReason.TIMEOUT:
            return _("{who} ran out of time", who=who)
        if reason == EndReason.IDLE:
            return _("Nobody moved for too long: the server ended the game")
        if e.get("seat") is None:
            return _("The players voted to end the game")
        return _("{who} ended the game", who=who)

    def _lobby(self, kind: Any, e: Mapping[str, Any]) -> tuple[str, bool, bool] | None:
        name = e.get("name") or self.name(e.get("seat"))
        if kind == EventKind.JOIN:
            # The seat is the one taken then: a leave moves later seats up, so it need not
            # be the seat played at the deal. ``names`` (the table as it sits) stay as given.
            plays = e.get("plays")
            if plays:
                return (
                    _("{name} joined (a {strategy} program)", name=name, strategy=plays),
                    False,
                    False,
                )
            return _("{name} joined", name=name), False, False
        if kind == EventKind.PLAYS:
            plays = e.get("plays")
            text = (
                _("{name} plays {strategy} (a program)", name=name, strategy=plays)
                if plays
                else _("{name} plays in person", name=name)
            )
            return text, False, False
        if kind in (EventKind.LEAVE, EventKind.REMOVE):
            return _("{name} left", name=name), False, False
        if kind == EventKind.START:
            return _("The game started"), False, False
        if kind == EventKind.PAUSE:
            return pause_line(e), False, False
        if kind == EventKind.DECLINE:
            return _("{name} declined: the seat is open", name=name), False, False
        return None


def pause_line(e: Mapping[str, Any]) -> str:
    """A ``pause`` event in words: the table paused or went on, or a vote for it (who
    voted is not said)."""
    votes = {"votes": e.get("votes"), "needed": e.get("needed")}
    if e.get("changed"):
        return _("The game is paused") if e.get("paused") else _("The game goes on")
    if not e.get("votes"):
        return _("A vote was taken back ({votes} of {needed} needed)", **votes)
    if e.get("paused"):
        return _("Someone voted to go on ({votes} of {needed} needed)", **votes)
    return _("Someone voted to pause ({votes} of {needed} needed)", **votes)
