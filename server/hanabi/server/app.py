"""The composition: the storage, then the table's services on it, then the API over them,
each part built once and given what it needs, explicitly (as lila wires its modules in an
``Env``). ``create_app(config)`` returns the WSGI app.

The order of the layers is the order of the imports: :mod:`~hanabi.server.api` uses
:mod:`~hanabi.server.table`, which uses :mod:`~hanabi.server.storage`; anyone may use
:mod:`~hanabi.server.ops`, which uses none of them. Only this module knows them all.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from flask import Flask

from .api import install as api_install
from .api import language, ratelimits
from .api import metrics as metrics_route
from .ops import drain, gunicorn_errors, observe
from .ops.config import enabled, load_config
from .storage import redis_memory
from .storage.accounts import AccountStore
from .storage.changes import ChangeHub
from .storage.chat import ChatStore, is_chat_hub
from .storage.history import HistoryStore
from .storage.imports import ImportStore
from .storage.login_counters import LoginCounters
from .storage.notes import NoteStore
from .storage.rate_counters import RateCounters
from .storage.record import GameStatus
from .storage.replays import RoomStore
from .storage.seeds import SeedStore
from .storage.server_time import ServerTime
from .storage.settling import SettlingStore
from .storage.spoilers import SpoilerStore
from .storage.store import Store
from .storage.tickets import TicketStore
from .storage.turns import TurnIndex
from .storage.webhooks import WebhookStore
from .table.accounts import Accounts
from .table.bots import BotWorker, start_worker
from .table.chat import Chat
from .table.deadlines import Deadlines
from .table.dealing import SeedDeals, SeedHooks
from .table.friends import Friends
from .table.history import History
from .table.imports import Imports
from .table.leaderboards import Results
from .table.leaving import Leaving
from .table.listing import Listing
from .table.lobby import Lobby
from .table.notes import Notes
from .table.pause import Pauses
from .table.play import Play
from .table.rated import RatedTables
from .table.reads import Reads
from .table.rematch import Rematches
from .table.replays import Replays
from .table.seeds import SeedPages
from .table.services import Services
from .table.settle import SettleHooks, Settler, Sweeper
from .table.spoilers import Spoilers
from .table.stats import Profiles
from .table.tags import Tags
from .table.tickets import StreamTickets
from .table.turns import Turns
from .table.variants import CATALOGUE
from .table.viewers import Viewers
from .table.votes import Votes
from .table.webhooks import Webhooks, WebhookWorker
from .table.writes import WriteLoop


def create_app(config: Mapping[str, Any] | None = None) -> Flask:
    """A WSGI app; ``config`` overrides the environment (see :mod:`hanabi.server.ops.config`)."""
    settings = load_config(config)
    app = Flask("hanabi.server", static_folder=None)
    # "/games//bots" is a missing game id, not a redirect to "/games/bots" (a redirect
    # of a POST would fail as an internal error): every path is taken as it comes.
    app.url_map.merge_slashes = False
    app.config.update(settings)
    app.config.update(
        MAX_CONTENT_LENGTH=settings["HANABI_MAX_BODY"],
        RESTX_ERROR_404_HELP=False,
        ERROR_INCLUDE_MESSAGE=False,
        PROPAGATE_EXCEPTIONS=False,
        JSON_SORT_KEYS=False,
    )
    services = build_services(settings)
    app.extensions["hanabi"] = services
    counters = RateCounters(settings["REDIS_URL"], services.store.redis, services.store.cluster)
    app.extensions["hanabi_limits"] = ratelimits.from_config(settings, counters)
    bots = start_background(app, services, settings)
    # Operations: request ids, the JSON request log, GET /metrics, the drain on SIGTERM.
    counted = metrics_route.install(app, services.store.gauges)
    observe.install(app, count=counted, access_log=enabled(settings["HANABI_ACCESS_LOG"]))
    drain.attach(app, services.changes, bots)
    gunicorn_errors.SAY = language.too_many_connections  # gunicorn's 429, in the reader's language
    api_install.install(app, settings)
    return app


def build_services(settings: dict[str, Any]) -> Services:
    """The storage, then every part of the table on it."""
    # -- storage: the games in Redis, this process's change hub, Redis's clock
    ttls = {
        GameStatus.LOBBY: settings["HANABI_LOBBY_TTL"],
        GameStatus.PLAYING: settings["HANABI_PLAYING_TTL"],
        GameStatus.FINISHED: settings["HANABI_FINISHED_TTL"],
    }
    store = Store(
        settings["REDIS_URL"],
        ttls,
        settings["HANABI_LOBBY_LISTED_S"],
        check_slots=enabled(settings["HANABI_CHECK_SLOTS"]),
    )
    redis_memory.warn_if_evicting(store.redis)  # games must never be evicted
    rooms = RoomStore(store.redis, store.sharded)
    chat_store = ChatStore(store.redis, store.sharded)

    def version_of(gid: str) -> int | None:
        """What the change hub reads: a replay room is watched like a game under its
        pseudo game id (room-<id>), and so is a chat channel (chat-lobby, chat-room-<id>)."""
        if rooms.is_hub_id(gid):
            return rooms.hub_version(gid)
        if is_chat_hub(gid):
            return chat_store.version(gid)
        return store.version(gid)

    changes = ChangeHub(
        store.redis,
        version_of,
        settings["HANABI_MAX_WAITERS"],
        sharded=store.sharded,
        cluster=store.cluster,
    )
    server_time = ServerTime(store.redis)
    account_store = AccountStore(store.redis)
    settling = SettlingStore(store.redis, settings["HANABI_FINISHED_TTL"])
    seed_store = SeedStore(
        store.redis, settings["HANABI_SEED_RESULTS_MAX"], settings["HANABI_BOARD_MAX"]
    )
    spoilers = Spoilers(
        SpoilerStore(store.redis, settings["HANABI_SPOILERS_MAX"]),
        seed_store,
        store,
        settings["HANABI_CACHE_SIZE"],
    )
    results = Results(seed_store, settings["HANABI_PAGE_MAX"], spoilers)
    # -- the table: reads, the write loop (settling games as they end), the operations
    settler = Settler(
        store, settling, account_store, settings["HANABI_RATING_K"], results=results.record
    )
    reads = Reads(store, changes, server_time, settings["HANABI_CACHE_SIZE"])
    seed_pages = SeedPages(seed_store, store, settings["HANABI_PAGE_MAX"])
    viewers = Viewers(spoilers, settings["HANABI_CACHE_SIZE"])
    notes = Notes(NoteStore(store.redis), reads)
    reads.private = notes  # a seat's notes in its views, outside the view cache
    seed_hooks = SeedHooks(SettleHooks(settler), seed_store)
    writes = WriteLoop(store, reads, seed_hooks)
    writes.watchers.append(seed_hooks.committed)  # a rated deal's seal, kept once committed
    leaving = Leaving(store, settling, writes, reads)
    webhook_store = WebhookStore(
        store.redis, settings["HANABI_WEBHOOK_LOG"], settings["HANABI_WEBHOOK_SHARE"]
    )
    webhooks = Webhooks(webhook_store, settings)
    turns = Turns(TurnIndex(store.redis), store, webhooks)
    writes.watchers.append(turns.committed)
    history_store = HistoryStore(store.redis, settings["HANABI_HISTORY_MAX"])
    history = History(history_store, settings["HANABI_PAGE_MAX"])
    writes.watchers.append(history.committed)  # finished games enter the history
    accounts = Accounts(
        account_store,
        LoginCounters(store.redis),
        dict(settings),
        leaving=leaving.end_rated_games,
    )
    tickets = StreamTickets(TicketStore(store.redis), accounts)
    replays = Replays(rooms, reads, settings, viewers, tickets)
    return Services(
        config=settings,
        store=store,
        changes=changes,
        reads=reads,
        listing=Listing(store, changes, settings["HANABI_LOBBY_LISTED_S"]),
        writes=writes,
        lobby=Lobby(
            writes,
            RatedTables(account_store, settings),
            settings,
            SeedDeals(seed_store, spoilers, store),
        ),
        pauses=Pauses(writes),
        rematches=Rematches(writes, reads, SeedDeals(seed_store, spoilers, store)),
        play=Play(store, writes, reads, settings),
        votes=Votes(writes, reads),
        deadlines=Deadlines(store, writes, reads),
        leaving=leaving,
        accounts=accounts,
        profiles=Profiles(accounts, account_store),
        settler=settler,
        tickets=tickets,
        replays=replays,
        seeds=seed_pages,
        viewers=viewers,
        spoilers=spoilers,
        results=results,
        turns=turns,
        webhooks=webhooks,
        notes=notes,
        chat=Chat(chat_store, accounts, replays, webhooks, changes, settings),
        friends=Friends(chat_store, accounts, webhooks, settings),
        history=history,
        tags=Tags(history_store, history, store),
        imports=Imports(writes, ImportStore(store.redis), history),
    )


def start_background(app: Flask, services: Services, settings: dict[str, Any]) -> BotWorker:
    """The threads of every process: the settle sweeper, the webhook deliveries, the
    bot workers (which also end the games whose deadline passed), and the variant
    catalogue's warm-up."""
    if settings["HANABI_SETTLE_SWEEP"] > 0:
        sweeper = Sweeper(services.settler, settings["HANABI_SETTLE_SWEEP"])
        app.extensions["hanabi_sweeper"] = sweeper.start()
    if settings["HANABI_WEBHOOK_WORKERS"] > 0:
        hooks = WebhookWorker(services.webhooks, settings["HANABI_WEBHOOK_WORKERS"])
        app.extensions["hanabi_webhooks"] = hooks.start()
    worker = BotWorker(
        services.store,
        services.reads,
        services.play,
        services.deadlines,
        settings["HANABI_BOT_WORKER"],
        settings["HANABI_BOT_LEASE"],
    )
    app.extensions["hanabi_bots"] = start_worker(worker)
    if settings["HANABI_WARM_VARIANTS"]:  # GET /variants then never builds a variant
        CATALOGUE.warm_in_background()
    return worker
