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
from dataclasses import dataclass
from typing import Any

import orjson

from hanabi.game import Variant, catalogue, get_variant

from ..ops.times import iso
from ..storage.record import GameStatus, Record, SeatKind
from ..storage.seeds import SeedStore, member_of, rank_score, seed_keys
from ..storage.store import Store
from .refusals import Forbidden, Invalid, Unauthorized

RANDOM = "random"
UNPLAYED = "unplayed"
NAME = re.compile(r"p([2-6])v([0-9]{1,6})s([0-9]{1,9})")
RANDOM_SPAN = 1_000_000_000  # a random table's n: from 1 to this
#: Added to a spoiled result's rank score: after every clean one (those are under 10⁴).
SPOILED_BAND = 1_000_000_000


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
    deck a digest of it (``~`` then hex: never a name). None while ``random`` or
    ``unplayed`` is still to be decided (in the lobby)."""
    return key_of(record.variant, record.seed_name, record.seed, record.deck)


def key_of(variant: str, seed_name: str | None, seed: str, deck: Any) -> str | None:
    """:func:`deal_key` of a table's parts (for a table about to be opened)."""
    if seed_name in (RANDOM, UNPLAYED):
        return None
    name = None if seed_name is None else parse(seed_name)
    if name is not None:
        return str(name)
    basis = orjson.dumps([variant, seed, deck])
    return CUSTOM + hashlib.sha256(basis).hexdigest()[:24]


def seed_entry(record: Record, name: str, spoiled: bool = False) -> dict[str, Any]:
    """A finished game as a seed page and a leaderboard list it (``spoiled``: a seated
    account had seen the seed's cards before it ended)."""
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
        "spoiled": spoiled,
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
                "Sign in to see a seed's results: they are shown to accounts that finished a "
                "game on it.",
            )
        # Finished it, or a game of the account on it has ended (settling may still be
        # under way). A game of the account on it still going changes nothing: the page
        # answers for a seed in play exactly as for one never played (or, finished
        # before, as for a finished one), so it tells nobody which seed they are playing.
        finished, open_games = self.store.standing(account_id, str(name))
        if not finished:
            _, ended, _ = self.standing(account_id, str(name), open_games)
            if not ended:
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
            "results": ranked(entries, offset, marked=True),
            "next_cursor": str(offset + limit) if offset + limit < total else None,
        }


def not_played_page(name: SeedName) -> Forbidden:
    return Forbidden(
        "seed_not_played",
        "Seed {seed}'s results are shown only to players who finished a game on it.",
        seed=str(name),
    )


def ranked(
    entries: list[dict[str, Any]], offset: int, marked: bool = False
) -> list[dict[str, Any]]:
    """Entries with their rank from ``offset``. ``marked`` (a seed's page): each says
    whether it is spoiled; the spoiled come after every other (their rank score is in
    :data:`SPOILED_BAND`), so the ranks of the others are theirs alone: 1, 2, 3..."""
    out = [{"rank": offset + i + 1, **e} for i, e in enumerate(entries)]
    if marked:
        for entry in out:  # results recorded before spoilers are clean
            entry["spoiled"] = bool(entry.get("spoiled"))
    return out


def cursor_offset(cursor: str | None) -> int:
    if cursor is None:
        return 0
    if not (cursor.isascii() and cursor.isdigit()) or len(cursor) > 9:
        raise Invalid("invalid_cursor", "This cursor is not one a page of results gave.")
    return int(cursor)


def record_seed(store: SeedStore, record: Record, spoiled: bool = False) -> str | None:
    """A settled game on its seed's page and its accounts' finished seeds (idempotent). A
    ``spoiled`` result ranks after every other (:data:`SPOILED_BAND`)."""
    name = dealt_name(record)
    if name is None:
        key = deal_key(record)
        for account_id in accounts_of(record) if key is not None else ():
            store.drop_open(account_id, key, record.id)
        return None
    entry = seed_entry(record, name, spoiled)
    rank = rank_score(record.score, record.turn) + (SPOILED_BAND if spoiled else 0)
    store.add_result(name, member_of(record.updated, record.id), rank, entry)
    store.mark_finished(accounts_of(record), name, record.id)
    return name
