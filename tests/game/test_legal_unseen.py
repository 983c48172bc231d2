"""Legal moves shown to someone who does not see every card (a shared replay's followers
while a hypothetical hides its draws): they must not depend on the hidden cards."""

from __future__ import annotations

import pytest

from hanabi.game import Action, Game, IllegalAction, Setup, get_variant
from hanabi.game.legal import legal_actions_unseen

HIDDEN = 10  # the card seat 0 draws after playing its first one


def _deal(drawn: tuple[str, int], variant: str = "no_variant") -> Game:
    """Two players; seat 0 holds r1 and ranks 3, 4, 3, 3 (no 1, 2 or 5), plays the r1 and
    draws ``drawn`` as card 10: seat 1 is to move."""
    cards = [get_variant(variant).card(c) for c in get_variant(variant).deck()]
    top = [("red", 1), ("red", 3), ("yellow", 4), ("green", 3), ("blue", 3)]
    top += [("red", 2), ("yellow", 2), ("green", 2), ("blue", 2), ("white", 2)]
    top += [drawn]
    for card in top:
        cards.remove(card)
    game = Game(Setup.create(variant, 2, deck=top + cards))
    game.apply(Action.play(0))
    assert sorted(game.hands[0]) == [1, 2, 3, 4, HIDDEN] and game.current == 1
    return game


def _clues_to(actions: list[Action], target: int) -> set[tuple[str | None, int | None]]:
    return {(a.color, a.rank) for a in actions if a.type == "clue" and a.target == target}


def test_the_engine_list_tells_a_hidden_card() -> None:
    """Why the function exists: the engine offers rank 1 to seat 0 only when card 10 is
    a 1 (its other cards are 3, 4, 3, 3)."""
    one, two = _deal(("white", 1)), _deal(("white", 2))
    assert (None, 1) in _clues_to(one.legal_actions(), 0)
    assert (None, 1) not in _clues_to(two.legal_actions(), 0)


@pytest.mark.parametrize("variant", ["no_variant", "rainbow"])
def test_the_shown_moves_do_not_depend_on_a_hidden_card(variant: str) -> None:
    drawn = [("white", 1), ("white", 2), ("white", 5), ("yellow", 1)]
    lists = [legal_actions_unseen(_deal(card, variant), [HIDDEN]) for card in drawn]
    assert all(shown == lists[0] for shown in lists)
    colors = get_variant(variant).to_dict()["clue_colors"]
    every = {(c, None) for c in colors} | {(None, r) for r in range(1, 6)}
    assert _clues_to(lists[0], 0) == every
    # seat 1's own cards are not what it clues; nothing else changed: plays, discards
    engine = _deal(drawn[0], variant).legal_actions()
    assert [a for a in lists[0] if a.type != "clue"] == [a for a in engine if a.type != "clue"]


def test_nothing_hidden_is_the_engine_list_and_empty_clues_stay_the_engines() -> None:
    game = _deal(("white", 2))
    assert legal_actions_unseen(game, []) == game.legal_actions()
    assert legal_actions_unseen(game, [7]) == game.legal_actions()  # seat 1's own: no clue
    shown = legal_actions_unseen(game, [HIDDEN])
    assert Action.clue(0, rank=5) in shown  # touches nothing: offered, and refused when sent
    with pytest.raises(IllegalAction) as refused:
        game.apply(Action.clue(0, rank=5))
    assert refused.value.code == "empty_clue"
    allowed = Game(Setup.create("no_variant", 2, options={"empty_clues": True}, seed="1"))
    assert legal_actions_unseen(allowed, [5]) == allowed.legal_actions()


def test_no_clue_without_a_clue_token() -> None:
    game = _deal(("white", 2))
    while game.clue_tokens:
        game.apply(Action.clue((game.current + 1) % 2, color="red" if game.current else "blue"))
    shown = legal_actions_unseen(game, [HIDDEN])
    assert shown == game.legal_actions() and not any(a.type == "clue" for a in shown)
