"""Turn-based play: whose move it is, per account, across every table.

A turn-based (correspondence) table is a game with ``options.move_clock``: the seat to
move has that long (hours or days), its clock starts again after every move, and when it
runs out the game ends exactly as a timed game's does (reason ``timeout``, score 0:
:mod:`.clocks`, :mod:`.deadlines`). Such a game lives in Redis at least a day longer than
its move clock (``Store.ttl_of``), so it never expires while it waits.

``GET /accounts/me/turns`` lists the games, of any kind, where it is the account's move.
It reads an index per account (:mod:`hanabi.server.storage.turns`) that the write loop
keeps after every commit that moves a turn or changes a game's status (:meth:`Turns.committed`):
the account that had the move loses the game, the one that has it gains it. The same
step tells the webhooks (:mod:`.webhooks`) when it became an account's move or a game
ended. A failure here never fails the commit that triggered it: the reader repairs any
entry whose version is not the game's (:meth:`Turns.listing`).
"""

from __future__ import annotations

import logging
from typing import Any

from ..ops.times import iso
from ..storage.record import GameStatus, Record, SeatKind
from ..storage.store import Store
from ..storage.turns import NO_DEADLINE, TurnIndex
from .rendering import public_score
from .webhooks import WebhookEvent, Webhooks

log = logging.getLogger("hanabi.server.turns")

#: The most entries one page of the list holds (``?limit=``).
PAGE_MAX = 200


def mover_account(record: Record) -> str | None:
    """The account whose move it is in ``record`` (None: not playing, a bot's or a guest's)."""
    if record.status is not GameStatus.PLAYING or not record.players:
        return None
    player = record.players[record.turn % len(record.players)]
    return player.account if player.kind is SeatKind.PERSON else None


def turn_entry(record: Record) -> dict[str, Any]:
    """The list's entry for a game (public facts only: nothing of anyone's cards)."""
    clock = record.clock or {}
    timing = record.timing or {}
    return {
        "game_id": record.id,
        "variant": record.variant,
        "players": [p.name for p in record.players],
        "seat": record.turn % len(record.players) if record.players else None,
        "turn": record.turn,
        **public_score(record),
        "move_clock": timing.get("move_clock"),
        "deadline": None if clock.get("dl") is None else iso(clock["dl"]),
        "since": iso(clock.get("ts") or record.updated),
        "link": f"/api/v1/games/{record.id}",
        "web": f"/games/{record.id}",
    }


def score_of(record: Record) -> int:
    clock = record.clock or {}
    if clock.get("dl") is not None:
        return int(clock["dl"])
    return NO_DEADLINE + int(clock.get("ts") or record.updated)


class Turns:
    """The index of whose move it is, and the webhooks it sets off."""

    def __init__(self, index: TurnIndex, store: Store, webhooks: Webhooks) -> None:
        self.index = index
        self.store = store
        self.webhooks = webhooks

    def committed(self, record: Record, old_status: GameStatus | None, old_turn: int) -> None:
        """After a commit (the write loop's watcher): update the accounts it concerns."""
        if record.status is GameStatus.LOBBY or (
            record.status is old_status and record.turn == old_turn
        ):
            return
        if not any(p.account for p in record.players):
            return
        try:
            self._update(record, old_status, old_turn)
        except Exception:  # the commit stands; the reader repairs the index
            log.exception("updating the turns of game %s failed", record.id)

    def _update(self, record: Record, old_status: GameStatus | None, old_turn: int) -> None:
        mover = mover_account(record)
        if record.status is old_status:
            before = record.players[old_turn % len(record.players)]
            touched = [before.account, mover]
        else:
            touched = [p.account for p in record.players]
        entry = turn_entry(record) if mover else None
        ended = record.status is GameStatus.FINISHED and old_status is GameStatus.PLAYING
        for account in dict.fromkeys(a for a in touched if a):
            listed = account == mover
            _, hook = self.index.set(
                account, record.id, record.version, listed, score_of(record), entry
            )
            if not hook:
                continue
            if listed:
                self.webhooks.notify(account, WebhookEvent.YOUR_TURN, entry or {})
            if ended:
                self.webhooks.notify(account, WebhookEvent.GAME_OVER, game_over(record))

    def listing(self, account_id: str, limit: int) -> dict[str, Any]:
        """The games where it is the account's move, the most urgent first (``limit`` of
        them), and how many there are. Entries older than their game are repaired."""
        total, page = self.index.page(account_id, limit)
        versions = self.index.versions([game_id for game_id, _, _ in page])
        games = []
        for (game_id, version, entry), stored in zip(page, versions, strict=True):
            if stored is None:
                self.index.drop(account_id, game_id)
                total -= 1
                continue
            if stored != version:
                entry = self._repair(account_id, game_id)
                if entry is None:
                    total -= 1
                    continue
            games.append(entry)
        return {"games": games, "total": max(total, len(games))}

    def _repair(self, account_id: str, game_id: str) -> dict[str, Any] | None:
        record = self.store.load(game_id)
        if record is None:
            self.index.drop(account_id, game_id)
            return None
        listed = mover_account(record) == account_id
        entry = turn_entry(record) if listed else None
        self.index.set(account_id, game_id, record.version, listed, score_of(record), entry)
        return entry


def game_over(record: Record) -> dict[str, Any]:
    """A webhook's word that a game ended: its result as everyone sees it once over."""
    result = record.result or {}
    return {
        "game_id": record.id,
        "variant": record.variant,
        "players": [p.name for p in record.players],
        "turn": record.turn,
        "score": record.score,
        "reason": None if result.get("reason") is None else str(result["reason"]),
        "link": f"/api/v1/games/{record.id}",
        "web": f"/games/{record.id}",
    }
