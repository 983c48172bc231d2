"""Export and import of any catalogue variant through the API: a game played to its end
exports as a file hanab.live itself loads (its checks: variant by name, deck size, action
values, its ``options`` keys), and that file, imported (the deal and options into a new
table) and replayed move by move through the API, ends with the same result."""

from __future__ import annotations

import random
from typing import Any

import pytest
from api_helpers import API, make_table
from flask.testing import FlaskClient

from hanabi.game import Game, catalogue, import_game, import_setup
from hanabi.game.hanablive import OPTION_KEYS

#: hanab.live's option keys (server/src/options.go, OptionsJSON); ours add two it ignores.
HANABLIVE_OPTIONS = {
    "startingPlayer", "variant", "timed", "timeBase", "timePerTurn", "speedrun", "cardCycle",
    "deckPlays", "emptyClues", "oneExtraCard", "oneLessCard", "allOrNothing",
    "detrimentalCharacters",
}  # fmt: skip
EXTENSIONS = {"endAtMaxPossible", "strikeoutKeepsScore"}


def hanablive_loads(doc: dict[str, Any]) -> None:
    """hanab.live's own checks of a game JSON (command_replay_create.go, isJSONValid)."""
    variant = catalogue.variant(doc["options"]["variant"])
    assert doc["options"]["variant"] == variant.name  # by its hanab.live name
    assert set(doc["options"]) <= HANABLIVE_OPTIONS | EXTENSIONS, doc["options"]
    assert 2 <= len(doc["players"]) <= 6 and len(doc["actions"]) >= 1
    assert len(doc["deck"]) == variant.card_count
    for card in doc["deck"]:
        assert 0 <= card["suitIndex"] < len(variant.suits)
        assert 1 <= card["rank"] <= 5 or card["rank"] == 7
    for a in doc["actions"]:
        if a["type"] in (0, 1):
            assert 0 <= a["target"] < len(doc["deck"]) and a.get("value", 0) == 0
        elif a["type"] == 2:
            assert 0 <= a["target"] < len(doc["players"])
            assert 0 <= a["value"] < len(variant.clue_colors)
        elif a["type"] == 3:
            assert 0 <= a["target"] < len(doc["players"]) and 1 <= a["value"] <= 5
        else:
            assert a["type"] == 4 and 0 <= a["target"] < len(doc["players"])


def play_out(client: FlaskClient, table: Any, rng: random.Random) -> dict[str, Any]:
    """Random legal moves (more clues and discards than plays) until the game ends."""
    while True:
        view = table.view(0)
        if view["status"] == "finished":
            return view
        seat = view["current_seat"]
        legal = table.view(seat)["legal_actions"]
        kinds = sorted({a["type"] for a in legal})
        kind = rng.choices(kinds, [{"play": 2, "discard": 3, "clue": 4}[k] for k in kinds])[0]
        action = rng.choice([a for a in legal if a["type"] == kind])
        assert table.act(seat, view["turn"], **action).status_code == 201


def sample() -> list[tuple[str, dict[str, bool]]]:
    """A variant per special rule the API must carry, with table options."""
    pick = {rule: next(catalogue.variants(rule=rule)).name for rule in (
        "up_or_down", "throw_it_in_a_hole", "sudoku", "clue_starved", "synesthesia",
    )}  # fmt: skip
    inverted = next(v.name for v in catalogue.variants(q="orange") if v.inverted_mask)
    reversed_ = next(catalogue.variants(rule="reversed")).name
    return [
        (pick["up_or_down"], {"end_at_max_possible": True}),
        (pick["throw_it_in_a_hole"], {"deck_plays": True}),
        (pick["sudoku"], {"one_less_card": True, "end_at_max_possible": True}),
        (pick["clue_starved"], {"card_cycle": True}),
        (pick["synesthesia"], {"all_or_nothing": True}),
        (inverted, {"empty_clues": True}),
        (reversed_, {"one_extra_card": True}),
        ("no_variant", {}),  # an old id exports under hanab.live's name
    ]


@pytest.mark.parametrize(("variant", "options"), sample())
def test_export_loads_in_hanablive_and_imports_to_the_same_result(
    client: FlaskClient, variant: str, options: dict[str, bool]
) -> None:
    seed = f"x-{variant}"
    table = make_table(client, 3, variant=variant, seed=seed, options=options)
    assert {k for k, v in table.view(0)["options"].items() if v is True} >= set(options)
    final = play_out(client, table, random.Random(seed))
    response = client.get(f"{table.url}/export")
    assert response.status_code == 200, response.get_json()
    doc = response.get_json()
    hanablive_loads(doc)
    for ours, value in options.items():
        if ours in OPTION_KEYS:
            assert doc["options"][OPTION_KEYS[ours]] is value
    assert doc["options"].get("endAtMaxPossible", True) is options.get("end_at_max_possible", False)
    # the engine reads it back to the same game ...
    game = import_game(doc, catalogue_names=True)
    assert game.result == final["result"]
    # ... and so does the API: the deal and options into a new table, then every move
    setup, actions = import_setup(doc, catalogue_names=True)
    again = make_table(
        client,
        len(setup.players),
        variant=setup.variant,
        deck=[{"suit": s, "rank": r} for s, r in setup.deck or ()],
        options=dict(setup.options.to_dict()),
    )
    shadow = Game(setup)
    for action in actions:
        if action.type == "terminate":
            break
        seat = shadow.current
        response = again.act(seat, shadow.turn, **action.to_dict())
        assert response.status_code == 201, response.get_json()
        shadow.apply(action, seat)
    replayed = again.view(0)
    assert replayed["status"] == "finished" and replayed["result"] == final["result"]
    assert replayed["variant"] == catalogue.variant(doc["options"]["variant"]).name


def test_export_of_a_game_not_over_is_refused(client: FlaskClient) -> None:
    table = make_table(client, 2, variant="Cow & Pig (5 Suits)", seed="on")
    response = client.get(f"{API}/games/{table.id}/export")
    assert response.status_code == 409
