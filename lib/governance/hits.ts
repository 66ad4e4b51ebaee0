// The log of moderation hits: who, where, which rule, when, on the user's message or the model's
// answer, and what was done. Bounded by moderation.logMax (oldest dropped), durable in
// <data>/governance/moderation-hits.json. The text itself is not kept: only the rules it broke.
import { join } from 'node:path'
import { errorText } from '../core/errors.js'
import type { PluginLogger } from '../core/logger.js'
import { Store } from '../core/store.js'

export interface ModerationHit {
  id: number
  at: number
  userId: string
  groupId?: string
  direction: 'input' | 'output'
  /** the rules broken: words, regexes as written, `endpoint:<category>` */
  rules: string[]
  action: 'mask' | 'refuse'
}

export interface HitFilter { userId?: string; groupId?: string; direction?: 'input' | 'output'; action?: 'mask' | 'refuse'; rule?: string; since?: number; until?: number }

interface HitData { next: number; hits: ModerationHit[] }

export class HitLog {
  private writeQueued = false
  private constructor (private readonly store: Store<HitData>, private readonly max: () => number, private readonly log?: PluginLogger) {}

  static async open (dir: string, max: () => number, log?: PluginLogger): Promise<HitLog> {
    const store = await Store.open<HitData>(join(dir, 'moderation-hits.json'), { next: 1, hits: [] }, log ? { log } : {})
    if (!Array.isArray(store.data.hits)) store.data.hits = []
    return new HitLog(store, max, log)
  }

  add (hit: Omit<ModerationHit, 'id'>): ModerationHit {
    const d = this.store.data
    const h = { id: d.next++, ...hit }
    d.hits.push(h)
    const over = d.hits.length - this.max()
    if (over > 0) d.hits.splice(0, over)
    if (!this.writeQueued) {
      this.writeQueued = true
      setImmediate(() => {
        this.writeQueued = false
        this.store.write().catch((err: unknown) => this.log?.warn('Could not save the moderation log', { error: errorText(err) }))
      })
    }
    return h
  }

  /** Newest first, filtered. */
  list (f: HitFilter = {}): ModerationHit[] {
    const out: ModerationHit[] = []
    const hits = this.store.data.hits
    for (let i = hits.length - 1; i >= 0; i--) {
      const h = hits[i] as ModerationHit
      if (f.userId !== undefined && h.userId !== f.userId) continue
      if (f.groupId !== undefined && h.groupId !== f.groupId) continue
      if (f.direction && h.direction !== f.direction) continue
      if (f.action && h.action !== f.action) continue
      if (f.since !== undefined && h.at < f.since) continue
      if (f.until !== undefined && h.at > f.until) continue
      if (f.rule !== undefined && !h.rules.some((r) => r.includes(f.rule as string))) continue
      out.push(h)
    }
    return out
  }

  async close (): Promise<void> { await this.store.write() }
}
