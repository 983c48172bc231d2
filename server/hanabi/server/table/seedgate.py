"""Who may see the cards of a game dealt a seed name (docs/seeds.md, "Who sees a seed's
deal").

Anyone may open a table on a seed's name and be dealt the same cards, so the cards of a
game dealt a name are shown only to its own seats (a seat token, or an account seated
there) and to the accounts that finished that seed, with no game on it still going (the
same fact that opens the seed's page, :class:`~.seeds.SeedPages`). Everyone else gets the
game as a spectator saw it during play (``cards_hidden``), and the routes that exist only
to show cards (the export, the replay at a turn, shared replay rooms) refuse them. Games
with no seed name (a custom seed, a deck, a variant without names, older games) are
public once over, as before.

The cost: nothing for a seat, a game without a name or an anonymous viewer; for an
account, one pipelined read of its seeds (and, only while it holds games on that very
seed not yet settled, one read of each of them).
"""

from __future__ import annotations

from ..storage.record import GameStatus, Record
from ..storage.seeds import SeedStore
from .cache import LRU
from .refusals import Forbidden, Refused, Unauthorized
from .seats import all_bots
from .seeds import SeedPages, dealt_name

#: The view's ``cards_hidden`` key: why a finished game shows no card.
SEED_NOT_PLAYED = "seed_not_played"


def not_played() -> Refused:
    return Forbidden(
        SEED_NOT_PLAYED,
        "This game's deal is a seed's: its cards are shown only to its players and to "
        "players who finished a game on it.",
    )


def account_required() -> Refused:
    return Unauthorized(
        "account_required",
        "This game's deal is a seed's: its cards are shown only to its players and to "
        "players who finished a game on it. Send an account's session token or API key "
        "as Bearer.",
    )


def revealing(record: Record) -> str | None:
    """The seed name of a game whose cards a spectator would see now (a finished game, or
    an all-bot table in play), None when the rule has nothing to hide."""
    if record.status is GameStatus.FINISHED or (
        record.status is GameStatus.PLAYING and all_bots(record)
    ):
        return dealt_name(record)
    return None


class SeedGate:
    """The rule above, over the seeds' store and the seed pages' notion of "finished"."""

    def __init__(self, store: SeedStore, pages: SeedPages, cache_size: int) -> None:
        self.store = store
        self.pages = pages
        self.names = LRU(cache_size)  # (game id, version) -> its revealing() name, or ""

    def finished(self, account_id: str | None, name: str) -> bool:
        """Whether the account finished seed ``name`` and has no game on it going on."""
        if account_id is None:
            return False
        done, open_games = self.store.standing(account_id, name)
        if not open_games:
            return done
        playing, ended = self.pages.in_play(account_id, name, open_games)
        return not playing and (done or ended)

    def hides(self, name: str | None, seat: int | None, account_id: str | None) -> bool:
        """Whether a viewer (``seat``: None for a spectator; ``account_id``: the account a
        spectator identified as) gets the hidden view of a game whose :func:`revealing`
        name is ``name``."""
        return seat is None and name is not None and not self.finished(account_id, name)

    def hides_stored(
        self,
        game_id: str,
        stored: tuple[int, bytes, bytes],
        seat: int | None,
        account_id: str | None,
    ) -> bool:
        """:meth:`hides` for a game as read (version, players, state): its state is parsed
        once per version in this process, and not at all for a seat."""
        if seat is not None:
            return False
        key = (game_id, stored[0])
        name = self.names.get(key)
        if name is None:
            name = revealing(Record.load(game_id, *stored)) or ""
            self.names.put(key, name)
        return self.hides(name or None, seat, account_id)

    def hides_record(self, record: Record, seat: int | None, account_id: str | None) -> bool:
        return seat is None and self.hides(revealing(record), seat, account_id)

    def require(self, record: Record, seat: int | None, account_id: str | None) -> None:
        """For the routes that show a finished game's every card: 401 ``account_required``
        without an account, 403 ``seed_not_played`` for one that may not see them."""
        if seat is not None or record.status is not GameStatus.FINISHED:
            return  # the route's own checks refuse a game not over
        name = dealt_name(record)
        if name is None or self.finished(account_id, name):
            return
        raise account_required() if account_id is None else not_played()
