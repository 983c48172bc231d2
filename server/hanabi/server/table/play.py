"""Play operations: actions (and their safe retries), chat. Ending a game early is a vote
(:mod:`~hanabi.server.table.votes`)."""

from __future__ import annotations

from typing import Any

from hanabi.game import Action, IllegalAction

from ..storage.record import GameStatus, Record
from ..storage.store import Store
from .reads import Reads
from .refusals import Conflict, Invalid, from_engine
from .seats import require_seat
from .writes import Outcome, WriteLoop


class Play:
    """Moves (and their safe retries) and chat, for the seat that asks."""

    def __init__(
        self, store: Store, writes: WriteLoop, reads: Reads, config: dict[str, Any]
    ) -> None:
        self.store = store
        self.writes = writes
        self.reads = reads
        self.config = config

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
            raise from_engine(Invalid, exc) from None
        turn = body["turn"]

        def change(record: Record) -> Outcome:
            seat = require_seat(record, token) if as_seat is None else as_seat
            if record.status is GameStatus.LOBBY:
                raise Conflict("game_not_started", "The game has not started yet.")
            if turn != record.turn:
                original = self.original(record, turn) if turn < record.turn else None
                if original is not None and original[0] == seat and original[1] == action:
                    return Outcome(record, seat, original[2], original[3], replayed=True)
                raise Conflict(
                    "stale_turn", "It is turn {now}, not turn {turn}.", now=record.turn, turn=turn
                )
            if record.status is GameStatus.FINISHED:
                raise Conflict("game_over", "The game is over.")
            if record.paused:
                raise Conflict(
                    "game_paused", "The game is paused: vote to go on before anyone moves."
                )
            game = self.reads.live_game(record)
            try:
                events = game.apply(action, seat)
            except IllegalAction as exc:
                raise from_engine(Conflict, exc) from None
            return self.writes.advance(record, game, seat, action, events)

        return self.writes.write(game_id, change, by_bot=as_seat is not None)

    def original(
        self, record: Record, turn: int
    ) -> tuple[int, Action, list[dict[str, Any]], int] | None:
        """(seat, action, events, first seq) of a turn already taken."""
        if record.status is GameStatus.FINISHED:
            rebuilt = self.reads.finished_game(record)
            first, count = rebuilt.ranges[turn]
            action = rebuilt.game.actions[turn]
            return rebuilt.seats[turn], action, rebuilt.events[first : first + count], first + 1
        entry = self.store.action_entry(record.id, turn)
        if entry is None:
            return None
        first, last = entry.first_event, entry.first_event + entry.event_count - 1
        events = self.store.events(record.id, first, last)
        return entry.seat, Action.from_dict(entry.action), events, first + 1

    def chat(self, game_id: str, token: str | None, text: str) -> Outcome:
        """Add a chat line. A game keeps at most ``HANABI_MAX_CHAT`` lines and
        ``HANABI_MAX_CHAT_BYTES`` bytes of their text: counted in its state, so the count
        and the line are committed together (409 ``chat_full`` past either)."""
        text = text.strip()
        size = len(text.encode())

        def change(record: Record) -> Outcome:
            seat = require_seat(record, token)
            if record.status is GameStatus.FINISHED:
                raise Conflict("game_finished", "The game is over; its chat is closed.")
            if record.chat_lines >= self.config["HANABI_MAX_CHAT"]:
                raise Conflict("chat_full", "This game has all the chat lines it may keep.")
            cap = self.config["HANABI_MAX_CHAT_BYTES"]
            if record.chat_bytes + size > cap:
                raise Conflict(
                    "chat_full",
                    "This game's chat holds all the text it may keep ({cap} bytes).",
                    cap=cap,
                )
            name = record.players[seat].name
            event = self.writes.note(
                record, {"type": "chat", "seat": seat, "name": name, "text": text}
            )
            return Outcome(record, seat, [event], first_seq=record.event_count)

        return self.writes.write(game_id, change)
