// Session tokens: HS256 JWTs signed with a random secret kept in the data folder (mode 0600, never read
// through a symlink: a planted link is moved aside and a new secret made, ending every session), a `jti`
// on every token, and revocation by jti persisted until the token would have expired anyway.
import { randomBytes, randomUUID } from 'node:crypto'
import { basename, join } from 'node:path'
import jwt from 'jsonwebtoken'
import { type Clock, systemClock } from '../core/clock.js'
import { Listeners } from '../core/listeners.js'
import { moveAside, readPrivateFile, UnsafeFileError, writePrivateFile } from '../core/private-file.js'
import { Store } from '../core/store.js'
import type { PluginLogger } from '../core/logger.js'

export interface SessionClaims { sub: string; isMaster: boolean; jti: string; iat: number; exp: number }

interface RevocationData { revoked: Record<string, number> }

export class Sessions {
  private constructor (
    readonly secret: string,
    private readonly revocations: Store<RevocationData>,
    private readonly ttlMs: () => number,
    private readonly clock: Clock
  ) {}

  static async open (dataDir: string, ttlMs: () => number, opts: { clock?: Clock; log?: PluginLogger } = {}): Promise<Sessions> {
    const secret = await loadOrCreateSecret(join(dataDir, 'jwt-secret'), opts.log, (opts.clock ?? systemClock).now())
    const store = await Store.open<RevocationData>(join(dataDir, 'sessions.json'), { revoked: {} }, opts.log ? { log: opts.log } : {})
    return new Sessions(secret, store, ttlMs, opts.clock ?? systemClock)
  }

  issue (userId: string, isMaster: boolean): { token: string; expiresAt: number; jti: string } {
    const nowSec = Math.floor(this.clock.now() / 1000)
    const exp = nowSec + Math.max(1, Math.round(this.ttlMs() / 1000))
    const jti = randomUUID()
    const token = jwt.sign({ sub: userId, isMaster, jti, iat: nowSec, exp }, this.secret, { algorithm: 'HS256' })
    return { token, expiresAt: exp * 1000, jti }
  }

  isRevoked (jti: string | undefined): boolean {
    return !jti || this.revocations.data.revoked[jti] !== undefined
  }

  async revoke (claims: Pick<SessionClaims, 'jti' | 'exp'>): Promise<void> {
    const now = this.clock.now()
    await this.revocations.update((d) => {
      for (const [k, exp] of Object.entries(d.revoked)) if (exp * 1000 <= now) delete d.revoked[k]
      d.revoked[claims.jti] = claims.exp
    })
    this.revokeListeners.emit(claims.jti)
  }

  private readonly revokeListeners = new Listeners<[jti: string]>()

  /** Calls `fn` with the jti of every session revoked from now on (open event streams end on it). */
  onRevoke (fn: (jti: string) => void): () => void { return this.revokeListeners.add(fn) }
}

async function loadOrCreateSecret (file: string, log: PluginLogger | undefined, now: number): Promise<string> {
  try {
    const s = (await readPrivateFile(file))?.toString('utf8').trim()
    if (s !== undefined && s.length >= 32) return s
  } catch (err) {
    if (!(err instanceof UnsafeFileError)) throw err
    const aside = await moveAside(file, 'refused', now)
    log?.error(`Session secret ${basename(file)} refused (${err.message}); moved aside${aside ? ` to ${basename(aside)}` : ''}, a new secret ends every session`, { file: basename(file) })
  }
  const secret = randomBytes(48).toString('base64url')
  await writePrivateFile(file, secret)
  return secret
}
