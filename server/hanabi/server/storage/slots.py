"""Where games live in a Redis Cluster: every game in one of :data:`BUCKETS` hash slots.

A game's keys share the hash tag ``{game:<id>}``, so each game is one Cluster slot and its
commit is one Lua script on one node. The bots' due set, though, is global in spirit:
workers must find every game whose bot is to move, and the commit that makes a bot due
must enqueue it in the same atomic step (a crash between the two would strand the turn).
A script may only touch keys of one slot, so the due set is split into one set per
bucket, and game ids are drawn so that each game's slot is one of the buckets' slots:
the commit updates the due set that lives beside the game.

The buckets' slots are whatever ``{game:bots-<n>}`` hashes to: 64 slots spread over the
key space (and so over the masters; a cluster can move them like any slot). An id is 11
random characters and a last one chosen to land in a bucket's slot. Only about one
prefix in 30 has such a last character, and hashing its 62 candidates one by one cost
3 ms an id; the CRC's own algebra finds the candidates instead (:func:`_last_bytes`), at
about 0.1 ms an id. On a single Redis the same layout applies; slots just don't matter
there.
"""

from __future__ import annotations

import functools
import os
import string
from binascii import crc_hqx

from redis.crc import REDIS_CLUSTER_HASH_SLOTS, key_slot

#: How many due-set buckets (and so slots) games are spread over.
BUCKETS = 64
#: Game ids: letters and digits only (never a leading "-" that a command line would take
#: for an option), 12 of them, 11 drawn at random: 62**11 > 2**65.
ID_ALPHABET = string.ascii_letters + string.digits
ID_LENGTH = 12
#: Random bytes that map evenly onto the alphabet (4 x 62 = 248): larger ones are redrawn.
_EVEN = 4 * len(ID_ALPHABET)


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
    the first last character that lands in a bucket (about 30 prefixes are tried)."""
    last_bytes = _last_bytes()
    while True:
        prefix = _random_characters(ID_LENGTH - 1)
        crc = crc_hqx(b"game:" + prefix.encode(), 0)
        high = crc >> 8
        for byte in last_bytes[crc & 0x3F]:
            last = chr(byte ^ high)
            if last in _ALPHABET:
                return prefix + last


@functools.cache
def _last_bytes() -> tuple[tuple[int, ...], ...]:
    """For each value of a CRC's low 6 bits, the bytes b such that a last character
    ``c = b ^ (crc >> 8)`` puts the id in a bucket's slot.

    CRC16 (XMODEM, as binascii.crc_hqx and Redis compute it) goes on over one more byte
    ``c`` as ``(crc << 8) ^ T[(crc >> 8) ^ c]`` (16 bits), where ``T[x]`` is the CRC of the
    byte x alone; a slot is the low 14 bits. So the slot is ``(low6 << 8) ^ T[b] & 0x3FFF``
    with ``b = (crc >> 8) ^ c``: which b land in a bucket depends on the low 6 bits only."""
    slots = bucket_slots()
    table = [crc_hqx(bytes([x]), 0) for x in range(256)]
    mask = REDIS_CLUSTER_HASH_SLOTS - 1
    return tuple(
        tuple(x for x in range(256) if ((low << 8) ^ table[x]) & mask in slots) for low in range(64)
    )


#: The alphabet as a set, to test a candidate last character.
_ALPHABET = frozenset(ID_ALPHABET)


def _random_characters(count: int) -> str:
    """``count`` characters of the alphabet, each equally likely, from the system's CSPRNG
    (one read of it, most of the time)."""
    chars: list[str] = []
    while len(chars) < count:
        chars += [ID_ALPHABET[b % len(ID_ALPHABET)] for b in os.urandom(2 * count) if b < _EVEN]
    return "".join(chars[:count])
