// Daily rollups of the statistics, one file per month (`stats-days/<YYYY-MM>.json`). A day's bucket
// holds its counters and who was active, so a busy bot's year of days is megabytes: kept in one file
// it was rewritten (and stringified on the event loop) after every second of activity. Now only the
// months that changed are written, in practice the current one.
import { mkdirSync, readdirSync } from 'node:fs'
import { join } from 'node:path'
import type { PluginLogger } from '../core/logger.js'
import { Store } from '../core/store.js'

export interface Counters { messages: number; responses: number; toolCalls: number; tokens: number }
export interface GroupDay extends Counters { users: Record<string, number> }
export interface DayBucket extends Counters { users: Record<string, number>; groups: Record<string, GroupDay> }
type Month = Record<string, DayBucket>

export const counters = (): Counters => ({ messages: 0, responses: 0, toolCalls: 0, tokens: 0 })
export const emptyDay = (): DayBucket => ({ ...counters(), users: {}, groups: {} })

const MONTH_FILE = /^(\d{4}-\d{2})\.json$/

export class DayRollups {
  private readonly months = new Map<string, Store<Month>>()
  private readonly dirty = new Set<string>()

  private constructor (private readonly dir: string) {}

  /** Opens every month file of the folder (a corrupt one is moved aside by Store). */
  static async open (dir: string, log?: PluginLogger): Promise<DayRollups> {
    mkdirSync(dir, { recursive: true })
    const r = new DayRollups(dir)
    for (const f of readdirSync(dir).sort()) {
      const m = MONTH_FILE.exec(f)
      if (m) r.months.set(m[1] as string, await Store.open<Month>(join(dir, f), {}, log ? { log } : {}))
    }
    return r
  }

  /** The bucket of a date (`YYYY-MM-DD`), created when missing; its month will be written. */
  bucket (date: string): DayBucket {
    const month = date.slice(0, 7)
    let st = this.months.get(month)
    if (!st) this.months.set(month, (st = Store.create<Month>(join(this.dir, `${month}.json`), {})))
    this.dirty.add(month)
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
      if (!st) this.months.set(month, (st = Store.create<Month>(join(this.dir, `${month}.json`), {})))
      st.data[date] = b
      this.dirty.add(month)
    }
    await this.flush()
  }

  /** Writes the months changed since the last flush. */
  async flush (): Promise<void> {
    const months = [...this.dirty]
    this.dirty.clear()
    await Promise.all(months.map(async (m) => { await this.months.get(m)?.write() }))
  }
}
