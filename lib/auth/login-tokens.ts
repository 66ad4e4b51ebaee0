// Temporary login tokens issued by the master's bot command: 32 random bytes, single use, 5 minutes.
// Kept in memory by default: a restart invalidates outstanding links, which is the safe direction.
// With Redis (lib/storage/README.md, "Redis") they are kept there instead, so a link issued by one
// instance works on another, once: the shared store answers a token to the first taker only.
import { randomBytes } from 'node:crypto'
import { type Clock, systemClock } from '../core/clock.js'
import { TERMINAL_USER } from './terminal-links.js'

export interface LoginGrant { userId: string; isMaster: boolean }

/** Where tokens live when several instances share them (lib/storage/redis/login-tokens.ts). */
export interface SharedTokenStore {
  put(token: string, grant: LoginGrant, ttlMs: number): Promise<void>
  /** The grant, removed in the same step (a second taker gets undefined); undefined when unknown or expired. */
  take(token: string): Promise<LoginGrant | undefined>
}

/** Tokens written by `npm run login-link` (terminal-links.ts): taken once, by the plugin's clock. */
export interface TerminalTokenSource { take(token: string): Promise<boolean> }

export const LOGIN_TOKEN_TTL_MS = 5 * 60 * 1000

export class LoginTokens {
  private readonly tokens = new Map<string, LoginGrant & { expiresAt: number }>()
  /** Shared writes still under way, by token (issue() stays synchronous for the bot command). */
  private readonly writing = new Map<string, Promise<void>>()

  constructor (private readonly clock: Clock = systemClock, private readonly ttlMs = LOGIN_TOKEN_TTL_MS, private readonly shared?: SharedTokenStore, private readonly terminal?: TerminalTokenSource) {}

  issue (grant: LoginGrant): { token: string; expiresAt: number } {
    const token = randomBytes(32).toString('base64url')
    const expiresAt = this.clock.now() + this.ttlMs
    if (this.shared) {
      // A failed write leaves a link that no instance accepts: the master asks again.
      const w = this.shared.put(token, { userId: grant.userId, isMaster: grant.isMaster }, this.ttlMs)
        .catch(() => {}).finally(() => this.writing.delete(token))
      this.writing.set(token, w)
      return { token, expiresAt }
    }
    this.prune()
    this.tokens.set(token, { ...grant, expiresAt })
    return { token, expiresAt }
  }

  /** Returns the grant and forgets the token; undefined when unknown, used or expired. */
  async consume (token: string): Promise<LoginGrant | undefined> {
    const grant = await this.consumeIssued(token)
    if (grant || !this.terminal) return grant
    return (await this.terminal.take(token)) ? { userId: TERMINAL_USER, isMaster: true } : undefined
  }

  private async consumeIssued (token: string): Promise<LoginGrant | undefined> {
    if (this.shared) {
      await this.writing.get(token)
      return await this.shared.take(token)
    }
    const entry = this.tokens.get(token)
    if (!entry) return undefined
    this.tokens.delete(token)
    if (entry.expiresAt <= this.clock.now()) return undefined
    return { userId: entry.userId, isMaster: entry.isMaster }
  }

  /** Resolves when every token issued so far is in the shared store (tests that log in elsewhere). */
  async settled (): Promise<void> { await Promise.all(this.writing.values()) }

  private prune (): void {
    const now = this.clock.now()
    for (const [k, v] of this.tokens) if (v.expiresAt <= now) this.tokens.delete(k)
  }
}
