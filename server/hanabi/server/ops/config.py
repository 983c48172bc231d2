"""Settings: defaults, overridden by ``HANABI_*``/``REDIS_URL`` in the environment, then by
the mapping given to :func:`~hanabi.server.create_app` (tests pass their Redis URL there)."""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import Any

DAY = 24 * 3600

#: name -> (default, type). Every name can be set in the environment under the same name.
SETTINGS: dict[str, tuple[Any, type]] = {
    "REDIS_URL": ("redis://127.0.0.1:6379/0", str),
    # The embedded Redis of `python -m hanabi.server` (no REDIS_URL), read by it alone:
    "HANABI_REDIS_MAXMEMORY": ("256mb", str),  # its maxmemory (noeviction: full = 503 writes)
    "HANABI_REDIS_TCP": ("off", str),  # on: TCP 127.0.0.1 with a password, not a unix socket
    "HANABI_LOBBY_TTL": (1 * DAY, int),  # seconds a lobby lives without a change
    # seconds a lobby stays in GET /games after its last change (a seat taken or freed, a
    # bot, chat); then it is abandoned: not listed, but reachable by id until its TTL
    "HANABI_LOBBY_LISTED_S": (600, int),
    "HANABI_PLAYING_TTL": (7 * DAY, int),  # seconds an unfinished game lives without a change
    "HANABI_FINISHED_TTL": (30 * DAY, int),  # seconds a finished game is kept
    "HANABI_MAX_BODY": (64 * 1024, int),  # bytes; bigger request bodies get 413
    "HANABI_MAX_WAIT": (30, int),  # longest long-poll, seconds
    "HANABI_MAX_WAITERS": (7_500, int),  # long-polls and streams held per process at once
    "HANABI_STREAM_MAX": (3600.0, float),  # seconds an event stream stays open (clients resume)
    "HANABI_KEEPALIVE": (15.0, float),  # seconds between keep-alive comments on a stream
    # "on": a single Redis refuses commands whose keys span hash slots, as a Cluster does
    # (development and the test suite: storage/slot_check.py)
    "HANABI_CHECK_SLOTS": ("off", str),
    "HANABI_LIMITS": ("on", str),  # "off": no per-address limits (benchmarks, trusted setups)
    "HANABI_TRUSTED_PROXIES": ("", str),  # comma-separated proxies whose X-Forwarded-For counts
    "HANABI_MAX_WAITING_PER_ADDRESS": (100, int),  # long-polls and streams one address holds
    # connections one address holds open to one worker process (0, or HANABI_LIMITS=off: no
    # cap); past it a new connection is closed at once. Per worker: N workers, N times this
    "HANABI_MAX_CONNECTIONS_PER_ADDRESS": (256, int),
    # seconds a connection may take to send a request's headers, from its opening or the end
    # of the previous answer (idle keep-alive included); then it is closed. 0: no deadline
    "HANABI_HEADER_TIMEOUT": (10.0, float),
    "HANABI_LIMIT_CREATE": ("20/minute", str),  # games created per address
    "HANABI_LIMIT_JOIN": ("60/minute", str),  # seats taken (joins, bots) per address
    "HANABI_LIMIT_TICKET": ("120/minute", str),  # stream tickets per address
    "HANABI_LIMIT_REGISTER": ("20/hour", str),  # accounts created per address
    "HANABI_LIMIT_LOGIN": ("30/minute", str),  # logins tried (POST /sessions) per address
    "HANABI_LIMIT_CHAT_SEAT": ("20/minute", str),  # chat lines per seat
    "HANABI_LIMIT_CHAT_GAME": ("60/minute", str),  # chat lines per game
    "HANABI_LIMIT_NOTE_SEAT": ("60/minute", str),  # card notes written per seat
    # table passwords sent (joins, spectators' passes), counted before the hash (lobby.md)
    "HANABI_LIMIT_PASSWORD": ("10/minute", str),  # per address, over every table
    "HANABI_LIMIT_PASSWORD_GAME": ("60/hour", str),  # per table, from anywhere
    "HANABI_PAGE_MAX": (100, int),  # largest ?limit= of GET /games
    "HANABI_SEED_RESULTS_MAX": (100_000, int),  # results kept per seed (the best)
    "HANABI_BOARD_MAX": (1_000, int),  # games kept per leaderboard (variant and size)
    "HANABI_SPOILERS_MAX": (10_000, int),  # spoiled seeds remembered per account (docs/seeds.md)
    "HANABI_CORS_ORIGINS": ("*", str),  # comma-separated origins, or *
    "HANABI_WARM_VARIANTS": (1, int),  # 1: build every variant's answer at start (background)
    "HANABI_CACHE_SIZE": (2048, int),  # rendered views kept per process (keyed by version)
    "HANABI_BOT_WORKER": (1, int),  # bot-playing threads per process; 0: this process plays none
    "HANABI_BOT_LEASE": (3.0, float),  # seconds a claimed bot turn waits before another takes it
    "HANABI_MAX_CHAT": (1000, int),  # chat lines per game; past it chat is 409 chat_full
    "HANABI_MAX_CHAT_BYTES": (64 * 1024, int),  # UTF-8 bytes of chat per game; then chat_full
    "HANABI_MAX_LOBBY_EVENTS": (500, int),  # lobby events (joins, leaves) before 409 lobby_full
    "HANABI_EVENTS_PAGE": (200, int),  # events per page of GET /games/{id}/events by default
    "HANABI_EVENTS_PAGE_MAX": (1000, int),  # largest ?limit= of GET /games/{id}/events
    "HANABI_METRICS": ("on", str),  # on | off: count requests, serve GET /metrics (scrape.py)
    "HANABI_METRICS_TOKEN": (
        "",
        str,
    ),  # GET /metrics wants "Authorization: Bearer <it>"; unset: 403
    "HANABI_ACCESS_LOG": ("on", str),  # on | off: one JSON log line per request (observe.py)
    "HANABI_DRAIN_S": (10.0, float),  # seconds a SIGTERM'd process drains before it exits
    "HANABI_ARGON2_TIME": (3, int),  # argon2id passes (argon2-cffi's default)
    "HANABI_ARGON2_MEMORY": (65536, int),  # argon2id memory, KiB (64 MiB)
    "HANABI_ARGON2_PARALLELISM": (4, int),  # argon2id lanes
    "HANABI_HASH_CONCURRENCY": (2, int),  # password hashes at once per process (memory bound)
    "HANABI_SESSION_DAYS": (30, int),  # a session ends this long after its last use
    # Failed logins (wrong passwords) before 429, each counted over a window of its own
    # (login_limits.py): per account and address, per account, per address.
    "HANABI_LOGIN_FAILS_PAIR": (10, int),  # per account from one address ...
    "HANABI_LOGIN_PAIR_WINDOW": (900, int),  # ... in this many seconds (15 minutes)
    "HANABI_LOGIN_FAILS_USER": (100, int),  # per account from anywhere ...
    "HANABI_LOGIN_USER_WINDOW": (DAY, int),  # ... in this many seconds (24 hours)
    "HANABI_LOGIN_FAILS_ADDR": (20, int),  # per address over every account ...
    "HANABI_LOGIN_ADDR_WINDOW": (300, int),  # ... in this many seconds (5 minutes)
    "HANABI_NAME_HOLD_DAYS": (30, int),  # days a deleted account's username stays taken
    "HANABI_RATING_K": (20.0, float),  # the Elo K-factor of rated games
    "HANABI_RATED_MIN_AGE_H": (24, int),  # hours an account exists before it plays rated
    "HANABI_RATED_MIN_GAMES": (3, int),  # finished unrated games before an account plays rated
    "HANABI_SETTLE_SWEEP": (5.0, float),  # seconds between sweeps for unsettled games; 0: none
    "HANABI_IDLE_END": (1800, int),  # seconds without a move that end a game (0: no limit)
    "HANABI_IDLE_MAX": (7 * DAY, int),  # longest options.idle_limit a game may ask for
    "HANABI_TIMER_MIN_BASE": (10, int),  # shortest options.timer.base (tests may go to 1)
    # Shared replay rooms (docs/replays.md)
    "HANABI_REPLAY_TTL": (6 * 3600, int),  # seconds a replay room lives, from its creation
    "HANABI_REPLAY_ROOMS": (5, int),  # open rooms per account (or per guest's seat)
    "HANABI_REPLAY_FOLLOWERS": (250, int),  # followers who may join one room
    "HANABI_REPLAY_MOVES": (200, int),  # moves in one hypothetical
    "HANABI_LIMIT_REPLAY": ("30/minute", str),  # rooms made and joined per address
    "HANABI_LIMIT_REPLAY_LEAD": ("300/minute", str),  # a room's leader's changes
    # Turn-based tables and webhooks (docs/turns.md)
    "HANABI_MOVE_CLOCK_MIN": (3600, int),  # shortest options.move_clock, seconds (1 hour)
    "HANABI_MOVE_CLOCK_MAX": (14 * DAY, int),  # longest options.move_clock (14 days)
    "HANABI_WEBHOOK_PRIVATE": ("off", str),  # on: webhooks may reach private/loopback hosts
    "HANABI_WEBHOOK_ATTEMPTS": (6, int),  # deliveries tried per webhook call before it fails
    "HANABI_WEBHOOK_BACKOFF": (30.0, float),  # seconds before the first retry; then doubled
    "HANABI_WEBHOOK_TIMEOUT": (10.0, float),  # seconds one delivery may take in all
    "HANABI_WEBHOOK_CONNECT_TIMEOUT": (5.0, float),  # seconds its connecting may take
    "HANABI_WEBHOOK_WORKERS": (4, int),  # delivering threads per process; 0: none here
    "HANABI_WEBHOOK_SHARE": (1, int),  # one account's deliveries under way at once (service)
    "HANABI_WEBHOOK_LOG": (50, int),  # deliveries kept per account (GET .../deliveries)
    "HANABI_LIMIT_WEBHOOK": ("10/minute", str),  # webhooks set per address (each resolves)
    # The lobby's and replay rooms' chat, mutes and friends (docs/chat.md)
    "HANABI_CHAT_KEEP": (200, int),  # lines a chat channel keeps (older ones fall off)
    "HANABI_CHAT_MENTIONS": (5, int),  # @names of one line that notify their accounts
    "HANABI_CHAT_HIDE_REPORTS": (3, int),  # reports by different accounts that hide a line
    "HANABI_LIMIT_CHAT_ACCOUNT": ("10/minute", str),  # lobby and room chat lines per account
    "HANABI_LIMIT_CHAT_CHANNEL": ("120/minute", str),  # lines per chat channel, everyone's
    "HANABI_LIMIT_FRIENDS": ("60/minute", str),  # follows, mutes and reports per account
    "HANABI_MAX_MUTES": (500, int),  # accounts one account may mute; then 409 too_many_mutes
    "HANABI_MAX_FOLLOWS": (200, int),  # accounts one may follow; then 409 too_many_follows
    "HANABI_FOLLOWERS_NOTIFIED": (1000, int),  # followers' webhooks called per new table
    "HANABI_LIMIT_IMPORT": ("10/minute", str),  # hanab.live games imported per address
    "HANABI_HISTORY_MAX": (500_000, int),  # finished games the history search keeps
}


def enabled(value: Any) -> bool:
    """A switch setting's truth: anything but off/0/false/no is on."""
    return str(value).strip().lower() not in ("off", "0", "false", "no")


def load_config(overrides: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """The effective settings: defaults < environment < ``overrides``."""
    config: dict[str, Any] = {}
    for name, (default, kind) in SETTINGS.items():
        raw = os.environ.get(name)
        config[name] = kind(raw) if raw not in (None, "") else default
    for name, value in (overrides or {}).items():
        if name in SETTINGS and value is not None:
            value = SETTINGS[name][1](value)
        config[name] = value
    return config
