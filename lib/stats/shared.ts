// The statistics of several instances sharing one PostgreSQL (lib/stats/README.md, "Several instances").
// Each instance keeps counting in memory as with the files (store.ts) and writes its own snapshot as
// records of the store `stats` on the storage port: `<instance>/totals` (the running totals) and
// `<instance>/day/<YYYY-MM-DD>` (one day's rollup), written by that instance alone. The readers add up
// every instance's snapshot (totals.ts mergeTotals, days.ts mergeDay): counters summed, the latest
// activity kept, the users of a group or a day united, so nothing is counted twice.
import { randomBytes } from 'node:crypto'
import { rmSync } from 'node:fs'
import { join } from 'node:path'
import { dict, own } from '../core/dict.js'
import type { PluginLogger } from '../core/logger.js'
import { readPrivateFileSync, writePrivateFileSync } from '../core/private-file.js'
import type { RecordStore } from '../storage/records.js'
import { mergeUsage, type ModelUsage } from './cost.js'
import { counters, dayOf, emptyDay, mergeDay, type Counters, type DayBucket } from './days.js'
import { emptyTotals, mergeTotals, revive, type StatsData } from './totals.js'

/** One record of the store `stats`: an instance's totals or one of its days. */
export type StatsRecord =
  | { id: string; instance: string; kind: 'totals'; data: StatsData }
  | { id: string; instance: string; kind: 'day'; date: string; day: DayBucket }

/** What the query methods of StatsStore read: the totals and the days. */
export interface StatsView {
  readonly data: StatsData
  get(date: string): DayBucket | undefined
  /** every recorded day, oldest first */
  all(): Array<[string, DayBucket]>
}

/** An instance's own snapshot, as read back at start. */
interface OwnStats { data: StatsData; days: Array<[string, DayBucket]> }

/** This instance's id in the keys: kept in the data folder, so a restart continues its own records. */
const ID_FILE = 'stats-instance'
/** What a process exit could not send (no asynchronous work runs then): sent at the next start. */
const UNSENT_FILE = 'stats-unsent.json'
const ID = /^[0-9a-f]{16,64}$/

function instanceIdOf (dataDir: string): string {
  const file = join(dataDir, ID_FILE)
  const kept = readPrivateFileSync(file)?.toString('utf8').trim()
  if (kept && ID.test(kept)) return kept
  const id = randomBytes(8).toString('hex')
  writePrivateFileSync(file, id)
  return id
}

const totalsKey = (instance: string): string => `${instance}/totals`
const dayKey = (instance: string, date: string): string => `${instance}/day/${date}`

export class SharedStats {
  /** the other instances' records by key, read back as null-prototype records */
  private readonly others = new Map<string, StatsRecord>()
  /** the other instances' days by date: the keys of their records */
  private readonly otherDates = new Map<string, Set<string>>()
  /** caches of the others' day sums, dropped when one of their days changes */
  private othersCounters: Counters | undefined
  private readonly othersDays = new Map<string, DayBucket>()
  /** days changed since the last write / since the last committed write */
  private readonly dirty = new Set<string>()
  private readonly unsaved = new Set<string>()
  /** the unsent file was written and this process went on: removed once a later write commits */
  private unsentLeft = false

  private constructor (private readonly store: RecordStore<StatsRecord, string>, readonly instance: string, private readonly unsentFile: string) {
    for (const r of store.values()) if (r.instance !== instance) this.keep(r.id, r)
    store.onRemote((key, r) => { this.keep(key, r) })
  }

  /**
   * Opens the shared statistics on `store`; `own` is this instance's snapshot, undefined the first time
   * (the caller seeds it from the data folder's files). What an exit could not send is sent first.
   */
  static async open (store: RecordStore<StatsRecord, string>, dataDir: string, log?: PluginLogger): Promise<{ shared: SharedStats; own: OwnStats | undefined }> {
    const shared = new SharedStats(store, instanceIdOf(dataDir), join(dataDir, UNSENT_FILE))
    await shared.sendUnsent(log)
    const t = store.get(totalsKey(shared.instance))
    if (t?.kind !== 'totals') return { shared, own: undefined }
    const days: Array<[string, DayBucket]> = []
    for (const r of store.values()) if (r.kind === 'day' && r.instance === shared.instance) days.push([r.date, dayOf(r.day)])
    days.sort((a, b) => a[0].localeCompare(b[0]))
    return { shared, own: { data: revive(t.data), days } }
  }

  /** A day changed here (StatsStore.day): written at the next flush. */
  touch (date: string): void { this.dirty.add(date); this.unsaved.add(date) }

  /** Writes the totals and every day changed since the last write; resolves once committed. */
  async write (data: StatsData, day: (date: string) => DayBucket | undefined): Promise<void> {
    const dates = [...this.dirty]
    this.dirty.clear()
    try {
      await this.store.putMany(this.records(data, dates, day))
    } catch (err) {
      for (const d of dates) this.dirty.add(d) // written again with the next change
      throw err
    }
    for (const d of dates) if (!this.dirty.has(d)) this.unsaved.delete(d)
    // the database now holds newer figures than the file: sent at the next start, it would undo them
    if (this.unsentLeft) { rmSync(this.unsentFile, { force: true }); this.unsentLeft = false }
  }

  /** All of this instance's snapshot written at once (its first start on the database). */
  async seed (own: OwnStats): Promise<void> {
    const days = new Map(own.days)
    await this.store.putMany(this.records(own.data, [...days.keys()], (d) => days.get(d)))
  }

  /** At process exit: what is not committed yet goes to a file of the data folder, sent at the next start. */
  writeUnsent (data: StatsData, day: (date: string) => DayBucket | undefined): void {
    writePrivateFileSync(this.unsentFile, JSON.stringify(this.records(data, [...this.unsaved], day)))
    // should the process go on (a host that handles the signal itself), the next write sends them all
    for (const d of this.unsaved) this.dirty.add(d)
    this.unsentLeft = true
  }

  close (): Promise<void> { return this.store.close() }

  /** Calls `listener` after another instance's snapshot changed here (tests). */
  onRemote (listener: () => void): () => void { return this.store.onRemote(() => { listener() }) }

  /** The view of every instance: this one's (`own`) plus the others'; `own` itself while there are none. */
  view (own: StatsView): StatsView {
    if (this.others.size === 0) return own
    let data: StatsData | undefined
    const totals = (): StatsData => this.totalsWith(own.data)
    const get = (date: string): DayBucket | undefined => {
      const mine = own.get(date)
      const theirs = this.othersDay(date)
      if (!theirs) return mine
      return mine ? mergeDay(mergeDay(emptyDay(), mine), theirs) : theirs
    }
    return {
      get data () { return (data ??= totals()) },
      get,
      all: () => {
        const dates = new Set(own.all().map(([d]) => d))
        for (const d of this.otherDates.keys()) dates.add(d)
        return [...dates].sort().map((d): [string, DayBucket] => [d, get(d) ?? emptyDay()])
      }
    }
  }

  /** The other instances' days summed into counters (the live metric stream). */
  otherCounters (): Counters {
    if (this.othersCounters) return this.othersCounters
    const sum = counters()
    for (const r of this.others.values()) {
      if (r.kind !== 'day') continue
      sum.messages += r.day.messages; sum.responses += r.day.responses; sum.toolCalls += r.day.toolCalls; sum.tokens += r.day.tokens
    }
    return (this.othersCounters = sum)
  }

  /** A channel's usage in a budget month on every instance (the budgets count what all of them spent). */
  channelMonth (mine: ModelUsage | undefined, channelId: string, month: string): ModelUsage | undefined {
    if (this.others.size === 0) return mine
    let sum: ModelUsage | undefined
    for (const r of this.others.values()) {
      const theirs = r.kind === 'totals' ? own(own(r.data.channels, channelId)?.months, month) : undefined
      if (theirs) sum = mergeUsage(sum ?? mergeUsage(dict(), mine), theirs)
    }
    return sum ?? mine
  }

  // Every instance's totals added in the order of their ids, so each instance lists ties (two users with as
  // many messages) in the same order and all of them answer the same figures.
  private totalsWith (mine: StatsData): StatsData {
    const all: Array<[string, StatsData]> = [[this.instance, mine]]
    for (const r of this.others.values()) if (r.kind === 'totals') all.push([r.instance, r.data])
    all.sort((a, b) => a[0].localeCompare(b[0]))
    const sum = emptyTotals()
    for (const [, d] of all) mergeTotals(sum, d)
    return sum
  }

  private othersDay (date: string): DayBucket | undefined {
    const cached = this.othersDays.get(date)
    if (cached) return cached
    const keys = this.otherDates.get(date)
    if (!keys) return undefined
    const sum = emptyDay()
    for (const k of keys) { const r = this.others.get(k); if (r?.kind === 'day') mergeDay(sum, r.day) }
    this.othersDays.set(date, sum)
    return sum
  }

  // A record of another instance, read at start or changed there (undefined: deleted): kept rebuilt with
  // null-prototype records, and the sums it is part of dropped.
  private keep (key: string, r: StatsRecord | undefined): void {
    if (key.startsWith(`${this.instance}/`)) return
    const old = this.others.get(key)
    if (old?.kind === 'day' || r?.kind === 'day') {
      this.othersCounters = undefined
      const date = old?.kind === 'day' ? old.date : r?.kind === 'day' ? r.date : ''
      this.othersDays.delete(date)
      if (old?.kind === 'day') this.otherDates.get(old.date)?.delete(key)
    }
    if (!r) { this.others.delete(key); return }
    const rec: StatsRecord = r.kind === 'totals' ? { ...r, data: revive(r.data) } : { ...r, day: dayOf(r.day) }
    this.others.set(key, rec)
    if (rec.kind === 'day') {
      let keys = this.otherDates.get(rec.date)
      if (!keys) this.otherDates.set(rec.date, (keys = new Set()))
      keys.add(key)
      this.othersDays.delete(rec.date)
    }
  }

  private records (data: StatsData, dates: string[], day: (date: string) => DayBucket | undefined): StatsRecord[] {
    const out: StatsRecord[] = [{ id: totalsKey(this.instance), instance: this.instance, kind: 'totals', data }]
    for (const date of dates) {
      const b = day(date)
      if (b) out.push({ id: dayKey(this.instance, date), instance: this.instance, kind: 'day', date, day: b })
    }
    return out
  }

  private async sendUnsent (log?: PluginLogger): Promise<void> {
    const text = readPrivateFileSync(this.unsentFile)?.toString('utf8')
    if (text === undefined) return
    let recs: StatsRecord[] = []
    try {
      const parsed = JSON.parse(text) as unknown
      if (Array.isArray(parsed)) recs = (parsed as StatsRecord[]).filter((r) => r?.instance === this.instance && (r.kind === 'totals' || r.kind === 'day'))
    } catch { log?.warn(`The statistics left in ${UNSENT_FILE} at the last exit could not be read: ignored`) }
    // written by this instance alone, at its exit: newer than what the database holds of it
    if (recs.length) await this.store.putMany(recs)
    rmSync(this.unsentFile, { force: true })
  }
}
