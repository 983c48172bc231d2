"""One game as stored: :class:`Record` (settings, seats, state), its :class:`Player` seats,
and the vocabularies their fields take (:class:`GameStatus`, :class:`SeatKind`,
:class:`BotDue`: string enums, so that what is stored and sent stays the same strings).

The state blob of a lobby or live game is JSON (``J`` then the JSON) holding the settings,
the engine's snapshot and a compact copy of the action log, so a read is one round trip
and no replay; its size does not grow with chat or lobby comings and goings (each event is
stored once, in the event list). The commit that ends a game keeps only that blob,
zlib-compressed (``Z`` then the compressed JSON), without the snapshot and with the
table's own events (lobby events and chat) read from the event list, and drops both lists:
the action log is the truth, and the events and final state of a finished game are rebuilt
from it (and cached per process, keyed by version).
"""

from __future__ import annotations

import zlib
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

import orjson


class GameStatus(StrEnum):
    """Where a game is in its life: stored, shown in views and listings, and the name of
    its listing index."""

    LOBBY = "lobby"  # seats are taken and freed; not dealt yet
    PLAYING = "playing"  # dealt: moves are made
    FINISHED = "finished"  # over: archived as its compact log


class SeatKind(StrEnum):
    """Who holds a seat. A seat is never vacant: a freed seat is removed and the later
    seats move up."""

    PERSON = "person"  # a person, or a program playing through the API with a token
    BOT = "bot"  # a server bot: the bot workers play it (it has no token)


class BotDue(StrEnum):
    """What a commit tells its bucket's due set of bot turns (ARGV of the commit script)."""

    NO = "0"  # no bot is to move: the game leaves the due set
    YES = "1"  # a bot is to move: due now, unless a worker holds the game's claim
    AFTER_BOT = "2"  # a bot is to move after a bot worker's own move: due now, claim over


@dataclass
class Player:
    name: str
    bot: str | None = None  # a server bot's strategy; None: a person's seat
    token_hash: str | None = None  # the hash of the seat's bearer token; None for a bot seat
    account: str | None = None  # the account id the seat is bound to (its credential acts)
    plays: str | None = None  # the strategy the program in a person's seat says it plays

    @property
    def kind(self) -> SeatKind:
        return SeatKind.PERSON if self.bot is None else SeatKind.BOT

    @property
    def table_strategy(self) -> str | None:
        """What this seat plays as far as the table knows: a server bot's strategy, the
        one a program in a person's seat declared, or None (a person)."""
        return self.bot or self.plays

    def to_row(self) -> list[Any]:
        row = [self.name, self.bot, self.token_hash]
        if self.plays is not None:
            return [*row, self.account, self.plays]
        return row if self.account is None else [*row, self.account]


@dataclass
class Record:
    """One game as stored: settings, seats and, once started, the engine snapshot.

    ``event_count`` counts the event log, ``chat_lines`` its chat lines and ``chat_bytes``
    their text's UTF-8 bytes (both kept by the commit that appends the line).
    ``compact_log`` is a compact copy of the action log (one ``"<seat>:<code>"`` per turn,
    :mod:`.archive`). ``table_events`` is set in a finished game's archive only: the
    table's own events (lobby events and chat) as ``[seq, event]``. Once the game is
    finished ``compact_log`` and ``table_events`` are all that is kept, and its events are
    rebuilt from them. In the stored blob some fields keep their first names
    (:data:`STORED_AS`).
    """

    id: str
    status: GameStatus
    variant: str
    options: dict[str, bool]
    max_players: int
    seed: str
    deck: list[list[Any]] | None
    host: int
    created: int
    updated: int
    players: list[Player] = field(default_factory=list)
    version: int = 0
    turn: int = 0
    event_count: int = 0
    score: int = 0
    result: dict[str, Any] | None = None
    snapshot: dict[str, Any] | None = None  # the engine's, while the game is on
    compact_log: list[str] | None = None
    table_events: list[list[Any]] | None = None
    chat_lines: int = 0
    chat_bytes: int = 0
    custom_deal: bool = False  # the creator chose the seed or the deck: they know the deal
    rated: bool = False  # a rated game (accounts only; see hanabi.server.table.settle)
    timing: dict[str, Any] | None = None  # {"idle_limit": s, "timer": {base, per_turn}|None,
    # "move_clock": s (a turn-based table, table/turns.py; absent for others)}
    clock: dict[str, Any] | None = None  # {"ts", "left", "dl"} (ms), kept by the commit script
    votes: list[int] = field(default_factory=list)  # seats that voted to end (votes.py)
    # the table's seed: "random"/"unplayed"/a name in the lobby, the name once dealt (its deck
    # is then ``deck``); None: a custom deal or a game from before names (table/seeds.py)
    seed_name: str | None = None
    # spectators see the public board only while the game is on (options.spectators_see_hands
    # false; table/viewers.py). Stored only when true: a game without it shows hands.
    hide_hands: bool = False
    imported: bool = False  # read from a hanab.live export (table/imports.py): counts nowhere
    # issue 48, each absent from the blob while None (stored as before them):
    password: dict[str, Any] | None = None  # table/passwords.py: salt, scrypt hash, spectate
    pause: dict[str, Any] | None = None  # table/pause.py: {"on": bool, "votes": [seats]}
    rematch: dict[str, Any] | None = None  # table/rematch.py: "next" | "from", "invited"...

    @property
    def paused(self) -> bool:
        """Whether the table is paused by vote (table/pause.py): no move, no clock."""
        return bool(self.pause and self.pause.get("on"))

    def __post_init__(self) -> None:
        self.status = GameStatus(self.status)  # as stored: its string

    _BLOB = ("status", "variant", "options", "max_players", "seed", "deck", "host", "created",
             "updated", "turn", "event_count", "score", "result", "snapshot", "compact_log",
             "table_events", "chat_lines", "chat_bytes", "custom_deal", "rated", "votes",
             "timing", "seed_name", "hide_hands", "imported", "password", "pause",
             "rematch")  # fmt: skip
    #: Fields left out of the blob while None (or false), so a game without them is
    #: stored as before them.
    _OPTIONAL = ("seed_name", "hide_hands", "imported", "password", "pause", "rematch")

    def blob(self) -> bytes:
        data = {STORED_AS.get(name, name): getattr(self, name) for name in self._BLOB}
        for name in self._OPTIONAL:
            if not data[name]:
                del data[name]  # e.g. a game without a seed name is stored as before names
        if self.status is GameStatus.FINISHED:
            return b"Z" + zlib.compress(orjson.dumps(data), 9)
        data["chat"] = None  # table_events: only archives hold them (older states did too)
        return b"J" + orjson.dumps(data)

    def players_json(self) -> bytes:
        return orjson.dumps([p.to_row() for p in self.players])

    @classmethod
    def load(cls, game_id: str, version: bytes, players: bytes, blob: bytes) -> Record:
        raw = zlib.decompress(blob[1:]) if blob[:1] == b"Z" else blob[1:]
        data = orjson.loads(raw)
        for stored, name in FIELD_OF.items():
            if stored in data:
                data[name] = data.pop(stored)
        return cls(id=game_id, version=int(version), players=parse_players(players), **data)


@dataclass(frozen=True)
class ActionEntry:
    """One turn of a live game's action log: who moved, the action, and which events it
    made. Stored as ``{"s": seat, "a": action, "e": [first event index, event count]}``."""

    seat: int
    action: dict[str, Any]  # as the engine writes it (Action.to_dict)
    first_event: int  # the 0-based index of its first event in the event log
    event_count: int

    def dump(self) -> bytes:
        stored = {"s": self.seat, "a": self.action, "e": [self.first_event, self.event_count]}
        return orjson.dumps(stored)

    @classmethod
    def load(cls, raw: bytes) -> ActionEntry:
        entry = orjson.loads(raw)
        first, count = entry["e"]
        return cls(entry["s"], entry["a"], first, count)


def parse_players(raw: bytes) -> list[Player]:
    return [Player(*row) for row in orjson.loads(raw)]


#: The fields whose stored key is another: the names every earlier version wrote, kept so
#: that games stored before (a deployed Redis holds live ones) and during a rolling deploy
#: read the same way in both directions. Only the Python names changed.
STORED_AS = {
    "event_count": "events",
    "snapshot": "snap",
    "compact_log": "acts",
    "table_events": "chat",
    "chat_lines": "chats",
}
FIELD_OF = {stored: name for name, stored in STORED_AS.items()}
