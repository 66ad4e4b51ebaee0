// Sessions shared through Redis (lib/auth/sessions.ts): the signing secret is created once by whichever
// instance comes first (SET NX) and read by the others; revocations are a sorted set (jti scored by the
// token's end, pruned as they pass) plus a notice on `lingxi:changes`, so a logout on one instance is
// refused on every other within moments. Each instance mirrors the set in memory: every request asks.
import { randomBytes } from 'node:crypto'
import type { RevocationStore, SharedSessions } from '../../auth/sessions.js'
import type { Clock } from '../../core/clock.js'
import type { ChangeNotices } from './changes.js'
import { key, type RedisLink } from './client.js'

const SECRET = key('sessions:secret')
const REVOKED = key('sessions:revoked')

export async function redisSessions (link: RedisLink, changes: ChangeNotices, clock: Clock): Promise<SharedSessions> {
  await link.cmd.set(SECRET, randomBytes(48).toString('base64url'), 'NX')
  const secret = await link.cmd.get(SECRET)
  if (!secret) throw new Error('Redis lost the session secret just written (is it read-only or evicting keys?)')

  const known = new Map<string, number>()
  const load = async (): Promise<string[]> => {
    const now = clock.now()
    await link.cmd.zremrangebyscore(REVOKED, '-inf', String(now))
    const flat = await link.cmd.zrange(REVOKED, '0', '-1', 'WITHSCORES')
    const fresh: string[] = []
    for (let i = 0; i + 1 < flat.length; i += 2) {
      const jti = flat[i] as string
      if (!known.has(jti)) fresh.push(jti)
      known.set(jti, Number(flat[i + 1]))
    }
    return fresh
  }
  await load()

  const remote = new Set<(jti: string) => void>()
  const tell = (jti: string): void => { for (const fn of remote) fn(jti) }
  changes.on('revocations', (n) => {
    if (n.jti && n.exp !== undefined) { if (!known.has(n.jti)) { known.set(n.jti, n.exp * 1000); tell(n.jti) } return }
    void load().then((fresh) => fresh.forEach(tell), () => {})
  })
  // After a break the notices sent meanwhile are lost: read the set again.
  changes.onReconnect(() => { void load().then((fresh) => fresh.forEach(tell), () => {}) })

  const revocations: RevocationStore = {
    has (jti) {
      const exp = known.get(jti)
      if (exp === undefined) return false
      if (exp <= clock.now()) { known.delete(jti); return true }
      return true
    },
    async add (jti, exp) {
      known.set(jti, exp * 1000)
      await link.cmd.zadd(REVOKED, exp * 1000, jti)
      await changes.publish({ kind: 'revocations', jti, exp })
    },
    onRemote (fn) { remote.add(fn); return () => { remote.delete(fn) } }
  }
  return { secret, revocations }
}
