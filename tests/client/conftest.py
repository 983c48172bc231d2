"""Fixtures for the client tests: real engine states dressed as server views.

The client never imports the engine; the tests use it to build exact, legal views with
the keys the server adds (id, status, version, host, max_players, players, you).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import pytest

from hanabi.game import Action, Game, Setup, full_view, get_variant, spectator_view, view
from hanabi.game.views import redact_event


def dress(
    game: Game, raw: dict[str, Any], *, you: int | None, game_id: str = "t3st1d", host: int = 0
) -> dict[str, Any]:
    """An engine view with the keys the server adds."""
    names = list(raw["players"])
    return {
        **raw,
        "id": game_id,
        "status": "finished" if game.is_over else "playing",
        "version": game.turn + 2,
        "max_players": len(names),
        "host": host,
        "you": you,
        "players": [{"seat": i, "name": n, "bot": None} for i, n in enumerate(names)],
    }


class Table:
    """A game with its full event log, viewable from any seat."""

    def __init__(self, setup: Setup) -> None:
        self.game = Game(setup)
        self.events = list(self.game.deal_events())

    def do(self, *actions: Action) -> Table:
        for action in actions:
            self.events += self.game.apply(action)
        return self

    def clue_for(self, target: int, kind: str = "rank") -> Action:
        """The first legal clue of ``kind`` ("rank" or "color") for ``target``."""
        for action in self.game.legal_actions():
            if action.type == "clue" and action.target == target and getattr(action, kind):
                return action
        raise AssertionError(f"no legal {kind} clue for seat {target}")

    def hand(self, seat: int) -> list[int]:
        return list(self.game.hands[seat])

    def view(self, seat: int | None) -> dict[str, Any]:
        raw = spectator_view(self.game) if seat is None else view(self.game, seat)
        return dress(self.game, raw, you=seat)

    def full(self) -> dict[str, Any]:
        return dress(self.game, full_view(self.game), you=None)

    def log(self, seat: int | None) -> list[dict[str, Any]]:
        """The event log as the server sends it to ``seat``: redacted, numbered from 1."""
        return [
            {**redact_event(e, seat, self.game.is_over), "seq": i + 1}
            for i, e in enumerate(self.events)
        ]


def deck_of(variant: str, cards: Sequence[str]) -> list[tuple[str, int]]:
    """A full deck starting with ``cards`` ("r1", "b5", ...), then the rest in order."""
    v = get_variant(variant)
    letters = {s.abbreviation.lower(): s.id for s in v.suits}
    head = [(letters[c[0]], int(c[1])) for c in cards]
    rest = [v.card(c) for c in v.deck()]
    for card in head:
        rest.remove(card)
    return head + rest


@pytest.fixture
def make_table() -> Callable[..., Table]:
    def make(
        players: Sequence[str] = ("alice", "bob"),
        variant: str = "no_variant",
        cards: Sequence[str] = (),
        seed: str = "7",
    ) -> Table:
        deck = deck_of(variant, cards) if cards else None
        return Table(Setup.create(variant, list(players), seed=seed, deck=deck))

    return make
