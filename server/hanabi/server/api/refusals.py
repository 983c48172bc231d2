"""THE table: every code the service refuses with, and the HTTP status it answers with.

The table's rules raise :class:`~hanabi.server.table.refusals.Refused` and know no HTTP;
the transport answers each refusal as a problem+json (:mod:`.problems`) with the status
named here. The engine's own codes (a rule of the game refused a move: ``not_your_turn``,
``no_clue_tokens``...) are not listed: they answer with the status of the kind of refusal
the service raised them as (:data:`BY_KIND`: a move the rules refuse is a ``Conflict``,
409; a body that is no action at all, ``Invalid``, 400).

To add a refusal: raise the kind that says what it is, with a new code, and add the code
here (tests/server/test_layers.py fails on a code missing here, or listed under a status
that is not its kind's).
"""

from __future__ import annotations

from ..table.refusals import (
    Conflict,
    Forbidden,
    Invalid,
    NotFound,
    Refused,
    TooMany,
    Unauthorized,
    Unavailable,
)

#: Each kind of refusal's status: what a code not listed in :data:`STATUS` answers with.
BY_KIND: dict[type[Refused], int] = {
    Invalid: 400,
    Unauthorized: 401,
    Forbidden: 403,
    NotFound: 404,
    Conflict: 409,
    TooMany: 429,
    Unavailable: 503,
}

#: code -> HTTP status, for every code the server raises itself.
STATUS: dict[str, int] = {
    # 400 Bad Request: the request itself is wrong
    "malformed_json": 400,
    "validation_error": 400,
    "invalid_query": 400,
    "invalid_header": 400,
    "invalid_name": 400,
    "invalid_option": 400,
    "unknown_strategy": 400,
    "invalid_username": 400,
    "weak_password": 400,
    "rated_known_deal": 400,
    "variant_not_rated": 400,
    "invalid_seed_name": 400,
    "seed_variant": 400,
    "seed_with_deck": 400,
    "invalid_cursor": 400,
    "seed_players": 400,
    "not_a_session": 400,
    "webhook_url_refused": 400,
    "shadow_seat": 400,
    "spectators_see_hands_rated": 400,
    "own_account": 400,
    "invalid_tag": 400,
    "import_not_finished": 400,
    # 401 Unauthorized: no credential, a wrong one, or one that ended
    "auth_required": 401,
    "invalid_auth": 401,
    "invalid_ticket": 401,
    "name_required": 401,
    "account_required": 401,
    "invalid_credentials": 401,
    "session_expired": 401,
    "invalid_api_key": 401,
    # 403 Forbidden: known, and not allowed
    "forbidden": 403,
    "metrics_closed": 403,
    "not_a_player": 403,
    "not_host": 403,
    "not_your_seat": 403,
    "bot_account": 403,
    "not_leader": 403,
    "seed_not_played": 403,
    "shadow_not_allowed": 403,
    "seed_deal_import": 403,
    # 404 Not Found
    "game_not_found": 404,
    "no_such_seat": 404,
    "no_such_turn": 404,
    "key_not_found": 404,
    "player_not_found": 404,
    "room_not_found": 404,
    "no_such_follower": 404,
    "variant_not_found": 404,
    "unknown_variant": 404,
    "no_webhook": 404,
    "no_such_card": 404,
    "line_not_found": 404,
    "not_muted": 404,
    "not_followed": 404,
    # 406 Not Acceptable: the stream is text/event-stream only
    "not_acceptable": 406,
    # 409 Conflict: the state of the game or the account refuses it
    "game_started": 409,
    "seat_held": 409,
    "game_full": 409,
    "name_taken": 409,
    "lobby_full": 409,
    "not_enough_players": 409,
    "game_not_started": 409,
    "game_over": 409,
    "game_finished": 409,
    "game_not_finished": 409,
    "password_required": 401,  # issue 48: password tables, pause, next game
    "wrong_password": 403,
    "wrong_pass": 403,
    "not_locked": 409,
    "game_paused": 409,
    "pause_not_allowed": 409,
    "rematch_open": 409,
    "no_rematch": 404,
    "not_invited": 409,
    "no_kept_seat": 404,
    "stale_turn": 409,
    "deadline_passed": 409,
    "no_deadline": 409,
    "chat_full": 409,
    "username_taken": 409,
    "too_many_keys": 409,
    "option_not_rated": 409,
    "rated_no_bots": 409,
    "already_seated": 409,
    "not_enough_accounts": 409,
    "account_deleted": 409,
    "account_too_new": 409,
    "not_enough_games": 409,
    "deal_unavailable": 409,
    "same_deal_elsewhere": 409,
    "too_many_rooms": 409,
    "room_full": 409,
    "no_hypothetical": 409,
    "hypothetical_full": 409,
    "seed_players_seated": 409,
    "card_not_drawn": 409,
    "too_many_notes": 409,
    "too_many_mutes": 409,
    "too_many_follows": 409,
    "too_many_tags": 409,
    # 415 Unsupported Media Type: a body that is not declared JSON
    "unsupported_media_type": 415,
    # 429 Too Many Requests: a limit (with Retry-After)
    "rate_limited": 429,
    "too_many_waiting": 429,
    "too_many_failed_logins": 429,
    # 500: the server failed
    "replay_failed": 500,
    # 503 Service Unavailable: try again (most with Retry-After)
    "busy": 503,
    "body_cut": 503,
    "draining": 503,
    "too_many_waiters": 503,
    "login_busy": 503,
    "storage_unavailable": 503,
}


def status_of(refusal: Refused) -> int:
    """The HTTP status of ``refusal``: its code's, else its kind's, else 500."""
    status = STATUS.get(refusal.code)
    if status is not None:
        return status
    for kind, by_kind in BY_KIND.items():
        if isinstance(refusal, kind):
            return by_kind
    return 500
