"""Shared replay rooms through the public API (``/api/v1/replays``): make a room from a
finished game, read and follow it, join it, and, holding the leader's token, move it.

>>> rooms = Rooms(Client("http://127.0.0.1:8000", token=session))   # doctest: +SKIP
>>> made = rooms.create("aBcDeF123456")                              # doctest: +SKIP
>>> rooms.position(made["id"], made["token"], turn=3, highlight=[7])  # doctest: +SKIP
>>> for state in rooms.follow(made["id"]): print(state["turn"])     # doctest: +SKIP

Room tokens are saved per server and room in the user's config directory
(:class:`RoomTokens`), like seat tokens, so ``lead`` commands find them.
"""

from __future__ import annotations

import json
from collections.abc import Generator, Iterator
from pathlib import Path
from typing import Any

from .errors import _problem
from .sse import STREAM_FIRST, STREAM_QUIET, parse_sse, read_timeout
from .tokens import _slug, config_dir, write_private
from .transport import Transport


class Rooms:
    """The room calls of one server (any :class:`~.transport.Transport`, e.g. a Client)."""

    def __init__(self, transport: Transport) -> None:
        self.t = transport

    def create(self, game_id: str, *, token: str | None = None) -> dict[str, Any]:
        """A room on a finished game: ``{"id", "member", "token", "room"}``; ``token``:
        an account credential or a seat token of that game (default: the client's)."""
        response = self.t._request(
            "POST", "/replays", json={"game_id": game_id}, token=token, idempotent=False
        )
        return response.json()

    def room(self, room_id: str, *, token: str | None = None) -> dict[str, Any]:
        return self.t._request("GET", f"/replays/{room_id}", token=token or "").json()

    def join(
        self, room_id: str, name: str | None = None, *, token: str | None = None
    ) -> dict[str, Any]:
        """Join as a follower; ``token``: an account's credential (the room then shows its
        username; a seed's room needs one that may see the seed), else none."""
        body = {"name": name} if name else {}
        return self.t._request(
            "POST", f"/replays/{room_id}/followers", json=body, token=token or "", idempotent=False
        ).json()

    def stream_ticket(self, room_id: str, token: str) -> dict[str, Any]:
        """A one-time ticket (``{"ticket", "expires"}``) that opens the room's stream as
        ``token``'s bearer (``?ticket=``, for a client that cannot send a header)."""
        return self.t._request(
            "POST", f"/replays/{room_id}/tickets", token=token, idempotent=False
        ).json()

    def position(
        self, room_id: str, token: str, *, turn: int, highlight: list[int] | None = None
    ) -> dict[str, Any]:
        body = {"turn": turn, "highlight": highlight or []}
        return self._lead("PUT", room_id, "position", token, body)

    def pass_lead(self, room_id: str, token: str, follower: str) -> dict[str, Any]:
        return self._lead("PUT", room_id, "leader", token, {"follower": follower})

    def branch(self, room_id: str, token: str, *, turn: int, reveal: bool = True) -> dict[str, Any]:
        body = {"turn": turn, "reveal_draws": reveal}
        return self._lead("POST", room_id, "hypothetical", token, body)

    def move(self, room_id: str, token: str, action: dict[str, Any]) -> dict[str, Any]:
        """A move of the hypothetical (``action`` as a game's, with its ``turn``)."""
        return self._lead("POST", room_id, "hypothetical/actions", token, action)

    def back(self, room_id: str, token: str) -> dict[str, Any]:
        return self._lead("DELETE", room_id, "hypothetical", token, None)

    def _lead(
        self, method: str, room_id: str, path: str, token: str, body: dict[str, Any] | None
    ) -> dict[str, Any]:
        # A position or a move sent twice lands the same place (a move's turn guards it).
        response = self.t._request(
            method, f"/replays/{room_id}/{path}", json=body, token=token, idempotent=True
        )
        return response.json()

    def follow(self, room_id: str, *, token: str | None = None) -> Iterator[dict[str, Any]]:
        """The room's state now, then after every change, until the room ends; a stream
        the server closes (its time is up, a restart) is opened again."""
        while True:
            ended = yield from self._follow_once(room_id, token)
            if ended:
                return

    def _follow_once(
        self, room_id: str, token: str | None
    ) -> Generator[dict[str, Any], None, bool]:
        """One connection of :meth:`follow`: True once the server said the room ended."""
        headers = {"Accept": "text/event-stream", **self.t._auth_header(token or "")}
        response = self.t.session.get(
            self.t.url(f"/replays/{room_id}/stream"),
            headers=headers,
            stream=True,
            timeout=(min(5.0, self.t.timeout), STREAM_FIRST),
        )
        with response:
            if response.status_code >= 400:
                raise _problem(response)
            lines = response.iter_lines(chunk_size=None, decode_unicode=False)
            for number, item in enumerate(parse_sse(lines)):
                if number == 0:
                    read_timeout(response, STREAM_QUIET)
                if item.type == "end":
                    return True
                if item.type == "room":
                    yield item.data
        return False


class RoomTokens:
    """Member tokens of rooms, saved per server and room, readable by the user only:
    ``<config>/hanabi-client/rooms/<server>/<room id>.json``."""

    def __init__(self, root: Path | None = None) -> None:
        self.root = (root or config_dir()) / "rooms"

    def path(self, server: str, room_id: str) -> Path:
        return self.root / _slug(server) / f"{_slug(room_id)}.json"

    def save(self, server: str, room_id: str, member: str, token: str) -> Path:
        path = self.path(server, room_id)
        path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        write_private(path, {"server": server, "room": room_id, "member": member, "token": token})
        return path

    def load(self, server: str, room_id: str) -> dict[str, Any] | None:
        path = self.path(server, room_id)
        if not path.exists():
            return None
        return json.loads(path.read_text(encoding="utf-8"))
