"""A seat at a table: whether a saved seat still holds, and sitting at a table (the table
session that ``create``, ``join`` and ``watch`` open, as a seat or as a spectator)."""

from __future__ import annotations

import argparse
import shlex

from rich.console import Console

from ..api import ApiError, Client
from ..pacing import DEFAULT_PACE
from ..session import TableSession
from ..tokens import SavedSeat, TokenStore
from .common import server_flag


def still_seated(client: Client, store: TokenStore, saved: SavedSeat | None) -> SavedSeat | None:
    """The saved seat if its token still holds a seat (its number brought up to date);
    else None, and the useless token is forgotten."""
    if saved is None:
        return None
    try:
        view = client.game(saved.game_id, token=saved.token)
    except ApiError as exc:
        if exc.status in (401, 403, 404):
            store.forget(saved)  # expired or revoked: the saved token is useless
            if exc.status == 404:
                raise
            return None
        raise
    if view.get("you") is None:
        store.forget(saved)
        return None
    if view["you"] != saved.seat:  # seats move up when someone leaves a lobby
        saved = SavedSeat(saved.server, saved.game_id, view["you"], saved.name, saved.token)
        store.save(saved)
    return saved


def join_hint(client: Client, game_id: str) -> str:
    """How friends take a seat at ``game_id``."""
    return f"hanabi-client join {game_id} --name NAME{server_flag(client)}"


def sit(
    client: Client,
    console: Console,
    args: argparse.Namespace,
    game_id: str,
    token: str | None,
    *,
    store_seat: SavedSeat | None,
) -> int:
    """Sit at the table until the game ends or the user leaves; the exit status."""

    def forget() -> None:
        seat = store_seat or TokenStore().find(client.server, game_id)
        if seat is not None:
            TokenStore().forget(seat)

    def resume_command() -> str:
        """How to come back; with --name when this config holds several seats there
        (``join`` without it cannot choose), asked when needed since seats come and go."""
        command = f"hanabi-client join {game_id}"
        seats = TokenStore().seats(client.server, game_id)
        mine = store_seat or next((s for s in seats if s.token == token), None)
        if mine is not None and len(seats) > 1:
            command += f" --name {shlex.quote(mine.name)}"
        return command + server_flag(client)

    session = TableSession(
        client,
        game_id,
        token,
        console=console,
        json_mode=args.json,
        clear=not args.no_clear,
        on_leave=forget,
        join_hint=join_hint(client, game_id),
        resume_command=resume_command,
        pace=getattr(args, "pace", DEFAULT_PACE),
        shadow=getattr(args, "shadow_seat", None),
    )
    return session.run()
