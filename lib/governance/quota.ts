// Quota counters: messages and tokens per user and per group, for the current quota day (durable:
// <data>/governance/quota.json, so a restart does not give a day's usage back) and the current minute
// (in memory: a minute is over before a restart is). Keyed by ids from chat: null-prototype records
// and Maps. With Redis (rt.shared) the counts live there instead (SharedQuotaCounters, over
// lib/storage/redis/quotas.ts), so every instance counts the same numbers; the service sees one
// QuotaCounter either way.
import { join } from 'node:path'
import { dict, toDict, type Dict } from '../core/dict.js'
import { errorText } from '../core/errors.js'
import type { PluginLogger } from '../core/logger.js'
import { Store } from '../core/store.js'
import type { QuotaLimits } from './schema.js'

interface Usage { messages: number; tokens: number }
interface QuotaData { day: string; users: Dict<Usage>; groups: Dict<Usage> }
interface MinuteUsage extends Usage { minute: number }

export type Counted = 'user' | 'group'
/** The limit a message ran into. */
export type LimitName = keyof QuotaLimits

export type Awaitable<T> = T | Promise<T>
/** Whose quota, and its limits. */
export interface QuotaSubject { kind: Counted; id: string; limits: QuotaLimits }
/** Whose limit a message ran into, and which. */
export interface Reached { kind: Counted; limit: LimitName }
export interface Used { day: Usage; minute: Usage }

/** The quota counts the governance service keeps: in a file here, or in Redis shared by every instance. */
export interface QuotaCounter {
  /** Checks each subject against its limits, in order; when none is reached, counts one message for each. */
  take(subjects: QuotaSubject[], day: string, minute: number): Awaitable<Reached | undefined>
  /** Adds messages and tokens to a user's or a group's counts. */
  add(kind: Counted, id: string, day: string, minute: number, messages: number, tokens: number): Awaitable<void>
  /** Today's and this minute's usage of a user or a group. */
  used(kind: Counted, id: string, day: string, minute: number): Awaitable<Used>
  close(): Promise<void>
}

/** The counts kept outside the process (Redis, lib/storage/redis/quotas.ts). */
export interface SharedQuotas {
  take(subjects: QuotaSubject[], day: string, minute: number): Promise<Reached | undefined>
  add(kind: Counted, id: string, day: string, minute: number, messages: number, tokens: number): Promise<void>
  used(kind: Counted, id: string, day: string, minute: number): Promise<Used>
}

const usage = (v: unknown): Usage => {
  const u = v as Partial<Usage> | null
  return { messages: Number(u?.messages) || 0, tokens: Number(u?.tokens) || 0 }
}

/** The counts of this instance alone, the day's in <data>/governance/quota.json. */
export class QuotaCounters implements QuotaCounter {
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
  used (kind: Counted, id: string, day: string, minute: number): Used {
    const d = this.roll(day)
    const today = (kind === 'user' ? d.users : d.groups)[id] ?? { messages: 0, tokens: 0 }
    const m = this.minutes.get(`${kind}:${id}`)
    return { day: today, minute: m && m.minute === minute ? m : { messages: 0, tokens: 0 } }
  }

  /** The first limit this usage has reached (a message would go past it), if any. */
  static reached (u: Used, l: QuotaLimits): LimitName | undefined {
    if (l.messagesPerMinute && u.minute.messages >= l.messagesPerMinute) return 'messagesPerMinute'
    if (l.messagesPerDay && u.day.messages >= l.messagesPerDay) return 'messagesPerDay'
    if (l.tokensPerMinute && u.minute.tokens >= l.tokensPerMinute) return 'tokensPerMinute'
    if (l.tokensPerDay && u.day.tokens >= l.tokensPerDay) return 'tokensPerDay'
    return undefined
  }

  take (subjects: QuotaSubject[], day: string, minute: number): Reached | undefined {
    for (const s of subjects) {
      const limit = QuotaCounters.reached(this.used(s.kind, s.id, day, minute), s.limits)
      if (limit) return { kind: s.kind, limit }
    }
    for (const s of subjects) this.add(s.kind, s.id, day, minute, 1, 0)
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

/**
 * The counts in Redis, shared by every instance. Redis away for a moment: this instance counts on its
 * own (the file counters) rather than refuse everyone or let everyone through, as lib/core/rate-limit.ts
 * does; said once per break. What was counted here meanwhile is not added to Redis afterwards.
 */
export class SharedQuotaCounters implements QuotaCounter {
  private away = false

  constructor (private readonly shared: SharedQuotas, private readonly local: QuotaCounters, private readonly log?: PluginLogger) {}

  private ok (): void {
    if (this.away) this.log?.info('Quota counts are shared through Redis again')
    this.away = false
  }

  private fail (err: unknown): void {
    if (!this.away) this.log?.warn('Redis is unreachable: quotas are counted by this instance alone until it is back', { error: errorText(err) })
    this.away = true
  }

  async take (subjects: QuotaSubject[], day: string, minute: number): Promise<Reached | undefined> {
    try {
      const r = await this.shared.take(subjects, day, minute)
      this.ok()
      return r
    } catch (err) { this.fail(err); return this.local.take(subjects, day, minute) }
  }

  async add (kind: Counted, id: string, day: string, minute: number, messages: number, tokens: number): Promise<void> {
    try {
      await this.shared.add(kind, id, day, minute, messages, tokens)
      this.ok()
    } catch (err) { this.fail(err); this.local.add(kind, id, day, minute, messages, tokens) }
  }

  async used (kind: Counted, id: string, day: string, minute: number): Promise<Used> {
    try {
      const r = await this.shared.used(kind, id, day, minute)
      this.ok()
      return r
    } catch (err) { this.fail(err); return this.local.used(kind, id, day, minute) }
  }

  async close (): Promise<void> { await this.local.close() }
}
