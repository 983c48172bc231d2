"""Who may sit at a rated table (docs/rules.md, "Rated games"), as checks that answer with a
clear problem code. The game service calls them where seats are made and the deal is."""

from __future__ import annotations

from typing import Any

from hanabi.game import get_variant

from . import ratings
from .accounts import Account
from .problems import ApiError
from .store import Record


def check_create(body: dict[str, Any], account: Account | None) -> None:
    """A rated table: an account (not a bot's), no known deal, a variant that is rated."""
    if account is None:
        raise ApiError(
            401, "account_required", "A rated game is created with an account's credential."
        )
    if account.bot:
        raise ApiError(403, "bot_account", "Bot accounts never play rated games.")
    if body.get("seed") or body.get("deck"):
        raise ApiError(
            400, "rated_known_deal", "A rated game is dealt at random: no seed, no deck."
        )
    if not ratings.is_rated_variant(get_variant(body["variant"])):
        raise ApiError(
            400,
            "variant_not_rated",
            f"{body['variant']} is never rated (a 55-card variant depends on the draw).",
        )


def check_join(record: Record, account: Account | None) -> None:
    if not record.rated:
        return
    if account is None:
        raise ApiError(401, "account_required", "Only accounts may join a rated game.")
    if account.bot:
        raise ApiError(403, "bot_account", "Bot accounts never play rated games.")
    if any(p.account == account.id for p in record.players):
        raise ApiError(409, "already_seated", "This account already holds a seat here.")


def check_bot(record: Record) -> None:
    if record.rated:
        raise ApiError(409, "rated_no_bots", "A rated game has no bot seats.")


def check_start(record: Record) -> None:
    """At the deal a rated table seats at least two accounts (and nothing else)."""
    if not record.rated:
        return
    if sum(p.account is not None for p in record.players) < 2 or any(
        p.account is None or p.bot is not None for p in record.players
    ):
        raise ApiError(409, "not_enough_accounts", "A rated game needs two or more accounts.")
