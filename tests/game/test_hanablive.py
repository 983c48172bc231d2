"""hanab.live JSON game format (version 3), both ways."""

from __future__ import annotations

import json

import pytest

from hanabi.game import (
    VARIANTS,
    Action,
    Game,
    ImportFormatError,
    Setup,
    export_game,
    import_game,
    import_setup,
)


def finished_game(kit, variant_id: str, players: int, seed: str, options=None) -> Game:
    game = Game(Setup.create(variant_id, players, options=options, seed=seed))
    while not game.is_over:
        game.apply(kit.cheat(game))
    return game


def test_export_format(kit):
    game = kit.game("no_variant", 2, hands=["r1 y2 g3 b4 w5", "r1 r2 y1 g1 b1"])
    game.apply(Action.play(0))
    game.apply(Action.clue(0, color="blue"))
    game.apply(Action.discard(1))
    game.apply(Action.clue(0, rank=5))
    game.apply(Action.terminate(0))
    doc = export_game(game)
    assert set(doc) == {"players", "deck", "actions", "options", "seed"}
    assert doc["players"] == ["Player 1", "Player 2"]
    assert doc["deck"][:6] == [
        {"suitIndex": 0, "rank": 1},
        {"suitIndex": 1, "rank": 2},
        {"suitIndex": 2, "rank": 3},
        {"suitIndex": 3, "rank": 4},
        {"suitIndex": 4, "rank": 5},
        {"suitIndex": 0, "rank": 1},
    ]
    assert len(doc["deck"]) == 50
    assert doc["actions"] == [
        {"type": 0, "target": 0},
        {"type": 2, "target": 0, "value": 3},  # blue is clue colour 3
        {"type": 1, "target": 1},
        {"type": 3, "target": 0, "value": 5},
        {"type": 4, "target": 0, "value": 4},  # terminated by seat 0
    ]
    # our default plays on past the point where hanab.live would stop; the export says so
    assert doc["options"] == {"variant": "No Variant", "endAtMaxPossible": False}
    assert json.loads(json.dumps(doc)) == doc


@pytest.mark.parametrize("variant_id", sorted(VARIANTS))
@pytest.mark.parametrize("players", [2, 4, 6])
def test_export_import_round_trip(kit, variant_id, players):
    game = finished_game(kit, variant_id, players, f"{variant_id}-{players}")
    doc = json.loads(json.dumps(export_game(game)))
    again = import_game(doc)
    assert kit.state(again) == kit.state(game)
    assert again.actions == game.actions
    assert again.setup.players == game.setup.players
    assert again.setup.options == game.setup.options
    assert again.variant is game.variant
    assert export_game(again) == doc


@pytest.mark.parametrize("options", [{"empty_clues": True}, {"strikeout_keeps_score": True}])
def test_options_round_trip(kit, options):
    game = finished_game(kit, "rainbow", 3, "options", options)
    doc = export_game(game)
    key = {"empty_clues": "emptyClues", "strikeout_keeps_score": "strikeoutKeepsScore"}
    assert doc["options"] == {
        "variant": "Rainbow (6 Suits)",
        **{key[k]: v for k, v in options.items()},
        "endAtMaxPossible": False,
    }
    assert import_game(doc).setup.options == game.setup.options


def test_round_trip_of_an_unfinished_game(kit):
    game = Game(Setup.create("six_suits", 3, seed="half"))
    for _ in range(12):
        game.apply(kit.cheat(game))
    again = import_game(export_game(game))
    assert kit.state(again) == kit.state(game)
    assert not again.is_over


def test_wild_plays_keep_their_firework(kit):
    game = kit.game("wild_rainbow", 2, hands=["m1 m1 m3 r2 m5", "r1 y1 g1 b1 w1"])
    game.apply(Action.play(0, "blue"))
    doc = export_game(game)
    assert doc["actions"] == [{"type": 0, "target": 0, "value": 3}]
    assert doc["options"]["variant"] == "wild_rainbow"  # hanab.live has no such variant
    again = import_game(doc)
    assert again.fireworks == game.fireworks == [0, 0, 0, 1, 0, 0]


def test_import_setup(kit):
    game = finished_game(kit, "black_powder", 3, "setup")
    setup, actions = import_setup(export_game(game))
    assert setup.variant == "black_powder"
    assert setup.players == game.setup.players
    assert setup.seed == game.setup.seed
    assert Game(setup).deck == game.deck
    assert actions == game.actions


# A game written by hand the way hanab.live stores it: deck top first (suit indexes into
# the variant's suits), colour clue values index its clue colours, and fields we ignore.
HAND_WRITTEN_TOP = [
    (0, 1), (5, 1), (1, 2), (2, 3), (3, 4),  # Alice: r1 m1 y2 g3 b4 (orders 0-4)
    (0, 2), (5, 2), (1, 1), (4, 1), (4, 5),  # Bob: r2 m2 y1 w1 w5 (orders 5-9)
    (2, 1), (2, 1), (3, 1), (0, 3), (5, 3),  # Cathy: g1 g1 b1 r3 m3 (orders 10-14)
    (3, 5), (1, 5), (2, 5),  # then b5 y5 g5 (orders 15-17)
]  # fmt: skip


def hand_written_doc() -> dict:
    copies = (3, 2, 2, 2, 1)
    rest = [(s, r) for s in range(6) for r in range(1, 6) for _ in range(copies[r - 1])]
    for card in HAND_WRITTEN_TOP:
        rest.remove(card)
    return {
        "id": 123456,
        "players": ["Alice", "Bob", "Cathy"],
        "deck": [{"suitIndex": s, "rank": r} for s, r in HAND_WRITTEN_TOP + rest],
        "actions": [
            {"type": 0, "target": 0},  # Alice plays red 1, draws b5 (15)
            {"type": 2, "target": 0, "value": 0},  # Bob clues red to Alice
            {"type": 3, "target": 1, "value": 1},  # Cathy clues 1 to Bob
            {"type": 0, "target": 1, "value": 0},  # Alice plays rainbow 1 (value: no meaning)
            {"type": 0, "target": 7},  # Bob plays yellow 1
            {"type": 1, "target": 10},  # Cathy discards green 1
        ],
        "options": {"variant": "Rainbow (6 Suits)", "cardCycle": False},
        "notes": [[], [], []],
        "seed": "p3v16s1",
    }


def test_import_a_hand_written_hanablive_game(kit):
    game = import_game(hand_written_doc())
    assert game.variant.id == "rainbow"
    assert game.setup.players == ("Alice", "Bob", "Cathy")
    assert game.setup.seed == "p3v16s1"
    assert game.turn == 6
    assert game.current == 0
    assert game.fireworks == [1, 1, 0, 0, 0, 1]  # red, yellow, rainbow
    assert game.score == 3
    assert game.clue_tokens == 7  # two clues, one discard
    assert [kit.identity(game, o) for o in game.discards] == [("green", 1)]
    # Alice held 15 (b5), 4 (b4), 3 (g3), 2 (y2), 1 (m1): red touches only the rainbow 1.
    assert game.clues[0] | {"turn": 1} == {
        "type": "clue",
        "turn": 1,
        "seat": 1,
        "target": 0,
        "color": "red",
        "rank": None,
        "touched": [1],
    }
    assert game.clues[1]["rank"] == 1 and game.clues[1]["touched"] == [8, 7]
    assert game.hands[0] == [16, 15, 4, 3, 2]
    assert export_game(game)["actions"][3] == {"type": 0, "target": 1}


def test_import_without_options_is_no_variant_by_hanablive_rules(kit):
    game = finished_game(kit, "no_variant", 2, "plain", {"end_at_max_possible": True})
    doc = export_game(game)
    del doc["options"]
    del doc["seed"]
    again = import_game(doc)
    assert again.variant.id == "no_variant"
    assert again.setup.options.end_at_max_possible  # hanab.live's own end of the game
    assert kit.state(again) == kit.state(game)


@pytest.mark.parametrize("name", ["wild_rainbow", "Wild Rainbow"])
def test_import_by_our_id_or_name(kit, name):
    doc = export_game(Game(Setup.create("wild_rainbow", 2, seed="x")))
    doc["options"]["variant"] = name
    assert import_game(doc).variant.id == "wild_rainbow"


def _error(doc, code="invalid_import") -> str:
    with pytest.raises(ImportFormatError) as info:
        import_game(doc)
    assert info.value.code == code
    assert info.value.message
    return info.value.message


def _doc(kit) -> dict:
    game = Game(Setup.create("no_variant", 2, seed="errors"))
    for _ in range(6):
        game.apply(kit.cheat(game))
    return json.loads(json.dumps(export_game(game)))


@pytest.mark.parametrize("doc", [None, [], "game", 3])
def test_import_error_not_an_object(doc):
    _error(doc)


def test_import_error_bad_fields(kit):
    for field, value in [
        ("players", "Alice"),
        ("players", [1, 2]),
        ("deck", {"suitIndex": 0}),
        ("actions", {}),
        ("options", "No Variant"),
    ]:
        doc = _doc(kit)
        doc[field] = value
        _error(doc)
    doc = _doc(kit)
    del doc["players"]
    _error(doc)


def test_import_error_unsupported_variant(kit):
    doc = _doc(kit)
    doc["options"]["variant"] = "Nonesuch (6 Suits)"
    assert "Nonesuch (6 Suits)" in _error(doc, "unsupported_variant")


def test_import_error_other_starting_player(kit):
    doc = _doc(kit)
    doc["options"]["startingPlayer"] = 1
    _error(doc)


@pytest.mark.parametrize(
    "card",
    [
        {"suitIndex": 5, "rank": 1},
        {"suitIndex": -1, "rank": 1},
        {"rank": 1},
        {"suitIndex": "0", "rank": 1},
        7,
    ],
)
def test_import_error_bad_deck_card(kit, card):
    doc = _doc(kit)
    doc["deck"][4] = card
    assert "4" in _error(doc)


def test_import_error_deck_not_the_variants_cards(kit):
    doc = _doc(kit)
    doc["deck"][4] = {"suitIndex": 0, "rank": 7}
    _error(doc, "invalid_deck")
    doc = _doc(kit)
    doc["deck"].pop()
    _error(doc, "invalid_deck")


def test_import_error_player_count(kit):
    doc = _doc(kit)
    doc["players"] = ["a"] * 7
    doc["actions"] = []
    _error(doc, "invalid_player_count")


@pytest.mark.parametrize(
    "action",
    [
        {"type": 9, "target": 0},
        {"type": 0},
        "play",
        {"type": 2, "target": 1, "value": 9},
        {"type": 2, "target": 1},
    ],
)
def test_import_error_malformed_action(kit, action):
    doc = _doc(kit)
    doc["actions"].append(action)
    assert str(len(doc["actions"]) - 1) in _error(doc)


def test_import_error_illegal_action_says_which(kit):
    doc = _doc(kit)
    doc["actions"].append({"type": 0, "target": 49})  # still in the deck
    message = _error(doc)
    assert "6" in message and "illegal" in message


def test_import_error_action_after_the_end(kit):
    doc = _doc(kit)
    doc["actions"] += [{"type": 4, "target": 0, "value": 4}, {"type": 3, "target": 1, "value": 1}]
    assert "7" in _error(doc)


def test_import_error_bad_wild_firework_value(kit):
    doc = export_game(kit.game("wild_rainbow", 2, hands=["m1 m1 m3 r2 m5", "r1 y1 g1 b1 w1"]))
    doc["actions"] = [{"type": 0, "target": 0, "value": "blue"}]
    _error(doc)
    doc["actions"] = [{"type": 0, "target": 0, "value": 9}]
    _error(doc)


@pytest.mark.parametrize(("reason", "value"), [("timeout", 3), ("idle", 6), (None, 4)])
def test_end_reasons_map_to_hanablive_end_conditions(reason, value):
    game = Game(Setup.create("no_variant", 2, seed="9"))
    game.apply(Action.terminate(1 if reason == "timeout" else None, reason))
    exported = export_game(game)
    assert exported["actions"][-1] == {
        "type": 4, "target": 1 if reason == "timeout" else 0, "value": value
    }  # fmt: skip
    imported = import_game(exported)
    assert imported.actions[-1].reason == reason
    assert imported.result == {"reason": reason or "terminated", "score": 0}
