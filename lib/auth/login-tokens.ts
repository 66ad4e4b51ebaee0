// Temporary login tokens issued by the master's bot command: 32 random bytes, single use, 5 minutes.
// Kept in memory only: a restart invalidates outstanding links, which is the safe direction.
import { randomBytes } from 'node:crypto'
import { type Clock, systemClock } from '../core/clock.js'

export interface LoginGrant { userId: string; isMaster: boolean }

const LOGIN_TOKEN_TTL_MS = 5 * 60 * 1000

export class LoginTokens {
  private readonly tokens = new Map<string, LoginGrant & { expiresAt: number }>()

  constructor (private readonly clock: Clock = systemClock, private readonly ttlMs = LOGIN_TOKEN_TTL_MS) {}

  issue (grant: LoginGrant): { token: string; expiresAt: number } {
    this.prune()
    const token = randomBytes(32).toString('base64url')
    const expiresAt = this.clock.now() + this.ttlMs
    this.tokens.set(token, { ...grant, expiresAt })
    return { token, expiresAt }
  }

  /** Returns the grant and forgets the token; undefined when unknown, used or expired. */
  consume (token: string): LoginGrant | undefined {
    const entry = this.tokens.get(token)
    if (!entry) return undefined
    this.tokens.delete(token)
    if (entry.expiresAt <= this.clock.now()) return undefined
    return { userId: entry.userId, isMaster: entry.isMaster }
  }

  private prune (): void {
    const now = this.clock.now()
    for (const [k, v] of this.tokens) if (v.expiresAt <= now) this.tokens.delete(k)
  }
}
