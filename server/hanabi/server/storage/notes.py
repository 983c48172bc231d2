"""Card notes in Redis: each seat's notes on cards, kept in the game's own hash.

A seat's notes are one field of the game's hash ``{game:<id>}:g`` (:mod:`.keys`):
``n<seat>``, a JSON object ``{"<card order>": "<text>"}``. Living in the game's hash puts
them in the game's Cluster slot, and the commit script's expiry of that hash is theirs
too: notes live exactly as long as their game, with no key of their own to keep in step.
A note never changes the game's version: writing one wakes no stream and tells nobody
else that anything happened.

One script (:data:`WRITE_NOTE_LUA`) writes or deletes a note atomically and enforces the
per-seat count, so two processes writing at once never pass the bound; writing the same
text twice is the same write (a PUT is idempotent).
"""

from __future__ import annotations

import orjson
import redis

from .keys import game_keys

# KEYS: g.  ARGV: the seat's field, the card order, the text ("": delete), the most notes
# the seat may hold.  Returns the seat's notes as JSON; -1 past the count; -2 no game.
WRITE_NOTE_LUA = """
if not redis.call('HGET', KEYS[1], 'v') then return -2 end
local raw = redis.call('HGET', KEYS[1], ARGV[1])
local notes = {}
if raw then notes = cjson.decode(raw) end
local had = notes[ARGV[2]] ~= nil
if ARGV[3] == '' then
  if not had then return raw or '{}' end
  notes[ARGV[2]] = nil
elseif not had then
  local n = 0
  for _ in pairs(notes) do n = n + 1 end
  if n >= tonumber(ARGV[4]) then return -1 end
  notes[ARGV[2]] = ARGV[3]
else
  notes[ARGV[2]] = ARGV[3]
end
if next(notes) == nil then
  redis.call('HDEL', KEYS[1], ARGV[1])
  return '{}'
end
local out = cjson.encode(notes)
redis.call('HSET', KEYS[1], ARGV[1], out)
return out
"""


class TooManyNotes(Exception):
    """The seat holds as many notes as it may."""


class NoGame(Exception):
    """The game is gone."""


def note_field(seat: int) -> str:
    """The field of the game's hash that holds ``seat``'s notes."""
    return f"n{seat}"


def parse(raw: bytes | str | None) -> dict[int, str]:
    """A seat's stored notes as {card order: text}."""
    if not raw:
        return {}
    return {int(order): text for order, text in orjson.loads(raw).items()}


class NoteStore:
    """The notes of every game, on one Redis or a Redis Cluster."""

    def __init__(self, client: redis.Redis) -> None:
        self.redis = client
        self._write = client.register_script(WRITE_NOTE_LUA)

    def write(self, game_id: str, seat: int, order: int, text: str, most: int) -> dict[int, str]:
        """Set (or with ``text`` empty, delete) ``seat``'s note on card ``order``; the
        seat's notes after. Raises :class:`TooManyNotes` past ``most``, :class:`NoGame`."""
        args = [note_field(seat), str(order), text, most]
        result = self._write(keys=[game_keys(game_id)[0]], args=args)
        if result == -1:
            raise TooManyNotes
        if result == -2:
            raise NoGame
        return parse(result)

    def raw(self, game_id: str, seat: int) -> bytes | None:
        """``seat``'s notes as stored (None: none), e.g. to tag a view with them."""
        return self.redis.hget(game_keys(game_id)[0], note_field(seat))

    def of_seat(self, game_id: str, seat: int) -> dict[int, str]:
        return parse(self.raw(game_id, seat))

    def of_seats(self, game_id: str, seats: int) -> list[dict[int, str]]:
        """Every seat's notes, by seat (one round trip)."""
        if seats == 0:
            return []
        fields = [note_field(seat) for seat in range(seats)]
        return [parse(raw) for raw in self.redis.hmget(game_keys(game_id)[0], fields)]
