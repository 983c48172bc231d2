"""The rating model of docs/ratings.md: pure arithmetic, no I/O.

A rated game is a draw between each member of the team and a virtual opponent, *hanabot*,
whose rating depends on the variant's maximum score and the score the team reached. Each
member's rating moves by ``K * (0.5 - E)`` with
``E = 1 / (1 + 10 ** ((R_hanabot - R_member) / 400))``, except that a perfect score never
loses rating. A member's change depends on their own rating and the team's score only,
not on the partners' ratings: with the team's average (the model before), sinking a
partner's rating on purpose made every later game easier to gain on.

The hanabot table (one source of truth, served by ``GET /api/v1/rating-model``):

- the threshold ``T`` is ``3 * max // 5 + 3``: 18 for a maximum of 25, 21 for 30 (the
  rules' figures) and 24 for 35 (``black_powder``), on the same scale;
- below ``T`` (a strikeout and a termination count as 0) hanabot is rated 1000;
- from ``T`` to the maximum it rises in equal steps from 1400 to 1800, rounded to whole
  points: ``round(1400 + 400 * (score - T) / (max - T))``.

So in a 25-point variant a player rated 1500 gains from 20 points up (hanabot 1514 there:
+0.40) and loses about 9 points for a score under 18 (docs/ratings.md works examples).

Which variants are rated is data (:mod:`.rated_variants`): those where the house bot's
score was measured, never a 55-card one; the model lists hanabot's expected score in each.
"""

from __future__ import annotations

from hanabi.game import VARIANTS, Variant

from . import rated_variants

START = 1500.0
DEFAULT_K = 20.0
BELOW = 1000
LOW = 1400
HIGH = 1800
#: Variants with a single-card sixth suit (55 cards): never rated (docs/rules.md).
UNRATED_CARD_COUNT = 55

#: Game options that change the score or what is legal: a rated game uses the standard
#: rules, so a rated table refuses them (409 ``option_not_rated``), with what each changes.
NON_STANDARD_OPTIONS = {
    "empty_clues": "which clues are legal (a clue touching no card)",
    "strikeout_keeps_score": "the score of a strikeout (the fireworks' instead of 0)",
    # hanab.live's table options (the engine has them; hanab.live rates none of them either)
    "one_extra_card": "the hand size (one card more)",
    "one_less_card": "the hand size (one card fewer)",
    "deck_plays": "which plays are legal (the deck's last card played from the deck)",
    "all_or_nothing": "the score (anything short of perfect scores 0)",
    "card_cycle": "the hands (a discarded card's neighbours move)",
    "end_at_max_possible": "when the game ends (once the highest score still possible is reached)",
}
#: The other options of a table, allowed at a rated one: they change neither the score nor
#: what is legal. ``idle_limit`` and ``timer`` only end a game early, with score 0 (a loss).
#: ``spectators_see_hands`` is who watches what (false at a rated table: table/viewers.py).
STANDARD_OPTIONS = ("rated", "idle_limit", "timer", "move_clock", "spectators_see_hands")


def threshold(max_score: int) -> int:
    """The lowest score that meets hanabot above 1000: 18 for 25, 21 for 30, 24 for 35."""
    return 3 * max_score // 5 + 3


def hanabot(max_score: int, score: int) -> int:
    """Hanabot's rating for ``score`` in a variant whose maximum is ``max_score``."""
    low = threshold(max_score)
    if score < low:
        return BELOW
    return round(LOW + (HIGH - LOW) * (score - low) / (max_score - low))


def is_rated_variant(variant: Variant) -> bool:
    """A variant whose house-bot score was measured (:mod:`.rated_variants`), never a
    55-card one (a single-card sixth suit depends too much on the draw)."""
    return variant.card_count != UNRATED_CARD_COUNT and rated_variants.is_rated(variant)


def expected(rating: float, opponent: float) -> float:
    """The expected result of a player rated ``rating`` against ``opponent`` (Elo)."""
    return 1.0 / (1.0 + 10.0 ** ((opponent - rating) / 400.0))


def change(rating: float, max_score: int, score: int, k: float = DEFAULT_K) -> float:
    """The change of one member's rating: a draw of that member (their own rating) against
    hanabot at the team's ``score``; never negative for a perfect score. The partners'
    ratings play no part, so sinking a partner's rating lifts nobody."""
    delta = k * (0.5 - expected(rating, hanabot(max_score, score)))
    if score >= max_score:
        delta = max(delta, 0.0)
    return delta


def model(k: float) -> dict[str, object]:
    """The whole model as ``GET /api/v1/rating-model`` serves it: this service's own
    variants by id, then every measured hanab.live variant by its hanab.live name, each
    with hanabot's table and its expected score (the house bot's measured mean)."""
    variants: dict[str, object] = {}
    listed = list(VARIANTS.values()) + [
        v for v in rated_variants.measured_variants() if v.id not in VARIANTS
    ]
    for variant in listed:
        rated = is_rated_variant(variant)
        table = [hanabot(variant.max_score, s) for s in range(variant.max_score + 1)]
        expected = rated_variants.expected_score(variant) if rated else None
        variants[variant.id] = {
            "rated": rated,
            "hanabot": table if rated else [],
            "max_score": variant.max_score,
            "expected_score": expected,
        }
    return {"start": START, "k": k, "measured": rated_variants.measured(), "variants": variants}
