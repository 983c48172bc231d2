"""Where games live in a Redis Cluster: every game in one of :data:`BUCKETS` hash slots.

A game's keys share the hash tag ``{game:<id>}``, so each game is one Cluster slot and its
commit is one Lua script on one node. The bots' due set, though, is global in spirit:
workers must find every game whose bot is to move, and the commit that makes a bot due
must enqueue it in the same atomic step (a crash between the two would strand the turn).
A script may only touch keys of one slot, so the due set is split into one set per
bucket, and game ids are drawn so that each game's slot is one of the buckets' slots:
the commit updates the due set that lives beside the game.

The buckets' slots are whatever ``{game:bots-<n>}`` hashes to: 64 slots spread over the
key space (and so over the masters; a cluster can move them like any slot). Drawing an
id costs about 256 CRC16s in C (~0.1 ms). On a single Redis the same layout
applies; slots just don't matter there.
"""

from __future__ import annotations

import functools
import secrets
import string

from redis.crc import key_slot

#: How many due-set buckets (and so slots) games are spread over.
BUCKETS = 64
#: Game ids: letters and digits only (never a leading "-" that a command line would take
#: for an option), 12 of them, 11 drawn at random: 62**11 > 2**65.
ID_ALPHABET = string.ascii_letters + string.digits
ID_LENGTH = 12


def slot_of(game_id: str) -> int:
    """The Cluster hash slot of a game's keys."""
    return key_slot(b"game:" + game_id.encode())


def bucket_tag(bucket: int) -> str:
    """The hash tag (a game-id-like string) of a bucket's own keys."""
    return f"bots-{bucket}"


@functools.cache
def bucket_slots() -> dict[int, int]:
    """slot -> bucket, for every bucket."""
    return {slot_of(bucket_tag(b)): b for b in range(BUCKETS)}


def bucket_of(game_id: str) -> int:
    """The bucket of a game (bucket 0 for an id from before buckets, which only a single
    Redis can hold)."""
    return bucket_slots().get(slot_of(game_id), 0)


def new_game_id() -> str:
    """A random id whose slot is one of the buckets' slots: 11 random characters, then
    the first last character that lands in a bucket (about 4 prefixes are tried)."""
    slots = bucket_slots()
    while True:
        prefix = "".join(secrets.choice(ID_ALPHABET) for _ in range(ID_LENGTH - 1))
        for last in ID_ALPHABET:
            if slot_of(prefix + last) in slots:
                return prefix + last
