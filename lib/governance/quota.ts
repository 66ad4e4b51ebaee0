// Quota counters: messages and tokens per user and per group, for the current quota day (durable:
// <data>/governance/quota.json, so a restart does not give a day's usage back) and the current minute
// (in memory: a minute is over before a restart is). Keyed by ids from chat: null-prototype records
// and Maps.
import { join } from 'node:path'
import { dict, toDict, type Dict } from '../core/dict.js'
import { errorText } from '../core/errors.js'
import type { PluginLogger } from '../core/logger.js'
import { Store } from '../core/store.js'
import type { QuotaLimits } from './schema.js'

export interface Usage { messages: number; tokens: number }
interface QuotaData { day: string; users: Dict<Usage>; groups: Dict<Usage> }
interface MinuteUsage extends Usage { minute: number }

export type Counted = 'user' | 'group'
/** The limit a message ran into. */
export type LimitName = keyof QuotaLimits

const usage = (v: unknown): Usage => {
  const u = v as Partial<Usage> | null
  return { messages: Number(u?.messages) || 0, tokens: Number(u?.tokens) || 0 }
}

export class QuotaCounters {
  private readonly minutes = new Map<string, MinuteUsage>()
  private writeQueued = false

  private constructor (private readonly store: Store<QuotaData>, private readonly log?: PluginLogger) {}

  static async open (dir: string, log?: PluginLogger): Promise<QuotaCounters> {
    const store = await Store.open<QuotaData>(join(dir, 'quota.json'), { day: '', users: dict(), groups: dict() }, log ? { log } : {})
    store.data.users = toDict(store.data.users, usage)
    store.data.groups = toDict(store.data.groups, usage)
    return new QuotaCounters(store, log)
  }

  /** Starts a new day's counts when `day` is not the stored one. */
  private roll (day: string): QuotaData {
    const d = this.store.data
    if (d.day !== day) {
      d.day = day
      d.users = dict()
      d.groups = dict()
      this.persist()
    }
    return d
  }

  /** Today's and this minute's usage of a user or a group. */
  used (kind: Counted, id: string, day: string, minute: number): { day: Usage; minute: Usage } {
    const d = this.roll(day)
    const today = (kind === 'user' ? d.users : d.groups)[id] ?? { messages: 0, tokens: 0 }
    const m = this.minutes.get(`${kind}:${id}`)
    return { day: today, minute: m && m.minute === minute ? m : { messages: 0, tokens: 0 } }
  }

  /** The first limit this usage has reached (a message would go past it), if any. */
  static reached (u: { day: Usage; minute: Usage }, l: QuotaLimits): LimitName | undefined {
    if (l.messagesPerMinute && u.minute.messages >= l.messagesPerMinute) return 'messagesPerMinute'
    if (l.messagesPerDay && u.day.messages >= l.messagesPerDay) return 'messagesPerDay'
    if (l.tokensPerMinute && u.minute.tokens >= l.tokensPerMinute) return 'tokensPerMinute'
    if (l.tokensPerDay && u.day.tokens >= l.tokensPerDay) return 'tokensPerDay'
    return undefined
  }

  /** Adds messages and tokens to a user's or a group's counts. */
  add (kind: Counted, id: string, day: string, minute: number, messages: number, tokens: number): void {
    const d = this.roll(day)
    const rec = kind === 'user' ? d.users : d.groups
    const today = (rec[id] ??= { messages: 0, tokens: 0 })
    today.messages += messages
    today.tokens += tokens
    const key = `${kind}:${id}`
    let m = this.minutes.get(key)
    if (!m || m.minute !== minute) {
      m = { minute, messages: 0, tokens: 0 }
      this.minutes.set(key, m)
      // forget the minutes that are over, now and then (the map would grow with every user ever seen)
      if (this.minutes.size > 10_000) for (const [k, v] of this.minutes) if (v.minute !== minute) this.minutes.delete(k)
    }
    m.messages += messages
    m.tokens += tokens
    this.persist()
  }

  /** One file write for the changes of a moment (the store coalesces writes in flight, too). */
  private persist (): void {
    if (this.writeQueued) return
    this.writeQueued = true
    setImmediate(() => {
      this.writeQueued = false
      this.store.write().catch((err: unknown) => this.log?.warn('Could not save the quota counts', { error: errorText(err) }))
    })
  }

  async close (): Promise<void> { await this.store.write() }
}
