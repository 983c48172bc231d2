"""Lobby operations: open a table, take and free seats, seat bots, deal.

Each operation says what its change is (a function of the stored record) and hands it to
the write loop (:mod:`hanabi.server.table.writes`), which commits it atomically.
"""

from __future__ import annotations

import secrets
from typing import Any

from hanabi.bots import DEFAULT_STRATEGY, STRATEGIES, StrategyList
from hanabi.game import Game, Options, Setup, SetupError

from ..ops.times import now_ms
from ..storage.record import GameStatus, Player, Record, SeatKind
from . import rated
from .accounts import Account
from .clocks import timing_of
from .dealing import SeedDeals
from .passwords import Verified, lock_of
from .rated import RatedTables
from .refusals import Conflict, Forbidden, Invalid, from_engine
from .rematch import drop_invitations
from .restore import setup_of
from .seats import (
    bot_name,
    check_name,
    first_human,
    hash_token,
    new_token,
    no_name,
    require_host,
    require_room,
    require_seat,
    require_seat_at,
    seatable,
    started,
)
from .writes import Outcome, WriteLoop


def player_name(account: Account | None, name: str | None) -> str:
    """The name a new seat plays under: the account's username, else the guest's name
    (401 ``name_required`` with neither)."""
    chosen = account.username if account is not None else name
    if not chosen:
        raise no_name()
    return chosen


class Lobby:
    """Opening tables, taking and freeing seats, seating bots, dealing."""

    def __init__(
        self, writes: WriteLoop, rated: RatedTables, config: dict[str, Any], seeds: SeedDeals
    ) -> None:
        self.writes = writes
        self.rated = rated
        self.config = config
        self.seeds = seeds

    def create(self, body: dict[str, Any], account: Account | None = None) -> Outcome:
        """Open a table; with ``account`` its seat 0 is bound to it under its username."""
        is_rated = bool(body["options"].pop("rated", False))
        see_hands = body["options"].pop("spectators_see_hands", None)
        if is_rated:
            self.rated.check_create(body, account)
            if see_hands:
                raise rated.hands_shown()
        name = check_name(player_name(account, body.get("name")))
        variant_id = body["variant"]  # the schema allows only known variants
        engine_options = dict(body["options"])
        timing = timing_of(engine_options, self.config)  # takes the clock options out
        options = Options(**engine_options).to_dict()
        seed_name, chosen = self.seeds.mode(body)  # table/seeds.py: random, unplayed, a name
        seed = body.get("seed") if seed_name is None and chosen else None
        seed = seed or secrets.token_hex(8)
        deck = body.get("deck")
        deck_rows = None if deck is None else [[c["suit"], c["rank"]] for c in deck]
        self.seeds.check_opening(variant_id, seed_name, seed, deck_rows, account and account.id)
        try:
            Game(Setup.create(variant_id, 2, options, seed, deck_rows))
        except SetupError as exc:
            raise from_engine(Invalid, exc) from None
        token = new_token()
        now = now_ms()
        password = body.get("password")  # kept as its scrypt hash only (passwords.py)
        lock = None if password is None else lock_of(password, body["password_spectators"])

        def table(game_id: str) -> Record:
            return Record(
                id=game_id,
                status=GameStatus.LOBBY,
                variant=variant_id,
                options=options,
                max_players=body["max_players"],
                seed=seed,
                deck=deck_rows,
                host=0,
                created=now,
                updated=now,
                players=[Player(name, None, hash_token(token), account and account.id)],
                custom_deal=chosen,
                rated=is_rated,
                timing=timing,
                seed_name=seed_name,
                hide_hands=see_hands is False and not is_rated,
                password=lock,
            )

        joined = {"type": "join", "seat": 0, "name": name, "bot": None}
        return Outcome(self.writes.open(table, joined), 0, token=token)

    def join(
        self,
        game_id: str,
        name: str | None,
        account: Account | None = None,
        plays: str | None = None,
        password: str | None = None,
    ) -> Outcome:
        """Take the next seat; with ``account`` it is bound to it under its username.
        ``plays``: the bot strategy of the program taking it (see :meth:`declare`), said
        with the join so that the table is never seen full without it. ``password``: a
        locked table's (passwords.py), checked after the table's other rules."""
        name = check_name(player_name(account, name))
        token = new_token()
        verified = Verified(password)

        def change(record: Record) -> Outcome:
            if record.status is not GameStatus.LOBBY:  # a seat taken back, or a late comer
                raise started(record, name)
            self.rated.check_join(record, account)
            self.seeds.check_joining(record, account and account.id)
            if plays is not None:
                rated.check_bot(record)
            seatable(record, name, self.config["HANABI_MAX_LOBBY_EVENTS"])
            verified.check(record)
            player = Player(name, None, hash_token(token), account and account.id, plays)
            record.players.append(player)
            seat = len(record.players) - 1
            event = {"type": "join", "seat": seat, "name": name, "bot": None}
            if plays is not None:
                event["plays"] = plays
            return Outcome(record, seat, [self.writes.note(record, event)], token=token)

        return self.writes.write(game_id, change)

    def add_bot(
        self, game_id: str, token: str | None, strategy: str | None, name: str | None
    ) -> Outcome:
        """Seat a bot (host only, in the lobby). Its seat has no token: the bot worker plays
        it (:mod:`hanabi.server.table.bots`)."""
        strategy = strategy or DEFAULT_STRATEGY
        if strategy not in STRATEGIES:  # the schema checked; be safe anyway
            raise Invalid("unknown_strategy", "Strategies: {list}.", list=StrategyList())
        chosen = None if name is None else check_name(name)

        def change(record: Record) -> Outcome:
            host = require_host(record, token)
            rated.check_bot(record)
            seat = len(record.players)
            name = chosen or bot_name(record, strategy, seat)
            seatable(record, name, self.config["HANABI_MAX_LOBBY_EVENTS"])
            record.players.append(Player(name, strategy, None))
            event = {"type": "join", "seat": seat, "name": name, "bot": strategy}
            return Outcome(record, host, [self.writes.note(record, event)])

        return self.writes.write(game_id, change)

    def leave(self, game_id: str, token: str | None, seat: int) -> Outcome:
        def change(record: Record) -> Outcome:
            me = require_seat(record, token)
            if record.status is not GameStatus.LOBBY:
                raise Conflict("game_started", "Seats are fixed once the game starts.")
            require_seat_at(record, seat)
            if me != seat and me != record.host:
                raise Forbidden("not_host", "Only the host may remove another player.")
            return Outcome(record, events=[self._free_seat(record, seat, me == seat)])

        return self.writes.write(game_id, change)

    def declare(self, game_id: str, token: str | None, seat: int, plays: str | None) -> Outcome:
        """The program in ``seat`` (a person's, the caller's own) says which bot strategy it
        plays (None: a person plays it), so that the other bots read the table right: two
        API hat bots play hat together. In the lobby only: the table is fixed at the deal.
        Saying it again changes nothing."""

        def change(record: Record) -> Outcome:
            me = require_seat(record, token)
            require_seat_at(record, seat)
            if me != seat:
                raise Forbidden("not_your_seat", "Only a seat's own player may say that.")
            if record.status is not GameStatus.LOBBY:
                raise Conflict("game_started", "The table is fixed once the game starts.")
            player = record.players[seat]
            if plays is not None:
                rated.check_bot(record)
            if player.plays == plays:
                return Outcome(record, me, replayed=True)
            require_room(record, self.config["HANABI_MAX_LOBBY_EVENTS"], len(record.players))
            player.plays = plays
            event = {"type": "plays", "seat": seat, "name": player.name, "plays": plays}
            return Outcome(record, me, [self.writes.note(record, event)])

        return self.writes.write(game_id, change)

    def _free_seat(self, record: Record, seat: int, left: bool) -> dict[str, Any]:
        """Free ``seat`` (later seats move up). When no human is left the table is gone: a
        lobby of bots alone could never be started."""
        player = record.players.pop(seat)
        if record.host == seat:
            record.host = first_human(record.players)
        elif record.host > seat:
            record.host -= 1
        if record.status is GameStatus.LOBBY and all(
            p.kind is SeatKind.BOT for p in record.players
        ):
            record.players.clear()  # the commit deletes the game
        event = {"type": "leave" if left else "remove", "seat": seat, "name": player.name}
        return self.writes.note(record, {**event, "bot": player.bot, "host": record.host})

    def start(self, game_id: str, token: str | None, watch: bool = False) -> Outcome:
        """Deal (host only). ``watch``: the host gives up their seat at the deal and follows
        the game as a spectator, e.g. to watch an all-bot table."""

        def change(record: Record) -> Outcome:
            seat: int | None = require_host(record, token)
            if record.status is not GameStatus.LOBBY:
                raise Conflict("game_started", "The game has already started.")
            if len(record.players) - watch < 2:
                raise Conflict("not_enough_players", "A game needs at least 2 players.")
            notes = []
            if watch:
                assert seat is not None
                host = record.players.pop(seat)
                record.host = first_human(record.players)
                event = {"type": "leave", "seat": seat, "name": host.name, "bot": None}
                notes.append(self.writes.note(record, {**event, "host": record.host}))
                seat = None
            self.rated.check_start(record)
            drop_invitations(record)  # a next game's unanswered invitations lapse
            self.seeds.deal(record)  # the seed's name and deck, now that the seats are known
            try:
                game = Game(setup_of(record))
            except SetupError as exc:  # settings were checked at creation; be safe anyway
                raise from_engine(Conflict, exc) from None
            notes.append(self.writes.note(record, {"type": "start"}))
            events = game.deal_events()
            record.status = GameStatus.PLAYING
            record.snapshot = game.snapshot()
            record.event_count += len(events)
            return Outcome(record, seat, notes + events, game=game)

        return self.writes.write(game_id, change)
