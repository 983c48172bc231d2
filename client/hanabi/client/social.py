"""Chat and friends calls of the client library (a part of :class:`hanabi.client.api.Client`):
the lobby's chat and a replay room's, mutes and reports, follows (docs/chat.md). Each needs
an account's credential, but reading a room's chat."""

from __future__ import annotations

from typing import Any
from urllib.parse import quote

from .transport import Transport

#: Seconds a read may take past its server-side wait before the client gives up.
SLACK = 10.0


def _chat_path(room: str | None) -> str:
    return "/chat/lobby" if room is None else f"/replays/{quote(room, safe='')}/chat"


class SocialCalls:
    """The lobby's and rooms' chat, mutes and follows, sent through ``transport``."""

    def __init__(self, transport: Transport) -> None:
        self.transport = transport

    def read_chat(
        self, *, after: int = 0, wait: float = 0, room: str | None = None
    ) -> dict[str, Any]:
        """The lines after ``after`` (``{"lines", "last"}``); ``wait``: hold up to that many
        seconds for a first one. ``room``: a replay room's chat, else the lobby's."""
        params = {"after": after, "wait": wait or None}
        return self.transport._request(
            "GET", _chat_path(room), params=params, timeout=wait + SLACK
        ).json()

    def say_in_chat(self, text: str, *, room: str | None = None) -> dict[str, Any]:
        """Say ``text``; the line as shown (with its ``seq`` and ``mentions``)."""
        return self.transport._request(
            "POST", _chat_path(room), json={"text": text}, idempotent=False
        ).json()["line"]

    def report_line(self, seq: int, *, room: str | None = None) -> None:
        """Report line ``seq`` to the operators (enough reports hide it from everyone)."""
        self.transport._request("POST", _chat_path(room) + "/reports", json={"seq": seq})

    def mutes(self) -> list[str]:
        return self.transport._request("GET", "/accounts/me/mutes").json()["mutes"]

    def mute(self, username: str) -> None:
        self.transport._request("PUT", f"/accounts/me/mutes/{quote(username, safe='')}")

    def unmute(self, username: str) -> None:
        self.transport._request("DELETE", f"/accounts/me/mutes/{quote(username, safe='')}")

    def follows(self) -> dict[str, Any]:
        """``{"follows": [names], "limit"}``."""
        return self.transport._request("GET", "/accounts/me/follows").json()

    def follow(self, username: str) -> None:
        self.transport._request("PUT", f"/accounts/me/follows/{quote(username, safe='')}")

    def unfollow(self, username: str) -> None:
        self.transport._request("DELETE", f"/accounts/me/follows/{quote(username, safe='')}")
