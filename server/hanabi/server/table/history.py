"""History search: every finished game, searched by player, variant, score, tag and date,
and each variant's page (docs/history.md).

A game enters the history when the commit that ends it is written (:meth:`History.committed`,
a watcher of the write loop), or when it is imported (:mod:`.imports`). Only finished games
are ever in it: a game still on has no entry, so a search cannot show its players, its
variant or its score before it ends, and never its cards.

A search reads one index (the tag's, else the player's, else the variant's, else the
whole history), newest first, and filters what it meets by the rest; it looks at no more
than :data:`SCAN_MAX` entries per page, so a rare filter costs a bounded amount and
answers with a cursor to go on from.

A variant's page counts the games that count on the leaderboards
(:func:`.leaderboards.counts`: nobody chose the deal, no bots, no rule option) for its
best games and mean; its "missing max scores" are the named seeds dealt in it that no
team has maxed. Imported games count for none of these.
"""

from __future__ import annotations

import hashlib
import logging
from datetime import UTC, datetime
from typing import Any

import orjson

from hanabi.game import get_variant

from ..storage.history import ALL, HistoryStore, player_index, tag_index, variant_index
from ..storage.record import GameStatus, Record, SeatKind
from ..storage.seeds import rank_score
from .leaderboards import counts, variant_key
from .refusals import Invalid, NotFound
from .seeds import board_key_of, dealt_name, id_of, variant_of_board

log = logging.getLogger("hanabi.server.history")

SCAN_MAX = 2000  # index entries a search page looks at, at most
BATCH = 200


def entry_of(record: Record, imported: bool, accounts: list[str]) -> dict[str, Any]:
    """A finished game as the history keeps it (``accounts``: who may tag it; never shown)."""
    variant = get_variant(record.variant)
    return {
        "game_id": record.id,
        "variant": variant.name,
        "variant_id": id_of(variant),
        "variant_key": board_key_of(variant),
        "players": [p.name for p in record.players],
        "bots": sum(p.kind is SeatKind.BOT for p in record.players),
        "score": record.score,
        "max_score": variant.max_score,
        "turns": record.turn,
        "reason": (record.result or {}).get("reason"),
        "ended": record.updated,
        "imported": imported,
        "accounts": accounts,
    }


def public(entry: dict[str, Any], tags: list[tuple[str, str]]) -> dict[str, Any]:
    """An entry as a search shows it: no account ids; its tags, once each."""
    shown = {k: v for k, v in entry.items() if k not in ("accounts", "ended", "variant_key")}
    shown["date"] = iso_ms(entry["ended"])
    shown["tags"] = sorted({tag for tag, _ in tags})
    shown["replay"] = f"/api/v1/games/{entry['game_id']}/replay"
    return shown


def deal_digest(variant: str, deck: list[list[Any]]) -> str:
    """A deal's fingerprint: its variant's board key and its cards, top first, each as
    (suit position, rank), as hanab.live's export has them (the same variant may name its
    suits in two ways here: its old form and hanab.live's)."""
    shape = get_variant(variant)
    cards = [[shape.suit_index(suit), rank] for suit, rank in deck]
    text = board_key_of(shape) + orjson.dumps(cards).decode()
    return hashlib.sha256(text.encode()).hexdigest()


def iso_ms(ms: int) -> str:
    stamp = datetime.fromtimestamp(ms / 1000, UTC).isoformat(timespec="milliseconds")
    return stamp.replace("+00:00", "Z")


def parse_cursor(cursor: str | None) -> tuple[int, str] | None:
    """A search's cursor: ``<ended ms>.<game id>`` of the last entry looked at."""
    if cursor is None:
        return None
    ms, _, game_id = cursor.partition(".")
    if not (ms.isascii() and ms.isdigit() and len(ms) <= 15 and game_id and len(game_id) <= 64):
        raise Invalid("invalid_cursor", "This cursor is not one a page of results gave.")
    return int(ms), game_id


class History:
    """Recording finished games, searching them, and the variant pages."""

    def __init__(self, store: HistoryStore, page_max: int) -> None:
        self.store = store
        self.page_max = page_max

    # -- recording -------------------------------------------------------------------------

    def committed(self, record: Record, old_status: GameStatus | None, _old_turn: int) -> None:
        """The write loop's watcher: a game that just ended enters the history. A failure
        here must not fail the move that ended the game (it is logged)."""
        if record.status is not GameStatus.FINISHED or old_status is GameStatus.FINISHED:
            return
        try:
            self.record(record)
        except Exception:
            log.exception("recording a finished game in the history failed")

    def record(self, record: Record, imported: bool = False, by: str | None = None) -> bool:
        """Add a finished game (once); ``by``: the account that imported it."""
        accounts = [by] if imported and by else []
        if not imported:
            accounts = list(dict.fromkeys(p.account for p in record.players if p.account))
        entry = entry_of(record, imported, accounts)
        indexes = [player_index(name) for name in dict.fromkeys(entry["players"])]
        indexes.append(variant_index(entry["variant_key"]))
        seed = "" if imported else dealt_name(record) or ""
        if seed and record.deck is not None:
            self.store.note_deal(deal_digest(record.variant, record.deck), seed)
        rank = rank_score(record.score, record.turn)
        counted = counts(record) and not imported
        return self.store.add(
            entry, indexes, (entry["variant_key"], record.score, rank, seed, counted)
        )

    # -- searching ---------------------------------------------------------------------------

    def search(self, query: dict[str, Any]) -> dict[str, Any]:
        """A page of finished games matching ``query`` (player, variant, tag, min_score,
        max_score, since, until, imported, limit, cursor), newest first."""
        limit = min(query.get("limit", 20), self.page_max)
        key = variant_key(query["variant"]) if query.get("variant") else None
        tag = query.get("tag")
        if tag is not None:
            tag = tag.removeprefix("#").lower()
        player = query.get("player")
        index = (
            tag_index(tag)
            if tag
            else player_index(player)
            if player
            else variant_index(key)
            if key
            else ALL
        )
        low = _ms(query.get("since"))
        high = _ms(query.get("until"))
        after = parse_cursor(query.get("cursor"))
        if after is not None:
            high = after[0] if high is None else min(high, after[0])
        found: list[dict[str, Any]] = []
        looked = offset = 0
        last: tuple[int, str] | None = None
        exhausted = False
        while len(found) < limit and looked < SCAN_MAX:
            raw = self.store.scan(index, high, low, offset, BATCH)
            offset += len(raw)
            exhausted = len(raw) < BATCH
            # the same millisecond as the cursor: those the last page already looked at
            batch = [(g, ms) for g, ms in raw if after is None or ms != after[0] or g < after[1]]
            entries = self.store.entries([g for g, _ in batch])
            gone = [g for (g, _), e in zip(batch, entries, strict=True) if e is None]
            self.store.forget(index, gone)
            for i, ((game_id, ms), entry) in enumerate(zip(batch, entries, strict=True)):
                looked += 1
                last = (ms, game_id)
                if entry is not None and _matches(entry, query, key, player):
                    found.append(entry)
                    if len(found) == limit:
                        exhausted = exhausted and i == len(batch) - 1
                        break
            if exhausted:
                break
        tags = self.store.tags_of([e["game_id"] for e in found])
        cursor = None if exhausted or last is None else f"{last[0]}.{last[1]}"
        return {
            "games": [public(e, t) for e, t in zip(found, tags, strict=True)],
            "next_cursor": cursor,
        }

    # -- a variant's page ---------------------------------------------------------------------

    def variant_page(self, text: str, limit: int, cursor: str | None) -> dict[str, Any]:
        """A variant's best games, its games' mean and the seeds nobody maxed."""
        if len(text) > 64:  # a path segment's bound (as every other path's)
            raise NotFound("variant_not_found", "There is no variant {name}.", name=repr(text[:64]))
        key = variant_key(text)
        variant = variant_of_board(key)
        offset = 0
        if cursor is not None:
            if not (cursor.isascii() and cursor.isdigit()) or len(cursor) > 9:
                raise Invalid("invalid_cursor", "This cursor is not one a page of results gave.")
            offset = int(cursor)
        limit = min(limit, self.page_max)
        page = self.store.variant_page(key, variant.max_score, offset, limit)
        counters = page["counters"]
        games = counters.get("games", 0)
        entries = self.store.entries(page["best"])
        best = [e for e in entries if e is not None]
        tags = self.store.tags_of([e["game_id"] for e in best])
        total = page["missing_total"]
        return {
            "variant": variant.name,
            "variant_id": id_of(variant),
            "max_score": variant.max_score,
            "games": games,
            "mean": round(counters.get("sum", 0) / games, 2) if games else None,
            "best": [public(e, t) for e, t in zip(best, tags, strict=True)][:10],
            "seeds_played": page["seeds_total"],
            "missing_max_scores": page["missing"],
            "missing_total": total,
            "next_cursor": str(offset + limit) if offset + limit < total else None,
        }


def _ms(value: datetime | None) -> int | None:
    if value is None:
        return None
    if value.tzinfo is None:
        value = value.replace(tzinfo=UTC)
    return int(value.timestamp() * 1000)


def _matches(
    entry: dict[str, Any], query: dict[str, Any], key: str | None, player: str | None
) -> bool:
    if key is not None and entry["variant_key"] != key:
        return False
    if player is not None and player.casefold() not in {p.casefold() for p in entry["players"]}:
        return False
    if query.get("min_score") is not None and entry["score"] < query["min_score"]:
        return False
    if query.get("max_score") is not None and entry["score"] > query["max_score"]:
        return False
    imported = query.get("imported")
    return imported is None or bool(entry.get("imported")) == imported
