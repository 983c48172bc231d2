"""The parts of the game service, as the composition (:mod:`hanabi.server.app`) builds them.

The API's resources take the parts they use from here (``app.extensions["hanabi"]``), as
do the bot workers and the settle sweeper: each part was given what it needs when it was
built, and none of them knows the container.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..storage.changes import ChangeHub
from ..storage.store import Store
from .accounts import Accounts
from .chat import Chat
from .deadlines import Deadlines
from .friends import Friends
from .history import History
from .imports import Imports
from .leaderboards import Results
from .leaving import Leaving
from .listing import Listing
from .lobby import Lobby
from .notes import Notes
from .pause import Pauses
from .play import Play
from .reads import Reads
from .rematch import Rematches
from .replays import Replays
from .seeds import SeedPages
from .settle import Settler
from .spoilers import Spoilers
from .stats import Profiles
from .tags import Tags
from .tickets import StreamTickets
from .turns import Turns
from .viewers import Viewers
from .votes import Votes
from .webhooks import Webhooks
from .writes import WriteLoop


@dataclass(frozen=True)
class Services:
    """Every part of the game service, built once per app."""

    config: dict[str, Any]  # the app's settings
    store: Store  # the games in Redis
    changes: ChangeHub  # this process's waits for changes
    reads: Reads  # games as viewers see them, events, exports, replays
    listing: Listing  # GET /games
    writes: WriteLoop  # the compare-and-set loop every change goes through
    lobby: Lobby  # tables, seats, bots, the deal
    play: Play  # moves and chat
    votes: Votes  # votes to end a game
    deadlines: Deadlines  # clocks that ran out, idle games
    leaving: Leaving  # a deleted account's rated games
    accounts: Accounts  # accounts, sessions, API keys
    profiles: Profiles  # public profiles and histories
    settler: Settler  # ratings, statistics and histories of finished games
    tickets: StreamTickets  # one-time tickets that open a stream
    replays: Replays  # shared replay rooms and their hypotheticals
    seeds: SeedPages  # GET /seeds/{name}: every team's result on a seed
    results: Results  # leaderboards and players' counts (recorded as games settle)
    turns: Turns  # whose move it is, per account (turn-based play)
    webhooks: Webhooks  # accounts' signed webhooks
    notes: Notes  # card notes, private to their author until the end
    viewers: Viewers  # who looks at a game, and what they see of it
    spoilers: Spoilers  # who saw which seed's cards; who holds a live seat on which deal
    chat: Chat  # the lobby's and replay rooms' chat, and mutes (docs/chat.md)
    friends: Friends  # follows, friends' tables first, their new tables' notifications
    history: History  # finished games searched, and each variant's page
    tags: Tags  # tags on finished games
    imports: Imports  # hanab.live games read in as finished games
    pauses: Pauses  # votes to pause a game and go on (issue 48)
    rematches: Rematches  # the next game with the same seats (issue 48)
