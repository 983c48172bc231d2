"""Leaderboards and per-player counts (docs/seeds.md), and where a settled game is recorded
on its seed, its board and its players' counters.

Settling (:mod:`.settle`) calls :meth:`Results.record` for every finished game with an
account seated, before the game leaves the pending set: a process that dies halfway leaves
it pending and the sweeper records it again, which changes nothing (each write is keyed by
the game).

A game **counts** (boards and players' counters) when its deal was nobody's choice (no
named or custom seed, no deck), no seat is a bot, no rule option is on and it is not
*spoiled* (a seated account had seen the seed's cards before it ended,
:mod:`.spoilers`): the boards compare teams on the same footing. Seed pages list every
game dealt a named seed, a spoiled one marked so, ranked after the others.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Any

from hanabi.game import get_variant

from ..storage.record import Record, SeatKind
from ..storage.seeds import TURN_SPAN, SeedStore, board_keys, member_of, rank_score
from .refusals import NotFound
from .seeds import (
    accounts_of,
    board_key_of,
    board_variant,
    cursor_offset,
    ranked,
    record_seed,
    seed_entry,
)
from .seeds import variant_of_board as variant_of_key
from .spoilers import Spoilers
from .stats import Profiles


class Kind(StrEnum):
    """A board's order: best scores (then fewest turns), or fewest turns at the max score."""

    SCORE = "score"
    TURNS = "turns"


def counts(record: Record) -> bool:
    """Whether a finished game goes on the boards and its players' counters."""
    return (
        not record.custom_deal
        and all(p.kind is SeatKind.PERSON for p in record.players)
        and not any(record.options.values())
    )


def variant_key(text: str) -> str:
    """A board's variant from a query: a hanab.live id or name, or this service's id."""
    try:
        number = text.isascii() and text.isdigit() and len(text) < 9
        variant = get_variant(int(text) if number else text)  # type: ignore[arg-type]
    except (KeyError, ValueError, TypeError):
        raise NotFound(
            "variant_not_found", "There is no variant {name}.", name=repr(text)
        ) from None
    return board_key_of(variant)


class Results:
    """Records settled games; reads the boards and players' counts."""

    def __init__(self, store: SeedStore, page_max: int, spoilers: Spoilers) -> None:
        self.store = store
        self.page_max = page_max
        self.spoilers = spoilers

    def record(self, record: Record) -> None:
        spoiled = self.spoilers.spoiled(record)
        name = record_seed(self.store, record, spoiled)
        if spoiled or not counts(record):
            return
        key = board_variant(record.variant)
        entry = seed_entry(record, name or "")
        entry.pop("seed")  # a board does not tie a replay to a seed's name (docs/seeds.md)
        entry.pop("spoiled")  # a board has none
        rank = rank_score(record.score, record.turn)
        member = member_of(record.updated, record.id)
        self.store.add_to_board(key, len(record.players), member, rank, entry)
        top = record.score >= entry["max_score"]
        for account_id in accounts_of(record):
            self.store.count(account_id, record.id, key, record.score, top)

    def board(
        self, variant: str, players: int, kind: Kind, limit: int, cursor: str | None
    ) -> dict[str, Any]:
        key = variant_key(variant)
        shown = variant_of_key(key)
        offset = cursor_offset(cursor)
        limit = min(limit, self.page_max)
        keys = board_keys(key, players)
        if kind is Kind.TURNS:  # the max score's rank scores: one band of TURN_SPAN
            low = rank_score(shown.max_score, 0)
            entries, total = self.store.page(keys, offset, limit, low, low + TURN_SPAN - 1)
        else:
            entries, total = self.store.page(keys, offset, limit)
        return {
            "variant": shown.name,
            "variant_id": shown.hanablive_id,
            "players": players,
            "kind": kind.value,
            "total": total,
            "entries": ranked(entries, offset),
            "next_cursor": str(offset + limit) if offset + limit < total else None,
        }

    def player(self, profiles: Profiles, username: str) -> dict[str, Any]:
        """A player's games, max scores (win rate) and average score per variant, over the
        games that count."""
        account_id = profiles.account_id_of(username)
        public = profiles.accounts.public(account_id) or {}
        variants = []
        for key, c in sorted(self.store.counters(account_id).items()):
            games = c.get("games", 0)
            if not games:
                continue
            variant = variant_of_key(key)
            variants.append(
                {
                    "variant": variant.name,
                    "variant_id": variant.hanablive_id,
                    "games": games,
                    "max_scores": c.get("max", 0),
                    "win_rate": round(c.get("max", 0) / games, 4),
                    "average": round(c.get("sum", 0) / games, 2),
                }
            )
        return {"username": public.get("username", username), "variants": variants}
