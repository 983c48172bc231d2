"""Reading games: records, engine states, views, the event log, exports, replays, listings.

:class:`Reads` is the base of :class:`~hanabi.server.table.games.Service`: it holds the store and
this process's caches (rendered views, rebuilt finished games, the records this process
last wrote), all keyed by the game's version so a stale entry is never served.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import orjson

from hanabi.game import Game, HanabiError, export_game, full_view, replay
from hanabi.game.views import redact_event

from ..storage.archive import Finished, rebuild, setup_of
from ..storage.changes import Busy, ChangeHub
from ..storage.record import Record
from ..storage.server_time import ServerTime
from ..storage.store import Store, now_ms
from . import rendering
from .cache import LRU, SingleFlight
from .clocks import ClockState, clocks_view
from .refusals import Conflict, NotFound, Refused, Unavailable
from .seats import all_bots, not_found


class Reads:
    def __init__(self, store: Store, config: dict[str, Any]) -> None:
        self.store = store
        self.config = config
        self.changes = ChangeHub(
            store.redis,
            store.version,
            config["HANABI_MAX_WAITERS"],
            sharded=store.sharded,
            cluster=store.cluster,
        )
        self._loads = SingleFlight()
        self.views = LRU(config["HANABI_CACHE_SIZE"])
        self.finished = LRU(256)
        self.records = LRU(config["HANABI_CACHE_SIZE"])  # id -> (version, players, blob)
        self.server_time = ServerTime(store.redis)  # Redis's clock, for views and deadlines

    # -- engine glue -------------------------------------------------------------------

    def load(self, game_id: str) -> Record:
        record = self.store.load(game_id)
        if record is None:
            raise not_found(game_id)
        return record

    def live_game(self, record: Record) -> Game:
        # Restoring needs only the log's length (turn numbers): decoding the compact log on
        # every action would be wasted work, so the engine gets placeholders of that length.
        assert record.snap is not None
        return Game.from_snapshot(setup_of(record), [None] * record.turn, record.snap)  # type: ignore[list-item]

    def finished_game(self, record: Record) -> Finished:
        key = (record.id, record.version)
        cached = self.finished.get(key)
        if cached is not None:
            return cached
        rebuilt = rebuild(record)
        self.finished.put(key, rebuilt)
        return rebuilt

    def game_of(self, record: Record) -> Game | None:
        if record.status == "playing":
            return self.live_game(record)
        if record.status == "finished":
            return self.finished_game(record).game
        return None

    # -- views -------------------------------------------------------------------------

    def render(self, record: Record, seat: int | None, game: Game | None = None) -> dict[str, Any]:
        """The view of ``record`` for ``seat`` (None: a spectator)."""
        if game is None and record.status != "lobby":
            game = self.game_of(record)
        out = rendering.render(record, seat, game)
        out.update(clocks_view(record, self.server_time.now_ms()))
        return out

    def rendered(self, record: Record, seat: int | None, game: Game | None = None) -> bytes:
        """The view as JSON, cached per (game, version, seat) without its time keys (they
        change without a commit: the clocks run), which are added to each copy served;
        ``game``: the engine state already at hand, if any."""
        key = (record.id, record.version, seat)
        cached = self.views.get(key)
        if cached is None:
            if game is None and record.status != "lobby":
                game = self.game_of(record)
            cached = (orjson.dumps(rendering.render(record, seat, game)), ClockState.of(record))
            self.views.put(key, cached)
        return self._timed(*cached)

    def cached_view(self, game_id: str, version: int, seat: int | None) -> bytes | None:
        """The view of that version for that seat if this process has it rendered."""
        cached = self.views.get((game_id, version, seat))
        return None if cached is None else self._timed(*cached)

    def _timed(self, body: bytes, state: ClockState) -> bytes:
        times = orjson.dumps(clocks_view(state, self.server_time.now_ms()))
        return body[:-1] + b"," + times[1:]

    # -- waiting for changes --------------------------------------------------------

    def hold(self) -> Callable[[], None]:
        """Count a waiting request (long-poll or stream) until the returned function is
        called: 503 ``too_many_waiters`` when this process holds ``HANABI_MAX_WAITERS``."""
        try:
            return self.changes.hold()
        except Busy:
            raise Unavailable(
                "too_many_waiters",
                "This server holds too many waiting requests; retry.",
                retry_after=5,
            ) from None

    def wait_for_change(self, game_id: str, version: int, seconds: float) -> int | None:
        """Hold until the game is past ``version`` or ``seconds`` pass: the newest version
        known (``version`` on a timeout, None if the game is gone). Holds no thread under
        gevent (see :mod:`hanabi.server.storage.changes`)."""
        return self.changes.wait(game_id, version, seconds)

    def known_raw(self, game_id: str) -> tuple[int, bytes, bytes] | None:
        """The game as this process holds it, if that is the version its change
        subscription says is current (see :meth:`ChangeHub.latest`); else None."""
        latest = self.changes.latest(game_id)
        if latest is None:
            return None
        cached = self.records.get(game_id)
        return cached if cached is not None and cached[0] == latest else None

    def load_raw(self, game_id: str, version: int | None = None) -> tuple[int, bytes, bytes] | None:
        """The stored game as (version, players, state bytes), or None if there is none.

        ``version``: a version the caller knows was committed (a change it was woken for).
        This process may already hold it, and concurrent loads for the same version share
        one Redis read, so a change that wakes 1,000 spectators reads the game once per
        process. Without it, a plain read (a request must see every commit made before it).
        """
        if version is None:
            return self.store.load_raw(game_id)
        cached = self.records.get(game_id)
        if cached is not None and cached[0] >= version:
            return cached

        def fetch() -> tuple[int, bytes, bytes] | None:
            raw = self.store.load_raw(game_id)
            if raw is not None:
                self.records.put(game_id, raw)
            return raw

        return self._loads.do((game_id, version), fetch)

    # -- the event log -----------------------------------------------------------------

    def events(
        self, record: Record, seat: int | None, after: int, limit: int
    ) -> list[dict[str, Any]]:
        """At most ``limit`` events with a seq above ``after``, as ``seat`` may see them."""
        if record.status == "finished":
            events = self.finished_game(record).events[after : after + limit]
            return [{**e, "seq": after + i + 1} for i, e in enumerate(events)]
        if after >= record.events:
            return []
        raw = self.store.events(record.id, after, min(after + limit, record.events) - 1)
        reveal = seat is None and all_bots(record)  # nobody at an all-bot table to hide from
        return self.redact(raw, seat, reveal, after + 1)

    def event_page(
        self, record: Record, seat: int | None, after: int, limit: int
    ) -> dict[str, Any]:
        """A page of the event log: ``next`` is the ``after`` of the next page, None at
        the end (the log as it stood at ``record``'s version)."""
        events = self.events(record, seat, after, limit)
        end = after + len(events)
        more = bool(events) and end < record.events
        return {"events": events, "last_seq": record.events, "next": end if more else None}

    def redact(
        self, events: list[dict[str, Any]], seat: int | None, over: bool, first_seq: int
    ) -> list[dict[str, Any]]:
        return [{**redact_event(e, seat, over), "seq": first_seq + i} for i, e in enumerate(events)]

    # -- finished games ----------------------------------------------------------------

    def export(self, record: Record) -> dict[str, Any]:
        if record.status != "finished":
            raise Conflict("game_not_finished", "Only a finished game can be exported.")
        return export_game(self.finished_game(record).game)

    def replay(self, record: Record, turn: int | None) -> dict[str, Any]:
        if record.status != "finished":
            raise Conflict("game_not_finished", "Only a finished game can be replayed.")
        rebuilt = self.finished_game(record)
        last = rebuilt.game.turn
        if turn is None:
            turn = last
        if turn > last:
            raise NotFound("no_such_turn", f"The game has turns 0 to {last}.")
        try:
            game = replay(setup_of(record), rebuilt.game.actions, upto=turn)
        except HanabiError as exc:  # pragma: no cover - the log replayed once already
            raise Refused("replay_failed", exc.message) from None
        out = rendering.with_table(full_view(game), record, None)
        out.update(clocks_view(record, self.server_time.now_ms()))
        return out

    # -- the listing -------------------------------------------------------------------

    def list_games(self, status: str | None, limit: int, cursor: str | None) -> dict[str, Any]:
        """A page of summaries, newest first; lobbies by last change, and only those
        changed within ``HANABI_LOBBY_LISTED_S`` with a person seated (the others are
        abandoned: reachable by id until they expire, but not listed)."""
        since = now_ms() - self.config["HANABI_LOBBY_LISTED_S"] * 1000
        key = status or "all"

        def scan(after: str | None, count: int) -> list[tuple[str, str]]:
            if status == "lobby":
                return self.store.scan_lobbies(since, after, count)
            return [(m, m) for m in self.store.scan_index(key, after, count)]

        games: list[dict[str, Any]] = []
        last = cursor
        exhausted = False
        for _ in range(5):
            rows = scan(last, limit - len(games))
            if not rows:
                exhausted = True
                break
            ids = [member.split(":", 1)[1] for member, _ in rows]
            stale = []
            for (member, _), record in zip(rows, self.store.load_many(ids)):
                if record is None or (status is not None and record.status != status):
                    stale.append(member)
                elif record.status != "lobby" or listed(record, since):
                    games.append(rendering.summary(record))
            self.store.unindex(key, stale)
            last = rows[-1][1]
            if len(games) >= limit:
                break
        next_cursor = last if games and len(games) >= limit and not exhausted else None
        return {"games": games, "next_cursor": next_cursor}


def listed(lobby: Record, since_ms: int) -> bool:
    """Whether a lobby is still open to join as the listing sees it: changed since
    ``since_ms``, with a person seated (a table of bots alone could never be started)."""
    return lobby.updated >= since_ms and any(p.bot is None for p in lobby.players)
