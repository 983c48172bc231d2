"""The Lua scripts that change a game, each one atomic step on the game's node.

Every change is one commit (:data:`COMMIT_LUA`) that checks the version it read, so
concurrent writers in any number of processes never lose or double a change; the loser
re-reads and retries. The commit also refreshes every key's expiry, keeps the bucket's
due set of bot turns and its deadlines (:mod:`.keys`), and publishes the new version on
the game's channel for long-polls and streams (``SPUBLISH``, sharded pub/sub, where the
server has it: Redis 7 and later; else ``PUBLISH``).

Bot turns: a commit that leaves a bot to move adds the game to its bucket's due set (due
now) in the same script, and publishes a wake-up on :data:`~.keys.BOTS_WAKE`: a due bot
turn is never lost between a commit and its enqueueing, and no script touches two slots.
A commit that leaves a person to move (or ends or deletes the game) removes it. A worker
claims a game by moving its score to now + lease (:data:`CLAIM_LUA`), and a claim whose
worker died simply comes due again when the lease runs out.

Clocks: the commit script reads Redis's ``TIME`` and does all the arithmetic
(:data:`CLOCK_LUA`), so nodes whose clocks disagree still agree on every clock. Per game
it keeps in the game's hash:

``ts``    when the current turn started (ms, Redis time);
``left``  each seat's time left at that moment (ms, comma-separated; empty if untimed);
``dl``    the game's deadline (ms): when the seat to move runs out of time, or the game
          has been idle for its limit, whichever comes first; none while a bot is to move
          (bots play at once and never time out).

The deadline also goes into the bucket's deadlines set (beside the due set, in the game's
slot). The commit that moves the turn moves the clocks: it charges the mover the time
since ``ts`` and gives them ``per_turn``, and it refuses a move made once the deadline has
passed (-3: the late move loses the race); the commit that ends a game by its deadline is
accepted only once the deadline has passed (-4 before it) and, like any commit, only at
the version it read, so a move made in time always wins. The script appends ``{"ts",
"left", "dl"}`` to the game's state blob as ``clock``, so reads see it without another
round trip.
"""

from __future__ import annotations

from .keys import BOTS_WAKE
from .record import GameStatus, Record, SeatKind

#: Runs in COMMIT_LUA after the version check, before any write. ARGV[11] is the change
#: (:func:`clock_change`): "mover,per_turn,next,next_is_human,idle,base,seats,expire[,reset]"
#: in ms (mover -1: nobody to charge; next -1: the game is over; base > 0: start every
#: clock; reset > 0: a per-move clock, every seat's clock back to it after each move).
#: ``P`` pauses (keeps the moment as ``ps`` and the deadline as ``pd``, and takes it off the
#: deadlines set) and ``R`` goes on (moves ``ts`` and the deadline on by the time paused);
#: see hanabi.server.table.pause.
#: Sets ``clock``: the JSON appended to the blob ("" when the game has no clock; ``ps``
#: in it while paused).
CLOCK_LUA = """
local clock = ''
local dl = redis.call('HGET', KEYS[1], 'dl')
dl = dl and tonumber(dl)
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
if ARGV[11] == 'P' then
  if dl and now >= dl then return -3 end
  if not redis.call('HGET', KEYS[1], 'ps') and redis.call('HGET', KEYS[1], 'ts') then
    redis.call('HSET', KEYS[1], 'ps', now)
    if dl then redis.call('HSET', KEYS[1], 'pd', dl) end
    redis.call('HDEL', KEYS[1], 'dl')
    redis.call('ZREM', KEYS[5], ARGV[6])
  end
elseif ARGV[11] == 'R' then
  local ps = redis.call('HGET', KEYS[1], 'ps')
  if ps then
    local shift = now - tonumber(ps)
    local ts = redis.call('HGET', KEYS[1], 'ts')
    if ts then redis.call('HSET', KEYS[1], 'ts', tonumber(ts) + shift) end
    local pd = redis.call('HGET', KEYS[1], 'pd')
    if pd then
      redis.call('HSET', KEYS[1], 'dl', tonumber(pd) + shift)
      redis.call('ZADD', KEYS[5], tonumber(pd) + shift, ARGV[6])
    end
    redis.call('HDEL', KEYS[1], 'ps', 'pd')
  end
elseif ARGV[11] ~= '' then
  local f = {}
  for x in string.gmatch(ARGV[11], '[^,]+') do f[#f + 1] = tonumber(x) end
  local mover, per, nxt, human, idle, base, n = f[1], f[2], f[3], f[4], f[5], f[6], f[7]
  if f[8] == 1 and (not dl or now < dl) then return -4 end
  if mover >= 0 and dl and now >= dl then return -3 end
  if nxt < 0 then
    redis.call('HDEL', KEYS[1], 'ts', 'left', 'dl', 'ps', 'pd')
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
    if (f[9] or 0) > 0 then
      for i = 1, n do left[i] = f[9] end
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
  local ps = redis.call('HGET', KEYS[1], 'ps')
  clock = '{"ts":' .. ts .. ',"left":[' .. (redis.call('HGET', KEYS[1], 'left') or '')
    .. '],"dl":' .. (redis.call('HGET', KEYS[1], 'dl') or 'null')
    .. (ps and (',"ps":' .. ps) or '') .. '}'
end
"""


# KEYS: the listing's version.  ARGV: publish command, the listing's channel.
LISTING_LUA = """
local version = redis.call('INCR', KEYS[1])
redis.call(ARGV[1], ARGV[2], version)
return version
"""

# KEYS: g, a, e, the bucket's bots due set, the bucket's deadlines (all in the game's slot).
# ARGV: expected version ("0": create), players, blob, ttl ms, mode, game id, bot ("0": no
# bot to move, "1": a bot is due, "2": a bot is due and this commit is a bot worker's, so
# any claim of the game is over), now ms, publish command (SPUBLISH or PUBLISH), the game's
# channel, the clock change ("": none; see CLOCK_LUA), number of
# action entries, action entries..., event entries...
# mode: "keep" (append), "archive" (drop the lists), "delete" (drop the game).
# Returns {new version, the clock appended to the blob ("": none)}; on a version conflict
# {version, players, blob} as stored now (so the writer can retry without another read);
# -2 if the game is gone; -3 a move after the game's deadline; -4 an expiry not yet due.
COMMIT_LUA = """
local v = redis.call('HGET', KEYS[1], 'v')
if ARGV[1] == '0' then
  if v then return -1 end
elseif not v then
  return -2
elseif v ~= ARGV[1] then
  return redis.call('HMGET', KEYS[1], 'v', 'p', 's')
end
local nv = tonumber(ARGV[1]) + 1
CLOCK_LUA
if ARGV[5] == 'delete' then
  redis.call('DEL', KEYS[1], KEYS[2], KEYS[3])
  redis.call('ZREM', KEYS[5], ARGV[6])
else
  local blob = ARGV[3]
  if clock ~= '' and string.sub(blob, 1, 1) == 'J' then
    blob = string.sub(blob, 1, -2) .. ',"clock":' .. clock .. '}'
  end
  redis.call('HSET', KEYS[1], 'v', nv, 'p', ARGV[2], 's', blob)
  local na = tonumber(ARGV[12])
  if ARGV[5] == 'archive' then
    redis.call('DEL', KEYS[2], KEYS[3])
  else
    if na > 0 then redis.call('RPUSH', KEYS[2], unpack(ARGV, 13, 12 + na)) end
    if #ARGV > 12 + na then redis.call('RPUSH', KEYS[3], unpack(ARGV, 13 + na, #ARGV)) end
    redis.call('PEXPIRE', KEYS[2], ARGV[4])
    redis.call('PEXPIRE', KEYS[3], ARGV[4])
  end
  redis.call('PEXPIRE', KEYS[1], ARGV[4])
end
if ARGV[7] == '0' or ARGV[5] == 'delete' then
  redis.call('ZREM', KEYS[4], ARGV[6])
else
  -- "1" keeps a worker's claim (NX): a chat line must not hand the turn to a second worker
  if ARGV[7] == '2' then
    redis.call('ZADD', KEYS[4], ARGV[8], ARGV[6])
  else
    redis.call('ZADD', KEYS[4], 'NX', ARGV[8], ARGV[6])
  end
  redis.call('PUBLISH', 'BOTS_WAKE', ARGV[6])
end
redis.call(ARGV[9], ARGV[10], nv)
return {nv, clock}
""".replace("BOTS_WAKE", BOTS_WAKE).replace("CLOCK_LUA", CLOCK_LUA)


# KEYS: bots due.  ARGV: now ms, lease ms.  The first game due by now, re-scored to
# now + lease (claimed), or nil.
CLAIM_LUA = """
local due = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', ARGV[1], 'LIMIT', 0, 1)
if #due == 0 then return false end
redis.call('ZADD', KEYS[1], tonumber(ARGV[1]) + tonumber(ARGV[2]), due[1])
return due[1]
"""

# KEYS: a bucket's due set.  ARGV: game id, now ms, lease ms.  1: the game was due by now
# and is claimed (re-scored to now + lease); 0: it is not due, or someone holds its claim.
CLAIM_GAME_LUA = """
local score = redis.call('ZSCORE', KEYS[1], ARGV[1])
if not score or tonumber(score) > tonumber(ARGV[2]) then return 0 end
redis.call('ZADD', KEYS[1], tonumber(ARGV[2]) + tonumber(ARGV[3]), ARGV[1])
return 1
"""

# KEYS: g, bots due.  ARGV: game id, the version the worker found ("": no game), now ms.
# A worker that found no bot to move drops the game from the due set, unless a commit came
# in since it looked (then the game is due again at once: that commit's bot may be due).
RELEASE_LUA = """
local v = redis.call('HGET', KEYS[1], 'v')
if (not v and ARGV[2] == '') or v == ARGV[2] then
  redis.call('ZREM', KEYS[2], ARGV[1])
  return 1
end
redis.call('ZADD', KEYS[2], ARGV[3], ARGV[1])
return 0
"""


# KEYS: g, deadlines.  ARGV: game id.  A worker that ended nothing puts the game back at
# the deadline its hash holds now (or takes it off the set if it has none).
RESTORE_DEADLINE_LUA = """
local dl = redis.call('HGET', KEYS[1], 'dl')
if dl then
  redis.call('ZADD', KEYS[2], dl, ARGV[1])
  return 1
end
redis.call('ZREM', KEYS[2], ARGV[1])
return 0
"""


#: The clock changes of a pause and of its end (:mod:`hanabi.server.table.pause`).
PAUSE, RESUME = "P", "R"


def clock_change(
    record: Record, old_status: GameStatus | None, old_turn: int, ends_by_deadline: bool
) -> str:
    """The clock change a commit makes (ARGV of :data:`CLOCK_LUA`): "" when the turn did
    not move (chat, votes, lobby changes)."""
    if record.status is GameStatus.FINISHED:
        return (
            f"-1,0,-1,0,0,0,0,{int(ends_by_deadline)}" if old_status is GameStatus.PLAYING else ""
        )
    if record.status is not GameStatus.PLAYING or not record.players:
        return ""
    timing = record.timing or {}
    timer = timing.get("timer")
    reset = (timing.get("move_clock") or 0) * 1000  # a turn-based table (table/turns.py)
    n = len(record.players)
    base = 0
    if old_status is GameStatus.LOBBY:
        mover = -1
        base = timer["base"] * 1000 if timer else reset
    elif record.turn != old_turn:
        seat = old_turn % n
        mover = seat if record.players[seat].kind is SeatKind.PERSON else -1
    else:
        return ""
    per = timer["per_turn"] * 1000 if timer else 0
    nxt = record.turn % n
    human = int(record.players[nxt].kind is SeatKind.PERSON)
    idle = timing.get("idle_limit", 0) * 1000
    tail = f",{reset}" if reset else ""
    return f"{mover},{per},{nxt},{human},{idle},{base},{n},0{tail}"
