"""The interface every strategy implements."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, ClassVar

from hanabi.game import Action, Variant

from .observation import Observation


class Bot:
    """One seat's player: fed that seat's events, asked for an action on its turn.

    A bot is built from the table's public facts (variant, player count, its seat,
    options) and learns everything else from :meth:`observe`: the opening deal's draws,
    then the events of every action in order, each as :func:`~hanabi.game.views.redact_event`
    gives them to this seat. Its decisions must depend only on those events, so that a
    bot rebuilt from the log (the stateless server) acts exactly like one that watched
    the game live; :meth:`act` therefore must not change what later turns decide.
    """

    name: ClassVar[str] = "bot"
    #: One line for people choosing a strategy (the lobby, the CLI, the API's errors): a
    #: message id of the catalogues (``N_``), translated where it is shown.
    description: ClassVar[str] = ""
    #: A strategy that only works when every other seat plays it too (a private code,
    #: like hat's) names the strategy it plays otherwise; see ``registry.playing``.
    fallback: ClassVar[str | None] = None
    #: Who sits where, seat by seat: a strategy for a bot, None for a person (set by
    #: ``registry.make_bot``); None when the table is not known (every seat a bot alike).
    table: list[str | None] | None = None
    #: Moves :meth:`act` had to pick itself (the strategy's was illegal, or it had none).
    fallbacks: int = 0

    def __init__(
        self,
        variant: Variant | str,
        num_players: int,
        seat: int,
        options: dict[str, Any] | None = None,
    ) -> None:
        self.obs = Observation(variant, num_players, seat, options)

    @property
    def seat(self) -> int:
        return self.obs.me

    def observe(self, events: Iterable[dict[str, Any]]) -> None:
        """Take in the events of one action (or of the opening deal)."""
        self.obs.observe(events)

    def act(self) -> Action:
        """The action this seat takes now (only asked when it is this seat's turn).

        The strategy's :meth:`decide`, checked against the rules (every hanab.live
        variant's clue colours and ranks, alternating clues, half clue tokens, empty clues
        where the variant forbids them, ...): a move the engine would refuse, or a
        strategy with no answer for a rule it was not written for, is replaced by
        :meth:`~.observation.Observation.fallback`'s legal move and counted in
        ``fallbacks`` (tests keep them rare).
        """
        try:
            action = self.decide()
        except (ArithmeticError, AssertionError, LookupError, ValueError):
            action = None
        if action is not None and self.obs.is_legal(action):
            return action
        self.fallbacks += 1
        return self.obs.fallback()

    @classmethod
    def plays_variant(cls, variant: Variant) -> bool:
        """Whether this strategy can play ``variant`` its own way; where not, a strategy
        with a ``fallback`` plays that one instead (see ``registry.make_bot``)."""
        return True

    def decide(self) -> Action | None:
        """The strategy's own choice (None: it has none); see :meth:`act`."""
        raise NotImplementedError
