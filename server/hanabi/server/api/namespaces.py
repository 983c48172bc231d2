"""Every route of the API: its namespace, its path and the resource that serves it, in the
order the app registers them and the OpenAPI document lists them. To add a route, write
its resource (with its :func:`~.operations.operation`) and add a line here.
"""

from __future__ import annotations

from flask_restx import Namespace, Resource

from .accounts import AccountsResource, AllSessions, CurrentSession, KeyResource, Keys, Me, Sessions
from .chat import (
    Follow,
    Follows,
    LobbyChat,
    LobbyChatReports,
    Mute,
    Mutes,
    RoomChat,
    RoomChatReports,
)
from .events import Events, Stream, Tickets
from .games import Export, GameResource, Games, Past, Replay
from .history import GameTag, GameTags, HistorySearch, Imports, VariantPage
from .notes import Note, Notes
from .play import Actions, Chat, Terminate, Votes
from .players import History, Profile, RatingModel
from .replays import (
    Followers,
    Hypothetical,
    HypotheticalActions,
    Leader,
    Position,
    RoomResource,
    Rooms,
    RoomStreamResource,
    RoomTickets,
)
from .seats import Bots, Players, Seat, Start
from .seeds import Leaderboards, PlayerStats, Seed
from .system import Health, Ready, Strategies
from .tables import KeptSeat, Passes, Pause, Rematch, RematchAnswer
from .turns import Deliveries, MyTurns, Webhook
from .variants import VariantResource, Variants

system = Namespace("system", description="Health and game catalogue", path="/")
games = Namespace("games", description="Lobbies, seats, play and replays", path="/games")
accounts = Namespace("accounts", description="Accounts and their API keys", path="/accounts")
sessions = Namespace("sessions", description="Logging in and out", path="/sessions")
players = Namespace("players", description="Public profiles and histories", path="/players")
rating = Namespace("rating", description="The rating model", path="/rating-model")
replays = Namespace("replays", description="Shared replay rooms and hypotheticals", path="/replays")
seeds = Namespace("seeds", description="Seeds compared and leaderboards", path="/")
chat = Namespace("chat", description="The lobby's chat (docs/chat.md)", path="/chat")
history = Namespace("history", description="Finished games searched, tagged and imported", path="/")

GAME = "/<string:game_id>"
ROOM = "/<string:room_id>"

#: (namespace, path in it, resource), in order.
ROUTES: tuple[tuple[Namespace, str, type[Resource]], ...] = (
    (system, "/health", Health),
    (system, "/ready", Ready),
    (system, "/variants", Variants),  # the catalogue, searched
    (system, "/variants/<string:key>", VariantResource),  # one, by name, number or id
    (system, "/strategies", Strategies),
    (games, "", Games),  # the listing; opening a table
    (games, GAME, GameResource),  # a game as its viewer sees it
    (games, GAME + "/players", Players),  # joining
    (games, GAME + "/players/<int:seat>", Seat),  # leaving, freeing, declaring a strategy
    (games, GAME + "/bots", Bots),
    (games, GAME + "/start", Start),
    (games, GAME + "/actions", Actions),
    (games, GAME + "/events", Events),
    (games, GAME + "/stream", Stream),
    (games, GAME + "/tickets", Tickets),
    (games, GAME + "/chat", Chat),
    (games, GAME + "/votes", Votes),
    (games, GAME + "/terminate", Terminate),
    (games, GAME + "/export", Export),
    (games, GAME + "/replay", Replay),
    (games, GAME + "/past", Past),  # a seat's own past, during play (in-game replay)
    (games, GAME + "/notes", Notes),  # card notes: the bearer's own
    (games, GAME + "/notes/<int:card_order>", Note),
    (games, GAME + "/passes", Passes),  # a password table's spectators (issue 48)
    (games, GAME + "/pause", Pause),
    (games, GAME + "/rematch", Rematch),  # the next game with the same seats
    (games, GAME + "/rematch/answer", RematchAnswer),
    (games, GAME + "/rematch/invited/<string:name>", KeptSeat),
    (accounts, "", AccountsResource),  # registering
    (accounts, "/me", Me),
    (accounts, "/me/sessions", AllSessions),
    (accounts, "/me/keys", Keys),
    (accounts, "/me/keys/<string:key_id>", KeyResource),
    (accounts, "/me/turns", MyTurns),  # turn-based play
    (accounts, "/me/webhook", Webhook),
    (accounts, "/me/webhook/deliveries", Deliveries),
    (sessions, "", Sessions),  # logging in
    (sessions, "/current", CurrentSession),  # logging out
    (players, "/<string:username>", Profile),
    (players, "/<string:username>/games", History),
    (rating, "", RatingModel),
    (replays, "", Rooms),  # sharing a finished game's replay
    (replays, ROOM, RoomResource),
    (replays, ROOM + "/followers", Followers),
    (replays, ROOM + "/stream", RoomStreamResource),
    (replays, ROOM + "/tickets", RoomTickets),
    (replays, ROOM + "/position", Position),  # the leader's turn and highlights
    (replays, ROOM + "/leader", Leader),
    (replays, ROOM + "/hypothetical", Hypothetical),
    (replays, ROOM + "/hypothetical/actions", HypotheticalActions),
    (players, "/<string:username>/stats", PlayerStats),
    (seeds, "/seeds/<string:seed_name>", Seed),
    (seeds, "/leaderboards", Leaderboards),
    (chat, "/lobby", LobbyChat),  # the lobby's chat, for accounts
    (chat, "/lobby/reports", LobbyChatReports),
    (replays, ROOM + "/chat", RoomChat),
    (replays, ROOM + "/chat/reports", RoomChatReports),
    (accounts, "/me/mutes", Mutes),
    (accounts, "/me/mutes/<string:username>", Mute),
    (accounts, "/me/follows", Follows),  # friends
    (accounts, "/me/follows/<string:username>", Follow),
    (history, "/history", HistorySearch),  # finished games searched (docs/history.md)
    (history, "/history/variants/<string:variant>", VariantPage),
    (history, "/games" + GAME + "/tags", GameTags),
    (history, "/games" + GAME + "/tags/<string:tag>", GameTag),
    (history, "/imports", Imports),  # a hanab.live game as a finished game here
)

for namespace, path, resource in ROUTES:
    namespace.add_resource(resource, path)

NAMESPACES = (system, games, accounts, sessions, players, rating, replays, seeds, chat, history)
