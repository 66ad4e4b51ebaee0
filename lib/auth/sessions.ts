// Session tokens: HS256 JWTs signed with a random secret kept in the data folder (mode 0600, never read
// through a symlink: a planted link is moved aside and a new secret made, ending every session), a `jti`
// on every token, and revocation by jti persisted until the token would have expired anyway.
// With Redis (lib/storage/README.md, "Redis") the secret and the revocations are shared instead
// (lib/storage/redis/sessions.ts): a session works on every instance, and a logout on one ends it on all.
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

/** Where revoked session ids are kept: the data folder (below) or Redis (lib/storage/redis/sessions.ts). */
export interface RevocationStore {
  /** Answered from memory: every request asks. */
  has(jti: string): boolean
  /** Records a revocation until `exp` (seconds), the token's own end. */
  add(jti: string, exp: number): Promise<void>
  /** Calls `fn` for revocations made by other instances (the shared store); returns the unsubscribe. */
  onRemote?(fn: (jti: string) => void): () => void
}

/** What a shared store provides to Sessions.open: the one secret of every instance, and the revocations. */
export interface SharedSessions { secret: string; revocations: RevocationStore }

class FileRevocations implements RevocationStore {
  constructor (private readonly store: Store<RevocationData>, private readonly clock: Clock) {}
  has (jti: string): boolean { return this.store.data.revoked[jti] !== undefined }
  async add (jti: string, exp: number): Promise<void> {
    const now = this.clock.now()
    await this.store.update((d) => {
      for (const [k, e] of Object.entries(d.revoked)) if (e * 1000 <= now) delete d.revoked[k]
      d.revoked[jti] = exp
    })
  }
}

export class Sessions {
  private constructor (
    readonly secret: string,
    private readonly revocations: RevocationStore,
    private readonly ttlMs: () => number,
    private readonly clock: Clock
  ) {
    revocations.onRemote?.((jti) => this.revokeListeners.emit(jti))
  }

  static async open (dataDir: string, ttlMs: () => number, opts: { clock?: Clock; log?: PluginLogger; shared?: SharedSessions } = {}): Promise<Sessions> {
    const clock = opts.clock ?? systemClock
    if (opts.shared) return new Sessions(opts.shared.secret, opts.shared.revocations, ttlMs, clock)
    const secret = await loadOrCreateSecret(join(dataDir, 'jwt-secret'), opts.log, clock.now())
    const store = await Store.open<RevocationData>(join(dataDir, 'sessions.json'), { revoked: {} }, opts.log ? { log: opts.log } : {})
    return new Sessions(secret, new FileRevocations(store, clock), ttlMs, clock)
  }

  issue (userId: string, isMaster: boolean): { token: string; expiresAt: number; jti: string } {
    const nowSec = Math.floor(this.clock.now() / 1000)
    const exp = nowSec + Math.max(1, Math.round(this.ttlMs() / 1000))
    const jti = randomUUID()
    const token = jwt.sign({ sub: userId, isMaster, jti, iat: nowSec, exp }, this.secret, { algorithm: 'HS256' })
    return { token, expiresAt: exp * 1000, jti }
  }

  isRevoked (jti: string | undefined): boolean {
    return !jti || this.revocations.has(jti)
  }

  async revoke (claims: Pick<SessionClaims, 'jti' | 'exp'>): Promise<void> {
    await this.revocations.add(claims.jti, claims.exp)
    this.revokeListeners.emit(claims.jti)
  }

  private readonly revokeListeners = new Listeners<[jti: string]>()

  /** Calls `fn` with the jti of every session revoked from now on, here or on another instance (open event streams end on it). */
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
