"""Our engine against hanab.live's own game logic.

- Random games of all 2,426 variants (one each, with table options), whose every outcome
  hanab.live's rule functions computed outside this repository (see hanablive_diff.py):
  the cards each clue touched, each play's success or strike, score, clue tokens,
  strikes, the running maximum score and the end of the game.
- hanab.live's client test games (packages/client/test_data, game data): imported with
  our importer, they replay to hanab.live's outcomes, and in Up or Down every card's
  knowledge from clues equals hanab.live's at turn 5 and at the end.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hanablive_diff import check_game, load

from hanabi.game import ImportFormatError, import_game, replay
from hanabi.game.hanablive import import_setup

FIXTURES = Path(__file__).with_name("fixtures")
TEST_GAMES = ["no_variant", "rainbow-ones_and_pink", "up_or_down", "up_or_down_critical"]


def test_random_games_of_every_variant_agree_with_hanablive():
    games = load()
    assert len({g["variant"] for g in games}) == 2426
    problems = [p for g in games for p in check_game(g)]
    assert problems == []


@pytest.fixture(scope="module")
def expected() -> dict[str, dict]:
    data = json.loads((FIXTURES / "hanablive_test_games_expected.json").read_text())
    return {g["seed"].removesuffix(".json"): g for g in data["games"]}


def doc_of(name: str) -> dict:
    return json.loads((FIXTURES / f"{name}.json").read_text())


@pytest.mark.parametrize("name", TEST_GAMES)
def test_hanablive_test_game_replays_to_hanablives_outcome(name, expected):
    want = expected[name]
    assert check_game(want) == []  # every action's outcome, as hanab.live computed it
    game = import_game(doc_of(name), catalogue_names=True)
    condition, turns, score = want["end"]
    assert condition == 1 and game.is_over
    assert (game.turn, game.result["score"]) == (turns, score)
    assert game.variant.name == doc_of(name).get("options", {}).get("variant", "No Variant")


@pytest.mark.parametrize("name", TEST_GAMES)
def test_hanablive_test_game_imports_in_the_old_form_too(name, expected):
    game = import_game(doc_of(name))  # No Variant imports as this service's no_variant
    assert (game.turn, game.result["score"]) == tuple(expected[name]["end"][1:])


def test_a_game_where_another_player_starts_is_refused():
    with pytest.raises(ImportFormatError) as info:
        import_game(doc_of("omni-ones_and_white"))
    assert "first player" in info.value.message


@pytest.mark.parametrize(
    ("upto", "cards_file", "cards"),
    [(4, "up_or_down_turn5", 18), (None, "up_or_down_final_cards", 45)],
)
def test_up_or_down_knowledge_matches_hanablive(upto, cards_file, cards):
    setup, actions = import_setup(doc_of("up_or_down"), catalogue_names=True)
    game = replay(setup, actions, upto=upto)
    theirs = json.loads((FIXTURES / f"{cards_file}.json").read_text())
    variant = game.variant
    for order in range(cards):
        ours = sorted(
            [variant.suit_of[c], variant.rank_of[c]] for c in variant.cards_in(game.told[order])
        )
        assert ours == sorted(theirs[order]["possibleCardsFromClues"]), f"card {order}"
