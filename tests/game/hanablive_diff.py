"""Replay games whose outcomes hanab.live's own game logic computed, and list disagreements.

The fixture (tests/game/fixtures/hanablive_random.json.gz) was written outside this
repository by a driver that played random games with hanab.live's rule functions
(``packages/game``: clue touching, next playable ranks, clue tokens, maximum score) and
its server's turn and end-of-game logic. Each game holds the variant, table size, table
options, the deck, the actions in hanab.live's JSON form (the *chosen* play or discard,
before an Orange card turns it round), and after every action what hanab.live saw: the
cards a clue touched (newest first) or whether a card was played, misplayed or discarded,
then score, clue tokens (hanab.live's units: halves in Clue Starved), strikes and the
running maximum score; finally the end condition, turn count and score.

    python tests/game/hanablive_diff.py FILE.json[.gz]   # prints the disagreements
"""

from __future__ import annotations

import gzip
import json
import sys
from pathlib import Path
from typing import Any

from hanabi.game import Action, Game, HanabiError, Setup, get_variant

FIXTURE = Path(__file__).with_name("fixtures") / "hanablive_random.json.gz"
OPTION_NAMES = {
    "cardCycle": "card_cycle",
    "deckPlays": "deck_plays",
    "emptyClues": "empty_clues",
    "oneExtraCard": "one_extra_card",
    "oneLessCard": "one_less_card",
    "allOrNothing": "all_or_nothing",
}
# hanab.live's end conditions for our reasons (1 normal, 2 strikeout, 8 and 9 all or nothing)
END_CONDITIONS = {
    "perfect": 1,
    "deck_out": 1,
    "max_possible": 1,
    "strikeout": 2,
    "all_or_nothing_failed": 8,
    "all_or_nothing_stuck": 9,
}


def load(path: Path = FIXTURE) -> list[dict[str, Any]]:
    opener = gzip.open if path.suffix == ".gz" else open
    with opener(path, "rt", encoding="utf-8") as f:
        return json.load(f)["games"]


def setup_of(g: dict[str, Any]) -> Setup:
    variant = get_variant(g["variant"])
    options = {OPTION_NAMES[k]: v for k, v in g["options"].items()}
    options["end_at_max_possible"] = True  # hanab.live always ends there
    deck = [(variant.suits[s].id, rank) for s, rank in g["deck"]]
    return Setup.create(variant.id, g["players"], options=options, seed="diff", deck=deck)


def action_of(game: Game, entry: dict[str, Any]) -> Action:
    kind, target = entry["type"], entry["target"]
    if kind == 0:
        return Action.play(target)
    if kind == 1:
        return Action.discard(target)
    if kind == 2:
        return Action.clue(target, color=game.variant.clue_colors[entry["value"]])
    return Action.clue(target, rank=entry["value"])


def check_game(g: dict[str, Any]) -> list[str]:
    """The disagreements between our engine and hanab.live on one game (empty: none)."""
    where = f"{g['variant']} ({g['players']}p, {g['options']}, seed {g['seed']})"
    game = Game(setup_of(g))
    for turn, (entry, expected) in enumerate(zip(g["actions"], g["outcomes"], strict=True)):
        if game.is_over:
            return [f"{where}: we ended at turn {turn}, hanab.live went on"]
        try:
            events = game.apply(action_of(game, entry))
        except HanabiError as exc:
            return [f"{where}: turn {turn} {entry} refused: {exc.message}"]
        if expected[0] == "clue":
            got: list[Any] = ["clue", events[0]["touched"]]
            rest = expected[2:]
        else:
            kinds = [e["type"] for e in events if e["type"] in ("play", "misplay", "discard")]
            got = kinds[:1]
            rest = expected[1:]
        got += [game.score, game.clue_tokens, game.strikes, game.max_possible]
        if got != [*expected[: len(expected) - len(rest)], *rest]:
            return [f"{where}: turn {turn} {entry}: hanab.live {expected}, we {got}"]
    condition, turns, score = g["end"]
    if not game.is_over:
        return [f"{where}: hanab.live ended at turn {turns}, we did not"]
    ours = [END_CONDITIONS[game.result["reason"]], game.turn, game.result["score"]]
    if ours != [condition, turns, score]:
        return [f"{where}: end: hanab.live {[condition, turns, score]}, we {ours}"]
    return []


def main(argv: list[str]) -> int:
    games = load(Path(argv[1])) if len(argv) > 1 else load()
    problems = [p for g in games for p in check_game(g)]
    for p in problems[:50]:
        print(p)
    variants = len({g["variant"] for g in games})
    actions = sum(len(g["actions"]) for g in games)
    print(f"{len(games)} games, {variants} variants, {actions} actions: {len(problems)} disagree")
    return 1 if problems else 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv))
