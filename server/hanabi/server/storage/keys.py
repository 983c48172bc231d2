"""Where everything of a game lives in Redis: the key layout.

Per game, all keys share the hash tag ``{game:<id>}`` so one game lives in one Cluster slot:

``{game:<id>}:g``  hash ``v`` (version, grows by one per commit), ``p`` (players JSON:
                   ``[[name, bot, token_hash], ...]``) and ``s`` (state blob, see
                   :mod:`.record`); also ``ts``, ``left`` and ``dl``, the clocks that the
                   commit script keeps (:mod:`.scripts`), and ``n<seat>``, each seat's
                   card notes (:mod:`.notes`).
``{game:<id>}:a``  list, the action log while the game is on: one entry per turn
                   (:class:`~.record.ActionEntry`).
``{game:<id>}:e``  list, the event log while the game is on (public, unredacted; chat too).
``{game:<id>}:changes``  the pub/sub channel each commit announces the new version on.
``{game:<id>}:settle``  the plan that settles a finished game with accounts seated
                   (:mod:`.settling`).
``{game:<id>}:k:<hash>``  a one-time stream ticket (:mod:`.tickets`).

Bot turns and deadlines: ``{game:bots-<b>}:bots:due`` and ``{game:bots-<b>}:deadlines``,
one of each per bucket (:mod:`.slots`): every game's id puts it in the slot of one
bucket, so the commit that changes a game keeps both sets beside it in the same script.

The listings: ``hanabi:index:*`` (:mod:`.listings`) and the listing's change feed,
``{game:listing}:version`` and ``{game:listing}:changes`` (``listing`` is a pseudo game
id: no real id is that short), served by the same change hub as games.

The lobby's chat and each replay room's are watched the same way, under the pseudo game
ids ``chat-lobby`` and ``chat-room-<room id>`` (:mod:`.chat`).

Accounts (``{acct:<id>}:*``, ``hanabi:user:*``, ``hanabi:session:*``...) are laid out in
:mod:`.accounts`; the login and rate counters in :mod:`.login_counters` and
:mod:`.rate_counters`.
"""

from __future__ import annotations

from .slots import bucket_tag

#: Where commits that leave a bot to move announce it (a classic broadcast: rare, tiny).
BOTS_WAKE = "hanabi:bots:wake"
#: The pseudo game id of the listings' change feed.
LISTING = "listing"
LISTING_VERSION = "{game:" + LISTING + "}:version"


def tag(game_id: str) -> str:
    """The hash tag of a game's keys (its Cluster slot)."""
    return "{game:" + game_id + "}"


def game_keys(game_id: str) -> tuple[str, str, str]:
    """The game's hash, its action log and its event log."""
    prefix = tag(game_id)
    return prefix + ":g", prefix + ":a", prefix + ":e"


def channel(game_id: str) -> str:
    """The pub/sub channel a game's commits are announced on (in the game's slot)."""
    return tag(game_id) + ":changes"


def game_of_channel(name: str) -> str:
    """The game id of a :func:`channel` name."""
    return name[len("{game:") : name.index("}")]


def due_key(bucket: int) -> str:
    """A bucket's due set of bot turns (in the bucket's slot)."""
    return tag(bucket_tag(bucket)) + ":bots:due"


def deadlines_key(bucket: int) -> str:
    """A bucket's deadlines: games that end when a clock runs out or they sit idle."""
    return tag(bucket_tag(bucket)) + ":deadlines"


def settle_plan_key(game_id: str) -> str:
    """The plan that settles a finished game (:mod:`.settling`)."""
    return tag(game_id) + ":settle"


def ticket_key(game_id: str, ticket_hash: str) -> str:
    """A one-time stream ticket of a game, by the ticket's hash (:mod:`.tickets`)."""
    return tag(game_id) + ":k:" + ticket_hash


#: Shared replay rooms (:mod:`.replays`) are watched through the change hub like games,
#: under a pseudo game id ``room-<id>`` (a "-" no game id has): their keys share the hash
#: tag ``{game:room-<id>}``, one Cluster slot: ``:r`` the room (hash ``v`` version, ``s``
#: state), ``:m`` its members (hash member id -> JSON), ``:changes`` its channel.
ROOM_PREFIX = "room-"


def room_keys(room_id: str) -> tuple[str, str]:
    """A room's hash (version and state) and its members' hash."""
    prefix = tag(ROOM_PREFIX + room_id)
    return prefix + ":r", prefix + ":m"


def rooms_of_key(owner: str) -> str:
    """The sorted set of the open rooms an owner made (room id scored by its expiry, ms):
    one key, so its check-and-add is one script on whichever node holds it."""
    return "hanabi:replay-rooms:" + owner
