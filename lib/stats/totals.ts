// The running totals of the statistics (stats.json, or one record per instance in PostgreSQL: shared.ts):
// their layout, how they are read back, and how the totals of several instances add up.
import { dict, toDict, type Dict } from '../core/dict.js'
import { mergeUsage, usageOf, type ModelUsage, type Tokens } from './cost.js'
import type { DayBucket } from './days.js'

type Model = { requests: number; tokens: number; latencySum: number; errors: number; split?: Tokens }
type Tool = { calls: number; durationSum: number; successes: number }
type User = { nickname: string; messages: number; tokens: number; lastActive: number; usage?: ModelUsage }
type Group = { messages: number; responses: number; tokens: number; users: number; lastActive: number; userIds: Dict<1>; usage?: ModelUsage }
/** `months`: usage by budget month (owner's timezone), the last MONTHS_KEPT of them */
/** `estimatedTokens`: of its tokens, those counted here because the provider reported none */
type Channel = { name: string; requests: number; errors: number; latencySum: number; lastUsed: number; lastError: string; usage?: ModelUsage; months?: Dict<ModelUsage>; estimatedTokens?: number }

// Every map is keyed by names from outside (users, groups, models, channels, tools): null-prototype
// records (lib/core/dict.ts), rebuilt so when the file is read.
export interface StatsData {
  /** only in files of the old layout: moved into the month files at start */
  days?: Record<string, DayBucket>
  // `split` and `usage` (tokens by model) hold input and output apart, for the cost (cost.ts); records
  // of older versions have only `tokens`
  models: Dict<Model>
  tools: Dict<Tool>
  users: Dict<User>
  groups: Dict<Group>
  channels: Dict<Channel>
}

export const EMPTY: StatsData = { models: {}, tools: {}, users: {}, groups: {}, channels: {} }
export const emptyTotals = (): StatsData => ({ models: dict(), tools: dict(), users: dict(), groups: dict(), channels: dict() })

/** The data read from stats.json with every map rebuilt as a null-prototype record. */
export function revive (d: StatsData): StatsData {
  const rec = <T extends object>(v: unknown): Dict<T> => toDict(v, (x) => ({ ...(x as T) }))
  // nested records keyed by model names are rebuilt too (a model called `__proto__`)
  const withUsage = <T extends { usage?: ModelUsage }>(v: unknown): Dict<T> => toDict(v, (x) => { const o = { ...(x as T) }; if (o.usage) o.usage = usageOf(o.usage); return o })
  return {
    ...(d.days ? { days: d.days } : {}),
    models: rec(d.models),
    tools: rec(d.tools),
    users: withUsage(d.users),
    groups: toDict(d.groups, (x) => { const g = x as Group; return { ...g, userIds: toDict<1>(g?.userIds), ...(g?.usage ? { usage: usageOf(g.usage) } : {}) } }),
    channels: toDict(d.channels, (x) => {
      const c = x as Channel
      return { ...c, ...(c?.usage ? { usage: usageOf(c.usage) } : {}), ...(c?.months ? { months: toDict(c.months, usageOf) } : {}) }
    })
  }
}

export const newGroup = (): Group => ({ messages: 0, responses: 0, tokens: 0, users: 0, lastActive: 0, userIds: dict(), usage: dict() })

/** `from`'s usage added to `into`'s (created when missing; `from` is never shared with `into`). */
const addUsageOf = (into: { usage?: ModelUsage }, from: { usage?: ModelUsage }): void => {
  if (from.usage) mergeUsage(into.usage ??= dict(), from.usage)
}

/**
 * Adds the totals of another instance (`from`) to `into` (lib/stats/README.md, "Several instances"):
 * counters summed, the latest activity kept (and the name or error seen with it), the users of a group
 * united, so one active on two instances counts once. `into` shares no object with `from` afterwards.
 */
export function mergeTotals (into: StatsData, from: StatsData): StatsData {
  for (const [k, m] of Object.entries(from.models)) {
    const t = (into.models[k] ??= { requests: 0, tokens: 0, latencySum: 0, errors: 0 })
    t.requests += m.requests; t.tokens += m.tokens; t.latencySum += m.latencySum; t.errors += m.errors
    if (m.split) { const s = (t.split ??= [0, 0, 0]); s[0] += m.split[0]; s[1] += m.split[1]; s[2] += m.split[2] }
  }
  for (const [k, x] of Object.entries(from.tools)) {
    const t = (into.tools[k] ??= { calls: 0, durationSum: 0, successes: 0 })
    t.calls += x.calls; t.durationSum += x.durationSum; t.successes += x.successes
  }
  for (const [k, u] of Object.entries(from.users)) {
    const t = (into.users[k] ??= { nickname: '', messages: 0, tokens: 0, lastActive: 0 })
    if (u.nickname && (!t.nickname || u.lastActive >= t.lastActive)) t.nickname = u.nickname
    t.messages += u.messages; t.tokens += u.tokens; t.lastActive = Math.max(t.lastActive, u.lastActive)
    addUsageOf(t, u)
  }
  for (const [k, g] of Object.entries(from.groups)) {
    const t = (into.groups[k] ??= newGroup())
    t.messages += g.messages; t.responses += g.responses; t.tokens += g.tokens; t.lastActive = Math.max(t.lastActive, g.lastActive)
    for (const u of Object.keys(g.userIds)) t.userIds[u] = 1
    t.users = Math.max(Object.keys(t.userIds).length, t.users, g.users)
    addUsageOf(t, g)
  }
  for (const [k, c] of Object.entries(from.channels)) {
    const t = (into.channels[k] ??= { name: c.name, requests: 0, errors: 0, latencySum: 0, lastUsed: 0, lastError: '' })
    if (c.lastUsed >= t.lastUsed) { t.name = c.name || t.name; if (c.lastError) t.lastError = c.lastError }
    t.requests += c.requests; t.errors += c.errors; t.latencySum += c.latencySum; t.lastUsed = Math.max(t.lastUsed, c.lastUsed)
    if (c.estimatedTokens) t.estimatedTokens = (t.estimatedTokens ?? 0) + c.estimatedTokens
    addUsageOf(t, c)
    if (c.months) {
      const months = (t.months ??= dict())
      for (const [m, u] of Object.entries(c.months)) mergeUsage(months[m] ??= dict(), u)
    }
  }
  return into
}
