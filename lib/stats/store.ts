// Usage statistics, kept as running totals (stats.json) and daily rollups (one file per month, see
// days.ts) so no query scans history. Writes are debounced: statistics may lose the last second on a
// crash (SIGKILL, power), never the file; on a normal exit (signals, process.exit, TRSS's execve
// restart) flushSync() writes them (lib/host/process-exit.ts).
// With PostgreSQL (`openShared`) this instance's snapshot is written there instead and the queries add up
// every instance's (shared.ts; lib/stats/README.md, "Several instances").
import { join } from 'node:path'
import { type Clock, systemClock } from '../core/clock.js'
import type { PluginLogger } from '../core/logger.js'
import { dict, own } from '../core/dict.js'
import { redact } from '../core/redact.js'
import { Store } from '../core/store.js'
import type { RecordStore } from '../storage/records.js'
import { writeJsonSync } from './write-sync.js'
import { counters, DayRollups, emptyDay, emptyGroupDay, hourOf, type Counters, type DayBucket, type GroupDay } from './days.js'
import { addUsage, mergeUsage, usageTokens, type CacheFigures, type CostFigures, type ModelUsage, type PriceTable } from './cost.js'
import { SharedStats, type StatsRecord, type StatsView } from './shared.js'
import { EMPTY, newGroup, revive, type StatsData } from './totals.js'

export type { StatsRecord }

export interface ModelRequest {
  source: 'chat' | 'batch-test' | 'tool' | 'memory' | 'image' | 'game' | 'api' | 'other'
  channelId: string
  channelName?: string
  model: string
  userId?: string
  nickname?: string
  groupId?: string
  promptTokens?: number
  completionTokens?: number
  /** prompt tokens the provider served from its cache (part of promptTokens) */
  cachedTokens?: number
  /** the budget month (`YYYY-MM`, owner's timezone) the request counts toward for its channel */
  month?: string
  latencyMs: number
  success: boolean
  error?: string
  /** the answer only asked for tool calls: a model request, not a response to the user */
  toolRound?: boolean
  /** the provider reported no usage: the tokens were counted here (lib/channels/usage.ts) */
  estimated?: boolean
}

export interface ToolCall { name: string; durationMs: number; success: boolean; userId?: string; groupId?: string }

const MONTHS_KEPT = 13

export type Period = 'day' | 'week' | 'month' | 'all'

interface DailyRow extends Partial<CacheFigures> { date: string; messages: number; responses: number; toolCalls: number; tokens: number; cost?: number | null }
/** One hour of today (`time`: its start, ISO, UTC). */
interface HourRow extends Counters { time: string }
/**
 * GET /api/stats: `currency`, `cost`, `unpricedTokens` and the cache figures (`cachedShare`, `cacheSaved`)
 * when asked with a price table; for `period=day` also `hourly`, today's hours up to the current one (not
 * per group: the group days keep no hours).
 */
export interface Summary extends Partial<CostFigures & CacheFigures> { summary: Record<string, number>; daily: DailyRow[]; hourly?: HourRow[]; currency?: string }
interface ModelCost extends CostFigures, CacheFigures { inputTokens: number; outputTokens: number; cachedTokens: number; pricedAs: string | null }
const DAY_MS = 86_400_000
const PERIOD_DAYS: Record<Period, number> = { day: 1, week: 7, month: 30, all: Infinity }

export class StatsStore {
  private inflight: Promise<void> = Promise.resolve()
  private timer: NodeJS.Timeout | undefined
  private dirty = false
  /** changes recorded / changes on disk: flushSync() writes when they differ */
  private changes = 0
  private saved = 0
  private writing = 0

  /** This instance's own figures, as the queries read them (the files' layout). */
  private readonly mine: StatsView

  private constructor (
    private readonly store: Store<StatsData>,
    private readonly days: DayRollups,
    private readonly clock: Clock,
    private readonly flushMs: number,
    /** with PostgreSQL: where this instance's snapshot goes and the others' come from */
    private readonly shared?: SharedStats
  ) {
    this.mine = { get data () { return store.data }, get: (d) => days.get(d), all: () => days.all() }
  }

  /** The files of the data folder: `stats.json` and `stats-days/`. */
  static async open (dataDir: string, opts: { clock?: Clock; log?: PluginLogger; flushMs?: number } = {}): Promise<StatsStore> {
    const { store, days } = await StatsStore.readFiles(dataDir, opts.log)
    return new StatsStore(store, days, opts.clock ?? systemClock, opts.flushMs ?? 1000)
  }

  /**
   * The statistics shared through PostgreSQL (`records`: the store `stats` on the port). This instance's
   * snapshot is read back from there; the first time, from the data folder's files (its history so far).
   */
  static async openShared (dataDir: string, records: RecordStore<StatsRecord, string>, opts: { clock?: Clock; log?: PluginLogger; flushMs?: number } = {}): Promise<StatsStore> {
    const { shared, own: kept } = await SharedStats.open(records, dataDir, opts.log)
    let own = kept
    if (!own) {
      const files = await StatsStore.readFiles(dataDir, opts.log)
      own = { data: files.store.data, days: files.days.all() }
      await shared.seed(own)
    }
    // kept in memory only: the files are not written while the database serves
    const store = Store.create<StatsData>(join(dataDir, 'stats.json'), own.data)
    const days = DayRollups.of(join(dataDir, 'stats-days'), own.days)
    return new StatsStore(store, days, opts.clock ?? systemClock, opts.flushMs ?? 1000, shared)
  }

  private static async readFiles (dataDir: string, log?: PluginLogger): Promise<{ store: Store<StatsData>; days: DayRollups }> {
    const read = await Store.open<StatsData>(join(dataDir, 'stats.json'), EMPTY, log ? { log } : {})
    const store = Store.create<StatsData>(read.file, revive(read.data))
    const days = await DayRollups.open(join(dataDir, 'stats-days'), log)
    if (store.data.days) {
      // old layout: the months are written before the days leave stats.json (a crash between repeats it)
      await days.adopt(store.data.days)
      await store.update((d) => { delete d.days })
    }
    return { store, days }
  }

  /** What the queries read: this instance's figures, with PostgreSQL plus every other instance's. */
  private view (): StatsView { return this.shared ? this.shared.view(this.mine) : this.mine }

  // the UTC day of the last time asked: a chat turn asks two or three times, a date string each was its cost
  private dayKey = { from: 0, to: -1, key: '' }

  private day (time = this.clock.now()): DayBucket {
    if (!(time >= this.dayKey.from && time < this.dayKey.to)) {
      const from = time - (((time % DAY_MS) + DAY_MS) % DAY_MS)
      this.dayKey = { from, to: from + DAY_MS, key: new Date(from).toISOString().slice(0, 10) }
    }
    this.shared?.touch(this.dayKey.key)
    return this.days.bucket(this.dayKey.key)
  }

  private groupOf (day: DayBucket, groupId: string): GroupDay {
    return (day.groups[groupId] ??= emptyGroupDay())
  }

  /** An incoming chat message the bot saw (whether or not it answered). */
  recordMessage (m: { userId: string; nickname?: string; groupId?: string }): void {
    const now = this.clock.now()
    const day = this.day(now)
    day.messages++
    hourOf(day, now).messages++
    day.users[m.userId] = (day.users[m.userId] ?? 0) + 1
    const u = (this.store.data.users[m.userId] ??= { nickname: '', messages: 0, tokens: 0, lastActive: 0 })
    u.messages++
    u.lastActive = now
    if (m.nickname) u.nickname = m.nickname
    if (m.groupId) {
      const g = this.groupOf(day, m.groupId)
      g.messages++
      g.users[m.userId] = (g.users[m.userId] ?? 0) + 1
      const tg = (this.store.data.groups[m.groupId] ??= newGroup())
      tg.messages++
      tg.lastActive = now
      if (!tg.userIds[m.userId]) { tg.userIds[m.userId] = 1; tg.users++ }
    }
    this.schedule()
  }

  recordModelRequest (r: ModelRequest): void {
    const now = this.clock.now()
    const input = r.promptTokens ?? 0
    const output = r.completionTokens ?? 0
    const tokens = input + output
    const use = (u: ModelUsage): void => { addUsage(u, r.model, input, output, r.cachedTokens ?? 0) }
    const day = this.day(now)
    const hour = hourOf(day, now)
    const answered = r.success && r.source === 'chat' && !r.toolRound
    if (answered) { day.responses++; hour.responses++ }
    day.tokens += tokens
    hour.tokens += tokens
    use(day.usage)
    const m = (this.store.data.models[r.model] ??= { requests: 0, tokens: 0, latencySum: 0, errors: 0 })
    m.requests++
    m.tokens += tokens
    const split = (m.split ??= [0, 0, 0])
    split[0] += input; split[1] += output; split[2] += r.cachedTokens ?? 0
    m.latencySum += r.latencyMs
    if (!r.success) m.errors++
    const c = (this.store.data.channels[r.channelId] ??= { name: r.channelName ?? r.channelId, requests: 0, errors: 0, latencySum: 0, lastUsed: 0, lastError: '' })
    c.requests++
    c.latencySum += r.latencyMs
    c.lastUsed = now
    if (r.channelName) c.name = r.channelName
    if (!r.success) { c.errors++; c.lastError = redact(r.error ?? 'error') } // upstream error texts may echo a key
    if (r.estimated) c.estimatedTokens = (c.estimatedTokens ?? 0) + tokens
    use(c.usage ??= dict())
    if (r.month && tokens > 0) {
      const months = (c.months ??= dict())
      use(months[r.month] ??= dict())
      const keys = Object.keys(months)
      if (keys.length > MONTHS_KEPT) for (const k of keys.sort().slice(0, keys.length - MONTHS_KEPT)) delete months[k]
    }
    if (r.userId) {
      const u = (this.store.data.users[r.userId] ??= { nickname: '', messages: 0, tokens: 0, lastActive: 0 })
      u.tokens += tokens
      use(u.usage ??= dict())
      u.lastActive = now
      if (r.nickname) u.nickname = r.nickname
    }
    if (r.groupId) {
      const g = this.groupOf(day, r.groupId)
      g.tokens += tokens
      use(g.usage)
      if (answered) g.responses++
      const tg = (this.store.data.groups[r.groupId] ??= newGroup())
      tg.tokens += tokens
      use(tg.usage ??= dict())
      if (answered) tg.responses++
    }
    this.schedule()
  }

  recordToolCall (t: ToolCall): void {
    const now = this.clock.now()
    const day = this.day(now)
    day.toolCalls++
    hourOf(day, now).toolCalls++
    if (t.groupId) {
      this.groupOf(day, t.groupId).toolCalls++
      const tg = (this.store.data.groups[t.groupId] ??= newGroup())
      tg.lastActive = now
    }
    const s = (this.store.data.tools[t.name] ??= { calls: 0, durationSum: 0, successes: 0 })
    s.calls++
    s.durationSum += t.durationMs
    if (t.success) s.successes++
    this.schedule()
  }

  /** With a price table (`prices`), the period's and each day's cost are added (cost.ts). */
  summary (period: Period = 'all', groupId?: string, prices?: PriceTable): Summary {
    const view = this.view()
    const days = this.daysIn(period, view)
    const users = new Set<string>()
    const groups = new Set<string>()
    const total = counters()
    const usage: ModelUsage = dict()
    // All time: the distinct users and groups come from the all-time maps (a union over every day's
    // users would touch each user once per day: ~75 ms for a year of 2,000 daily users).
    const allTime = period === 'all'
    const daily = days.map(([date, d]): DailyRow => {
      const src: GroupDay = groupId ? (own(d.groups, groupId) ?? emptyGroupDay()) : d
      total.messages += src.messages; total.responses += src.responses; total.toolCalls += src.toolCalls; total.tokens += src.tokens
      if (!allTime) {
        for (const u of Object.keys(src.users)) users.add(u)
        if (!groupId) for (const g of Object.keys(d.groups)) groups.add(g)
        else if (own(d.groups, groupId)) groups.add(groupId)
      }
      const row: DailyRow = { date, messages: src.messages, responses: src.responses, toolCalls: src.toolCalls, tokens: src.tokens }
      if (prices) { mergeUsage(usage, src.usage); row.cost = prices.cost(src.usage, src.tokens).cost; Object.assign(row, prices.cache(src.usage)) }
      return row
    })
    const data = view.data
    const g = groupId !== undefined ? own(data.groups, groupId) : undefined
    const activeUsers = !allTime ? users.size
      : groupId !== undefined ? (g?.users ?? 0)
        : Object.values(data.users).reduce((n, u) => n + (u.messages > 0 ? 1 : 0), 0)
    const activeGroups = !allTime ? groups.size : groupId !== undefined ? (g ? 1 : 0) : Object.keys(data.groups).length
    return {
      summary: { totalMessages: total.messages, aiResponses: total.responses, toolCalls: total.toolCalls, tokensUsed: total.tokens, activeUsers, activeGroups },
      daily,
      ...(period === 'day' && groupId === undefined ? { hourly: this.today(view) } : {}),
      ...(prices ? { currency: prices.currency, ...prices.cost(usage, total.tokens), ...prices.cache(usage) } : {})
    }
  }

  /** Today's hours (UTC day, as the daily rows) from midnight to the current hour; zeros where nothing was recorded. */
  private today (view: StatsView): HourRow[] {
    const now = this.clock.now()
    const date = new Date(now).toISOString().slice(0, 10)
    const hours = view.get(date)?.hours
    const start = Date.parse(`${date}T00:00:00.000Z`)
    return Array.from({ length: new Date(now).getUTCHours() + 1 }, (_, h) => ({ time: new Date(start + h * 3600000).toISOString(), ...(hours?.[h] ?? counters()) }))
  }

  models (prices?: PriceTable): Array<{ model: string; requests: number; tokens: number; avgLatency: number; errors: number } & Partial<ModelCost>> {
    return Object.entries(this.view().data.models).map(([model, m]) => ({
      model, requests: m.requests, tokens: m.tokens, avgLatency: m.requests ? Math.round(m.latencySum / m.requests) : 0, errors: m.errors,
      ...(prices ? { inputTokens: m.split?.[0] ?? 0, outputTokens: m.split?.[1] ?? 0, cachedTokens: m.split?.[2] ?? 0, pricedAs: prices.price(model)?.model ?? null, ...prices.modelCost(model, m.split, m.tokens), ...prices.modelCache(model, m.split) } : {})
    })).sort((a, b) => b.requests - a.requests)
  }

  tools (): Array<{ name: string; calls: number; avgDuration: number; successRate: number }> {
    return Object.entries(this.view().data.tools).map(([name, t]) => ({
      name, calls: t.calls, avgDuration: t.calls ? Math.round(t.durationSum / t.calls) : 0, successRate: t.calls ? t.successes / t.calls : 0
    })).sort((a, b) => b.calls - a.calls)
  }

  /** `sort: 'cost'` needs `prices` (else it sorts by tokens). */
  users (limit = 20, sort: 'messages' | 'tokens' | 'cost' = 'messages', prices?: PriceTable): Array<{ userId: string; nickname: string; messages: number; tokens: number; lastActive: string } & Partial<CostFigures>> {
    const rows = Object.entries(this.view().data.users).map(([userId, u]) => ({ userId, u, c: prices?.cost(u.usage, u.tokens) }))
    const key = (r: (typeof rows)[number]): number => sort === 'cost' ? (r.c?.cost ?? (prices ? -1 : r.u.tokens)) : r.u[sort]
    return rows.sort((a, b) => key(b) - key(a))
      .slice(0, limit)
      .map(({ userId, u, c }) => ({ userId, nickname: u.nickname, messages: u.messages, tokens: u.tokens, lastActive: new Date(u.lastActive).toISOString(), ...c }))
  }

  groups (limit = 20, prices?: PriceTable): Array<{ groupId: string; messages: number; responses: number; tokens: number; users: number; lastActive: string } & Partial<CostFigures>> {
    return Object.entries(this.view().data.groups)
      .sort((a, b) => b[1].messages - a[1].messages)
      .slice(0, limit)
      .map(([groupId, g]) => ({ groupId, messages: g.messages, responses: g.responses, tokens: g.tokens, users: g.users, lastActive: new Date(g.lastActive).toISOString(), ...prices?.cost(g.usage, g.tokens) }))
  }

  channels (prices?: PriceTable): Array<{ id: string; name: string; requests: number; errors: number; avgLatency: number; lastUsed: string; lastError: string; estimatedTokens: number } & Partial<CostFigures & CacheFigures>> {
    return Object.entries(this.view().data.channels).map(([id, c]) => ({
      id, name: c.name, requests: c.requests, errors: c.errors, avgLatency: c.requests ? Math.round(c.latencySum / c.requests) : 0,
      lastUsed: c.lastUsed ? new Date(c.lastUsed).toISOString() : '', lastError: c.lastError, estimatedTokens: c.estimatedTokens ?? 0,
      // a channel's legacy tokens are unknown (only requests were counted): its usage is all there is
      ...prices?.cost(c.usage, usageTokens(c.usage)), ...prices?.cache(c.usage)
    }))
  }

  /** A channel's usage in a budget month (`YYYY-MM`, see ModelRequest.month). */
  channelMonth (channelId: string, month: string): ModelUsage | undefined {
    const mine = own(own(this.store.data.channels, channelId)?.months, month)
    return this.shared ? this.shared.channelMonth(mine, channelId, month) : mine
  }

  /** Totals across all time (for the live metric stream). */
  totals (): { messages: number; tokens: number; toolCalls: number } {
    let messages = 0; let tokens = 0; let toolCalls = 0
    for (const [, d] of this.days.all()) { messages += d.messages; tokens += d.tokens; toolCalls += d.toolCalls }
    if (this.shared) { const o = this.shared.otherCounters(); messages += o.messages; tokens += o.tokens; toolCalls += o.toolCalls }
    return { messages, tokens, toolCalls }
  }

  /** Writes what changed; with nothing new, waits for a write already under way (stop: nothing left in flight). */
  async flush (): Promise<void> {
    if (this.timer) { clearTimeout(this.timer); this.timer = undefined }
    if (!this.dirty) { await this.inflight; return }
    this.dirty = false
    const changes = this.changes
    this.writing++
    const write = this.shared
      ? this.shared.write(this.store.data, (d) => this.days.get(d))
      : Promise.all([this.store.write(), this.days.flush()])
    this.inflight = write.then(() => undefined, () => undefined)
    try {
      await write
    } finally { this.writing-- }
    this.saved = Math.max(this.saved, changes)
  }

  /** Writes what is not on disk yet, synchronously: for process exit, where nothing async runs. */
  flushSync (): void {
    if (this.changes === this.saved) return
    if (this.timer) { clearTimeout(this.timer); this.timer = undefined }
    this.dirty = false
    if (this.shared) this.shared.writeUnsent(this.store.data, (d) => this.days.get(d))
    else {
      writeJsonSync(this.store.file, this.store.data)
      this.days.flushSync()
    }
    this.saved = this.changes
    // a write still in flight could land after this one with older data: write again after it
    if (this.writing > 0) this.schedule()
  }

  /** Calls `listener` after another instance's figures changed here; never with the files. */
  onRemote (listener: () => void): () => void { return this.shared?.onRemote(listener) ?? (() => {}) }

  /** Flushes, then closes the shared store (stop). */
  async close (): Promise<void> {
    try { await this.flush() } finally { await this.shared?.close() }
  }

  private daysIn (period: Period, view: StatsView): Array<[string, DayBucket]> {
    const n = PERIOD_DAYS[period]
    if (n === Infinity) return view.all()
    const out: Array<[string, DayBucket]> = []
    const now = this.clock.now()
    for (let i = n - 1; i >= 0; i--) {
      const date = new Date(now - i * DAY_MS).toISOString().slice(0, 10)
      out.push([date, view.get(date) ?? emptyDay()])
    }
    return out
  }

  private schedule (): void {
    this.dirty = true
    this.changes++
    if (this.timer) return
    this.timer = setTimeout(() => { this.timer = undefined; this.flush().catch(() => {}) }, this.flushMs)
    this.timer.unref()
  }
}
