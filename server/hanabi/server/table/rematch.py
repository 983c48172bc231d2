"""Again with the same seats (issue 48): after a game, its host opens the next one for the
same players; each confirms, or declines and the seat opens.

``POST /games/{id}/rematch`` (the finished game's host) opens a new table with the last
one's variant, options, clocks, rating and password, and a new random deal. The host sits
there at once and the bots are seated again; every other person is *invited*: their seat
is kept for them (a join by anyone else finds the table full) until they answer with the
last game's seat token or account (``POST /games/{id}/rematch/answer`` on the finished
game: ``join`` takes the seat and gets a new token, ``false`` declines and opens it).
The host deals whenever they like; invitations still open then simply lapse. Before that
the host may open a seat kept for someone who does not answer
(``DELETE /games/{id}/rematch/invited/{name}`` on the new game).

The seats keep the last game's order, or with ``shuffle`` an order drawn at random when
the table is opened: each seat that answers takes its place in it, so the lobby shows the
order the deal will use (a stranger who takes an opened seat sits after them all).

The finished game's view gets ``rematch.next`` (the new id: everyone at the table, and
its spectators, learn it from the game they were looking at); the new one's
``rematch`` says which game it follows, who has not answered and whether it shuffled.
"""

from __future__ import annotations

import random

from ..ops.times import now_ms
from ..storage.record import GameStatus, Player, Record, SeatKind
from .dealing import SeedDeals
from .reads import Reads
from .refusals import Conflict, Forbidden, NotFound
from .seats import hash_token, name_key, new_token, require_host, require_seat
from .table_keys import invited
from .writes import Outcome, WriteLoop

#: Where a seat the planned order does not know sits: after every planned one.
UNPLANNED = 1_000


def _place(record: Record, name: str) -> int:
    order = [name_key(n) for n in (record.rematch or {}).get("order") or []]
    key = name_key(name)
    return order.index(key) if key in order else UNPLANNED


def seat_in_order(record: Record, player: Player) -> int:
    """Seat ``player`` at its place in the planned order; the host keeps being the host.
    Returns its seat."""
    host = record.players[record.host] if record.players else None
    record.players.append(player)
    record.players.sort(key=lambda p: _place(record, p.name))  # stable: strangers in turn
    if host is not None:
        record.host = record.players.index(host)
    return record.players.index(player)


class Rematches:
    """Opening the next game with the same seats, and the answers of those invited."""

    def __init__(self, writes: WriteLoop, reads: Reads, seeds: SeedDeals) -> None:
        self.writes = writes
        self.reads = reads
        self.seeds = seeds

    def open(self, game_id: str, token: str | None, shuffle: bool) -> Outcome:
        """The finished game's host opens the next one (its Outcome: the host's seat there
        and new token). 409 ``rematch_open`` once it has one, ``game_not_finished`` before
        the end."""
        old = self.reads.load(game_id)
        seat = require_seat(old, token)
        if seat != old.host:
            raise Forbidden("not_host", "Only the host may do that.")
        self._check_open(old)
        order = [p.name for p in old.players]
        if shuffle:
            random.SystemRandom().shuffle(order)
        host = old.players[seat]
        people = [p for i, p in enumerate(old.players) if i != seat and p.kind is SeatKind.PERSON]
        token_new = new_token()
        seed_name, _ = self.seeds.mode({"variant": old.variant})
        now = now_ms()

        def table(new_id: str) -> Record:
            return Record(
                id=new_id,
                status=GameStatus.LOBBY,
                variant=old.variant,
                options=dict(old.options),
                max_players=old.max_players,
                seed=random.SystemRandom().getrandbits(64).to_bytes(8, "big").hex(),
                deck=None,
                host=0,
                created=now,
                updated=now,
                players=[Player(host.name, None, hash_token(token_new), host.account)],
                rated=old.rated,
                timing=dict(old.timing) if old.timing else None,
                seed_name=seed_name,
                password=dict(old.password) if old.password else None,
                rematch={
                    "from": old.id,
                    "shuffle": shuffle,
                    "order": order,
                    "invited": [{"name": p.name} for p in people],
                },
            )

        joined = {"type": "join", "seat": 0, "name": host.name, "bot": None}
        record = self.writes.open(table, joined)
        bots = [p for p in old.players if p.kind is SeatKind.BOT]
        if bots:
            record = self.writes.write(record.id, lambda r: self._seat_bots(r, bots)).record
        try:
            self.writes.write(old.id, lambda r: self._mark(r, record.id))
        except Conflict:
            self.writes.write(record.id, self._abandon)  # two opened at once: one stays
            raise
        return Outcome(record, record.host, token=token_new)

    @staticmethod
    def _check_open(old: Record) -> None:
        if old.status is not GameStatus.FINISHED:
            raise Conflict("game_not_finished", "The game is not over yet.")
        following = (old.rematch or {}).get("next")
        if following:
            raise Conflict("rematch_open", "The next game is open already: {game}.", game=following)

    def _seat_bots(self, record: Record, bots: list[Player]) -> Outcome:
        events = []
        for bot in bots:
            seat = seat_in_order(record, Player(bot.name, bot.bot, None))
            event = {"type": "join", "seat": seat, "name": bot.name, "bot": bot.bot}
            events.append(self.writes.note(record, event))
        return Outcome(record, record.host, events)

    def _mark(self, old: Record, new_id: str) -> Outcome:
        self._check_open(old)
        old.rematch = {"next": new_id}
        return Outcome(old)

    @staticmethod
    def _abandon(record: Record) -> Outcome:
        record.players.clear()  # the commit deletes the game
        return Outcome(record)

    def release(self, game_id: str, token: str | None, name: str) -> Outcome:
        """The next game's host opens the seat kept for ``name`` (someone who does not
        answer): as if they declined. 404 ``not_invited`` for a name not kept."""

        def change(record: Record) -> Outcome:
            host = require_host(record, token)
            if record.status is not GameStatus.LOBBY:
                raise Conflict("game_started", "The game has already started.")
            pending = invited(record)
            mine = next((e for e in pending if name_key(e["name"]) == name_key(name)), None)
            if mine is None:
                raise NotFound("no_kept_seat", "No seat here is kept for {name}.", name=repr(name))
            record.rematch = {
                **(record.rematch or {}),
                "invited": [e for e in pending if e is not mine],
            }
            event = {"type": "decline", "name": mine["name"]}
            return Outcome(record, host, [self.writes.note(record, event)])

        return self.writes.write(game_id, change)

    def answer(self, game_id: str, token: str | None, join: bool) -> Outcome:
        """A player of the finished game ``game_id`` answers its host's invitation with
        that game's seat token (or account): ``join`` seats them at the next game (an
        Outcome with the seat and a new token), else their seat there opens."""
        old = self.reads.load(game_id)
        seat = require_seat(old, token)
        new_id = (old.rematch or {}).get("next")
        if not new_id:
            raise NotFound("no_rematch", "Nobody has opened a next game after this one.")
        me = old.players[seat]
        token_new = new_token()

        def change(record: Record) -> Outcome:
            if record.status is not GameStatus.LOBBY:
                raise Conflict("game_started", "The game has already started.")
            pending = invited(record)
            mine = next((e for e in pending if name_key(e["name"]) == name_key(me.name)), None)
            if mine is None:
                raise Conflict(
                    "not_invited", "You have answered already, or the host dealt without you."
                )
            rematch = dict(record.rematch or {})
            rematch["invited"] = [e for e in pending if e is not mine]
            record.rematch = rematch
            if not join:
                event = {"type": "decline", "name": me.name}
                return Outcome(record, None, [self.writes.note(record, event)])
            player = Player(me.name, None, hash_token(token_new), me.account)
            at = seat_in_order(record, player)
            event = {"type": "join", "seat": at, "name": me.name, "bot": None}
            return Outcome(record, at, [self.writes.note(record, event)], token=token_new)

        return self.writes.write(new_id, change)


def drop_invitations(record: Record) -> None:
    """At the deal: the invitations not answered lapse (the lobby hook of the start)."""
    if record.rematch and "invited" in record.rematch:
        record.rematch = {**record.rematch, "invited": []}
