"""Per-account statistics and history, as :mod:`hanabi.server.table.settle` writes them.

``{acct:<id>}:st`` holds counters per variant ``v``: ``v:games``, ``v:best:<players>``,
``v:scored`` and ``v:score_sum`` (games not ended at 0), ``v:strikeouts``, ``v:rated``
and ``v:change`` (the sum of rating changes). ``{acct:<id>}:h`` orders the history
(members ``<ended ms, 13 digits>:<game id>``, all scored 0, read by lex range like the
game index) and ``{acct:<id>}:hg`` holds each entry.

The account's hash ``{acct:<id>}:a`` counts its finished unrated games in
``unrated_games`` (what makes it eligible for rated games, :mod:`hanabi.server.table.rated`),
one field read. Accounts from before that field have it counted once from the statistics
(``games`` minus ``rated`` over the variants) by the first game they finish since.
"""

from __future__ import annotations

from typing import Any

import orjson
import redis

from .accounts import akey


def variant_stats(raw: dict[bytes, bytes]) -> dict[str, dict[str, Any]]:
    """The statistics hash as ``{variant: {games, best, average, strikeout_rate, ...}}``."""
    counters: dict[str, dict[str, str]] = {}
    for field, value in raw.items():
        variant, _, name = field.decode().partition(":")
        counters.setdefault(variant, {})[name] = value.decode()
    out = {}
    for variant, c in sorted(counters.items()):
        games = int(c.get("games", 0))
        scored = int(c.get("scored", 0))
        best = {n.removeprefix("best:"): int(v) for n, v in c.items() if n.startswith("best:")}
        out[variant] = {
            "games": games,
            "best": dict(sorted(best.items())),
            "average": round(int(c.get("score_sum", 0)) / scored, 2) if scored else None,
            "strikeout_rate": round(int(c.get("strikeouts", 0)) / games, 4) if games else 0.0,
            "rated_games": int(c.get("rated", 0)),
            "rating_change": round(float(c.get("change", 0)), 2),
        }
    return out


def unrated_games(client: redis.Redis, account_id: str) -> int:
    """How many unrated games the account finished (any way they ended)."""
    counted = client.hget(akey(account_id, "a"), "unrated_games")
    if counted is not None:
        return int(counted)
    total = 0
    for field, value in client.hgetall(akey(account_id, "st")).items():
        if field.endswith(b":games"):
            total += int(value)
        elif field.endswith(b":rated"):
            total -= int(value)
    return total


def profile(client: redis.Redis, account_id: str, public: dict[str, Any]) -> dict[str, Any]:
    raw = client.hgetall(akey(account_id, "st"))
    return {**public, "stats": variant_stats(raw)}


def history(client: redis.Redis, account_id: str, limit: int, cursor: str | None) -> dict[str, Any]:
    """Finished games, newest first, ``limit`` at a time after ``cursor``."""
    start = "(" + cursor if cursor else "+"
    members = [
        m.decode()
        for m in client.zrange(
            akey(account_id, "h"), start, "-", desc=True, bylex=True, offset=0, num=limit + 1
        )
    ]
    page = members[:limit]
    ids = [m.split(":", 1)[1] for m in page]
    entries = client.hmget(akey(account_id, "hg"), ids) if ids else []
    games = []
    for raw in entries:
        if raw is None:
            continue
        entry = orjson.loads(raw)
        games.append({**entry, "rating_change": entry.get("rating_change") or None})
    next_cursor = page[-1] if len(members) > limit else None
    return {"games": games, "next_cursor": next_cursor}
