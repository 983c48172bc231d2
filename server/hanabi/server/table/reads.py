"""Reading games: records, engine states, views, the event log, exports and replays, and
waiting for a game to change.

:class:`Reads` holds this process's caches (rendered views, rebuilt finished games, the
records this process last wrote, which the write loop keeps), all keyed by the game's
version so a stale entry is never served.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import orjson

from hanabi.game import Action, Game, HanabiError, export_game, full_view, get_variant, replay, view
from hanabi.game.views import redact_event

from ..storage.archive import decode_action, encode_action
from ..storage.changes import Busy, ChangeHub
from ..storage.record import GameStatus, Record
from ..storage.server_time import ServerTime
from ..storage.store import Store
from . import rendering, restore
from .cache import LRU, SingleFlight
from .clocks import ClockState, clocks_view
from .last_action import last_action
from .private import Own, PrivateKeys
from .refusals import Conflict, NotFound, Refused, Unavailable
from .restore import Finished
from .seats import not_found, require_seat
from .viewers import Spectating, Viewer, as_viewer, seated

#: The replay's viewer: everything of a finished game.
FULL = Viewer(spectating=Spectating.FULL)


class Reads:
    """Every read of a game, for the API and the other parts of the table. ``changes``:
    this process's change hub (waits); ``server_time``: Redis's clock (views' time keys);
    ``cache_size``: views and records kept per process."""

    def __init__(
        self, store: Store, changes: ChangeHub, server_time: ServerTime, cache_size: int
    ) -> None:
        self.store = store
        self.changes = changes
        self.server_time = server_time
        self.loads = SingleFlight()
        self.views = LRU(cache_size)
        self.finished = LRU(256)
        self.records = LRU(cache_size)  # id -> (version, players, blob)
        # (id, version) -> Record, shared by the streams a change wakes: read only. A crowd
        # needs one entry; a game with one stream gains nothing from keeping its record.
        self.parsed = LRU(min(cache_size, 256))
        self.past = LRU(256)  # (id, seat, turn) -> a seat's view then (it never changes)
        #: Keys each view served gets fresh, past the cache (card notes); the composition
        #: sets it.
        self.private: PrivateKeys | None = None

    # -- engine glue -------------------------------------------------------------------

    def load(self, game_id: str) -> Record:
        record = self.store.load(game_id)
        if record is None:
            raise not_found(game_id)
        return record

    def live_game(self, record: Record, *, with_log: bool = False) -> Game:
        """The game in play (:func:`~.restore.live_game`); ``with_log``: with its actions,
        as a seat saw them come (what a bot replays)."""
        return restore.live_game(record, self.compact_log(record) if with_log else None)

    def compact_log(self, record: Record) -> list[str]:
        """The game's compact action log (:mod:`hanabi.server.storage.archive`): the copy its
        state carries, or rebuilt from the Redis list for a record written without one."""
        if record.compact_log is not None:
            return record.compact_log
        if record.turn == 0:
            return []
        return [
            encode_action(entry.seat, Action.from_dict(entry.action))
            for entry in self.store.actions(record.id)
        ]

    def finished_game(self, record: Record) -> Finished:
        """The finished game replayed from its archive (:func:`~.restore.finished_game`),
        once per version in this process."""
        key = (record.id, record.version)
        cached = self.finished.get(key)
        if cached is not None:
            return cached
        rebuilt = restore.finished_game(record)
        self.finished.put(key, rebuilt)
        return rebuilt

    def game_of(self, record: Record) -> Game | None:
        if record.status is GameStatus.PLAYING:
            return self.live_game(record)
        if record.status is GameStatus.FINISHED:
            return self.finished_game(record).game
        return None

    # -- views -------------------------------------------------------------------------

    def render(
        self, record: Record, who: int | Viewer | None, game: Game | None = None
    ) -> dict[str, Any]:
        """The view of ``record`` for ``who``: a :class:`~.viewers.Viewer`, a seat's
        number, or None for an anonymous spectator."""
        viewer = as_viewer(record, who)
        if game is None and record.status is not GameStatus.LOBBY:
            game = self.game_of(record)
        out = rendering.render(record, viewer, game)
        out.update(clocks_view(record, self.server_time.now_ms()))
        out.update(self._private(record.id, ClockState.of(record), viewer))
        return out

    def rendered(
        self,
        record: Record,
        who: int | Viewer | None,
        game: Game | None = None,
        own: Own | None = None,
    ) -> bytes:
        """The view as JSON, cached per (game, version, viewer) without its time keys
        (they change without a commit: the clocks run), which are added to each copy
        served; ``game``: the engine state already at hand, if any."""
        viewer = as_viewer(record, who)
        key = (record.id, record.version, viewer.key)
        cached = self.views.get(key)
        if cached is None:
            if game is None and record.status is not GameStatus.LOBBY:
                game = self.game_of(record)
            view = rendering.render(record, viewer, game)
            cached = (orjson.dumps(view), ClockState.of(record))
            self.views.put(key, cached)
        return self._timed(*cached, record.id, viewer, own)

    def view_of(
        self,
        game_id: str,
        stored: tuple[int, bytes, bytes],
        viewer: Viewer,
        own: Own | None = None,
    ) -> bytes:
        """The view of a game as read, for ``viewer``: rendered once per version and
        viewer; ``own``: the seat's private keys as read for its ETag (:meth:`own_private`)."""
        body = self.cached_view(game_id, stored[0], viewer, own)
        if body is not None:
            return body
        return self.rendered(Record.load(game_id, *stored), viewer, own=own)

    def record_at(self, game_id: str, version: int) -> Record | None:
        """The game at ``version`` or later (a version a change announced): see
        :meth:`load_raw`; None if it is gone. Parsed once per version in this process and
        shared by every caller (the streams of 1,000 spectators woken by one change), so
        the record is theirs to read, never to change."""
        raw = self.load_raw(game_id, version)
        if raw is None:
            return None
        key = (game_id, raw[0])
        record = self.parsed.get(key)
        if record is None:
            record = self.loads.do(("parse", *key), lambda: Record.load(game_id, *raw))
            self.parsed.put(key, record)
        return record

    def cached_view(
        self, game_id: str, version: int, viewer: Viewer, own: Own | None = None
    ) -> bytes | None:
        """The view of that version for that viewer if this process has it rendered."""
        cached = self.views.get((game_id, version, viewer.key))
        return None if cached is None else self._timed(*cached, game_id, viewer, own)

    def _timed(
        self, body: bytes, state: ClockState, game_id: str, viewer: Viewer, own: Own | None
    ) -> bytes:
        keys = clocks_view(state, self.server_time.now_ms())
        keys.update(self._private(game_id, state, viewer, own))
        return body[:-1] + b"," + orjson.dumps(keys)[1:]

    def _private(
        self, game_id: str, state: ClockState, viewer: Viewer, own: Own | None = None
    ) -> dict[str, Any]:
        if self.private is None:
            return {}
        status, seats = GameStatus(state.status), len(state.people)
        if viewer.spectating is Spectating.PUBLIC and status is GameStatus.FINISHED:
            status = GameStatus.PLAYING  # the notes as a spectator saw them: none
        return self.private.view_keys(game_id, status, seats, viewer.seat, own)

    def own_private(self, game_id: str, seat: int | None) -> Own | None:
        """What ``seat`` alone sees of the game that no commit changes (its notes), read
        once for a request's ETag and body; None for a spectator."""
        if self.private is None or seat is None:
            return None
        return self.private.own(game_id, seat)

    def etag(self, version: int, viewer: Viewer, own: Own | None = None) -> str:
        """The view's ETag: its version and viewer (each level and shadow its own), and
        for a seat a tag of what it alone sees that no commit changes (``own``, its
        notes)."""
        tag = rendering.etag(version, viewer)
        extra = "" if own is None or self.private is None else self.private.tag(own)
        return tag if not extra else tag[:-1] + "." + extra + '"'

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

        return self.loads.do((game_id, version), fetch)

    # -- the event log -----------------------------------------------------------------

    def events(
        self, record: Record, who: int | Viewer | None, after: int, limit: int
    ) -> list[dict[str, Any]]:
        """At most ``limit`` events with a seq above ``after``, as ``who`` may see them
        (a :class:`~.viewers.Viewer`, a seat, or None for an anonymous spectator)."""
        viewer = as_viewer(record, who)
        sight = viewer.spectating
        if record.status is GameStatus.FINISHED:
            events = self.finished_game(record).events[after : after + limit]
            if sight is Spectating.PUBLIC:  # as a spectator saw them during play
                return self.redact(events, None, False, after + 1, record.variant)
            return [{**e, "seq": after + i + 1} for i, e in enumerate(events)]
        if after >= record.event_count:
            return []
        raw = self.store.events(record.id, after, min(after + limit, record.event_count) - 1)
        if sight is Spectating.HANDS:
            return self.redact_hands(raw, after + 1, record.variant)
        return self.redact(raw, viewer.eyes, sight is Spectating.FULL, after + 1, record.variant)

    def event_page(
        self, record: Record, who: int | Viewer | None, after: int, limit: int
    ) -> dict[str, Any]:
        """A page of the event log: ``next`` is the ``after`` of the next page, None at
        the end (the log as it stood at ``record``'s version)."""
        events = self.events(record, who, after, limit)
        end = after + len(events)
        more = bool(events) and end < record.event_count
        return {"events": events, "last_seq": record.event_count, "next": end if more else None}

    def redact_hands(
        self, events: list[dict[str, Any]], first_seq: int, variant_id: str
    ) -> list[dict[str, Any]]:
        """Events as a spectator who sees the hands may see them: every draw, the rest as
        the table heard it (a hidden clue, a card thrown in the hole)."""
        variant = get_variant(variant_id)
        return [
            {**(e if e.get("type") == "draw" else redact_event(e, None, False, variant)),
             "seq": first_seq + i}
            for i, e in enumerate(events)
        ]  # fmt: skip

    def redact(
        self,
        events: list[dict[str, Any]],
        seat: int | None,
        over: bool,
        first_seq: int,
        variant_id: str,
    ) -> list[dict[str, Any]]:
        """Events as ``seat`` may see them. The variant hides more than the draws: what a
        clue was (Cow & Pig, Duck), the cards thrown in the hole (Throw It in a Hole)."""
        variant = get_variant(variant_id)
        return [
            {**redact_event(e, seat, over, variant), "seq": first_seq + i}
            for i, e in enumerate(events)
        ]

    # -- finished games ----------------------------------------------------------------

    def export(self, record: Record) -> dict[str, Any]:
        if record.status is not GameStatus.FINISHED:
            raise Conflict("game_not_finished", "Only a finished game can be exported.")
        return export_game(self.finished_game(record).game)

    def replay(self, record: Record, turn: int | None) -> dict[str, Any]:
        if record.status is not GameStatus.FINISHED:
            raise Conflict("game_not_finished", "Only a finished game can be replayed.")
        rebuilt = self.finished_game(record)
        last = rebuilt.game.turn
        if turn is None:
            turn = last
        if turn > last:
            raise NotFound("no_such_turn", "The game has turns 0 to {last}.", last=last)
        try:
            game = replay(restore.setup_of(record), rebuilt.game.actions, upto=turn)
        except HanabiError as exc:  # pragma: no cover - the log replayed once already
            raise Refused("replay_failed", exc.template, **exc.params) from None
        out = rendering.with_table(full_view(game), record, None)
        out["last_action"] = last_action(record, game, None, reveal=True)
        out.update(clocks_view(record, self.server_time.now_ms()))
        out.update(self._private(record.id, ClockState.of(record), FULL))
        out["spectating"] = Spectating.FULL
        return out

    # -- a seat's own past ---------------------------------------------------------------

    def seat_past(self, record: Record, token: str | None, turn: int | None) -> dict[str, Any]:
        """The game as the bearer's seat saw it after ``turn`` moves (default: the current
        turn): the engine's view for that seat of the game replayed to that turn, so its
        own cards then stay hidden (as they were), with what it knew of them then. For a
        seat only (401 without a credential, 403 for another's): a spectator's past is the
        public log. Nothing in it can be acted on (no legal actions); its clocks and the
        seat's notes are the present's."""
        seat = require_seat(record, token)
        if record.status is GameStatus.LOBBY:
            raise Conflict("game_not_started", "The cards are not dealt yet.")
        log = self.compact_log(record)
        last = len(log)
        if turn is None:
            turn = last
        if turn > last:
            raise NotFound("no_such_turn", "The game has turns 0 to {last}.", last=last)
        key = (record.id, seat, turn)
        cached = self.past.get(key)
        if cached is None:
            cached = self._seat_past(record, seat, log, turn)
            self.past.put(key, cached)
        out = dict(cached)
        out.update(clocks_view(record, self.server_time.now_ms()))
        out.update(self._private(record.id, ClockState.of(record), seated(seat)))
        return out

    def _seat_past(self, record: Record, seat: int, log: list[str], turn: int) -> dict[str, Any]:
        """The seat's view of the game replayed to ``turn``, without its time keys."""
        actions = [decode_action(entry)[1] for entry in log[:turn]]
        try:
            game = replay(restore.setup_of(record), actions)
        except HanabiError as exc:  # pragma: no cover - the log was played once already
            raise Refused("replay_failed", exc.template, **exc.params) from None
        out = rendering.with_table(view(game, seat), record, seat)
        # a past turn is not the present: nothing to send from it, and the table as it
        # stands now (its status, votes) is the live view's to say
        out["legal_actions"] = []
        out["spectating"] = None  # a seat's own view (table/viewers.py)
        out["last_action"] = last_action(record, game, seat)
        return out
