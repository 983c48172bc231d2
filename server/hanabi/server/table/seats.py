"""Who may ask for what: tokens, game ids, seats and the rules of seating a table.

A seat's bearer token is shown once; the store keeps only its hash (:func:`hash_token`),
compared in constant time. These are plain functions of a
:class:`~hanabi.server.storage.record.Record`, so the lobby, play and read operations share
one copy of each rule.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import secrets
import unicodedata

from ..storage.record import GameStatus, Player, Record, SeatKind
from .accounts import PRINCIPAL_PREFIX
from .refusals import Conflict, Forbidden, Invalid, NotFound, Refused, Unauthorized

#: The longest name, checked again after NFKC normalisation (the schema checks the raw one).
NAME_MAX = 24

#: Unicode categories a name may not hold: controls, format characters (bidi overrides,
#: zero-width joiners and spaces...), surrogates, line and paragraph separators. They
#: make names that look alike, or that reorder or hide what a terminal or page shows.
REFUSED_CATEGORIES = frozenset({"Cc", "Cf", "Cs", "Zl", "Zp"})


def hash_token(token: str) -> str:
    """What the store keeps of a token: 144 bits of its SHA-256, base64url."""
    digest = hashlib.sha256(token.encode()).digest()[:18]
    return base64.urlsafe_b64encode(digest).decode()


def new_token() -> str:
    return secrets.token_urlsafe(24)  # 192 random bits


def no_name() -> Refused:
    """A seat needs a player: an account's credential, or a guest's name."""
    return Unauthorized("name_required", "Send a name to play as a guest, or log in.")


def not_found(game_id: str) -> Refused:
    return NotFound(
        "game_not_found", "There is no game {game} (or it expired).", game=repr(game_id)
    )


def bot_due(record: Record) -> bool:
    """Whether a bot seat is to move (seats take turns in order from seat 0)."""
    if record.status is not GameStatus.PLAYING or not record.players or record.paused:
        return False  # a paused table (pause.py): nobody moves
    return record.players[record.turn % len(record.players)].kind is SeatKind.BOT


def all_bots(record: Record) -> bool:
    """A table of bots only: nobody there has cards to hide, so spectators see them all."""
    return bool(record.players) and all(p.kind is SeatKind.BOT for p in record.players)


def first_human(players: list[Player]) -> int:
    return next((i for i, p in enumerate(players) if p.kind is SeatKind.PERSON), 0)


def seat_of(players: list[Player], token: str | None, spectate: bool = False) -> int | None:
    """The seat ``token`` holds (None without a token); 403 if it holds none here, or
    None with ``spectate`` (an account's credential: the account watches)."""
    if token is None:
        return None
    try:
        return seat_by_hash(players, hash_token(token))
    except Forbidden:
        if spectate:
            return None
        raise


def seat_by_hash(players: list[Player], hashed: str) -> int:
    """The seat whose token hashes to ``hashed`` (403 if none), compared in constant time
    (a stream ticket stands for a token's hash). A seat bound to an account also answers to
    the account's principal (see :data:`hanabi.server.table.accounts.PRINCIPAL_PREFIX`)."""
    found = None
    for seat, player in enumerate(players):
        if (player.token_hash is not None and hmac.compare_digest(player.token_hash, hashed)) or (
            player.account is not None
            and hmac.compare_digest(hash_token(PRINCIPAL_PREFIX + player.account), hashed)
        ):
            found = seat
    if found is None:
        raise Forbidden("not_a_player", "You hold no seat in this game.")
    return found


def require_seat(record: Record, token: str | None) -> int:
    if token is None:
        raise Unauthorized(
            "auth_required",
            "Only this game's players may do that: join it, or log in as one of them.",
        )
    seat = seat_of(record.players, token)
    assert seat is not None
    return seat


def require_host(record: Record, token: str | None) -> int:
    seat = require_seat(record, token)
    if seat != record.host:
        raise Forbidden("not_host", "Only the host may do that.")
    return seat


def check_name(name: str) -> str:
    """A name as shown: NFKC-normalised (fullwidth and other compatibility forms become
    plain letters) and without surrounding spaces; 400 invalid_name for one that holds
    control or format characters, is blank, or is too long once normalised."""
    name = unicodedata.normalize("NFKC", name).strip()
    refused = sorted(
        {f"U+{ord(c):04X}" for c in name if unicodedata.category(c) in REFUSED_CATEGORIES}
    )
    if refused:
        raise Invalid(
            "invalid_name",
            "A name may not hold control or invisible format characters ({chars}).",
            chars=", ".join(refused[:5]),
        )
    if not name or len(name) > NAME_MAX:
        raise Invalid(
            "invalid_name", "A name needs 1 to {n} characters, not only spaces.", n=NAME_MAX
        )
    return name


def name_key(name: str) -> str:
    """What two names must differ in: their case-folded normal forms ("Ａｌｉｃｅ", "ALICE"
    and "alice" are one name at a table)."""
    return unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", name).casefold())


def seatable(record: Record, name: str, max_events: int) -> None:
    """Refuse a new seat at a started or full table, or under a name already there.

    A lobby keeps at most ``max_events`` events besides chat: a new seat is refused
    (lobby_full) unless, after it, every seated player could still leave and the game
    start, so comings and goings cannot grow a lobby without end.
    """
    if record.status is not GameStatus.LOBBY:
        raise Conflict("game_started", "The game has already started.")
    kept = [e["name"] for e in (record.rematch or {}).get("invited") or []]  # rematch.py
    if len(record.players) + len(kept) >= record.max_players:
        raise Conflict("game_full", "Every seat at this table is taken.")
    require_room(record, max_events, len(record.players) + 1)
    if any(
        name_key(taken) == name_key(name) for taken in [*(p.name for p in record.players), *kept]
    ):
        raise Conflict("name_taken", "Someone here is already called {name}.", name=repr(name))


def started(record: Record, name: str) -> Refused:
    """A join at a table that has started: the seat ``name`` names, matched as a table
    matches names (:func:`name_key`: NFKC, any case, so "Alice" and "Ａｌｉｃｅ" find
    "alice"), is taken back with its token, never by joining; with no such seat, the game
    is to be watched."""
    held = next((p for p in record.players if name_key(p.name) == name_key(name)), None)
    if held is not None:
        return Conflict(
            "seat_held",
            "{name} holds a seat at this game, which has started: come back to it with that "
            "seat's token (kept by the program that joined) or that seat's account, not by "
            "joining again.",
            name=repr(held.name),
        )
    return Conflict(
        "game_started",
        "The game has already started and has no seat named {name}: watch it instead.",
        name=repr(name),
    )


def require_room(record: Record, max_events: int, seated: int) -> None:
    """409 lobby_full unless, after one more lobby event, the ``seated`` players could
    still all leave and the game start within ``max_events`` events besides chat."""
    lobby_events = record.event_count - record.chat_lines
    if lobby_events + 1 + seated + 1 > max_events:
        raise Conflict(
            "lobby_full", "This table has seen too many comings and goings; open a new one."
        )


def require_seat_at(record: Record, seat: int) -> None:
    """404 no_such_seat unless the table has a seat ``seat``."""
    if not 0 <= seat < len(record.players):
        raise NotFound("no_such_seat", "There is no seat {seat} at this table.", seat=seat)


def bot_name(record: Record, strategy: str, seat: int) -> str:
    """``<strategy>-bot-<n>``, n the seat as the table shows it (from 1), or the next
    number free at this table."""
    taken = {name_key(p.name) for p in record.players}
    for n in range(seat + 1, seat + 101):
        name = f"{strategy}-bot-{n}"
        if name_key(name) not in taken:
            return name
    return f"{strategy}-bot-{secrets.token_hex(3)}"  # pragma: no cover
