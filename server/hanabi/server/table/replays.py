"""Shared replay rooms: a finished game watched together, one leader moving through it.

A room is made from a **finished** game only (409 ``game_not_finished`` otherwise, 404 for
no game): while a game is on, nothing of it may be shown whole, and a room shows
everything. Its creator leads. Anyone with the link reads the room and follows its
stream; a follower who joins (``POST /replays/{id}/followers``) gets a member token, so
that the leader can pass leadership to them. The leader moves the turn position, points
at cards (their orders), branches a hypothetical (:mod:`.hypotheticals`) and passes the
lead; each change is one compare-and-set script that announces the room's new version,
which wakes every follower's stream through the change hub.

Who may make a room: an account (session or API key; its open rooms are counted, at most
``HANABI_REPLAY_ROOMS``), or a guest holding a seat token of that very game (counted per
seat), since the game's players are the ones who most want to review it. Everything is
bounded: members per room (``HANABI_REPLAY_FOLLOWERS``), a room's life
(``HANABI_REPLAY_TTL``: fixed from its creation), a hypothetical's moves
(``HANABI_REPLAY_MOVES``), and the rates of the API's edge.
"""

from __future__ import annotations

import hmac
import secrets
from collections.abc import Callable
from typing import Any

import orjson

from ..ops.times import now_ms
from ..storage.record import GameStatus, Record
from ..storage.replays import RoomStore, RoomWrite, StoredRoom
from ..storage.slots import ID_ALPHABET
from .accounts import Account, Credential
from .hypotheticals import Audience, Branch, apply_move, check_turn, room_view
from .passwords import require_pass
from .reads import Reads
from .refusals import Conflict, Forbidden, NotFound, Refused, Unauthorized, Unavailable
from .seats import hash_token, new_token, seat_by_hash, seat_of
from .tickets import StreamTickets
from .viewers import Viewers

#: Tries of a change that keeps losing compare-and-set races before 503 busy.
TRIES = 8


def room_not_found(room_id: str) -> NotFound:
    return NotFound("room_not_found", "No replay room {room} (rooms expire).", room=repr(room_id))


class Replays:
    """Shared replay rooms over the rooms' store and the games' reads."""

    def __init__(
        self,
        rooms: RoomStore,
        reads: Reads,
        config: dict[str, Any],
        viewers: Viewers,
        tickets: StreamTickets,
    ) -> None:
        self.rooms = rooms
        self.reads = reads
        self.config = config
        self.viewers = viewers
        self.tickets = tickets

    # -- making and joining -----------------------------------------------------------

    def create(
        self, game_id: str, token: str | None, account: Account | None
    ) -> tuple[str, str, str, StoredRoom]:
        """A room on a finished game, led by who asks: (room id, member id, member token,
        the room). ``token``: the request's bearer principal; ``account``: its account."""
        if token is None:
            raise Unauthorized(
                "auth_required",
                "Log in, or be one of this game's players, to share its replay.",
            )
        record = self.reads.load(game_id)  # 404 game_not_found
        if record.status is not GameStatus.FINISHED:
            raise Conflict("game_not_finished", "Only a finished game can be shared as a replay.")
        if account is not None:
            # anyone's finished game, unless the account plays its deal elsewhere (409); a
            # password table's: its seats only (lobby.md)
            require_pass(record, seat_of(record.players, token, spectate=True), None)
            self.viewers.cards(record, token, account.id)
            owner, name = account.principal, account.username
        else:
            seat = seat_of(record.players, token)  # 403 not_a_player
            assert seat is not None
            owner, name = f"seat:{game_id}:{seat}", record.players[seat].name
        finished = self.reads.finished_game(record)
        now = now_ms()
        expires = now + int(self.config["HANABI_REPLAY_TTL"]) * 1000
        room_id = "".join(secrets.choice(ID_ALPHABET) for _ in range(14))
        limit = int(self.config["HANABI_REPLAY_ROOMS"])
        if not self.rooms.claim(owner, room_id, expires, limit):
            raise Conflict(
                "too_many_rooms",
                "You already have {limit} open replay rooms; they close when they expire.",
                limit=limit,
            )
        member_id, member_token = _member_id(), new_token()
        state = {
            "game": game_id,
            "leader": {"id": member_id, "name": name},
            "turn": finished.game.turn,
            "highlight": [],
            "hypo": None,
            "created": now,
            "expires": expires,
        }
        member = {"name": name, "token": hash_token(member_token)}
        if not self.rooms.create(room_id, state, member_id, member, expires):  # pragma: no cover
            raise Unavailable("busy", "Try again.", retry_after=1)
        return room_id, member_id, member_token, self.load(room_id)

    def join(self, room_id: str, name: str) -> tuple[str, str, StoredRoom]:
        """A follower joins: (member id, member token, the room). Reading and streaming a
        room need no joining; a member may be given the lead."""
        member_id, member_token = _member_id(), new_token()
        member = {"name": name, "token": hash_token(member_token)}
        limit = int(self.config["HANABI_REPLAY_FOLLOWERS"]) + 1  # and the leader
        written = self.rooms.join(room_id, member_id, member, limit)
        if written == RoomWrite.GONE:
            raise room_not_found(room_id)
        if written == RoomWrite.FULL:
            raise Conflict(
                "room_full", "This room has all {limit} followers it may.", limit=limit - 1
            )
        return member_id, member_token, self.load(room_id)

    # -- reading ----------------------------------------------------------------------

    def admit(self, room: StoredRoom, token: str | None, account_id: str | None) -> None:
        """Whether the bearer may read, follow or join ``room``: anyone with its id, the
        anonymous included (a finished game is public), except an account that holds a
        seat in a game still going on dealt the same deal (409 ``same_deal_elsewhere``,
        :mod:`.viewers`); an account that reads it spoils the game's seed for itself."""
        record = self.reads.load(room.state["game"])  # gone with its game: 404
        if account_id is None:
            return  # a member's token, a seat's or none: nothing to spoil or to check
        self.viewers.cards(record, token, account_id)

    def ticket(
        self, room: StoredRoom, token: str | None, account: Credential | None
    ) -> tuple[str, str]:
        """A one-time ticket that opens the room's stream as the bearer (for a browser's
        EventSource, which sends no header), and its expiry: the bearer is admitted now."""
        if token is None:
            raise Unauthorized(
                "auth_required", "Join the room or log in first (or follow it without a ticket)."
            )
        self.admit(room, token, None if account is None else account.account_id)
        return self.tickets.issue(RoomStore.hub_id(room.id), hash_token(token), account)

    def redeem(self, room_id: str, ticket: str) -> tuple[str, Credential | None]:
        """The token hash a room's ticket stands for, and the account credential it was
        issued to, if any (401 invalid_ticket: unknown, used, expired, or issued to an
        account credential that ended since)."""
        return self.tickets.redeem(RoomStore.hub_id(room_id), ticket)

    def still_admitted(
        self, room: StoredRoom, token_hash: str | None, credential: Credential | None
    ) -> str | None:
        """Why a stream of ``room`` opened as an account (not as one of the room's members)
        must end now, None if it may go on: ``revoked`` once its credential ended,
        ``same_deal_elsewhere`` once the account sat down to the game's deal at a table
        still going on (the room would show it its own cards). A member's token, a
        seat's and none stand as they were admitted."""
        if credential is None or (token_hash is not None and self._has_member(room, token_hash)):
            return None
        if not self.tickets.accounts.alive(credential):
            return "revoked"
        record = self.reads.load(room.state["game"])
        seat = None if token_hash is None else seat_by_hash_or_none(record, token_hash)
        if seat is not None:
            return None
        try:
            self.viewers.cards(record, None, credential.account_id)
        except Refused as exc:
            return exc.code
        return None

    def load(self, room_id: str) -> StoredRoom:
        room = self.rooms.load(room_id)
        if room is None:
            raise room_not_found(room_id)
        return room

    def load_at(self, room_id: str, version: int) -> StoredRoom | None:
        """The room at ``version`` or later (a version a change announced), None if gone:
        a change that wakes 200 followers' streams reads the room once per process."""
        key = ("room", room_id)
        cached = self.reads.records.get(key)
        if cached is not None and cached.version >= version:
            return cached

        def fetch() -> StoredRoom | None:
            room = self.rooms.load(room_id)
            if room is not None:
                self.reads.records.put(key, room)
            return room

        return self.reads.loads.do(("room", room_id, version), fetch)

    def version(self, room_id: str) -> int | None:
        return self.rooms.version(room_id)

    def rendered(self, room: StoredRoom, audience: Audience) -> bytes:
        """The room's state as JSON for ``audience``, built once per version in this
        process and shared by every follower's stream."""
        key = ("room", room.id, room.version, audience)
        cached = self.reads.views.get(key)
        if cached is not None:
            return cached

        def build() -> bytes:
            body = orjson.dumps(self.render(room, audience))
            self.reads.views.put(key, body)
            return body

        return self.reads.loads.do(key, build)

    def render(self, room: StoredRoom, audience: Audience) -> dict[str, Any]:
        record = self.reads.load(room.state["game"])  # gone with its game: 404
        finished = self.reads.finished_game(record)
        position = self.reads.replay(record, room.state["turn"])
        state = {
            **room.state,
            "id": room.id,
            "version": room.version,
            "followers": room.members - 1,
        }
        return room_view(state, record, finished, audience, position)

    def audience(self, room: StoredRoom, token: str | None) -> Audience:
        """Who the bearer of ``token`` is in ``room``: its leader, or one of the rest."""
        return self.audience_of(room, None if token is None else hash_token(token))

    def audience_of(self, room: StoredRoom, token_hash: str | None) -> Audience:
        """:meth:`audience` for a token's hash (what a stream's ticket stands for)."""
        if token_hash is not None and self._leads(room, token_hash):
            return Audience.LEADER
        return Audience.FOLLOWERS

    def wait(self, room_id: str, version: int, seconds: float) -> int | None:
        """Hold until the room is past ``version`` (see :meth:`Reads.wait_for_change`)."""
        return self.reads.wait_for_change(RoomStore.hub_id(room_id), version, seconds)

    # -- the leader's changes ---------------------------------------------------------

    def set_position(
        self, room_id: str, token: str | None, turn: int, highlight: list[int]
    ) -> StoredRoom:
        """Move the room to real ``turn`` with ``highlight`` (card orders) pointed at;
        inside a hypothetical only the highlight moves (the turn is the branch's)."""

        def change(room: StoredRoom, record: Record) -> dict[str, Any]:
            finished = self.reads.finished_game(record)
            check_turn(finished, turn)
            moved = room.state["hypo"] is None
            return {
                **room.state,
                "turn": turn if moved else room.state["turn"],
                "highlight": sorted(set(highlight)),
            }

        return self._change(room_id, token, change)

    def pass_lead(self, room_id: str, token: str | None, member_id: str) -> StoredRoom:
        """Give the lead to a member (a follower who joined)."""

        def change(room: StoredRoom, record: Record) -> dict[str, Any]:
            member = self.rooms.member(room_id, member_id)
            if member is None:
                raise NotFound("no_such_follower", "No follower of this room has that id.")
            return {**room.state, "leader": {"id": member_id, "name": member["name"]}}

        return self._change(room_id, token, change)

    def branch(self, room_id: str, token: str | None, turn: int, reveal: bool) -> StoredRoom:
        """Start a hypothetical at real ``turn`` (replacing any)."""

        def change(room: StoredRoom, record: Record) -> dict[str, Any]:
            check_turn(self.reads.finished_game(record), turn)
            hypo = Branch(turn, reveal, []).to_state()
            return {**room.state, "turn": turn, "highlight": [], "hypo": hypo}

        return self._change(room_id, token, change)

    def move(self, room_id: str, token: str | None, body: dict[str, Any]) -> StoredRoom:
        """A move in the hypothetical, for the seat to move, if the engine allows it."""

        def change(room: StoredRoom, record: Record) -> dict[str, Any]:
            branch = _branch_of(room)
            limit = int(self.config["HANABI_REPLAY_MOVES"])
            finished = self.reads.finished_game(record)
            seat, action = apply_move(record, finished, branch, body, limit)
            branch.moves.append((seat, action))
            return {**room.state, "highlight": [], "hypo": branch.to_state()}

        return self._change(room_id, token, change)

    def back(self, room_id: str, token: str | None) -> StoredRoom:
        """Leave the hypothetical: back to the real game at the turn it branched from."""

        def change(room: StoredRoom, record: Record) -> dict[str, Any]:
            _branch_of(room)
            return {**room.state, "highlight": [], "hypo": None}

        return self._change(room_id, token, change)

    def _change(
        self,
        room_id: str,
        token: str | None,
        change: Callable[[StoredRoom, Record], dict[str, Any]],
    ) -> StoredRoom:
        """Read, check the leader, decide, compare-and-set; again on a lost race."""
        if token is None:
            raise Unauthorized("auth_required", "Only the room's leader may do that.")
        for _ in range(TRIES):
            room = self.load(room_id)
            if not self._is_leader(room, token):
                raise Forbidden("not_leader", "Only the room's leader may do that.")
            record = self.reads.load(room.state["game"])
            state = change(room, record)
            written = self.rooms.commit(room_id, room.version, state)
            if written == RoomWrite.GONE:
                raise room_not_found(room_id)
            if written != RoomWrite.RACED:
                # exactly as committed: a join in between would have changed the version
                return StoredRoom(room_id, written, state, room.members)
        raise Unavailable("busy", "The room is changing fast; try again.", retry_after=1)

    def _is_leader(self, room: StoredRoom, token: str) -> bool:
        return self._leads(room, hash_token(token))

    def _leads(self, room: StoredRoom, token_hash: str) -> bool:
        member = self.rooms.member(room.id, room.state["leader"]["id"])
        return member is not None and hmac.compare_digest(member["token"], token_hash)

    def _has_member(self, room: StoredRoom, hashed: str) -> bool:
        found = False
        for member in self.rooms.member_hashes(room.id):
            found = hmac.compare_digest(member, hashed) or found
        return found


def seat_by_hash_or_none(record: Record, token_hash: str) -> int | None:
    try:
        return seat_by_hash(record.players, token_hash)
    except Forbidden:
        return None


def _branch_of(room: StoredRoom) -> Branch:
    branch = Branch.from_state(room.state["hypo"])
    if branch is None:
        raise Conflict("no_hypothetical", "The room is showing the real game: branch first.")
    return branch


def _member_id() -> str:
    return "m" + secrets.token_hex(5)
