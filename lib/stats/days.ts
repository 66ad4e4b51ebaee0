// Daily rollups of the statistics, one file per month (`stats-days/<YYYY-MM>.json`). A day's bucket
// holds its counters and who was active, so a busy bot's year of days is megabytes: kept in one file
// it was rewritten (and stringified on the event loop) after every second of activity. Now only the
// months that changed are written, in practice the current one.
import { readdirSync } from 'node:fs'
import { join } from 'node:path'
import { dict, toDict, type Dict } from '../core/dict.js'
import type { PluginLogger } from '../core/logger.js'
import { ensurePrivateDirSync } from '../core/private-file.js'
import { Store } from '../core/store.js'
import { mergeUsage, usageOf, type ModelUsage } from './cost.js'
import { writeJsonSync } from './write-sync.js'

export interface Counters { messages: number; responses: number; toolCalls: number; tokens: number }
// users and groups are keyed by chat ids (a QQ user may be called `__proto__`): null-prototype records
// `usage`: the day's tokens by model (input, output, cached input), what its cost is computed from
export interface GroupDay extends Counters { users: Dict<number>; usage: ModelUsage }
/** `hours`: the day's counters per UTC hour (index 0-23), for the "today" chart; days recorded by older versions have none */
export interface DayBucket extends Counters { users: Dict<number>; groups: Dict<GroupDay>; usage: ModelUsage; hours?: Counters[] }
type Month = Dict<DayBucket>

export const counters = (): Counters => ({ messages: 0, responses: 0, toolCalls: 0, tokens: 0 })
export const emptyDay = (): DayBucket => ({ ...counters(), users: dict(), groups: dict(), usage: dict() })
export const emptyGroupDay = (): GroupDay => ({ ...counters(), users: dict(), usage: dict() })

const num = (v: unknown): number => typeof v === 'number' && Number.isFinite(v) ? v : 0
const countersOf = (v: Partial<Counters>): Counters => ({ messages: num(v.messages), responses: num(v.responses), toolCalls: num(v.toolCalls), tokens: num(v.tokens) })

/** A stored group day rebuilt with null-prototype records. */
function groupDayOf (v: unknown): GroupDay {
  const g = (v ?? {}) as Partial<GroupDay>
  return { ...countersOf(g), users: toDict(g.users, num), usage: usageOf(g.usage) }
}

/** A stored day bucket rebuilt with null-prototype records. */
export function dayOf (v: unknown): DayBucket {
  const d = (v ?? {}) as Partial<DayBucket>
  const hours = Array.isArray(d.hours) && d.hours.length === 24 ? { hours: d.hours.map((h) => countersOf(h ?? {})) } : {}
  return { ...countersOf(d), users: toDict(d.users, num), groups: toDict(d.groups, groupDayOf), usage: usageOf(d.usage), ...hours }
}

/** The counters of the hour (UTC) of `time` in its day's bucket, created when missing. */
export function hourOf (day: DayBucket, time: number): Counters {
  const hours = (day.hours ??= Array.from({ length: 24 }, counters))
  return hours[new Date(time).getUTCHours()] as Counters
}

const addCounters = (into: Counters, from: Counters): void => {
  into.messages += from.messages; into.responses += from.responses; into.toolCalls += from.toolCalls; into.tokens += from.tokens
}
const addCounts = (into: Dict<number>, from: Dict<number>): void => { for (const [k, n] of Object.entries(from)) into[k] = (into[k] ?? 0) + n }

/**
 * Adds another instance's bucket of the same day (`from`) to `into` (lib/stats/README.md, "Several
 * instances"): counters, hours, usage and each user's messages summed, so a user active on two instances
 * is one key of `users`. `into` shares no object with `from` afterwards.
 */
export function mergeDay (into: DayBucket, from: DayBucket): DayBucket {
  addCounters(into, from)
  addCounts(into.users, from.users)
  mergeUsage(into.usage, from.usage)
  for (const [id, g] of Object.entries(from.groups)) {
    const t = (into.groups[id] ??= emptyGroupDay())
    addCounters(t, g)
    addCounts(t.users, g.users)
    mergeUsage(t.usage, g.usage)
  }
  if (from.hours) {
    const hours = (into.hours ??= Array.from({ length: 24 }, counters))
    from.hours.forEach((h, i) => { if (hours[i]) addCounters(hours[i], h) })
  }
  return into
}

const MONTH_FILE = /^(\d{4}-\d{2})\.json$/

export class DayRollups {
  private readonly months = new Map<string, Store<Month>>()
  private readonly dirty = new Set<string>()
  /** months changed since their last completed write (dirty ones and those being written) */
  private readonly unsaved = new Set<string>()
  private writing = 0

  private constructor (private readonly dir: string) {}

  /** Opens every month file of the folder (a corrupt one is moved aside by Store). */
  static async open (dir: string, log?: PluginLogger): Promise<DayRollups> {
    ensurePrivateDirSync(dir)
    const r = new DayRollups(dir)
    for (const f of readdirSync(dir).sort()) {
      const m = MONTH_FILE.exec(f)
      if (!m) continue
      const st = await Store.open<Month>(join(dir, f), dict(), log ? { log } : {})
      // read back as records whose keys could be anything: rebuilt without a prototype
      r.months.set(m[1] as string, Store.create<Month>(st.file, toDict(st.data, dayOf)))
    }
    return r
  }

  /** Days held elsewhere (PostgreSQL: shared.ts), kept in memory only: the month files are never written. */
  static of (dir: string, days: Iterable<[string, DayBucket]>): DayRollups {
    const r = new DayRollups(dir)
    for (const [date, b] of days) {
      const month = date.slice(0, 7)
      let st = r.months.get(month)
      if (!st) r.months.set(month, (st = Store.create<Month>(join(dir, `${month}.json`), dict())))
      st.data[date] = b
    }
    return r
  }

  /** The bucket of a date (`YYYY-MM-DD`), created when missing; its month will be written. */
  bucket (date: string): DayBucket {
    const month = date.slice(0, 7)
    let st = this.months.get(month)
    if (!st) this.months.set(month, (st = Store.create<Month>(join(this.dir, `${month}.json`), dict())))
    this.dirty.add(month)
    this.unsaved.add(month)
    return (st.data[date] ??= emptyDay())
  }

  /** The bucket of a date if any was recorded. */
  get (date: string): DayBucket | undefined {
    const st = this.months.get(date.slice(0, 7))
    return st && Object.hasOwn(st.data, date) ? st.data[date] : undefined
  }

  /** Every recorded day, oldest first. */
  all (): Array<[string, DayBucket]> {
    const out: Array<[string, DayBucket]> = []
    for (const month of [...this.months.keys()].sort()) out.push(...Object.entries(this.months.get(month)!.data).sort((a, b) => a[0].localeCompare(b[0])))
    return out
  }

  /** Days of the old single-file layout (stats.json `days`), written into their month files. */
  async adopt (days: Record<string, DayBucket>): Promise<void> {
    for (const [date, b] of Object.entries(days)) {
      const month = date.slice(0, 7)
      let st = this.months.get(month)
      if (!st) this.months.set(month, (st = Store.create<Month>(join(this.dir, `${month}.json`), dict())))
      st.data[date] = dayOf(b)
      this.dirty.add(month)
      this.unsaved.add(month)
    }
    await this.flush()
  }

  /** Writes the months changed since the last flush. */
  async flush (): Promise<void> {
    const months = [...this.dirty]
    this.dirty.clear()
    this.writing++
    try {
      await Promise.all(months.map(async (m) => { await this.months.get(m)?.write() }))
    } finally { this.writing-- }
    for (const m of months) if (!this.dirty.has(m)) this.unsaved.delete(m)
  }

  /** Writes every month not yet on disk, synchronously (process exit). */
  flushSync (): void {
    const months = [...this.unsaved]
    for (const m of months) {
      const st = this.months.get(m)
      if (st) writeJsonSync(st.file, st.data)
    }
    this.unsaved.clear()
    this.dirty.clear()
    // a write still in flight could land after this one with older data: the next flush rewrites
    if (this.writing > 0) for (const m of months) { this.dirty.add(m); this.unsaved.add(m) }
  }
}
