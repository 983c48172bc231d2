"""What the page says to people, checked in the browser on the page's own modules: counts
take the singular or the plural as the number wants, and no raw code (an end reason) is
shown in place of words."""

from __future__ import annotations

import json
from typing import Any

from web_support import Browsing

from hanabi.game import DECK_OUT, END_REASONS, PERFECT, STRIKEOUT


def words(web: Browsing, script: str) -> Any:
    """Run ``script`` (an async function body given ``w``, words.js, and ``hands``,
    hands.js) in the page, as the page's own modules see it."""
    page = web.person()
    page.goto("/")
    return page.evaluate(
        "async () => { const w = await import('/web/words.js');"
        f" const hands = await import('/web/hands.js'); {script} }}"
    )


def test_counts_are_singular_or_plural_as_the_number_wants(web: Browsing) -> None:
    said = words(
        web,
        """
        const view = { score: 3, max_score: 25, clue_tokens: 8, strikes: 0, deck_size: 0,
          pace: 1, turn: 40, turns_left: 1, result: null };
        const narrator = new w.Narrator(["ann", "bob"], null, true);
        return {
          counts: [0, 1, 2].map((n) => w.turnsText(n)),
          board: hands.counters(view).textContent,
          log: [1, 2].map((n) => narrator.line({ type: "final_round", turns_left: n }).text),
        };
        """,
    )
    assert said["counts"] == ["0 turns", "1 turn", "2 turns"]
    assert "Final round1 turn left" in said["board"]
    assert "Score3 of 25 max possible" in said["board"]
    assert said["log"] == [
        "The deck is empty: final round, 1 turn left",
        "The deck is empty: final round, 2 turns left",
    ]


def test_every_end_reason_is_said_in_words(web: Browsing) -> None:
    # every reason the engine ends a game for, and one this page does not know (a newer
    # server's): words, never the code
    reasons = [PERFECT, DECK_OUT, STRIKEOUT, *END_REASONS, "seat_deleted"]
    said = words(web, f"return {json.dumps(reasons)}.map((r) => w.reasonText(r));")
    assert dict(zip(reasons, said, strict=True)) == {
        "perfect": "a perfect game",
        "deck_out": "the deck ran out",
        "strikeout": "three strikes",
        "terminated": "ended by vote",
        "timeout": "a clock ran out",
        "idle": "nobody moved for too long",
        "seat_deleted": "seat deleted",
    }


def test_a_hidden_clue_is_said_by_its_sound_and_a_start_card_as_s(web: Browsing) -> None:
    # Cow & Pig and Duck: the view hides what a clue said (color and rank null)
    said = words(
        web,
        """
        const info = new w.VariantInfo({ id: "x", name: "x", suits: [], clue_colors: ["red"], clue_ranks: [1] });
        const narrator = new w.Narrator(["ann", "bob"], info, true);
        const hidden = { type: "clue", seat: 0, target: 1, color: null, rank: null, touched: [] };
        return {
          moo: narrator.line({ ...hidden, sound: "moo" }).text,
          quiet: narrator.line(hidden).text,
          mark: w.cluesText(info, { clues: [{ color: null, rank: null }] }),
          start: [info.cardText("red", 7), info.cardWords("red", 7)],
        };
        """,
    )
    assert said == {
        "moo": 'ann clued bob "moo", touching nothing',
        "quiet": "ann clued bob something, touching nothing",
        "mark": "clued",
        "start": ["RS", "red START"],  # Up or Down's START card (rank 7 in the API)
    }
