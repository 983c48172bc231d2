"""Who looks at a game, and what they may see of it (docs/watching.md).

Every route that shows a game (its view and long-poll, its stream and stream tickets, its
event log, export and replay, shared replay rooms) resolves one :class:`Viewer` here, so
that the policy has one home:

1. A credential that holds a seat of the game (the seat's token, or the session, API key
   or stream ticket of the account seated there) sees **that seat's own view**, always,
   whatever else it asks for: a seat never shadows another, never sees a spectator's
   hands, so nothing it sends can show it its own cards while the game is on.
2. Anyone else is a spectator (anonymous, or an account not seated here). What a
   spectator sees is its view's ``spectating``:

   - ``full``: every card, live, when nobody at the table has a hand to hide (a table of
     bots only) or nothing is left to hide (the game is over: finished games are public);
   - ``hands``: every hand's cards while an unrated game is on, unless its creator turned
     ``options.spectators_see_hands`` off (never the deck's order, nobody's notes, no
     seat's private knowledge: what a clue was in Cow & Pig stays unheard);
   - ``public``: public information only, at a rated table (its spectators could pass its
     players their cards) or one that hides hands;
   - ``shadow``: ``?shadow=<seat>``, the table as that seat sees it (what it knows of its
     own hand, not its cards; the other hands), where the spectator would see ``hands``
     or ``full``; 403 ``shadow_not_allowed`` elsewhere, 400 ``shadow_seat`` for a seat
     the table does not have.

An account that holds a seat in another game still going on, dealt the same deal (a seed
name played at two tables), would see its own live cards in this one: it gets ``public``
only, and the routes that exist to show cards (export, replay, rooms, a shadow) answer 409
``same_deal_elsewhere``, a sentence that names no seed. When an account not seated here is
shown cards of a game dealt a seed name, the seed is spoiled for it
(:class:`~.spoilers.Spoilers`, docs/seeds.md): its later results on the seed do not rank.
Anonymous viewers spoil nothing (they rank nowhere).

Cost: a seat is known from the game's players alone; a spectator's level needs the game's
state, parsed once per version in this process (:meth:`Viewers.record_of`); an account
spectator adds the spoilers' reads (once per seed per process for ``saw``).
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from enum import StrEnum
from typing import Protocol

from ..storage.record import GameStatus, Record, parse_players
from .cache import LRU
from .refusals import Forbidden, Invalid, Refused
from .seats import all_bots, seat_of
from .spoilers import same_deal_elsewhere


class Spectating(StrEnum):
    """What a spectator sees (a view's ``spectating``; null in a seat's view)."""

    FULL = "full"  # every card: a finished game, or a table of bots only
    HANDS = "hands"  # every hand's cards, live: an unrated table that shows them
    PUBLIC = "public"  # public information only: a rated table, or one that hides hands
    SHADOW = "shadow"  # the table as one seat sees it (``shadow_seat``)


@dataclass(frozen=True)
class Viewer:
    """One viewer of one game: a ``seat`` (its own view), or a spectator who sees
    ``spectating`` (``shadow``: the seat it shadows). ``account_id``: the account the
    credential stands for, if any (who spoils a seed); not part of what the view shows."""

    seat: int | None = None
    spectating: Spectating | None = None
    shadow: int | None = None
    account_id: str | None = field(default=None, compare=False)

    @property
    def key(self) -> tuple[int | None, str | None, int | None]:
        """What the view depends on (cache keys): two viewers with one key see the same."""
        return (self.seat, self.spectating, self.shadow)

    @property
    def tag(self) -> str:
        """The viewer's part of a view's ETag: a seat's number, else a letter a level."""
        if self.seat is not None:
            return str(self.seat)
        if self.spectating is Spectating.SHADOW:
            return f"w{self.shadow}"
        if self.spectating is Spectating.FULL:
            return "f"
        return "h" if self.spectating is Spectating.HANDS else "p"

    @property
    def eyes(self) -> int | None:
        """The seat whose knowledge the view shows: the seat's own, or the shadowed one."""
        return self.seat if self.seat is not None else self.shadow

    @property
    def sees_cards(self) -> bool:
        """Whether this spectator is shown cards a seat may not see (spoils a seed)."""
        return self.seat is None and self.spectating is not Spectating.PUBLIC


def seated(seat: int) -> Viewer:
    return Viewer(seat=seat)


def level(record: Record) -> Spectating:
    """What any spectator of ``record`` may see, before who they are is asked: the table's
    rule (also in the lobby: the level the deal will bring)."""
    if record.status is GameStatus.FINISHED or all_bots(record):
        return Spectating.FULL
    if record.rated or record.hide_hands:
        return Spectating.PUBLIC
    return Spectating.HANDS


def as_viewer(record: Record, who: int | Viewer | None) -> Viewer:
    """``who`` as a :class:`Viewer`: a seat number, or None for an anonymous spectator."""
    if isinstance(who, Viewer):
        return who
    if who is None:
        return Viewer(spectating=level(record))
    return seated(who)


def shadow_seat(seat: int, seats: int) -> Refused:
    return Invalid(
        "shadow_seat",
        "There is no seat {seat} at this table to shadow: its seats are 0 to {last}.",
        seat=seat,
        last=seats - 1,
    )


def shadow_not_allowed() -> Refused:
    return Forbidden(
        "shadow_not_allowed",
        "Spectators of this table see the public board only, so no seat can be shadowed "
        "until the game ends.",
    )


class SpoilerCheck(Protocol):
    """What the viewers ask of the spoilers (:class:`~.spoilers.Spoilers`)."""

    def saw(self, account_id: str | None, record: Record) -> None: ...

    def sharing_deal(self, account_id: str | None, record: Record) -> bool: ...


class Viewers:
    """Resolving viewers (above), over the spoilers. ``cache_size``: games whose state is
    kept parsed per version, so that a 304 to a spectator's long-poll parses nothing."""

    def __init__(self, spoilers: SpoilerCheck, cache_size: int) -> None:
        self.spoilers = spoilers
        self.records = LRU(cache_size)  # (game id, version) -> Record

    def record_of(self, game_id: str, stored: tuple[int, bytes, bytes]) -> Record:
        """The game as read (version, players, state), parsed once per version and kept
        without what resolving a viewer never reads (the engine's snapshot, the action
        log, the table's events): the facts of a table, not a game to render."""
        key = (game_id, stored[0])
        record = self.records.get(key)
        if record is None:
            full = Record.load(game_id, *stored)
            record = replace(full, snapshot=None, compact_log=None, table_events=None)
            self.records.put(key, record)
        return record

    def resolve(
        self,
        record: Record,
        token: str | None,
        account_id: str | None,
        shadow: int | None = None,
    ) -> Viewer:
        """The viewer a request's credential (``token``: its principal; ``account_id``:
        the account it stands for) and ``shadow`` make of ``record``. A token of another
        table that is no account's: 403 ``not_a_player``, as for every route of a game."""
        seat = seat_of(record.players, token, spectate=account_id is not None)
        if seat is not None:
            return Viewer(seat=seat, account_id=account_id)
        return self.spectator(record, account_id, shadow)

    def resolve_stored(
        self,
        game_id: str,
        stored: tuple[int, bytes, bytes],
        token: str | None,
        account_id: str | None,
        shadow: int | None = None,
    ) -> Viewer:
        """:meth:`resolve` for a game as read: a seat is found from the players alone."""
        seat = seat_of(parse_players(stored[1]), token, spectate=account_id is not None)
        if seat is not None:
            return Viewer(seat=seat, account_id=account_id)
        return self.spectator(self.record_of(game_id, stored), account_id, shadow)

    def spectator(
        self, record: Record, account_id: str | None, shadow: int | None = None
    ) -> Viewer:
        """A viewer who holds no seat of ``record`` (see the module's rules)."""
        sight = level(record)
        if shadow is not None:
            dealt = record.status is not GameStatus.LOBBY
            seats = len(record.players) if dealt else record.max_players
            if not 0 <= shadow < seats:
                raise shadow_seat(shadow, seats)
            if sight is Spectating.PUBLIC:
                raise shadow_not_allowed()
        if sight is not Spectating.PUBLIC and self.spoilers.sharing_deal(account_id, record):
            if shadow is not None:
                raise same_deal_elsewhere()
            sight = Spectating.PUBLIC
        if shadow is not None:
            sight = Spectating.SHADOW
        viewer = Viewer(spectating=sight, shadow=shadow, account_id=account_id)
        if viewer.sees_cards and record.status is not GameStatus.LOBBY:
            self.spoilers.saw(account_id, record)
        return viewer

    def cards(self, record: Record, token: str | None, account_id: str | None) -> Viewer:
        """For the routes that show every card of a finished game (export, replay, rooms):
        anyone may, except an account playing the same deal at another table (409
        ``same_deal_elsewhere``). A game not over is left to the route to refuse."""
        seat = seat_of(record.players, token, spectate=account_id is not None)
        if seat is not None:
            return Viewer(seat=seat, account_id=account_id)
        if record.status is not GameStatus.FINISHED:
            return Viewer(spectating=level(record), account_id=account_id)
        if self.spoilers.sharing_deal(account_id, record):
            raise same_deal_elsewhere()
        self.spoilers.saw(account_id, record)
        return Viewer(spectating=Spectating.FULL, account_id=account_id)
