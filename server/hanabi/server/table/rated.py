"""Who may sit at a rated table (docs/ratings.md), as checks that answer with a clear problem
code. The game service calls them where seats are made and the deal is.

A rated table plays the standard rules (no option that changes the score or what is
legal), and seats distinct accounts that are old enough and have finished enough unrated
games (``HANABI_RATED_MIN_AGE_H``, ``HANABI_RATED_MIN_GAMES``): one person cannot farm
rating with fresh accounts. Each rule is checked where a seat is taken and again at the
deal, which reads the accounts as they are then (a deleted one holds no seat).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from hanabi.game import Variant, get_variant

from ..ops.times import now_ms
from ..storage.accounts import AccountStore
from ..storage.record import Record, SeatKind
from . import ratings
from .accounts import Account
from .refusals import Conflict, Forbidden, Invalid, Refused, Unauthorized
from .wording import Plural, Words

HOUR_MS = 3600 * 1000


class RatedTables:
    """The checks that need the accounts as stored (``config``: the eligibility settings)."""

    def __init__(self, accounts: AccountStore, config: Mapping[str, Any]) -> None:
        self.accounts = accounts
        self.min_age_h = config["HANABI_RATED_MIN_AGE_H"]
        self.min_games = config["HANABI_RATED_MIN_GAMES"]

    def check_create(self, body: dict[str, Any], account: Account | None) -> None:
        """A rated table: an account (not a bot's, eligible), no known deal, a variant that
        is rated, the standard rules."""
        if account is None:
            raise Unauthorized(
                "account_required", "A rated game is created with an account's credential."
            )
        if account.bot:
            raise Forbidden("bot_account", "Bot accounts never play rated games.")
        if body.get("seed") not in (None, "random", "unplayed") or body.get("deck"):
            raise Invalid("rated_known_deal", "A rated game is dealt at random: no seed, no deck.")
        check_variant(get_variant(body["variant"]), body["variant"])
        check_options(body["options"])
        self.check_eligible([(account.id, account.username)])

    def check_join(self, record: Record, account: Account | None) -> None:
        if not record.rated:
            return
        if account is None:
            raise Unauthorized("account_required", "Only accounts may join a rated game.")
        if account.bot:
            raise Forbidden("bot_account", "Bot accounts never play rated games.")
        if any(p.account == account.id for p in record.players):
            raise already_seated()
        self.check_eligible([(account.id, account.username)])

    def check_start(self, record: Record) -> None:
        """At the deal a rated table seats two or more distinct, eligible accounts (and
        nothing else), under the standard rules."""
        if not record.rated:
            return
        if sum(p.account is not None for p in record.players) < 2 or any(
            p.account is None or p.kind is SeatKind.BOT for p in record.players
        ):
            raise Conflict("not_enough_accounts", "A rated game needs two or more accounts.")
        check_options(record.options)
        check_distinct(record)
        self.check_eligible([(p.account, p.name) for p in record.players if p.account])

    def check_eligible(self, seats: list[tuple[str, str]]) -> None:
        """409 unless every account of ``seats`` (id, name) exists, is at least
        ``HANABI_RATED_MIN_AGE_H`` hours old and has finished ``HANABI_RATED_MIN_GAMES``
        unrated games (one read per account: the ``created`` and ``unrated_games`` fields)."""
        rows = self.accounts.eligibility([account_id for account_id, _ in seats])
        now = now_ms()
        for (account_id, name), (username, created, games) in zip(seats, rows, strict=True):
            if username is None:
                raise Conflict(
                    "account_deleted",
                    "{name}'s account no longer exists: the host may remove that seat.",
                    name=name,
                )
            age_ms = now - int(created)
            if self.min_age_h > 0 and age_ms < self.min_age_h * HOUR_MS:
                raise Conflict(
                    "account_too_new",
                    "Rated games are open to accounts at least {hours} hours old; {name}'s was "
                    "created {age} ago.",
                    hours=self.min_age_h,
                    name=name,
                    age=hours(age_ms),
                )
            if self.min_games <= 0:
                continue
            finished = int(games) if games is not None else self.accounts.unrated_games(account_id)
            if finished < self.min_games:
                raise Conflict(
                    "not_enough_games",
                    "Rated games are open to accounts that finished {needed} unrated games first; "
                    "{name} has finished {finished} of the {needed}.",
                    needed=self.min_games,
                    name=name,
                    finished=finished,
                )


def check_options(options: Mapping[str, Any]) -> None:
    """409 ``option_not_rated`` for an option that changes the score or what is legal."""
    for name, changes in ratings.NON_STANDARD_OPTIONS.items():
        if options.get(name):
            raise Conflict(
                "option_not_rated",
                "A rated game uses the standard rules: {option} is not allowed (it changes "
                "{changes}).",
                option=name,
                changes=changes,
            )


def check_variant(variant: Variant, asked: Any) -> None:
    """400 ``variant_not_rated`` unless rated tables accept the variant: one whose house-bot
    score was measured (:mod:`.rated_variants`), never a 55-card one."""
    if ratings.is_rated_variant(variant):
        return
    if variant.card_count == ratings.UNRATED_CARD_COUNT:
        raise Invalid(
            "variant_not_rated",
            "{variant} is never rated (a 55-card variant depends on the draw).",
            variant=asked,
        )
    raise Invalid(
        "variant_not_rated",
        "{variant} is not rated: rated games are played in the variants where hanabot's "
        "score was measured (GET /api/v1/rating-model lists them); it can be played unrated.",
        variant=asked,
    )


def hands_shown() -> Refused:
    """A rated table's spectators see the public board only (docs/watching.md)."""
    return Invalid(
        "spectators_see_hands_rated",
        "A rated game never shows its hands to spectators: they could pass the players "
        "their own cards.",
    )


def check_bot(record: Record) -> None:
    if record.rated:
        raise Conflict("rated_no_bots", "A rated game has no bot seats.")


def check_distinct(record: Record) -> None:
    accounts = [p.account for p in record.players if p.account is not None]
    if len(set(accounts)) != len(accounts):
        raise already_seated()


def already_seated() -> Refused:
    return Conflict(
        "already_seated", "This account already holds a seat here: one seat per account."
    )


def hours(ms: int) -> Words | Plural:
    """An account's age in words, in the reader's language ("less than an hour", "5 hours")."""
    whole = ms // HOUR_MS
    return Words("less than an hour") if whole < 1 else Plural(whole, "{n} hour", "{n} hours")
