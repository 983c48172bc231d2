"""Dealing a table's seed (docs/seeds.md, "Choosing a deal"), and what keeps a live deal's
cards from its own seats.

Finished games are public and anyone may open a table on a seed's name, so a seat could
see its own hand wherever the same deal is shown to it as someone else's. Three rules
close that:

- **No account holds two live seats on one deal.** Opening, joining or starting a table
  that would do it is 409 ``same_deal_elsewhere`` (by its :func:`~.seeds.deal_key`: a
  seed's name, or a custom seed or deck).
- **Rated tables are sealed.** A rated table is dealt a fresh seed: from the random range,
  one no seated account has played, spoiled or holds, with no recorded result, and
  *sealed* for it (``hanabi:seal:{<name>}``) until it ends: opening or starting any other
  table on that name is 409 ``deal_unavailable``. Its seats learn the name when it ends,
  like every ``random`` or ``unplayed`` deal's, so nobody can ask for it; the seal holds
  even against a lucky guess.
- **``random`` and ``unplayed`` skip** every seed a seated account played, spoiled
  (:mod:`.spoilers`) or holds live, and every sealed one.

Neither refusal names a seed: the name of a sealed deal is its players' secret until the
end.
"""

from __future__ import annotations

import secrets
from typing import Any

from hanabi.game import get_variant

from ..storage.record import GameStatus, Record
from ..storage.seeds import SeedStore
from ..storage.store import Store
from .refusals import Conflict, Invalid, Refused
from .seeds import (
    RANDOM,
    RANDOM_SPAN,
    UNPLAYED,
    SeedName,
    accounts_of,
    check_name,
    deal_key,
    dealt_name,
    hanablive_id,
    key_of,
    named_deck,
    parse,
)
from .spoilers import Spoilers, same_deal_elsewhere
from .wording import Plural
from .writes import Hooks


def deal_unavailable() -> Refused:
    return Conflict(
        "deal_unavailable",
        "This deal is being played at a rated table: ask for another seed, or for random.",
    )


class SeedDeals:
    """Choosing a table's seed: its mode at creation, its name and deck at the deal."""

    def __init__(self, store: SeedStore, spoilers: Spoilers, games: Store) -> None:
        self.store = store
        self.spoilers = spoilers
        self.games = games

    def mode(self, body: dict[str, Any]) -> tuple[str | None, bool]:
        """What a new table stores as its ``seed_name`` (``random``, ``unplayed``, a name,
        or None for a custom deal) and whether its creator chose the deal."""
        asked = body.get("seed")
        number = hanablive_id(body["variant"])
        if body.get("deck") is not None:
            if asked in (RANDOM, UNPLAYED) or (asked and parse(asked)):
                raise Invalid("seed_with_deck", "Choose a seed or a deck, not both.")
            return None, True
        if asked is None or asked == RANDOM:
            return (RANDOM if number is not None else None), False
        if asked == UNPLAYED or parse(asked) is not None:
            if number is None:
                raise Invalid(
                    "seed_variant",
                    "{variant} is not a hanab.live variant: its deals have no names.",
                    variant=body["variant"],
                )
            if asked == UNPLAYED:
                return UNPLAYED, False
            name = check_name(asked)
            if name.variant_id != number:
                raise Invalid(
                    "seed_variant",
                    "Seed {seed} is for variant {wanted}, this table's is {number}.",
                    seed=asked,
                    wanted=name.variant_id,
                    number=number,
                )
            if name.players > body["max_players"]:
                raise Invalid(
                    "seed_players",
                    "Seed {seed} is for {players}; this table seats at most {most}.",
                    seed=asked,
                    players=Plural(name.players, "{n} player", "{n} players"),
                    most=body["max_players"],
                )
            return str(name), True
        return None, True  # a custom seed, as before names

    def check_opening(
        self, variant: str, seed_name: str | None, seed: str, deck: Any, account_id: str | None
    ) -> None:
        """A table about to be opened on these parts, its seat 0 the account's: 409
        ``deal_unavailable`` for a sealed seed, ``same_deal_elsewhere`` for a deal the
        account holds live."""
        key = key_of(variant, seed_name, seed, deck)
        if key is None:
            return
        if parse(key) is not None and not self.available(key, None):
            raise deal_unavailable()
        if account_id is not None and self.spoilers.live_elsewhere(account_id, key, None):
            raise same_deal_elsewhere()

    def check_joining(self, record: Record, account_id: str | None) -> None:
        """409 ``same_deal_elsewhere`` for an account taking a seat at a table whose deal
        (known already: a name, a custom seed or deck) it holds live elsewhere."""
        key = deal_key(record)
        if (
            key is not None
            and account_id is not None
            and self.spoilers.live_elsewhere(account_id, key, record.id)
        ):
            raise same_deal_elsewhere()

    def deal(self, record: Record) -> None:
        """At the deal: turn the table's seed mode into a name and its deck (the seats are
        known now), and refuse a deal a seated account holds live elsewhere. A deal
        decided again (a lost compare-and-set) decides again; a seal it made is then held
        by a game not dealt it, which frees it at the first look (:meth:`available`)."""
        mode = record.seed_name
        if mode is not None and not (parse(mode) is not None and record.deck is not None):
            name = self._name(record, mode)
            record.seed_name = str(name)
            record.deck = named_deck(get_variant(record.variant), self.store.secret(), str(name))
        if not record.rated:  # a sealed deal is fresh: nobody seated holds it
            self.spoilers.check_seats(record)

    def _name(self, record: Record, mode: str) -> SeedName:
        players = len(record.players)
        number = hanablive_id(record.variant)
        assert number is not None  # mode() gave names to hanab.live variants only
        if mode in (RANDOM, UNPLAYED) or record.rated:
            prefix = SeedName(players, number, 1).prefix
            taken: set[str] = set()
            for account_id in accounts_of(record):
                taken |= self.store.played(account_id, prefix)
            taken |= self.spoilers.spoiled_seeds(accounts_of(record), prefix)
            if record.rated:
                return self._sealed(record.id, players, number, taken)
            return self._pick(players, number, taken, mode == UNPLAYED)
        name = check_name(mode)
        if name.players != players:
            raise Conflict(
                "seed_players_seated",
                "This table's seed {seed} is for {players}; {seated} are seated.",
                seed=str(name),
                players=Plural(name.players, "{n} player", "{n} players"),
                seated=players,
            )
        if not self.available(str(name), record.id):
            raise deal_unavailable()
        return name

    def _pick(self, players: int, number: int, taken: set[str], lowest: bool) -> SeedName:
        n = 0
        while True:
            n = n + 1 if lowest else 1 + secrets.randbelow(RANDOM_SPAN)
            name = SeedName(players, number, n)
            if str(name) not in taken and self.available(str(name), None):
                return name

    def _sealed(self, game_id: str, players: int, number: int, taken: set[str]) -> SeedName:
        """A fresh seed for a rated table, sealed for it: from the random range, not
        ``taken``, never recorded as finished, and not sealed for another game."""
        while True:
            name = SeedName(players, number, 1 + secrets.randbelow(RANDOM_SPAN))
            text = str(name)
            if text in taken or self.store.has_results(text):
                continue
            if self.store.seal(text, game_id) or (
                self.available(text, game_id) and self.store.seal(text, game_id)
            ):
                return name

    def available(self, name: str, game_id: str | None) -> bool:
        """Whether seed ``name`` may be dealt to ``game_id`` (None: a table not opened
        yet): no other game holds its seal, in play on it or being dealt it (still in the
        lobby: its seal expires if the deal never commits). A seal whose game is over,
        gone, or was dealt another seed is dropped here."""
        holder = self.store.sealed_by(name)
        if holder is None or holder == game_id:
            return True
        sealed = self.games.load(holder)
        if sealed is not None and (
            sealed.status is GameStatus.LOBBY
            or (sealed.status is GameStatus.PLAYING and sealed.seed_name == name)
        ):
            return False
        self.store.unseal(name, holder)
        return self.store.sealed_by(name) is None


class SeedHooks(Hooks):
    """Around ``inner`` (settling's hooks): a game is open for its accounts under its
    :func:`~.seeds.deal_key` from just before the deal's commit (settling drops the
    mark), and a rated game's seal goes when it ends."""

    def __init__(self, inner: Hooks, store: SeedStore) -> None:
        self.inner = inner
        self.store = store

    def starting(self, record: Record) -> None:
        self.inner.starting(record)
        key = deal_key(record)
        if key is not None:
            self.store.mark_open(accounts_of(record), key, record.id)

    def committed(self, record: Record, old: GameStatus | None, _turn: int) -> None:
        """After a commit (a write loop's watcher): a rated deal now committed keeps its
        seal until the game ends."""
        name = dealt_name(record)
        started = old is GameStatus.LOBBY and record.status is GameStatus.PLAYING
        if record.rated and name is not None and started:
            self.store.keep_seal(name, record.id)

    def finished(self, record: Record) -> Record | None:
        name = dealt_name(record)
        if record.rated and name is not None:
            self.store.unseal(name, record.id)
        return self.inner.finished(record)
