"""The engine's enums say exactly what its string constants say: the values that logs,
the wire and stored games hold."""

from __future__ import annotations

import hanabi.game
from hanabi.game import ActionKind, EndReason, actions, ending


def test_action_kinds_are_the_action_types() -> None:
    assert tuple(ActionKind) == actions.ACTION_TYPES
    assert ActionKind.PLAY == actions.PLAY and ActionKind.TERMINATE == actions.TERMINATE


def test_end_reasons_are_the_engines() -> None:
    assert sorted(EndReason) == sorted((*ending.RULE_REASONS, *ending.END_REASONS))
    assert EndReason("deck_out") is EndReason.DECK_OUT


def test_the_package_exports_them() -> None:
    assert {"ActionKind", "EndReason"} <= set(hanabi.game.__all__)
    assert hanabi.game.ActionKind is ActionKind
