// A lock across instances (for work that must be done once, such as a reminder that is due): SET NX PX
// with a random token; only the holder's token releases it, in one script, so a lock that expired and was
// taken by another instance is never released by the first.
import { randomBytes } from 'node:crypto'
import { key, type RedisLink } from './client.js'

// (Lua's `redis` is the script's API, not the host's global.)
const RELEASE = `
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0
`

export interface HeldLock {
  name: string
  /** Frees the lock; false when it had expired (another instance may hold it now). */
  release(): Promise<boolean>
}

/** Takes `name` for at most `ttlMs`; undefined when another holder has it. */
export async function tryLock (link: RedisLink, name: string, ttlMs: number): Promise<HeldLock | undefined> {
  const k = key(`lock:${name}`)
  const token = randomBytes(16).toString('base64url')
  const ok = await link.cmd.set(k, token, 'PX', ttlMs, 'NX')
  if (ok !== 'OK') return undefined
  return { name, release: async () => (await link.cmd.eval(RELEASE, 1, k, token)) === 1 }
}
