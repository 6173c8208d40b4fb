"""The cluster's Redis scripts (Lua, each run atomically by Redis) and two small helpers."""

from __future__ import annotations

import time
from typing import Any

ACQUIRE = """
if redis.call('exists', KEYS[1]) == 1 then return {0, redis.call('get', KEYS[1])} end
local epoch = redis.call('incr', KEYS[2])
redis.call('set', KEYS[1], ARGV[1] .. ':' .. epoch, 'PX', ARGV[2])
redis.call('zadd', KEYS[3], ARGV[3], ARGV[4])
return {1, epoch}
"""
RENEW = """
if redis.call('get', KEYS[1]) == ARGV[1] then
  redis.call('pexpire', KEYS[1], ARGV[2])
  redis.call('zadd', KEYS[2], ARGV[3], ARGV[4])
  return 1
end
return 0
"""
RELEASE = """
if redis.call('get', KEYS[1]) == ARGV[1] then
  redis.call('del', KEYS[1])
  redis.call('zadd', KEYS[2], ARGV[2], ARGV[3])
  return 1
end
return 0
"""

_NOW_MS = """
local t = redis.call('time')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
"""
PASSWORD_WAIT = (
    _NOW_MS
    + """
local wait = 0
for _, key in ipairs(KEYS) do
  local v = redis.call('hmget', key, 'last', 'until')
  if v[1] then
    if now - tonumber(v[1]) > tonumber(ARGV[1]) then redis.call('del', key)
    else wait = math.max(wait, tonumber(v[2] or '0') - now) end
  end
end
return wait
"""
)
PASSWORD_FAILED = (
    _NOW_MS
    + """
local free, first, most, window = tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3]), tonumber(ARGV[4])
for _, key in ipairs(KEYS) do
  local v = redis.call('hmget', key, 'count', 'last', 'until')
  local count, blocked = tonumber(v[1] or '0'), tonumber(v[3] or '0')
  if v[2] and now - tonumber(v[2]) > window then count, blocked = 0, 0 end
  count = count + 1
  if count >= free then blocked = now + math.min(most, first * 2 ^ (count - free)) end
  redis.call('hset', key, 'count', count, 'last', now, 'until', blocked)
  redis.call('pexpire', key, window + most)
end
return 1
"""
)

CATCH_UP = """
if tonumber(redis.call('get', KEYS[1]) or '0') < tonumber(ARGV[1]) then redis.call('set', KEYS[1], ARGV[1]) end
return 1
"""


def text(value: Any) -> str:
    """A Redis reply as text."""
    return value.decode() if isinstance(value, bytes) else str(value)


def now_ms() -> int:
    """Wall-clock epoch milliseconds (lease expiries and lobby stamps, shared by every node)."""
    return int(time.time() * 1000)
