"""Clocks the server keeps: timed games (a Fischer clock per seat) and idle games.

A game may be timed (``options.timer``: ``base`` seconds per seat, plus ``per_turn``
seconds after each of the seat's moves) and always has an idle limit
(``options.idle_limit`` seconds without a move; default ``HANABI_IDLE_END``). The clocks
are Redis's, not any API node's: the commit script (:data:`CLOCK_LUA`, part of
:data:`~hanabi.server.store.COMMIT_LUA`) reads ``TIME`` and does all the arithmetic, so
nodes whose clocks disagree still agree on every clock. Per game it keeps in the game's
hash:

``ts``    when the current turn started (ms, Redis time);
``left``  each seat's time left at that moment (ms, comma-separated; empty if untimed);
``dl``    the game's deadline (ms): when the seat to move runs out of time, or the game
          has been idle for its limit, whichever comes first; none while a bot is to move
          (bots play at once and never time out).

The deadline also goes into the bucket's deadlines set (beside the bots' due set, in the
game's slot), where the workers of :mod:`hanabi.server.deadlines` find it. The commit that
moves the turn moves the clocks: it charges the mover the time since ``ts`` and gives
them ``per_turn``, and it refuses a move made once the deadline has passed (-3: the late
move loses the race); the commit that ends a game by its deadline is accepted only once
the deadline has passed (-4 before it) and, like any commit, only at the version it read,
so a move made in time always wins. The script appends ``{"ts", "left", "dl"}`` to the
game's state blob as ``clock``, so reads see it without another round trip.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

import redis

from . import redis_errors
from .problems import ApiError, plural

#: Runs in COMMIT_LUA after the version check, before any write. ARGV[11] is the change
#: (:func:`clock_change`): "mover,per_turn,next,next_is_human,idle,base,seats,expire" in ms
#: (mover -1: nobody to charge; next -1: the game is over; base > 0: start every clock).
#: Sets ``clock``: the JSON appended to the blob ("" when the game has no clock).
CLOCK_LUA = """
local clock = ''
local dl = redis.call('HGET', KEYS[1], 'dl')
dl = dl and tonumber(dl)
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
if ARGV[11] ~= '' then
  local f = {}
  for x in string.gmatch(ARGV[11], '[^,]+') do f[#f + 1] = tonumber(x) end
  local mover, per, nxt, human, idle, base, n = f[1], f[2], f[3], f[4], f[5], f[6], f[7]
  if f[8] == 1 and (not dl or now < dl) then return -4 end
  if mover >= 0 and dl and now >= dl then return -3 end
  if nxt < 0 then
    redis.call('HDEL', KEYS[1], 'ts', 'left', 'dl')
    redis.call('ZREM', KEYS[5], ARGV[6])
  else
    local left = {}
    if base > 0 then
      for i = 1, n do left[i] = base end
    else
      local stored = redis.call('HGET', KEYS[1], 'left')
      if stored then
        for x in string.gmatch(stored, '[^,]+') do left[#left + 1] = tonumber(x) end
      end
    end
    if mover >= 0 and #left > mover then
      local ts = tonumber(redis.call('HGET', KEYS[1], 'ts') or now)
      left[mover + 1] = left[mover + 1] - (now - ts) + per
    end
    dl = nil
    if human == 1 then
      if idle > 0 then dl = now + idle end
      if #left > nxt and (not dl or now + left[nxt + 1] < dl) then dl = now + left[nxt + 1] end
    end
    redis.call('HSET', KEYS[1], 'ts', now, 'left', table.concat(left, ','))
    if dl then
      redis.call('HSET', KEYS[1], 'dl', dl)
      redis.call('ZADD', KEYS[5], dl, ARGV[6])
    else
      redis.call('HDEL', KEYS[1], 'dl')
      redis.call('ZREM', KEYS[5], ARGV[6])
    end
  end
end
local ts = redis.call('HGET', KEYS[1], 'ts')
if ts then
  clock = '{"ts":' .. ts .. ',"left":[' .. (redis.call('HGET', KEYS[1], 'left') or '')
    .. '],"dl":' .. (redis.call('HGET', KEYS[1], 'dl') or 'null') .. '}'
end
"""


def iso(ms: int) -> str:
    """RFC 3339 in UTC, to the millisecond."""
    return datetime.fromtimestamp(ms / 1000, UTC).isoformat(timespec="milliseconds")[:-6] + "Z"


class DeadlinePassed(Exception):
    """A move reached Redis after the game's deadline: the deadline wins."""


class NotDue(Exception):
    """An expiry reached Redis before the game's deadline (or after a move moved it)."""


def timing_of(options: dict[str, Any], config: dict[str, Any]) -> dict[str, Any]:
    """The timing settings of a new game from its create options (which lose them: the
    engine knows no clocks); 400 ``invalid_option`` past the server's limits."""
    idle = options.pop("idle_limit", None)
    timer = options.pop("timer", None)
    if idle is None:
        idle = config["HANABI_IDLE_END"]
    elif idle > config["HANABI_IDLE_MAX"]:
        raise ApiError(
            400, "invalid_option",
            f"idle_limit may be at most {plural(config['HANABI_IDLE_MAX'], 'second')} on "
            "this server.",
        )  # fmt: skip
    if timer is not None and timer["base"] < config["HANABI_TIMER_MIN_BASE"]:
        raise ApiError(
            400, "invalid_option",
            f"timer.base must be at least {plural(config['HANABI_TIMER_MIN_BASE'], 'second')}.",
        )  # fmt: skip
    return {"idle_limit": idle, "timer": None if timer is None else dict(timer)}


def timing_options(record: Any) -> dict[str, Any]:
    """The view's ``options.idle_limit`` and ``options.timer`` (0 and null for games from
    before clocks)."""
    timing = record.timing or {}
    return {"idle_limit": timing.get("idle_limit", 0), "timer": timing.get("timer")}


def clock_change(record: Any, old_status: str | None, old_turn: int, expire: bool) -> str:
    """The clock change a commit makes (ARGV of :data:`CLOCK_LUA`): "" when the turn did
    not move (chat, votes, lobby changes)."""
    if record.status == "finished":
        return f"-1,0,-1,0,0,0,0,{int(expire)}" if old_status == "playing" else ""
    if record.status != "playing" or not record.players:
        return ""
    timing = record.timing or {}
    timer = timing.get("timer")
    n = len(record.players)
    base = 0
    if old_status == "lobby":
        mover = -1
        base = timer["base"] * 1000 if timer else 0
    elif record.turn != old_turn:
        seat = old_turn % n
        mover = seat if record.players[seat].bot is None else -1
    else:
        return ""
    per = timer["per_turn"] * 1000 if timer else 0
    nxt = record.turn % n
    human = int(record.players[nxt].bot is None)
    idle = timing.get("idle_limit", 0) * 1000
    return f"{mover},{per},{nxt},{human},{idle},{base},{n},0"


@dataclass(frozen=True)
class ClockState:
    """What the view's time keys depend on (kept beside a cached view)."""

    status: str
    turn: int
    clock: dict[str, Any] | None
    people: tuple[bool, ...]  # per seat: a person (whose clock runs), not a bot

    @classmethod
    def of(cls, record: Any) -> ClockState:
        people = tuple(p.bot is None for p in record.players)
        return cls(record.status, record.turn, record.clock, people)


def clocks_view(record: Any, now: int) -> dict[str, Any]:
    """The view's time keys as of ``now`` (ms, Redis time): ``clocks`` (seconds left per
    seat, the running one counted down to now; null if untimed), ``deadline`` and
    ``server_time`` (RFC 3339, UTC). ``record``: a record or its :class:`ClockState`."""
    state = record if isinstance(record, ClockState) else ClockState.of(record)
    out: dict[str, Any] = {"clocks": None, "deadline": None, "server_time": iso(now)}
    clock = state.clock
    if state.status != "playing" or not clock or not state.people:
        return out
    current = state.turn % len(state.people)
    left = []
    for seat, ms in enumerate(clock["left"]):
        if seat == current and state.people[seat]:
            ms -= max(0, now - clock["ts"])
        left.append(round(max(0, ms) / 1000, 3))
    out["clocks"] = left or None
    out["deadline"] = None if clock["dl"] is None else iso(clock["dl"])
    return out


class ServerTime:
    """Redis's clock as this process sees it: the local clock plus an offset measured with
    ``TIME`` now and then, so views and deadline claims agree with the commit script."""

    REFRESH = 30.0  # seconds between measurements

    def __init__(self, client: redis.Redis) -> None:
        self.redis = client
        self.offset = 0.0
        self.checked = float("-inf")

    def now_ms(self) -> int:
        local = time.monotonic()
        if local - self.checked > self.REFRESH:
            try:
                before = time.time()
                seconds, micros = self.redis.time()
                after = time.time()
                self.offset = seconds * 1000 + micros / 1000 - (before + after) * 500
                self.checked = local
            except redis_errors.ERRORS:
                pass  # the last offset will do until Redis answers
        return int(time.time() * 1000 + self.offset)
