// Login tokens in Redis (lib/auth/login-tokens.ts): SET with PX for the lifetime, taken by a read-and-delete
// script, so a link works on any instance and only once, even when two instances race for it. A script and
// not GETDEL: GETDEL needs Redis 6.2, and the Redis many Yunzai owners run (the Windows builds) is 5.
import type { LoginGrant, SharedTokenStore } from '../../auth/login-tokens.js'
import { key, type RedisLink } from './client.js'

/** GET then DEL in one step (scripts run alone). */
const TAKE = "local v = redis.call('GET', KEYS[1]) if v then redis.call('DEL', KEYS[1]) end return v"

export function redisLoginTokens (link: RedisLink): SharedTokenStore {
  const k = (token: string): string => key(`login:${token}`)
  return {
    async put (token, grant, ttlMs) {
      await link.cmd.set(k(token), JSON.stringify(grant), 'PX', ttlMs)
    },
    async take (token) {
      const raw = await link.cmd.eval(TAKE, 1, k(token))
      if (typeof raw !== 'string') return undefined
      const g = JSON.parse(raw) as Partial<LoginGrant>
      return typeof g.userId === 'string' ? { userId: g.userId, isMaster: g.isMaster === true } : undefined
    }
  }
}
