"""A single Redis that refuses what a Redis Cluster would refuse: a command or script
whose keys lie in more than one hash slot (``HANABI_CHECK_SLOTS=on``).

On a single Redis every key is on the one server, so a command that names keys of two
games, or a script that touches a game and a global key, works there and fails only on a
Cluster (``CROSSSLOT``), where few people try it. With the check on, such a call raises
the same error on a single Redis before it is sent. The test suite runs with it on, so
every test checks the key layout of every path it takes; the Cluster pass then needs only
what a Cluster does differently (nodes, redirections, per-node pub/sub).

Keys are found as redis-py's Cluster client finds them: Redis's own command table
(``COMMAND``), asked once per client (and ``COMMAND GETKEYS`` for the few commands whose
keys move); a script's keys are its ``numkeys`` arguments.
"""

from __future__ import annotations

from typing import Any

import redis
from redis._parsers import CommandsParser  # what redis-py's own Cluster client uses
from redis.client import Pipeline
from redis.crc import key_slot

#: Commands whose keys follow a ``numkeys`` argument (the script or function, then numkeys).
SCRIPTS = frozenset({"EVAL", "EVALSHA", "EVAL_RO", "EVALSHA_RO", "FCALL", "FCALL_RO"})


def _text(value: Any) -> str:
    return value.decode() if isinstance(value, bytes) else str(value)


class _Slots:
    """Finds a command's keys and refuses it when they hash to more than one slot."""

    def __init__(self, client: redis.Redis) -> None:
        self.client = client
        self._parser: CommandsParser | None = None

    def check(self, args: tuple[Any, ...]) -> None:
        keys = self.keys(args)
        if keys and len({key_slot(_key_bytes(k)) for k in keys}) > 1:
            shown = ", ".join(_text(k) for k in keys[:4])
            raise redis.exceptions.ResponseError(
                f"CROSSSLOT Keys in request don't hash to the same slot ({_text(args[0])} "
                f"{shown}; refused by HANABI_CHECK_SLOTS as a Redis Cluster would)"
            )

    def keys(self, args: tuple[Any, ...]) -> list[Any]:
        name = _text(args[0]).upper()
        if name in SCRIPTS:
            return list(args[3 : 3 + int(args[2])])
        if len(args) < 3:  # a command of one key (or none) cannot span slots
            return []
        if self._parser is None:
            self._parser = CommandsParser(self.client)
        words = (a if isinstance(a, str | bytes) else str(a) for a in args)  # SCAN 0 ...
        return list(self._parser.get_keys(self.client, *words) or [])


def _key_bytes(key: Any) -> bytes:
    if isinstance(key, bytes):
        return key
    return str(key).encode()


class SlotCheckedPipeline(Pipeline):
    """A pipeline whose every queued command is checked (the pipelines here are not
    transactions, so each command on its own must keep to one slot)."""

    slots: _Slots

    def execute_command(self, *args: Any, **options: Any) -> Any:
        self.slots.check(args)
        return super().execute_command(*args, **options)


class SlotCheckedRedis(redis.Redis):
    """A client of a single Redis that refuses cross-slot commands, scripts and pipelined
    commands as a Cluster does."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._slots = _Slots(redis.Redis(connection_pool=self.connection_pool))

    def execute_command(self, *args: Any, **options: Any) -> Any:
        self._slots.check(args)
        return super().execute_command(*args, **options)

    def pipeline(self, transaction: bool = True, shard_hint: Any = None) -> Pipeline:
        pipe = SlotCheckedPipeline(
            self.connection_pool, self.response_callbacks, transaction, shard_hint
        )
        pipe.slots = self._slots
        return pipe
