"""An imported game's notes, written once into its game hash (:mod:`.notes` keeps the
layout: field ``n<seat>`` of ``{game:<id>}:g``, JSON ``{"<card order>": "<text>"}``), so
they live and expire with the game like notes written at the table."""

from __future__ import annotations

import orjson
import redis

from .keys import game_keys
from .notes import note_field


class ImportStore:
    """Writes what an import brings besides the game itself."""

    def __init__(self, client: redis.Redis) -> None:
        self.redis = client

    def put_notes(self, game_id: str, notes: list[dict[int, str]]) -> None:
        fields = {
            note_field(seat): orjson.dumps({str(order): text for order, text in texts.items()})
            for seat, texts in enumerate(notes)
            if texts
        }
        if fields:  # one key: the game's hash
            self.redis.hset(game_keys(game_id)[0], mapping=fields)
