"""The game service: lobby, seats, actions and reads, on top of the store and the engine.

Every rule comes from :mod:`hanabi.game`; this module only decides who may ask for what,
turns requests into engine calls, and commits the result atomically (see
:mod:`hanabi.server.store`). Every write is a read-modify-commit loop on the game's
version: a writer that lost the race re-reads and decides again, so 20 identical requests
apply one action and a full table refuses the 21st seat.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import secrets
import string
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

import orjson

from hanabi.bots import DEFAULT_STRATEGY, STRATEGIES, descriptions
from hanabi.game import (
    MAX_CLUE_TOKENS,
    Action,
    Game,
    HanabiError,
    IllegalAction,
    Options,
    Setup,
    SetupError,
    export_game,
    full_view,
    get_variant,
    replay,
    spectator_view,
    view,
)
from hanabi.game.views import redact_event

from .cache import LRU
from .problems import ApiError
from .store import Conflict, Gone, Player, Record, Store, now_ms
from .waiter import RECHECK, Waiter

MAX_RETRIES = 100
#: Game ids: letters and digits only (never a leading "-" that a command line would take
#: for an option), 12 of them: 62**12 > 2**71.
ID_ALPHABET = string.ascii_letters + string.digits
ID_LENGTH = 12


def hash_token(token: str) -> str:
    """What the store keeps of a token: 144 bits of its SHA-256, base64url."""
    digest = hashlib.sha256(token.encode()).digest()[:18]
    return base64.urlsafe_b64encode(digest).decode()


def new_token() -> str:
    return secrets.token_urlsafe(24)  # 192 random bits


def new_game_id() -> str:
    return "".join(secrets.choice(ID_ALPHABET) for _ in range(ID_LENGTH))


def bot_due(record: Record) -> bool:
    """Whether a bot seat is to move (seats take turns in order from seat 0)."""
    if record.status != "playing" or not record.players:
        return False
    return record.players[record.turn % len(record.players)].bot is not None


def all_bots(record: Record) -> bool:
    """A table of bots only: nobody there has cards to hide, so spectators see them all."""
    return bool(record.players) and all(p.bot is not None for p in record.players)


def first_human(players: list[Player]) -> int:
    return next((i for i, p in enumerate(players) if p.bot is None), 0)


def not_found(game_id: str) -> ApiError:
    return ApiError(404, "game_not_found", f"There is no game {game_id!r} (or it expired).")


def encode_action(seat: int, action: Action) -> str:
    """A compact action-log entry for archives: ``<seat>:<code>``."""
    if action.type == "play":
        code = f"p{action.card}" + (f":{action.firework}" if action.firework else "")
    elif action.type == "discard":
        code = f"d{action.card}"
    elif action.type == "clue" and action.color is not None:
        code = f"c{action.target}:{action.color}"
    elif action.type == "clue":
        code = f"r{action.target}:{action.rank}"
    else:
        code = "t"
    return f"{seat}:{code}"


def decode_action(entry: str) -> tuple[int, Action]:
    seat_text, code = entry.split(":", 1)
    seat, kind, rest = int(seat_text), code[0], code[1:]
    if kind == "p":
        card, _, firework = rest.partition(":")
        return seat, Action.play(int(card), firework or None)
    if kind == "d":
        return seat, Action.discard(int(rest))
    if kind in "cr":
        target, _, value = rest.partition(":")
        if kind == "c":
            return seat, Action.clue(int(target), color=value)
        return seat, Action.clue(int(target), rank=int(value))
    return seat, Action.terminate(seat)


@dataclass
class Finished:
    """A finished game rebuilt from its archived log: state, events, and per-turn ranges."""

    game: Game
    events: list[dict[str, Any]]
    ranges: list[tuple[int, int]]  # per turn: (first event index, count)
    seats: list[int]


@dataclass
class Outcome:
    """What a write produced, for the response."""

    record: Record
    seat: int | None = None
    events: list[dict[str, Any]] = field(default_factory=list)
    first_seq: int = 0
    replayed: bool = False  # an identical retry: nothing was applied
    token: str | None = None
    game: Game | None = None
    log: list[dict[str, Any]] = field(default_factory=list)  # action-log entries to append


class Service:
    def __init__(self, store: Store, config: dict[str, Any]) -> None:
        self.store = store
        self.config = config
        self.waiter = Waiter(store.redis)
        self.views = LRU(config["HANABI_CACHE_SIZE"])
        self.finished = LRU(256)
        self.records = LRU(config["HANABI_CACHE_SIZE"])  # id -> (version, players, blob)

    # -- auth --------------------------------------------------------------------------

    @staticmethod
    def seat_of(players: list[Player], token: str | None) -> int | None:
        if token is None:
            return None
        hashed = hash_token(token)
        found = None
        for seat, player in enumerate(players):
            if player.token is not None and hmac.compare_digest(player.token, hashed):
                found = seat
        if found is None:
            raise ApiError(403, "not_a_player", "This token holds no seat in this game.")
        return found

    def require_seat(self, record: Record, token: str | None) -> int:
        if token is None:
            raise ApiError(401, "auth_required", "Send 'Authorization: Bearer <token>'.")
        seat = self.seat_of(record.players, token)
        assert seat is not None
        return seat

    def require_host(self, record: Record, token: str | None) -> int:
        seat = self.require_seat(record, token)
        if seat != record.host:
            raise ApiError(403, "not_host", "Only the host may do that.")
        return seat

    # -- engine glue -------------------------------------------------------------------

    @staticmethod
    def setup_of(record: Record) -> Setup:
        return Setup.create(
            record.variant,
            [p.name for p in record.players],
            record.options,
            record.seed,
            record.deck,
        )

    def live_game(self, record: Record) -> Game:
        # Restoring needs only the log's length (turn numbers): decoding the compact log on
        # every action would be wasted work, so the engine gets placeholders of that length.
        assert record.snap is not None
        return Game.from_snapshot(self.setup_of(record), [None] * record.turn, record.snap)  # type: ignore[list-item]

    def finished_game(self, record: Record) -> Finished:
        key = (record.id, record.version)
        cached = self.finished.get(key)
        if cached is not None:
            return cached
        game = Game(self.setup_of(record))
        engine_events: list[tuple[int, dict[str, Any]]] = [(-1, e) for e in game.deal_events()]
        seats = []
        for turn, entry in enumerate(record.acts or ()):
            seat, action = decode_action(entry)
            seats.append(seat)
            for event in game.apply(action, None if action.type == "terminate" else seat):
                engine_events.append((turn, event))
        chat = {seq: event for seq, event in record.chat or ()}
        events: list[dict[str, Any]] = []
        ranges: dict[int, tuple[int, int]] = {}
        source = iter(engine_events)
        for seq in range(1, len(engine_events) + len(chat) + 1):
            if seq in chat:
                events.append(chat[seq])
                continue
            turn, event = next(source)
            events.append(event)
            if turn >= 0:
                first, count = ranges.get(turn, (len(events) - 1, 0))
                ranges[turn] = (first, count + 1)
        rebuilt = Finished(game, events, [ranges[t] for t in range(game.turn)], seats)
        self.finished.put(key, rebuilt)
        return rebuilt

    def game_of(self, record: Record) -> Game | None:
        if record.status == "playing":
            return self.live_game(record)
        if record.status == "finished":
            return self.finished_game(record).game
        return None

    # -- rendering ---------------------------------------------------------------------

    def render(self, record: Record, seat: int | None, game: Game | None = None) -> dict[str, Any]:
        """The view of ``record`` for ``seat`` (None: a spectator)."""
        if record.status == "lobby":
            variant = get_variant(record.variant)
            out: dict[str, Any] = {
                "turn": 0,
                "current_seat": None,
                "clue_tokens": MAX_CLUE_TOKENS,
                "strikes": 0,
                "deck_size": variant.card_count,
                "score": 0,
                "max_score": variant.max_score,
                "pace": None,
                "fireworks": {variant.suits[f].id: 0 for f in variant.firework_suits},
                "hands": [[] for _ in record.players],
                "discards": [],
                "clues": [],
                "turns_left": None,
                "legal_actions": [],
                "result": None,
            }
        else:
            if game is None:
                game = self.game_of(record)
            assert game is not None
            if seat is not None:
                out = view(game, seat)
            elif all_bots(record):
                out = full_view(game)
            else:
                out = spectator_view(game)
        return self._with_table(out, record, seat)

    def _with_table(self, out: dict[str, Any], record: Record, seat: int | None) -> dict[str, Any]:
        """A game view completed with the table's own keys (id, status, players...)."""
        out.update(
            id=record.id,
            status=record.status,
            version=record.version,
            variant=record.variant,
            options=dict(record.options),
            max_players=record.max_players,
            players=self.players(record),
            host=record.host,
            you=seat,
        )
        return out

    @staticmethod
    def players(record: Record) -> list[dict[str, Any]]:
        return [{"seat": i, "name": p.name, "bot": p.bot} for i, p in enumerate(record.players)]

    @staticmethod
    def etag(version: int, seat: int | None) -> str:
        return f'"{version}.{"s" if seat is None else seat}"'

    def summary(self, record: Record) -> dict[str, Any]:
        def iso(ms: int) -> str:
            return datetime.fromtimestamp(ms / 1000, UTC).isoformat().replace("+00:00", "Z")

        return {
            "id": record.id,
            "status": record.status,
            "variant": record.variant,
            "max_players": record.max_players,
            "players": self.players(record),
            "host": record.host,
            "turn": record.turn,
            "score": record.score,
            "result": record.result,
            "created": iso(record.created),
            "updated": iso(record.updated),
        }

    # -- the write loop ----------------------------------------------------------------

    def _write(
        self, game_id: str, change: Callable[[Record], Outcome], *, by_bot: bool = False
    ) -> Outcome:
        """Decide on the game's state and commit with compare-and-set; on a conflict decide
        again on the state the commit found.

        Every commit says whether it leaves a bot to move, so the due set of bot turns is
        kept in the same atomic step (``by_bot``: the commit is a bot worker's own move).

        The first decision may start from this process's copy of the version it last wrote
        (no read): a commit validates it, and any answer that commits nothing (a refusal, a
        retry's original result) is decided again on freshly read state.
        """
        record = self._cached(game_id)
        trusted = record is None
        if record is None:
            record = self.load(game_id)
        for _ in range(MAX_RETRIES):
            expected, old_status = record.version, record.status
            try:
                outcome = change(record)
            except ApiError:
                if trusted:
                    raise
                record, trusted = self.load(game_id), True
                continue
            if outcome.replayed:
                if trusted:
                    return outcome
                record, trusted = self.load(game_id), True
                continue
            record.updated = now_ms()
            delete = not record.players
            bot = "0" if delete or not bot_due(record) else "2" if by_bot else "1"
            try:
                version, players, blob = self.store.commit(
                    record,
                    expected,
                    actions=outcome.log,
                    events=outcome.events,
                    delete=delete,
                    bot=bot,
                )
            except Conflict as conflict:
                record = conflict.current or self.load(game_id)
                trusted = True
                continue
            except Gone:
                self.records.pop(game_id)
                raise not_found(game_id) from None
            if delete:
                self.records.pop(game_id)
            else:
                self.records.put(game_id, (version, players, blob))
            if delete or record.status != old_status:
                self.store.index(record, old_status, delete=delete)
            return outcome
        raise ApiError(503, "busy", "The game is too busy right now; try again.")

    def _cached(self, game_id: str) -> Record | None:
        raw = self.records.get(game_id)
        return None if raw is None else Record.load(game_id, *raw)

    def _advance(
        self,
        record: Record,
        game: Game,
        seat: int,
        action: Action,
        events: list[dict[str, Any]],
    ) -> Outcome:
        """Record an applied action; archive the game if it just ended."""
        first = record.events
        entry = {"s": seat, "a": action.to_dict(), "e": [first, len(events)]}
        record.turn = game.turn
        record.events += len(events)
        record.score = game.score
        # A compact copy of the log rides along in the state, so ending the game needs no
        # read: the archive is that copy and the chat lines (also kept there).
        record.acts = [*(record.acts or self._logged_actions(record)), encode_action(seat, action)]
        outcome = Outcome(record, seat, events, first_seq=first + 1, game=game)
        if game.is_over:
            record.status = "finished"
            record.result = dict(game.result or {})
            record.score = record.result["score"]
            record.snap = None  # the commit archives: the lists are dropped
        else:
            record.snap = game.snapshot()
            outcome.log = [entry]
        return outcome

    def _logged_actions(self, record: Record) -> list[str]:
        """The compact log rebuilt from the Redis list (for a record written without one)."""
        if record.turn == 0:
            return []
        return [
            encode_action(e["s"], Action.from_dict(e["a"])) for e in self.store.actions(record.id)
        ]

    # -- lobby -------------------------------------------------------------------------

    @staticmethod
    def check_name(name: str) -> str:
        """Names are compared and shown without surrounding spaces (the schema checked the rest)."""
        return name.strip()

    def create(self, body: dict[str, Any]) -> Outcome:
        name = self.check_name(body["name"])
        variant_id = body["variant"]  # the schema allows only known variants
        options = Options(**body["options"]).to_dict()
        seed = body.get("seed") or secrets.token_hex(8)
        deck = body.get("deck")
        deck_rows = None if deck is None else [[c["suit"], c["rank"]] for c in deck]
        try:
            Game(Setup.create(variant_id, 2, options, seed, deck_rows))
        except SetupError as exc:
            raise ApiError(400, exc.code, exc.message) from None
        token = new_token()
        now = now_ms()
        for _ in range(8):
            record = Record(
                id=new_game_id(),
                status="lobby",
                variant=variant_id,
                options=options,
                max_players=body["max_players"],
                seed=seed,
                deck=deck_rows,
                host=0,
                created=now,
                updated=now,
                players=[Player(name, None, hash_token(token))],
            )
            joined = self._note(record, {"type": "join", "seat": 0, "name": name, "bot": None})
            try:
                version, players, blob = self.store.commit(record, 0, events=[joined])
            except Conflict:
                continue
            self.records.put(record.id, (version, players, blob))
            self.store.index(record, None)
            return Outcome(record, 0, token=token)
        raise ApiError(503, "busy", "Could not allocate a game id; try again.")

    @staticmethod
    def _note(record: Record, event: dict[str, Any]) -> dict[str, Any]:
        """Add a table event (join, leave, remove, start, chat) to the public event log.

        They are kept in the state too (``record.chat``, by seq), so a finished game's log,
        rebuilt from the archive, still has them.
        """
        event = {"type": event["type"], "turn": record.turn, **event}
        record.events += 1
        record.chat = [*(record.chat or []), [record.events, event]]
        return event

    @staticmethod
    def _seatable(record: Record, name: str) -> None:
        """Refuse a new seat at a started or full table, or under a name already there."""
        if record.status != "lobby":
            raise ApiError(409, "game_started", "The game has already started.")
        if len(record.players) >= record.max_players:
            raise ApiError(409, "game_full", "Every seat at this table is taken.")
        if any(p.name.casefold() == name.casefold() for p in record.players):
            raise ApiError(409, "name_taken", f"Someone here is already called {name!r}.")

    def join(self, game_id: str, name: str) -> Outcome:
        name = self.check_name(name)
        token = new_token()

        def change(record: Record) -> Outcome:
            self._seatable(record, name)
            record.players.append(Player(name, None, hash_token(token)))
            seat = len(record.players) - 1
            event = self._note(record, {"type": "join", "seat": seat, "name": name, "bot": None})
            return Outcome(record, seat, [event], token=token)

        return self._write(game_id, change)

    def add_bot(
        self, game_id: str, token: str | None, strategy: str | None, name: str | None
    ) -> Outcome:
        """Seat a bot (host only, in the lobby). Its seat has no token: the bot worker plays
        it (:mod:`hanabi.server.bots`)."""
        strategy = strategy or DEFAULT_STRATEGY
        if strategy not in STRATEGIES:  # the schema checked; be safe anyway
            raise ApiError(400, "unknown_strategy", f"Strategies: {descriptions()}.")
        chosen = None if name is None else self.check_name(name)

        def change(record: Record) -> Outcome:
            host = self.require_host(record, token)
            seat = len(record.players)
            bot_name = chosen or self._bot_name(record, strategy, seat)
            self._seatable(record, bot_name)
            record.players.append(Player(bot_name, strategy, None))
            event = {"type": "join", "seat": seat, "name": bot_name, "bot": strategy}
            return Outcome(record, host, [self._note(record, event)])

        return self._write(game_id, change)

    @staticmethod
    def _bot_name(record: Record, strategy: str, seat: int) -> str:
        """``<strategy>-bot-<seat>``, or the next number free at this table."""
        taken = {p.name.casefold() for p in record.players}
        for n in range(seat, seat + 100):
            name = f"{strategy}-bot-{n}"
            if name.casefold() not in taken:
                return name
        return f"{strategy}-bot-{secrets.token_hex(3)}"  # pragma: no cover

    def leave(self, game_id: str, token: str | None, seat: int) -> Outcome:
        def change(record: Record) -> Outcome:
            me = self.require_seat(record, token)
            if record.status != "lobby":
                raise ApiError(409, "game_started", "Seats are fixed once the game starts.")
            if not 0 <= seat < len(record.players):
                raise ApiError(404, "no_such_seat", f"There is no seat {seat} at this table.")
            if me != seat and me != record.host:
                raise ApiError(403, "not_host", "Only the host may remove another player.")
            return Outcome(record, events=[self._free_seat(record, seat, me == seat)])

        return self._write(game_id, change)

    def _free_seat(self, record: Record, seat: int, left: bool) -> dict[str, Any]:
        """Free ``seat`` (later seats move up). When no human is left the table is gone: a
        lobby of bots alone could never be started."""
        player = record.players.pop(seat)
        if record.host == seat:
            record.host = first_human(record.players)
        elif record.host > seat:
            record.host -= 1
        if record.status == "lobby" and all(p.bot is not None for p in record.players):
            record.players.clear()  # the commit deletes the game
        event = {"type": "leave" if left else "remove", "seat": seat, "name": player.name}
        return self._note(record, {**event, "bot": player.bot, "host": record.host})

    def start(self, game_id: str, token: str | None, watch: bool = False) -> Outcome:
        """Deal (host only). ``watch``: the host gives up their seat at the deal and follows
        the game as a spectator, e.g. to watch an all-bot table."""

        def change(record: Record) -> Outcome:
            seat: int | None = self.require_host(record, token)
            if record.status != "lobby":
                raise ApiError(409, "game_started", "The game has already started.")
            if len(record.players) - watch < 2:
                raise ApiError(409, "not_enough_players", "A game needs at least 2 players.")
            notes = []
            if watch:
                assert seat is not None
                host = record.players.pop(seat)
                record.host = first_human(record.players)
                event = {"type": "leave", "seat": seat, "name": host.name, "bot": None}
                notes.append(self._note(record, {**event, "host": record.host}))
                seat = None
            try:
                game = Game(self.setup_of(record))
            except SetupError as exc:  # settings were checked at creation; be safe anyway
                raise ApiError(409, exc.code, exc.message) from None
            notes.append(self._note(record, {"type": "start"}))
            events = game.deal_events()
            record.status = "playing"
            record.snap = game.snapshot()
            record.events += len(events)
            return Outcome(record, seat, notes + events, game=game)

        return self._write(game_id, change)

    # -- play --------------------------------------------------------------------------

    def act(
        self, game_id: str, token: str | None, body: dict[str, Any], *, as_seat: int | None = None
    ) -> Outcome:
        """Apply ``body`` (a validated action request) for the bearer of ``token``.

        ``as_seat`` skips the token, for code acting for a seat that has none (a bot seat,
        whose player record has ``bot`` set and no token); HTTP requests never pass it.
        """
        fields = {k: v for k, v in body.items() if k != "turn"}
        try:
            action = Action.from_dict(fields)
        except IllegalAction as exc:
            raise ApiError(400, exc.code, exc.message) from None
        turn = body["turn"]

        def change(record: Record) -> Outcome:
            seat = self.require_seat(record, token) if as_seat is None else as_seat
            if record.status == "lobby":
                raise ApiError(409, "game_not_started", "The game has not started yet.")
            if turn != record.turn:
                original = self.original(record, turn) if turn < record.turn else None
                if original is not None and original[0] == seat and original[1] == action:
                    return Outcome(record, seat, original[2], original[3], replayed=True)
                raise ApiError(409, "stale_turn", f"It is turn {record.turn}, not turn {turn}.")
            if record.status == "finished":
                raise ApiError(409, "game_over", "The game is over.")
            game = self.live_game(record)
            try:
                events = game.apply(action, seat)
            except IllegalAction as exc:
                raise ApiError(409, exc.code, exc.message) from None
            return self._advance(record, game, seat, action, events)

        return self._write(game_id, change, by_bot=as_seat is not None)

    def original(
        self, record: Record, turn: int
    ) -> tuple[int, Action, list[dict[str, Any]], int] | None:
        """(seat, action, events, first seq) of a turn already taken."""
        if record.status == "finished":
            rebuilt = self.finished_game(record)
            first, count = rebuilt.ranges[turn]
            action = rebuilt.game.actions[turn]
            return rebuilt.seats[turn], action, rebuilt.events[first : first + count], first + 1
        entry = self.store.action_entry(record.id, turn)
        if entry is None:
            return None
        first, count = entry["e"]
        events = self.store.events(record.id, first, first + count - 1)
        return entry["s"], Action.from_dict(entry["a"]), events, first + 1

    def terminate(self, game_id: str, token: str | None) -> Outcome:
        def change(record: Record) -> Outcome:
            seat = self.require_seat(record, token)
            if record.status == "lobby":
                raise ApiError(409, "game_not_started", "The game has not started yet.")
            if record.status == "finished":
                raise ApiError(409, "game_over", "The game is over.")
            game = self.live_game(record)
            action = Action.terminate(seat)
            events = game.apply(action)
            return self._advance(record, game, seat, action, events)

        return self._write(game_id, change)

    def chat(self, game_id: str, token: str | None, text: str) -> Outcome:
        text = text.strip()

        def change(record: Record) -> Outcome:
            seat = self.require_seat(record, token)
            name = record.players[seat].name
            event = self._note(record, {"type": "chat", "seat": seat, "name": name, "text": text})
            return Outcome(record, seat, [event], first_seq=record.events)

        return self._write(game_id, change)

    # -- reads -------------------------------------------------------------------------

    def load(self, game_id: str) -> Record:
        record = self.store.load(game_id)
        if record is None:
            raise not_found(game_id)
        return record

    def rendered(self, record: Record, seat: int | None, game: Game | None = None) -> bytes:
        """The view as JSON, cached per (game, version, seat); ``game``: the engine state
        already at hand, if any."""
        key = (record.id, record.version, seat)
        body = self.views.get(key)
        if body is None:
            body = orjson.dumps(self.render(record, seat, game))
            self.views.put(key, body)
        return body

    def wait_for_change(self, game_id: str, version: int, seconds: float) -> None:
        """Block until the game's version differs from ``version`` or time runs out."""
        deadline = time.monotonic() + seconds
        event = self.waiter.register(game_id)
        try:
            while True:
                current = self.store.version(game_id)
                if current != version:
                    return
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    return
                event.wait(min(remaining, RECHECK))
                event.clear()
        finally:
            self.waiter.unregister(game_id, event)

    def events(self, record: Record, seat: int | None, after: int) -> list[dict[str, Any]]:
        if record.status == "finished":
            events = self.finished_game(record).events[after:]
            return [{**e, "seq": after + i + 1} for i, e in enumerate(events)]
        if after >= record.events:
            return []
        raw = self.store.events(record.id, after, record.events - 1)
        reveal = seat is None and all_bots(record)  # nobody at an all-bot table to hide from
        return self.redact(raw, seat, reveal, after + 1)

    def redact(
        self, events: list[dict[str, Any]], seat: int | None, over: bool, first_seq: int
    ) -> list[dict[str, Any]]:
        return [{**redact_event(e, seat, over), "seq": first_seq + i} for i, e in enumerate(events)]

    def export(self, record: Record) -> dict[str, Any]:
        if record.status != "finished":
            raise ApiError(409, "game_not_finished", "Only a finished game can be exported.")
        return export_game(self.finished_game(record).game)

    def replay(self, record: Record, turn: int | None) -> dict[str, Any]:
        if record.status != "finished":
            raise ApiError(409, "game_not_finished", "Only a finished game can be replayed.")
        rebuilt = self.finished_game(record)
        last = rebuilt.game.turn
        if turn is None:
            turn = last
        if turn > last:
            raise ApiError(404, "no_such_turn", f"The game has turns 0 to {last}.")
        try:
            game = replay(self.setup_of(record), rebuilt.game.actions, upto=turn)
        except HanabiError as exc:  # pragma: no cover - the log replayed once already
            raise ApiError(500, "replay_failed", exc.message) from None
        return self._with_table(full_view(game), record, None)

    def list_games(self, status: str | None, limit: int, cursor: str | None) -> dict[str, Any]:
        key = status or "all"
        games: list[dict[str, Any]] = []
        last = cursor
        exhausted = False
        for _ in range(5):
            members = self.store.scan_index(key, last, limit - len(games))
            if not members:
                exhausted = True
                break
            ids = [m.split(":", 1)[1] for m in members]
            stale = []
            for member, record in zip(members, self.store.load_many(ids)):
                if record is None or (status is not None and record.status != status):
                    stale.append(member)
                else:
                    games.append(self.summary(record))
            self.store.unindex(key, stale)
            last = members[-1]
            if len(games) >= limit:
                break
        next_cursor = last if games and len(games) >= limit and not exhausted else None
        return {"games": games, "next_cursor": next_cursor}
