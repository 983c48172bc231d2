"""Spoilers: seeds stay fair by remembering who saw their cards, not by hiding finished games
(docs/seeds.md, "Who sees a seed's deal").

Finished games are public, so anyone may watch how another team played seed ``p2v0s17``
and then sit down to it. The service remembers it instead: when an account that has not
finished a game on a seed is shown that seed's cards (hands while spectating, a finished
game, an export, a replay, a shared room), the seed is *spoiled* for it. Its later results
on the seed are marked ``spoiled`` on the seed's page and left out of the leaderboards and
comparisons, and ``unplayed`` deals never deal it the seed. Anonymous viewers spoil nothing:
they rank nowhere.

The other half is that nobody sits at two live games on one deal (a seat would see its own
hand from the other table's partner seat or spectator chair): :meth:`Spoilers.sharing_deal`
tells the viewing routes to show such an account the public view only, and the lobby
refuses the seat (409 ``same_deal_elsewhere``).

Cost: for an anonymous viewer or a game without a deal name, nothing; otherwise one script
per (account, seed) per process for :meth:`~Spoilers.saw` (remembered after), and one
pipelined read (plus one read per other open game on that deal, rare) for
:meth:`~Spoilers.sharing_deal`.
"""

from __future__ import annotations

from ..ops.times import now_ms
from ..storage.record import GameStatus, Record
from ..storage.seeds import SeedStore
from ..storage.spoilers import SpoilerStore
from ..storage.store import Store
from .cache import LRU
from .refusals import Conflict, Refused
from .seeds import accounts_of, deal_key, dealt_name


def same_deal_elsewhere() -> Refused:
    """The refusal for a second live seat on one deal: it names no seed (the name of a
    sealed deal is its players' secret until the end)."""
    return Conflict(
        "same_deal_elsewhere",
        "You are playing this deal at another table: its cards stay hidden until that game ends.",
    )


class Spoilers:
    """Who saw which seed's cards, and who holds a live seat on which deal."""

    def __init__(
        self, store: SpoilerStore, seeds: SeedStore, games: Store, cache_size: int
    ) -> None:
        self.store = store
        self.seeds = seeds
        self.games = games
        self.recorded = LRU(cache_size)  # (account id, seed) -> True: already in Redis

    def saw(self, account_id: str | None, record: Record) -> None:
        """The account (None: anonymous, spoils nothing) is being shown the cards of
        ``record``, which it holds no seat in: its seed is spoiled for the account unless
        the account finished a game on it. Idempotent; once per process per seed."""
        if account_id is None:
            return
        name = dealt_name(record)
        if name is None:
            return
        key = (account_id, name)
        if self.recorded.get(key):
            return
        self.store.saw(account_id, name, now_ms())
        self.recorded.put(key, True)

    def sharing_deal(self, account_id: str | None, record: Record) -> bool:
        """Whether the account holds a seat in a live game other than ``record`` dealt the
        same deal (then it must not see ``record``'s cards)."""
        if account_id is None:
            return False
        key = deal_key(record)
        return key is not None and self.live_elsewhere(account_id, key, record.id)

    def live_elsewhere(self, account_id: str, key: str, game_id: str | None) -> bool:
        """Whether one of the account's games dealt ``key`` (other than ``game_id``) is
        still being played. Marks of games that are gone are dropped on the way."""
        _, open_games = self.seeds.standing(account_id, key)
        others = [g for g in open_games if g != game_id]
        if not others:
            return False
        for other, loaded in zip(others, self.games.load_many(others), strict=True):
            if loaded is None:
                self.seeds.drop_open(account_id, key, other)
            elif loaded.status is GameStatus.PLAYING:
                return True
        return False

    def check_seats(self, record: Record) -> None:
        """At the deal (``record`` dealt, not yet committed): 409 ``same_deal_elsewhere``
        when a seated account holds a live seat on the same deal elsewhere."""
        key = deal_key(record)
        if key is None:
            return
        for account_id in accounts_of(record):
            if self.live_elsewhere(account_id, key, record.id):
                raise same_deal_elsewhere()

    def spoiled(self, record: Record) -> bool:
        """Whether a finished game's result is spoiled: a seated account had seen its seed's
        cards before the game ended (or may have, having forgotten spoilers past the cap)."""
        name = dealt_name(record)
        if name is None:
            return False
        ended = record.updated
        for account_id in accounts_of(record):
            seen, forgot = self.store.since(account_id, name)
            if (seen is not None and seen < ended) or (forgot and forgot < ended):
                return True
        return False

    def spoiled_seeds(self, account_ids: list[str], prefix: str) -> set[str]:
        """The seeds starting with ``prefix`` that one of the accounts spoiled."""
        found: set[str] = set()
        for account_id in account_ids:
            found |= self.store.spoiled(account_id, prefix)
        return found
