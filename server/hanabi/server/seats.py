"""Who may ask for what: tokens, game ids, seats and the rules of seating a table.

A seat's bearer token is shown once; the store keeps only its hash (:func:`hash_token`),
compared in constant time. These are plain functions of a :class:`~.store.Record`, so the
lobby, play and read operations share one copy of each rule.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import secrets
import string

from .problems import ApiError
from .store import Player, Record

#: Game ids: letters and digits only (never a leading "-" that a command line would take
#: for an option), 12 of them: 62**12 > 2**71.
ID_ALPHABET = string.ascii_letters + string.digits
ID_LENGTH = 12


def hash_token(token: str) -> str:
    """What the store keeps of a token: 144 bits of its SHA-256, base64url."""
    digest = hashlib.sha256(token.encode()).digest()[:18]
    return base64.urlsafe_b64encode(digest).decode()


def new_token() -> str:
    return secrets.token_urlsafe(24)  # 192 random bits


def new_game_id() -> str:
    return "".join(secrets.choice(ID_ALPHABET) for _ in range(ID_LENGTH))


def not_found(game_id: str) -> ApiError:
    return ApiError(404, "game_not_found", f"There is no game {game_id!r} (or it expired).")


def bot_due(record: Record) -> bool:
    """Whether a bot seat is to move (seats take turns in order from seat 0)."""
    if record.status != "playing" or not record.players:
        return False
    return record.players[record.turn % len(record.players)].bot is not None


def all_bots(record: Record) -> bool:
    """A table of bots only: nobody there has cards to hide, so spectators see them all."""
    return bool(record.players) and all(p.bot is not None for p in record.players)


def first_human(players: list[Player]) -> int:
    return next((i for i, p in enumerate(players) if p.bot is None), 0)


def seat_of(players: list[Player], token: str | None) -> int | None:
    """The seat ``token`` holds (None without a token); 403 if it holds none here."""
    if token is None:
        return None
    hashed = hash_token(token)
    found = None
    for seat, player in enumerate(players):
        if player.token is not None and hmac.compare_digest(player.token, hashed):
            found = seat
    if found is None:
        raise ApiError(403, "not_a_player", "This token holds no seat in this game.")
    return found


def require_seat(record: Record, token: str | None) -> int:
    if token is None:
        raise ApiError(401, "auth_required", "Send 'Authorization: Bearer <token>'.")
    seat = seat_of(record.players, token)
    assert seat is not None
    return seat


def require_host(record: Record, token: str | None) -> int:
    seat = require_seat(record, token)
    if seat != record.host:
        raise ApiError(403, "not_host", "Only the host may do that.")
    return seat


def check_name(name: str) -> str:
    """Names are compared and shown without surrounding spaces (the schema checked the rest)."""
    return name.strip()


def seatable(record: Record, name: str, max_events: int) -> None:
    """Refuse a new seat at a started or full table, or under a name already there.

    A lobby keeps at most ``max_events`` events besides chat: a new seat is refused
    (lobby_full) unless, after it, every seated player could still leave and the game
    start, so comings and goings cannot grow a lobby without end.
    """
    if record.status != "lobby":
        raise ApiError(409, "game_started", "The game has already started.")
    if len(record.players) >= record.max_players:
        raise ApiError(409, "game_full", "Every seat at this table is taken.")
    lobby_events = record.events - record.chats
    if lobby_events + 1 + (len(record.players) + 1) + 1 > max_events:
        raise ApiError(
            409,
            "lobby_full",
            "This table has seen too many comings and goings; open a new one.",
        )
    if any(p.name.casefold() == name.casefold() for p in record.players):
        raise ApiError(409, "name_taken", f"Someone here is already called {name!r}.")


def bot_name(record: Record, strategy: str, seat: int) -> str:
    """``<strategy>-bot-<seat>``, or the next number free at this table."""
    taken = {p.name.casefold() for p in record.players}
    for n in range(seat, seat + 100):
        name = f"{strategy}-bot-{n}"
        if name.casefold() not in taken:
            return name
    return f"{strategy}-bot-{secrets.token_hex(3)}"  # pragma: no cover
