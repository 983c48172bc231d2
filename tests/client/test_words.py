"""Counts agree with their nouns and codes reach people as words."""

from __future__ import annotations

from hanabi.client.narrate import Narrator
from hanabi.client.render import game_over_line
from hanabi.client.variants import VariantInfo
from hanabi.client.words import end_reason, plural
from hanabi.game import VARIANTS

INFO = VariantInfo.from_api(VARIANTS["no_variant"].to_dict())


def test_plural_agrees_with_the_count():
    assert [plural(n, "turn") for n in (0, 1, 2)] == ["0 turns", "1 turn", "2 turns"]
    assert plural(1, "rated game") == "1 rated game"
    assert plural(3, "copy", "copies") == "3 copies"


def test_every_end_reason_in_words_and_an_unknown_one_never_raw():
    said = {code: end_reason(code) for code in ("perfect", "deck_out", "strikeout")}
    assert said == {
        "perfect": "a perfect game",
        "deck_out": "the deck ran out",
        "strikeout": "three strikes",
    }
    assert end_reason("account_deleted") == "account deleted"  # a newer server's
    view = {"result": {"reason": "seat_abandoned", "score": 0}, "variant": "no_variant"}
    assert game_over_line(view, INFO) == "Game over (seat abandoned): final score 0/25"


def test_the_narrator_counts_the_last_turn_and_says_an_unknown_reason_in_words():
    n = Narrator(["alice", "bob"], INFO)
    assert n.feed(
        [
            {"type": "final_round", "turn": 40, "turns_left": 1},
            {"type": "game_over", "turn": 41, "reason": "account_deleted", "score": 3},
        ]
    ) == [
        "The deck is empty: final round, 1 turn left",
        "Game over (account deleted): score 3",
    ]
    # A seat the narrator has no name for is numbered as the table numbers players.
    assert n.feed([{"type": "discard", "turn": 42, "seat": 2, "suit": "red", "rank": 1}]) == [
        "seat 3 discarded R1"
    ]
