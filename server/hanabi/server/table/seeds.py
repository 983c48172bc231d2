"""Seeds: every deal's public name, how a table picks one, and who may compare results on it
(docs/seeds.md).

A deal's name is hanab.live's ``p{players}v{variant}s{n}`` (``variant``: the hanab.live
numeric id; this service's old ids are aliases of hanab.live's variants). The deck is a
pure function of the name and the deployment's secret (:func:`named_deck`): every table
dealt ``p2v0s17`` gets the same cards, and nobody computes them from the name alone, so a
name reveals nothing and may be shown to the players who hold it.

A table asks for ``seed``: ``"random"`` (the default), ``"unplayed"`` (the lowest ``n``
that no seated account has finished or holds open, decided at the deal when the seats are
known) or a name. Any other text is a private custom seed as before (no name, not
compared), as is an explicit deck, and so are the two variants hanab.live does not have.
"""

from __future__ import annotations

import hashlib
import hmac
import random
import re
import secrets
from dataclasses import dataclass
from typing import Any

import orjson

from hanabi.game import Variant, catalogue, get_variant

from ..ops.times import iso
from ..storage.record import GameStatus, Record, SeatKind
from ..storage.seeds import SeedStore, member_of, rank_score, seed_keys
from ..storage.store import Store
from .refusals import Conflict, Forbidden, Invalid, Unauthorized
from .wording import Plural
from .writes import Hooks

RANDOM = "random"
UNPLAYED = "unplayed"
NAME = re.compile(r"p([2-6])v([0-9]{1,6})s([0-9]{1,9})")
RANDOM_SPAN = 1_000_000_000  # a random table's n: from 1 to this


@dataclass(frozen=True)
class SeedName:
    players: int
    variant_id: int
    n: int

    def __str__(self) -> str:
        return f"p{self.players}v{self.variant_id}s{self.n}"

    @property
    def prefix(self) -> str:
        return f"p{self.players}v{self.variant_id}s"


def parse(text: str) -> SeedName | None:
    match = NAME.fullmatch(text)
    if match is None:
        return None
    players, variant_id, n = (int(g) for g in match.groups())
    if n < 1 or str(n) != match.group(3) or str(variant_id) != match.group(2):
        return None  # one spelling per seed: no leading zeros
    return SeedName(players, variant_id, n)


def hanablive_id(variant_key: str) -> int | None:
    """The hanab.live id of a variant (an old id: of the hanab.live variant it stands
    for); None for this service's own variants."""
    return id_of(get_variant(variant_key))


def id_of(variant: Variant) -> int | None:
    if variant.hanablive_id is not None:
        return variant.hanablive_id
    if variant.hanablive_name is not None:
        return catalogue.variant(variant.hanablive_name).hanablive_id
    return None


def board_variant(variant_key: str) -> str:
    """The key a variant's results are counted under: ``v<hanab.live id>`` (aliases count
    together), else ``v<own id>``."""
    return board_key_of(get_variant(variant_key))


def board_key_of(variant: Variant) -> str:
    number = id_of(variant)
    return f"v{number}" if number is not None else f"v{variant.id}"


def variant_of_board(key: str) -> Variant:
    text = key.removeprefix("v")
    return get_variant(int(text)) if text.isdigit() else get_variant(text)  # type: ignore[arg-type]


def named_deck(variant: Variant, secret: str, name: str) -> list[list[Any]]:
    """The deal of seed ``name`` as deck rows (suit id, rank), top card first."""
    key = hmac.new(secret.encode(), name.encode(), hashlib.sha256).hexdigest()
    cards = variant.deck()
    random.Random(key).shuffle(cards)
    return [list(variant.card(c)) for c in cards]


def check_name(text: str) -> SeedName:
    name = parse(text)
    if name is None:
        raise Invalid(
            "invalid_seed_name",
            "{text} is not a seed name: use p<players>v<variant id>s<number>, e.g. p2v0s1.",
            text=repr(text),
        )
    return name


class SeedDeals:
    """Choosing a table's seed: its mode at creation, its name and deck at the deal."""

    def __init__(self, store: SeedStore) -> None:
        self.store = store

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

    def deal(self, record: Record) -> None:
        """At the deal: turn the table's seed mode into a name and its deck (the seats are
        known now). Reads only: a deal decided again decides again."""
        mode = record.seed_name
        if mode is None or (parse(mode) is not None and record.deck is not None):
            return
        players = len(record.players)
        number = hanablive_id(record.variant)
        assert number is not None  # mode() gave names to hanab.live variants only
        if mode in (RANDOM, UNPLAYED):
            prefix = SeedName(players, number, 1).prefix
            taken: set[str] = set()
            for account_id in accounts_of(record):
                taken |= self.store.played(account_id, prefix)
            name = self._pick(players, number, taken, mode == UNPLAYED)
        else:
            name = check_name(mode)
            if name.players != players:
                raise Conflict(
                    "seed_players_seated",
                    "This table's seed {seed} is for {players}; {seated} are seated.",
                    seed=str(name),
                    players=Plural(name.players, "{n} player", "{n} players"),
                    seated=players,
                )
        record.seed_name = str(name)
        record.deck = named_deck(get_variant(record.variant), self.store.secret(), str(name))

    @staticmethod
    def _pick(players: int, number: int, taken: set[str], lowest: bool) -> SeedName:
        if lowest:
            n = 1
            while str(SeedName(players, number, n)) in taken:
                n += 1
            return SeedName(players, number, n)
        while True:
            name = SeedName(players, number, 1 + secrets.randbelow(RANDOM_SPAN))
            if str(name) not in taken:
                return name


def accounts_of(record: Record) -> list[str]:
    """The accounts seated (a bot's or a person's), once each."""
    return list(dict.fromkeys(p.account for p in record.players if p.account is not None))


def dealt_name(record: Record) -> str | None:
    """The seed a dealt game was dealt (None: a custom deal, or a game from before names)."""
    if record.seed_name is None or record.deck is None:
        return None
    name = parse(record.seed_name)
    return None if name is None else str(name)


#: The prefix of a deal key that is not a seed name (a custom seed or deck).
CUSTOM = "~"


def deal_key(record: Record) -> str | None:
    """What two tables dealt the same cards share: the seed's name, or for a custom seed or
    deck a digest of it (``~`` then hex: never a name). None before the deal."""
    if record.status is GameStatus.LOBBY:
        return None
    name = dealt_name(record)
    if name is not None:
        return name
    basis = orjson.dumps([record.variant, record.seed, record.deck])
    return CUSTOM + hashlib.sha256(basis).hexdigest()[:24]


class SeedHooks(Hooks):
    """Around ``inner`` (settling's hooks): a game is open for its accounts under its
    :func:`deal_key` from just before the deal's commit (settling drops the mark)."""

    def __init__(self, inner: Hooks, store: SeedStore) -> None:
        self.inner = inner
        self.store = store

    def starting(self, record: Record) -> None:
        self.inner.starting(record)
        key = deal_key(record)
        if key is not None:
            self.store.mark_open(accounts_of(record), key, record.id)

    def finished(self, record: Record) -> Record | None:
        return self.inner.finished(record)


def seed_entry(record: Record, name: str) -> dict[str, Any]:
    """A finished game as a seed page and a leaderboard list it."""
    return {
        "game_id": record.id,
        "seed": name,
        "players": [p.name for p in record.players],
        "bots": sum(p.kind is SeatKind.BOT for p in record.players),
        "score": record.score,
        "max_score": get_variant(record.variant).max_score,
        "turns": record.turn,
        "date": iso(record.updated),
        "replay": f"/api/v1/games/{record.id}/replay",
    }


class SeedPages:
    """``GET /seeds/{name}``: every team's result on a seed, for those who finished it."""

    def __init__(self, store: SeedStore, games: Store, page_max: int) -> None:
        self.store = store
        self.games = games
        self.page_max = page_max

    def in_play(self, account_id: str, name: str, open_games: list[str]) -> tuple[bool, bool]:
        """Whether one of the account's ``open_games`` on ``name`` has not ended, and
        whether one has ended (see :meth:`standing`)."""
        playing, ended, _ = self.standing(account_id, name, open_games)
        return playing, ended

    def standing(self, account_id: str, name: str, open_games: list[str]) -> tuple[bool, ...]:
        """Whether one of the account's ``open_games`` on ``name`` has not ended, whether
        one has ended (its settling, which marks the seed finished, may still be under
        way: the player's page must not wait for it), and whether one not ended was dealt
        the name by its creator's choice (its seats know the name; ``random`` and
        ``unplayed`` tell it only at the end). A mark whose game is gone (expired
        unfinished) is dropped: settling drops the others, but only for a game it finds."""
        playing = ended = chosen = False
        for game_id in open_games:
            record = self.games.load(game_id)
            if record is None:
                self.store.drop_open(account_id, name, game_id)
            elif record.status is GameStatus.FINISHED:
                ended = True
            else:
                playing, chosen = True, chosen or record.custom_deal
        return playing, ended, chosen

    def page(self, text: str, account_id: str | None, limit: int, cursor: str | None) -> dict:
        name = check_name(text)
        if account_id is None:
            raise Unauthorized(
                "account_required",
                "A seed's results are shown to accounts that finished it: send an account's "
                "session token or API key as Bearer.",
            )
        finished, open_games = self.store.standing(account_id, str(name))
        playing, ended, chosen = self.standing(account_id, str(name), open_games)
        if playing and not chosen:
            # Dealt by ``random`` or ``unplayed``: its seats are not told the name while the
            # game is on, so neither is the page (seed_in_play would name their game's
            # seed, and anyone may deal a copy of it by name). Neither deals a seed an
            # account seated finished or holds open, so this is the answer it always had.
            raise not_played_page(name)
        if playing:
            raise Forbidden(
                "seed_in_play",
                "You have a game on seed {seed} that has not ended: its results are hidden "
                "until it does.",
                seed=str(name),
            )
        if not (finished or ended):
            raise not_played_page(name)
        offset = cursor_offset(cursor)
        limit = min(limit, self.page_max)
        entries, total = self.store.page(seed_keys(str(name)), offset, limit)
        variant = get_variant(name.variant_id)  # type: ignore[arg-type]
        return {
            "seed": str(name),
            "players": name.players,
            "variant_id": name.variant_id,
            "variant": variant.name,
            "total": total,
            "results": ranked(entries, offset),
            "next_cursor": str(offset + limit) if offset + limit < total else None,
        }


def not_played_page(name: SeedName) -> Forbidden:
    return Forbidden(
        "seed_not_played",
        "Seed {seed}'s results are shown only to players who finished a game on it.",
        seed=str(name),
    )


def ranked(entries: list[dict[str, Any]], offset: int) -> list[dict[str, Any]]:
    return [{"rank": offset + i + 1, **e} for i, e in enumerate(entries)]


def cursor_offset(cursor: str | None) -> int:
    if cursor is None:
        return 0
    if not (cursor.isascii() and cursor.isdigit()) or len(cursor) > 9:
        raise Invalid("invalid_cursor", "This cursor is not one a page of results gave.")
    return int(cursor)


def record_seed(store: SeedStore, record: Record) -> str | None:
    """A settled game on its seed's page and its accounts' finished seeds (idempotent)."""
    name = dealt_name(record)
    if name is None:
        key = deal_key(record)
        for account_id in accounts_of(record) if key is not None else ():
            store.drop_open(account_id, key, record.id)
        return None
    entry = seed_entry(record, name)
    store.add_result(
        name, member_of(record.updated, record.id), rank_score(record.score, record.turn), entry
    )
    store.mark_finished(accounts_of(record), name, record.id)
    return name
