"""Wiring accounts and game settling into the app (called once by the app factory)."""

from __future__ import annotations

import logging

from flask import Flask

from .storage.record import Record
from .table.accounts import Accounts
from .table.games import Hooks, Service
from .table.settle import Settler, Sweeper

log = logging.getLogger(__name__)


class SettleHooks(Hooks):
    """Settles games with accounts seated: pending before the deal, settled at the end."""

    def __init__(self, settler: Settler) -> None:
        self.settler = settler

    def starting(self, record: Record) -> None:
        self.settler.pending(record)

    def finished(self, record: Record) -> Record | None:
        if not any(p.account is not None for p in record.players):
            return None
        try:
            return self.settler.settle(record.id, record)
        except Exception:
            log.exception("settling a finished game failed; the sweeper will retry")
            return None


def init_accounts(app: Flask, service: Service) -> None:
    """Accounts, settling and its sweeper for ``app`` (called by the app factory)."""
    config = app.config
    app.extensions["hanabi_accounts"] = Accounts(service.store.redis, dict(config))
    settler = Settler(service.store, config["HANABI_RATING_K"], config["HANABI_FINISHED_TTL"])
    app.extensions["hanabi_settler"] = settler
    service.hooks = SettleHooks(settler)
    if config["HANABI_SETTLE_SWEEP"] > 0:
        app.extensions["hanabi_sweeper"] = Sweeper(settler, config["HANABI_SETTLE_SWEEP"]).start()
