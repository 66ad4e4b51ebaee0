// Rate limits counted in Redis (lib/core/rate-limit.ts, SharedWindow): the same sliding window as the
// in-process one, as a sorted set of hit times per key, checked and added in one script so two instances
// cannot both take the last place.
import { randomUUID } from 'node:crypto'
import type { SharedWindow } from '../../core/rate-limit.js'
import { key, type RedisLink } from './client.js'

// KEYS[1] the window; ARGV now, windowMs, limit (<= 0: none), add (1/0), a unique member.
// Answers { added, count, oldest hit or '' }. (Lua's `redis` is the script's API, not the host's global.)
const HIT = `
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', tonumber(ARGV[1]) - tonumber(ARGV[2]))
local n = redis.call('ZCARD', KEYS[1])
local added = 0
if ARGV[4] == '1' and (tonumber(ARGV[3]) <= 0 or n < tonumber(ARGV[3])) then
  redis.call('ZADD', KEYS[1], ARGV[1], ARGV[5])
  redis.call('PEXPIRE', KEYS[1], ARGV[2])
  n = n + 1
  added = 1
end
local first = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')
return { added, n, first[2] or '' }
`

/** A window named `name` (one per limiter: chat, login, ...). */
export function redisWindow (link: RedisLink, name: string): SharedWindow {
  const k = (id: string): string => key(`limit:${name}:${id}`)
  return {
    async hit (id, o) {
      const r = await link.cmd.eval(HIT, 1, k(id), o.now, o.windowMs, o.limit, o.add ? 1 : 0, randomUUID()) as [number, number, string]
      return { added: r[0] === 1, count: r[1], oldest: r[2] === '' ? undefined : Number(r[2]) }
    }
  }
}
