"""Account calls of the client library (one half of :class:`hanabi.client.api.Client`),
and the session token saved by ``hanabi-client login``.

A session token or an API key goes where a seat token goes (``Client(url, token=...)``):
creating or joining a game with it binds the seat to the account, and it then acts for
that seat too.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from .tokens import _slug, config_dir, write_private
from .transport import Transport


class AccountCalls:
    """Accounts, sessions, API keys, profiles and the rating model.

    One part of :class:`~hanabi.client.api.Client`: it sends its requests through the
    ``transport`` it holds (the client itself), like :class:`~.replays.RoomCalls`.
    """

    def __init__(self, transport: Transport) -> None:
        self.transport = transport

    def register(self, username: str, password: str, *, bot: bool = False) -> dict[str, Any]:
        """Create an account (then :meth:`login`)."""
        body = {"username": username, "password": password, "bot": bot}
        return self.transport._request("POST", "/accounts", json=body, idempotent=False).json()

    def login(self, username: str, password: str, *, use: bool = True) -> dict[str, Any]:
        """A new session ``{"token", "expires"}``; ``use``: this client sends it from now."""
        body = {"username": username, "password": password}
        data = self.transport._request("POST", "/sessions", json=body, idempotent=False).json()
        if use:
            self.transport.token = data["token"]
        return data

    def logout(self, *, token: str | None = None) -> None:
        """End this session (its tickets and event streams end with it)."""
        self.transport._request("DELETE", "/sessions/current", token=token)
        if token is None or token == self.transport.token:
            self.transport.token = None

    def logout_everywhere(self, *, token: str | None = None) -> None:
        """End every session of the account, this one included (API keys stay)."""
        self.transport._request("DELETE", "/accounts/me/sessions", token=token)
        if token is None or token == self.transport.token:
            self.transport.token = None

    def me(self, *, token: str | None = None) -> dict[str, Any]:
        return self.transport._request("GET", "/accounts/me", token=token).json()

    def change_password(self, old: str, new: str, *, keep_api_keys: bool = False) -> None:
        """Every other session ends, and every API key unless ``keep_api_keys``."""
        body = {"old_password": old, "password": new, "keep_api_keys": keep_api_keys}
        self.transport._request("PATCH", "/accounts/me", json=body, idempotent=False)

    def delete_account(self, password: str) -> None:
        self.transport._request(
            "DELETE", "/accounts/me", json={"password": password}, idempotent=False
        )
        self.transport.token = None

    def create_api_key(self, name: str) -> dict[str, Any]:
        """A new API key ``{"id", "name", "created", "key"}``: the secret is shown once."""
        return self.transport._request(
            "POST", "/accounts/me/keys", json={"name": name}, idempotent=False
        ).json()

    def api_keys(self) -> list[dict[str, Any]]:
        return self.transport._request("GET", "/accounts/me/keys").json()["keys"]

    def delete_api_key(self, key_id: str) -> None:
        self.transport._request("DELETE", f"/accounts/me/keys/{key_id}")

    def profile(self, username: str) -> dict[str, Any]:
        """A player's public profile: rating, rated games and statistics per variant."""
        return self.transport._request("GET", f"/players/{username}").json()

    def history(
        self, username: str, *, limit: int | None = None, cursor: str | None = None
    ) -> dict[str, Any]:
        """A page of a player's finished games, newest first: ``{"games", "next_cursor"}``."""
        params = {"limit": limit, "cursor": cursor}
        return self.transport._request("GET", f"/players/{username}/games", params=params).json()

    def rating_model(self) -> dict[str, Any]:
        return self.transport._request("GET", "/rating-model").json()

    def seed(
        self, name: str, *, limit: int | None = None, cursor: str | None = None
    ) -> dict[str, Any]:
        """A page of every team's result on seed ``name`` (docs/seeds.md: for an account
        that finished a game on it): ``{"seed", ..., "results", "next_cursor"}``."""
        params = {"limit": limit, "cursor": cursor}
        return self.transport._request("GET", f"/seeds/{name}", params=params).json()

    def leaderboard(
        self,
        *,
        variant: str | None = None,
        players: int | None = None,
        kind: str | None = None,
        limit: int | None = None,
        cursor: str | None = None,
    ) -> dict[str, Any]:
        """A page of a variant and table size's best games (``kind``: score or turns)."""
        params = {"variant": variant, "players": players, "kind": kind, "limit": limit}
        return self.transport._request(
            "GET", "/leaderboards", params={**params, "cursor": cursor}
        ).json()

    def player_stats(self, username: str) -> dict[str, Any]:
        """A player's games, max scores and average per variant (the games that count)."""
        return self.transport._request("GET", f"/players/{username}/stats").json()

    # -- turn-based play (docs/turns.md) -----------------------------------------------

    def my_turns(self, *, limit: int | None = None) -> dict[str, Any]:
        """The games where it is the account's move, most urgent first: ``{"games", "total"}``."""
        return self.transport._request("GET", "/accounts/me/turns", params={"limit": limit}).json()

    def set_webhook(self, url: str) -> dict[str, Any]:
        """Set the account's webhook: ``{"url", "secret", "created"}`` (the secret shown once)."""
        return self.transport._request("PUT", "/accounts/me/webhook", json={"url": url}).json()

    def webhook(self) -> dict[str, Any]:
        return self.transport._request("GET", "/accounts/me/webhook").json()

    def delete_webhook(self) -> None:
        self.transport._request("DELETE", "/accounts/me/webhook")

    def webhook_deliveries(self, *, limit: int | None = None) -> list[dict[str, Any]]:
        params = {"limit": limit}
        return self.transport._request(
            "GET", "/accounts/me/webhook/deliveries", params=params
        ).json()["deliveries"]


@dataclass(frozen=True)
class SavedSession:
    server: str
    username: str
    token: str
    expires: str


class SessionStore:
    """The session token of ``hanabi-client login``, one file per server, mode 0600:
    ``<config>/hanabi-client/sessions/<server>.json``."""

    def __init__(self, root: Path | None = None) -> None:
        self.root = (root or config_dir()) / "sessions"

    def path(self, server: str) -> Path:
        return self.root / (_slug(server) + ".json")

    def save(self, saved: SavedSession) -> Path:
        self.root.mkdir(parents=True, exist_ok=True, mode=0o700)
        path = self.path(saved.server)
        write_private(path, asdict(saved))
        return path

    def load(self, server: str) -> SavedSession | None:
        try:
            return SavedSession(**json.loads(self.path(server).read_text(encoding="utf-8")))
        except (OSError, ValueError, TypeError):
            return None

    def forget(self, server: str) -> None:
        self.path(server).unlink(missing_ok=True)
