"""What a table session's helper threads tell its main thread (see :mod:`.session`): one
queue of messages, read in the order they came, so drawing and sending never interleave."""

from __future__ import annotations

import queue
from dataclasses import dataclass, field
from enum import Enum
from typing import Any


class MessageKind(Enum):
    """What came: from the follower (:mod:`.follow`) or the keyboard (:mod:`.keyboard`)."""

    VIEW = "view"  # a view of the table; streamed, with the events that led to it
    POLLING = "polling"  # no event stream: views come from long-polls, events are asked for
    DOWN = "down"  # the server is away (payload: the failure); the follower keeps trying
    UP = "up"  # the server is back
    FATAL = "fatal"  # the table cannot be followed any more (payload: the ApiError)
    LINE = "line"  # a line typed
    KEY = "key"  # keys pressed (watching on a terminal: single keys, no Enter)
    EOF = "eof"  # the input closed


@dataclass(frozen=True)
class Message:
    kind: MessageKind
    payload: Any = None
    events: list[dict[str, Any]] = field(default_factory=list)


Inbox = queue.Queue[Message]
