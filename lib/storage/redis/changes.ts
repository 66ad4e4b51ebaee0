// Change notices between instances: one pub/sub channel, `lingxi:changes`, carrying what changed and
// which instance changed it. A notice is a hint to re-read, never the data itself, so a lost one costs
// only freshness (a reconnect re-reads what it can: lib/storage/redis/sessions.ts).
import type { RedisLink } from './client.js'

const CHANGES_CHANNEL = 'changes'

export type ChangeKind = 'config' | 'presets' | 'channels' | 'tools' | 'revocations'

export interface ChangeNotice {
  kind: ChangeKind
  /** the instance that made the change (its own notices are ignored) */
  from: string
  /** revocations: the session id and its end (seconds) */
  jti?: string
  exp?: number
  /** config: the file written, so only instances reading the same file reload it */
  file?: string
}

const KINDS: readonly string[] = ['config', 'presets', 'channels', 'tools', 'revocations']

export class ChangeNotices {
  private readonly handlers = new Map<ChangeKind, Set<(n: ChangeNotice) => void>>()
  private readonly offs: Array<() => void> = []

  private constructor (private readonly link: RedisLink, readonly instanceId: string) {}

  static async open (link: RedisLink, instanceId: string): Promise<ChangeNotices> {
    const c = new ChangeNotices(link, instanceId)
    c.offs.push(await link.subscribe(CHANGES_CHANNEL, (raw) => c.dispatch(raw)))
    return c
  }

  on (kind: ChangeKind, fn: (n: ChangeNotice) => void): () => void {
    let set = this.handlers.get(kind)
    if (!set) { set = new Set(); this.handlers.set(kind, set) }
    set.add(fn)
    return () => { set.delete(fn) }
  }

  onReconnect (fn: () => void): void { this.offs.push(this.link.onReconnect(fn)) }

  async publish (n: Omit<ChangeNotice, 'from'>): Promise<void> {
    await this.link.publish(CHANGES_CHANNEL, JSON.stringify({ ...n, from: this.instanceId }))
  }

  close (): void { for (const off of this.offs.splice(0)) off() }

  private dispatch (raw: string): void {
    let n: Partial<ChangeNotice>
    try { n = JSON.parse(raw) as Partial<ChangeNotice> } catch { return }
    if (typeof n.kind !== 'string' || !KINDS.includes(n.kind) || typeof n.from !== 'string' || n.from === this.instanceId) return
    for (const fn of this.handlers.get(n.kind) ?? []) fn(n as ChangeNotice)
  }
}
