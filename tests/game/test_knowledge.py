"""Card knowledge: what a holder was told, and what a viewer can deduce."""

from __future__ import annotations

from hanabi.game import Action, Game, full_view, spectator_view, view

ALL = [1, 2, 3, 4, 5]


def knowledge(seen: dict, order: int) -> dict:
    """The knowledge block of card ``order`` in a view."""
    for hand in seen["hands"]:
        for card in hand:
            if card["order"] == order:
                return card["knowledge"]
    raise KeyError(order)


def test_unclued_cards_could_be_anything(kit):
    game = kit.game("rainbow", 2)
    k = knowledge(view(game, 0), 0)
    assert k == {
        "clued": False,
        "clues": [],
        "possible": {s: ALL for s in ("red", "yellow", "green", "blue", "white", "rainbow")},
        "deduced": k["deduced"],
    }


def test_positive_and_negative_colour_clue(kit):
    game = kit.game("no_variant", 2, hands=["r1 r1 r1 y1 y1", "r4 b2 r5 g3 w1"])
    game.apply(Action.clue(1, color="red"))
    seen = view(game, 1)
    for order in (5, 7):  # r4, r5
        assert knowledge(seen, order)["possible"] == {"red": ALL}
        assert knowledge(seen, order)["clued"]
        assert knowledge(seen, order)["clues"] == [{"color": "red", "rank": None}]
    for order in (6, 8, 9):
        assert knowledge(seen, order)["possible"] == {
            s: ALL for s in ("yellow", "green", "blue", "white")
        }
        assert not knowledge(seen, order)["clued"]
        assert knowledge(seen, order)["clues"] == []


def test_positive_and_negative_rank_clues_combine(kit):
    game = kit.game("no_variant", 2, hands=["r1 r1 r1 y1 y1", "r4 b2 r5 g3 w1"])
    game.apply(Action.clue(1, color="red"))
    game.apply(Action.clue(0, rank=1))
    game.apply(Action.clue(1, rank=5))
    seen = spectator_view(game)
    assert knowledge(seen, 7)["possible"] == {"red": [5]}  # red and 5
    assert knowledge(seen, 7)["clues"] == [
        {"color": "red", "rank": None},
        {"color": None, "rank": 5},
    ]
    assert knowledge(seen, 5)["possible"] == {"red": [1, 2, 3, 4]}  # red, not 5
    assert knowledge(seen, 6)["possible"] == {
        s: [1, 2, 3, 4] for s in ("yellow", "green", "blue", "white")
    }
    # told masks are the engine's record of the same thing
    assert game.told[7] == 1 << game.variant.card_of("red", 5)


def test_deduction_counts_copies_visible_to_the_viewer(kit):
    # Seat 0's card 0 is clued red; seat 1 holds red 5 and seat 2 sees it.
    game = kit.game("no_variant", 3, hands=["r2 y1 y1 y1 g1", "r5 b1 b1 b1 g1", "w1 w1 w1 g2 g2"])
    game.apply(Action.clue(2, rank=1))
    game.apply(Action.clue(2, rank=2))
    game.apply(Action.clue(0, color="red"))
    assert knowledge(full_view(game), 0)["possible"] == {"red": ALL}
    # Seat 0 sees red 5 in seat 1's hand: its card cannot be red 5.
    assert knowledge(view(game, 0), 0)["deduced"] == {"red": [1, 2, 3, 4]}
    # So does seat 2, who sees both hands: what seat 0 can deduce, seat 2 can show.
    assert knowledge(view(game, 2), 0)["deduced"] == {"red": [1, 2, 3, 4]}
    # Seat 1 must not deduce from its own (unknown to it) red 5.
    assert knowledge(view(game, 1), 0)["deduced"] == {"red": ALL}
    # A spectator sees no hand at all.
    assert knowledge(spectator_view(game), 0)["deduced"] == {"red": ALL}


def test_deduction_counts_fireworks_and_discards(kit):
    # Seat 0 plays one red 1 and discards the other two, and discards both blue 4s.
    game = kit.game("no_variant", 2, hands=["r1 r1 r1 b4 b4", "r3 y4 w2 g4 w1"])
    game.apply(Action.play(0))
    for order in (1, 2, 3, 4):
        game.apply(Action.clue(0, rank=4 if order < 4 else 2))
        game.apply(Action.discard(order))
    game.apply(Action.clue(0, rank=2))
    game.apply(Action.clue(1, color="red"))
    game.apply(Action.clue(0, rank=2))
    game.apply(Action.clue(1, rank=4))
    seen = spectator_view(game)
    # Card 5 (r3) is red and not 4; no red 1 is left anywhere.
    assert knowledge(seen, 5)["possible"] == {"red": [1, 2, 3, 5]}
    assert knowledge(seen, 5)["deduced"] == {"red": [2, 3, 5]}
    # Cards 6 (y4) and 8 (g4) are 4s, not red: and both blue 4s are discarded.
    for order in (6, 8):
        assert knowledge(seen, order)["possible"] == {
            s: [4] for s in ("yellow", "green", "blue", "white")
        }
        assert knowledge(seen, order)["deduced"] == {s: [4] for s in ("yellow", "green", "white")}


def test_every_copy_seen_removes_the_identity_for_those_who_see_them(kit):
    # One red 4 is discarded, the other is in seat 1's hand; seat 0's card 0 is clued red.
    game = kit.game("no_variant", 2, hands=["r3 y1 y1 y1 g1", "r4 r4 b2 g3 w1"])
    game.apply(Action.clue(1, rank=2))
    game.apply(Action.discard(5))
    game.apply(Action.clue(1, rank=3))
    game.apply(Action.clue(0, color="red"))
    assert knowledge(view(game, 0), 0)["deduced"] == {"red": [1, 2, 3, 5]}
    # Seat 1 cannot count the red 4 it holds without knowing it.
    assert knowledge(view(game, 1), 0)["deduced"] == {"red": ALL}
    assert knowledge(spectator_view(game), 0)["deduced"] == {"red": ALL}


def test_a_card_known_exactly_counts_for_the_rest_of_the_hand(kit):
    # Card 0 is clued red, then 5: it is the only red 5. Card 10, drawn after the 5 clue,
    # is then clued red: told any red, but the red 5 is card 0, so it is red 1-4.
    game = kit.game("no_variant", 2, hands=["r5 y1 y1 y1 g1", "b2 b2 w4 g3 w1"], draws="r3")
    game.apply(Action.clue(1, rank=2))
    game.apply(Action.clue(0, color="red"))
    game.apply(Action.clue(1, rank=4))
    game.apply(Action.clue(0, rank=5))
    game.apply(Action.discard(1))  # draws card 10 (r3)
    game.apply(Action.clue(0, color="red"))
    for seen in (view(game, 0), view(game, 1), spectator_view(game)):
        assert knowledge(seen, 0)["deduced"] == {"red": [5]}
        assert knowledge(seen, 10)["possible"] == {"red": ALL}
        assert knowledge(seen, 10)["deduced"] == {"red": [1, 2, 3, 4]}


def test_a_one_of_each_card_seen_elsewhere_is_excluded(kit):
    # single_sixth: black is one of each. Seat 1 holds the only black 3; seat 0's card 0 is
    # clued black, so seat 0 (and seat 2, who sees both) knows it is not black 3.
    game = kit.game("single_sixth", 3, hands=["k4 y1 y1 y1 g1", "k3 b2 b2 g3 w1", "r1 r1 r2 r2 w2"])
    game.apply(Action.clue(2, rank=1))
    game.apply(Action.clue(0, color="black"))
    assert knowledge(view(game, 0), 0)["possible"] == {"black": ALL}
    assert knowledge(view(game, 0), 0)["deduced"] == {"black": [1, 2, 4, 5]}
    assert knowledge(view(game, 2), 0)["deduced"] == {"black": [1, 2, 4, 5]}
    assert knowledge(view(game, 1), 0)["deduced"] == {"black": ALL}


def test_one_of_each_card_played_is_gone_for_everyone(kit):
    game = kit.game("single_sixth", 2, hands=["k1 k2 y1 y1 y1", "b2 b2 w4 g3 w1"])
    game.apply(Action.play(0))  # k1
    game.apply(Action.clue(0, color="black"))  # touches k2 only
    seen = spectator_view(game)
    assert knowledge(seen, 1)["possible"] == {"black": ALL}
    assert knowledge(seen, 1)["deduced"] == {"black": [2, 3, 4, 5]}


def test_two_different_colours_make_a_rainbow_card(kit):
    game = kit.game("rainbow", 2, hands=["y1 y1 y1 g1 g1", "m2 r2 b3 w4 r1"])
    game.apply(Action.clue(1, color="red"))  # touches m2 r2 r1
    game.apply(Action.clue(0, rank=1))
    game.apply(Action.clue(1, color="blue"))  # touches m2 b3
    seen = view(game, 1)
    assert knowledge(seen, 5)["possible"] == {"rainbow": ALL}
    assert knowledge(seen, 5)["deduced"] == {"rainbow": ALL}
    assert knowledge(seen, 6)["possible"] == {"red": ALL}  # red, not blue: not rainbow
    assert knowledge(seen, 7)["possible"] == {"blue": ALL}  # blue, not red: not rainbow
    assert knowledge(seen, 8)["possible"] == {s: ALL for s in ("yellow", "green", "white")}


def test_two_colours_make_a_wild_and_a_dark_rainbow_card(kit):
    for variant_id, suit in (("wild_rainbow", "wild_rainbow"), ("single_rainbow", "dark_rainbow")):
        game = kit.game(variant_id, 2, hands=["y1 y1 y1 g1 g1", "m2 r2 b3 w4 r1"])
        game.apply(Action.clue(1, color="red"))
        game.apply(Action.clue(0, rank=1))
        game.apply(Action.clue(1, color="blue"))
        assert knowledge(view(game, 1), 5)["possible"] == {suit: ALL}


def test_a_rank_clue_on_a_multicolour_card_keeps_its_suit_open(kit):
    game = kit.game("black_powder", 2, hands=["y1 y1 y1 g1 g1", "m2 k2 b3 w4 r1"])
    game.apply(Action.clue(1, rank=2))
    seen = view(game, 1)
    assert knowledge(seen, 5)["possible"] == {
        s: [2] for s in ("red", "yellow", "green", "blue", "white", "multicolor", "black")
    }
    game.apply(Action.clue(0, rank=1))
    game.apply(Action.clue(1, color="multicolor"))
    assert knowledge(view(game, 1), 5)["possible"] == {"multicolor": [2]}
    assert knowledge(view(game, 1), 6)["possible"] == {
        s: [2] for s in ("red", "yellow", "green", "blue", "white", "black")
    }


def test_deduced_is_never_wider_than_told_and_keeps_the_truth(kit):
    game = Game(kit.setup("black_powder", 4))
    while not game.is_over:
        for seen in [view(game, s) for s in range(4)] + [spectator_view(game), full_view(game)]:
            for hand in full_view(game)["hands"]:
                for card in hand:
                    k = knowledge(seen, card["order"])
                    for suit, ranks in k["deduced"].items():
                        assert set(ranks) <= set(k["possible"].get(suit, []))
                    assert card["rank"] in k["deduced"][card["suit"]]
        game.apply(kit.cheat(game))
