"""A :class:`Table`: the client bound to one game and one seat's token, so that calls
need not repeat them (``Client.table(game_id, token)`` makes one)."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from .games import GameCalls
from .results import ActResult, BotSeat, Event, EventPage, Poll, View
from .sse import StreamEvent


class Table:
    """One seat's (or a spectator's) handle on one game: the client, game id and token."""

    def __init__(self, client: GameCalls, game_id: str, token: str | None = None) -> None:
        self.client = client
        self.game_id = game_id
        self.token = token

    def game(self) -> View:
        return self.client.game(self.game_id, token=self.token)

    def poll(self, etag: str | None = None, *, wait: float | None = None) -> Poll:
        return self.client.poll(self.game_id, etag, wait=wait, token=self.token)

    def watch(self, *, wait: float = 25) -> Iterator[View]:
        return self.client.watch(self.game_id, wait=wait, token=self.token)

    def add_bot(self, strategy: str | None = None, name: str | None = None) -> BotSeat:
        return self.client.add_bot(self.game_id, strategy, name, token=self.token)

    def start(self, *, watch: bool = False) -> View:
        return self.client.start(self.game_id, watch=watch, token=self.token)

    def leave(self, seat: int) -> None:
        self.client.leave(self.game_id, seat, token=self.token)

    def act(self, turn: int, action: Mapping[str, Any]) -> ActResult:
        return self.client.act(self.game_id, turn, action, token=self.token)

    def play(self, turn: int, card: int, *, firework: str | None = None) -> ActResult:
        return self.client.play(self.game_id, turn, card, firework=firework, token=self.token)

    def discard(self, turn: int, card: int) -> ActResult:
        return self.client.discard(self.game_id, turn, card, token=self.token)

    def clue(
        self, turn: int, target: int, *, color: str | None = None, rank: int | None = None
    ) -> ActResult:
        return self.client.clue(
            self.game_id, turn, target, color=color, rank=rank, token=self.token
        )

    def stream(self, *, after: int | None = None, resume: bool = True) -> Iterator[StreamEvent]:
        return self.client.stream(self.game_id, after=after, token=self.token, resume=resume)

    def stream_ticket(self) -> dict[str, Any]:
        return self.client.stream_ticket(self.game_id, token=self.token)

    def events(self, after: int | None = None) -> list[Event]:
        return self.client.events(self.game_id, after, token=self.token)

    def event_page(self, after: int | None = None) -> EventPage:
        return self.client.event_page(self.game_id, after, token=self.token)

    def all_events(self, after: int | None = None) -> list[Event]:
        return self.client.all_events(self.game_id, after, token=self.token)

    def chat(self, text: str) -> dict[str, Any]:
        return self.client.chat(self.game_id, text, token=self.token)

    def vote(self, end: bool = True) -> View:
        return self.client.vote(self.game_id, end, token=self.token)

    def terminate(self) -> View:
        return self.client.terminate(self.game_id, token=self.token)
