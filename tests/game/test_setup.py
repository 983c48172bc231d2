"""Setup: table sizes, the deal, seeds and explicit decks (docs/rules.md, "Setting up")."""

from __future__ import annotations

import pytest

from hanabi.game import (
    HAND_SIZES,
    VARIANTS,
    Game,
    IllegalAction,
    Options,
    Setup,
    SetupError,
    full_view,
    shuffled_deck,
)


@pytest.mark.parametrize(("players", "size"), [(2, 5), (3, 5), (4, 4), (5, 4), (6, 3)])
def test_hand_sizes(players, size):
    assert HAND_SIZES[players] == size
    game = Game(Setup.create("no_variant", players, seed="hands"))
    assert [len(hand) for hand in game.hands] == [size] * players
    assert game.deck_size == 50 - players * size
    assert game.current == 0
    assert game.turn == 0
    assert game.clue_tokens == 8
    assert game.strikes == 0
    assert game.score == 0
    assert game.turns_left is None
    assert not game.is_over


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_player_zero_gets_the_first_cards_and_hands_are_newest_first(players):
    game = Game(Setup.create("no_variant", players, seed="deal"))
    size = HAND_SIZES[players]
    for seat, hand in enumerate(game.hands):
        assert hand == list(range(seat * size, (seat + 1) * size))[::-1]
    assert game.current == 0
    assert game.legal_actions()  # seat 0 moves first
    with pytest.raises(IllegalAction) as info:
        game.apply(game.legal_actions()[0], seat=1)
    assert info.value.code == "not_your_turn"


def test_deal_follows_the_explicit_deck(kit):
    game = kit.game("no_variant", 3, hands=["r1 r2 r3 r4 r5", "y1 y2 y3 y4 y5", "g1 g2 g3 g4 g5"])
    assert [kit.identity(game, o) for o in reversed(game.hands[0])] == [
        ("red", r) for r in range(1, 6)
    ]
    assert [kit.identity(game, o) for o in reversed(game.hands[2])] == [
        ("green", r) for r in range(1, 6)
    ]
    view = full_view(game)
    assert [c["rank"] for c in view["hands"][1]] == [5, 4, 3, 2, 1]
    assert {c["suit"] for c in view["hands"][1]} == {"yellow"}


def test_deal_events_are_the_opening_hands(kit):
    game = Game(Setup.create("rainbow", 4, seed="events"))
    events = game.deal_events()
    assert [e["card"] for e in events] == list(range(16))
    assert [e["seat"] for e in events] == [s for s in range(4) for _ in range(4)]
    for e in events:
        assert e["type"] == "draw"
        assert e["turn"] == 0
        assert (e["suit"], e["rank"]) == kit.identity(game, e["card"])


@pytest.mark.parametrize("players", [0, 1, 7, 8])
def test_player_count_out_of_range_is_refused(players):
    with pytest.raises(SetupError) as info:
        Game(Setup.create("no_variant", players))
    assert info.value.code == "invalid_player_count"
    assert str(players) in info.value.message


def test_player_names():
    game = Game(Setup.create("no_variant", ["alice", "bob", "cathy"]))
    assert game.num_players == 3
    assert full_view(game)["players"] == ["alice", "bob", "cathy"]
    assert Setup.create("no_variant", 2).players == ("Player 1", "Player 2")


def test_unknown_variant_is_refused():
    with pytest.raises(SetupError) as info:
        Game(Setup.create("no_such_variant", 2))
    assert info.value.code == "unknown_variant"
    assert "no_such_variant" in info.value.message


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_seeds_are_deterministic(variant):
    a = Game(Setup.create(variant, 3, seed="same"))
    b = Game(Setup.create(variant, 3, seed="same"))
    assert a.deck == b.deck
    assert a.deck == shuffled_deck(VARIANTS[variant], "same")
    assert Game(Setup.create(variant, 3, seed="other")).deck != a.deck
    # The player count does not change the shuffle, only the deal.
    assert Game(Setup.create(variant, 5, seed="same")).deck == a.deck
    assert sorted(a.deck) == VARIANTS[variant].deck()


def test_integer_and_string_seeds_are_the_same_seed():
    assert Game(Setup.create(seed=7)).deck == Game(Setup.create(seed="7")).deck


def test_options_from_dict_and_object():
    a = Setup.create(options={"empty_clues": True})
    assert a.options == Options(empty_clues=True)
    assert Setup.create(options=None).options == Options()
    assert Game(a).setup.options.empty_clues


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_explicit_deck_is_accepted_in_both_notations(variant, kit):
    deck = kit.deck(variant)
    pairs = Game(Setup.create(variant, 2, deck=deck))
    dicts = Game(Setup.create(variant, 2, deck=[{"suit": s, "rank": r} for s, r in deck]))
    lists = Game(Setup.create(variant, 2, deck=[[s, r] for s, r in deck]))
    assert pairs.deck == dicts.deck == lists.deck == VARIANTS[variant].deck()


def test_explicit_deck_ignores_the_seed(kit):
    deck = kit.deck("no_variant", "w5 w4")
    assert (
        Game(Setup.create(deck=deck, seed="1")).deck == Game(Setup.create(deck=deck, seed="2")).deck
    )


def _refusal(variant, deck):
    with pytest.raises(SetupError) as info:
        Game(Setup.create(variant, 2, deck=deck))
    assert info.value.code == "invalid_deck"
    return info.value.message


def test_explicit_deck_with_a_missing_card_says_which(kit):
    deck = kit.deck("no_variant")
    deck.remove(("blue", 5))
    message = _refusal("no_variant", deck)
    assert "blue 5" in message
    assert "0" in message and "1" in message


def test_explicit_deck_with_an_extra_copy_says_which(kit):
    deck = [*kit.deck("no_variant"), ("red", 1)]
    message = _refusal("no_variant", deck)
    assert "red 1" in message
    assert "4" in message and "3" in message


def test_explicit_deck_with_a_swapped_card_names_both(kit):
    deck = kit.deck("no_variant")
    deck[deck.index(("green", 3))] = ("green", 4)
    message = _refusal("no_variant", deck)
    assert "green 3" in message and "green 4" in message


def test_explicit_deck_with_a_suit_not_in_the_variant_names_the_position(kit):
    deck = kit.deck("no_variant")
    deck[7] = ("rainbow", 1)
    message = _refusal("no_variant", deck)
    assert "7" in message and "rainbow" in message


@pytest.mark.parametrize("rank", [0, 6, "1", None, 1.0, True])
def test_explicit_deck_with_a_bad_rank_is_refused(kit, rank):
    deck = kit.deck("no_variant")
    deck[3] = ("red", rank)
    message = _refusal("no_variant", deck)
    assert "Card 3" in message and "red" in message


def test_explicit_deck_with_malformed_entries_is_refused(kit):
    deck: list = kit.deck("no_variant")
    deck[0] = {"suit": "red"}
    deck[1] = "red 1"
    deck[2] = 7
    message = _refusal("no_variant", deck)
    assert "Card 0" in message


def test_explicit_deck_of_another_variant_is_refused(kit):
    deck = kit.deck("single_rainbow")
    message = _refusal("rainbow", deck)
    assert "rainbow" in message


def test_empty_deck_is_refused():
    assert "50" in _refusal("no_variant", [])


def test_setup_round_trips_through_a_dict(kit):
    setup = Setup.create("black_powder", ["a", "b", "c"], {"strikeout_keeps_score": True}, "s")
    assert Setup.from_dict(setup.to_dict()) == setup
    explicit = kit.setup("rainbow", 2, hands=["m1 m2 m3 m4 m5", "r1 r2 r3 r4 r5"])
    assert Setup.from_dict(explicit.to_dict()) == explicit
    assert Game(Setup.from_dict(explicit.to_dict())).deck == Game(explicit).deck


def test_unknown_option_is_refused_with_a_code():
    with pytest.raises(SetupError) as err:
        Setup.create("no_variant", 2, options={"empty_clues": True, "blind_mode": True})
    assert err.value.code == "unknown_option"
    assert "blind_mode" in err.value.message
