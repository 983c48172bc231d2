"""The conventions bots play the same moves on the same deals, move for move.

``moves.json`` holds the move sequences of fixed seeded games, recorded with the bots as
they were before the conventions bot (and the search on top of it) was taken apart from
mixins into composed parts: a change that only moves code around must reproduce every
one of them exactly. A change that means to play differently records them again
(``python tests/bots/test_bots_same_moves.py``, under this package's small search
budget, see conftest.py) and says why in its commit.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest

from hanabi.bots import make_bot, seat_events
from hanabi.game import Game, Setup

MOVES = Path(__file__).with_name("moves.json")

#: (strategy per seat, variant, players' count, seeds): 30 conventions games over every
#: table size and a few variant families, the search on conventions next to a
#: conventions bot, and the search on hat among search bots.
TABLES: list[tuple[list[str], str, int, range]] = [
    (["conventions"], "No Variant", 2, range(8)),
    (["conventions"], "No Variant", 3, range(6)),
    (["conventions"], "No Variant", 4, range(5)),
    (["conventions"], "No Variant", 5, range(4)),
    (["conventions"], "Rainbow (6 Suits)", 3, range(3)),
    (["conventions"], "Black (6 Suits)", 2, range(2)),
    (["conventions"], "Pink (6 Suits)", 4, range(2)),
    (["search", "conventions"], "No Variant", 2, range(3)),
    (["conventions", "search", "conventions"], "No Variant", 3, range(2)),
    (["search"], "No Variant", 2, range(2)),
]


def games() -> list[tuple[str, list[str], str, int, str]]:
    out = []
    for strategies, variant, players, seeds in TABLES:
        table = (strategies * players)[:players] if len(strategies) == 1 else strategies
        for i in seeds:
            key = f"{'+'.join(table)} {variant} {players}p {i}"
            out.append((key, table, variant, players, f"same-moves-{i}"))
    return out


def moves(table: list[str], variant: str, players: int, seed: str) -> list[str]:
    """The game's moves, one short line each (what ``Action.to_dict`` says)."""
    setup = Setup.create(variant, players, seed=seed)
    options = setup.options.to_dict()
    bots = [make_bot(table[s], setup.variant, players, s, options, table) for s in range(players)]
    game = Game(setup)
    deal = game.deal_events()
    for seat, bot in enumerate(bots):
        bot.observe(seat_events(deal, seat, game.variant))
    out = []
    while game.result is None:
        action = bots[game.current].act()
        out.append(" ".join(f"{k}={v}" for k, v in action.to_dict().items() if v is not None))
        events = game.apply(action)
        for seat, bot in enumerate(bots):
            bot.observe(seat_events(events, seat, game.variant))
    assert not any(bot.fallbacks for bot in bots)
    return out


def recorded() -> dict[str, Any]:
    return json.loads(MOVES.read_text())


def test_the_record_covers_every_table() -> None:
    assert sorted(recorded()) == sorted(key for key, *_ in games())
    assert sum(key.startswith("conventions") for key in recorded()) >= 30


@pytest.mark.parametrize(("key", "table", "variant", "players", "seed"), games())
def test_the_same_moves_as_recorded(
    key: str, table: list[str], variant: str, players: int, seed: str
) -> None:
    assert moves(table, variant, players, seed) == recorded()[key]


if __name__ == "__main__":  # record (see the module doc)
    from hanabi.bots.hat_search import HatSearch
    from hanabi.bots.search import Search

    Search.SAMPLES, Search.SECONDS, HatSearch.DECK_AT = 2, None, 20  # conftest.py's
    record = {key: moves(*rest) for key, *rest in games()}
    MOVES.write_text(json.dumps(record, indent=0, sort_keys=True) + "\n")
    print(f"{len(record)} games, {sum(map(len, record.values()))} moves", file=sys.stderr)
