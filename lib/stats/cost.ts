// What recorded usage costs. The statistics keep, per model, the input (prompt), output (completion) and
// cached-input tokens of every day, user, group and channel (store.ts, days.ts); the price table of the
// configuration (`pricing`: per million tokens, one currency) turns them into money when a figure is
// asked for. So a changed price applies to all recorded usage, and nothing is priced twice.
// Tokens recorded without the split (older versions kept only totals) and tokens of unpriced models are
// not in a cost: they are reported as `unpricedTokens`, and a figure with nothing priced is null, not 0.
import { own, toDict, type Dict } from '../core/dict.js'

/** One model's tokens: input (prompt, cached ones included), output (completion), cached input. */
export type Tokens = [input: number, output: number, cachedInput: number]

/** Tokens by model name (a null-prototype record: model names come from outside). */
export type ModelUsage = Dict<Tokens>

/** Adds one request's tokens to `usage` under its model; a request without tokens leaves no entry. */
export function addUsage (usage: ModelUsage, model: string, input: number, output: number, cached: number): void {
  if (input <= 0 && output <= 0) return
  const t = own(usage, model)
  if (t) { t[0] += input; t[1] += output; t[2] += cached } else usage[model] = [input, output, cached]
}

const num = (v: unknown): number => typeof v === 'number' && Number.isFinite(v) && v >= 0 ? v : 0

/** Usage as read from a file, rebuilt as a null-prototype record of well-formed entries. */
export function usageOf (v: unknown): ModelUsage {
  return toDict(v, (t): Tokens => Array.isArray(t) ? [num(t[0]), num(t[1]), num(t[2])] : [0, 0, 0])
}

/** Input plus output tokens of a usage record. */
export const usageTokens = (u: ModelUsage | undefined): number => Object.values(u ?? {}).reduce((n, t) => n + t[0] + t[1], 0)

/** Sums usage records into a new one. */
export function mergeUsage (into: ModelUsage, from: ModelUsage | undefined): ModelUsage {
  if (from) for (const [m, t] of Object.entries(from)) addUsage(into, m, t[0], t[1], t[2])
  return into
}

/** One line of the price table: prices per 1,000,000 tokens. `model` is a name or a pattern with `*`. */
export interface Price { model: string; input: number; output: number; cachedInput?: number | undefined }

/** The `pricing` configuration section. */
export interface PricingSettings { currency: string; timezone: string; models: readonly Price[] }

export interface CostFigures {
  /** in the table's currency; null when the usage holds tokens but none of them is priced */
  cost: number | null
  /** tokens not in `cost`: of unpriced models, or recorded before input and output were kept apart */
  unpricedTokens: number
}

/**
 * What the provider's cache did for a usage: `cachedShare`, the cached part of the input (0..1; null
 * without input); `cacheSaved`, the money it saved against the input price (null when none of the
 * usage is priced; 0 for prices without `cachedInput`, which price cached input as input).
 */
export interface CacheFigures { cachedShare: number | null; cacheSaved: number | null }

/** Rounded to a millionth: sums of small products should not show float noise (0.30000000000000004). */
const round = (n: number): number => Math.round(n * 1e6) / 1e6

const escape = (s: string): string => s.replace(/[.+?^${}()|[\]\\]/g, '\\$&')

export class PriceTable {
  readonly currency: string
  private readonly exact = new Map<string, Price>()
  private readonly patterns: Array<{ re: RegExp; price: Price }> = []
  /** model name → its price (or none): each recorded name is matched once */
  private readonly memo = new Map<string, Price | null>()

  constructor (s: PricingSettings) {
    this.currency = s.currency
    for (const p of s.models) {
      if (!p.model.includes('*')) { this.exact.set(p.model, p); continue }
      this.patterns.push({ re: new RegExp(`^${p.model.split('*').map(escape).join('.*')}$`, 'is'), price: p })
    }
    // the most specific pattern first: the longest, then the one listed first (sort is stable)
    this.patterns.sort((a, b) => b.price.model.length - a.price.model.length)
  }

  /** The price of a model: its exact entry, else the longest matching pattern, else none. */
  price (model: string): Price | undefined {
    const hit = this.memo.get(model)
    if (hit !== undefined) return hit ?? undefined
    const p = this.exact.get(model) ?? this.patterns.find((x) => x.re.test(model))?.price
    this.memo.set(model, p ?? null)
    return p
  }

  /** The cost of one model's tokens at `price`. */
  static costOf (price: Price, t: Tokens): number {
    const cached = Math.min(t[2], t[0])
    return ((t[0] - cached) * price.input + cached * (price.cachedInput ?? price.input) + t[1] * price.output) / 1e6
  }

  /**
   * The cost of `usage` (tokens by model). `tokens` is the entry's recorded total: what the usage does
   * not cover (older records) counts as unpriced.
   */
  cost (usage: ModelUsage | undefined, tokens: number): CostFigures {
    let sum = 0
    let priced = 0
    let any = false
    for (const [model, t] of Object.entries(usage ?? {})) {
      const p = this.price(model)
      if (!p) continue
      any = true
      sum += PriceTable.costOf(p, t)
      priced += t[0] + t[1]
    }
    const unpricedTokens = Math.max(0, tokens - priced)
    return { cost: any ? round(sum) : unpricedTokens > 0 ? null : 0, unpricedTokens }
  }

  /** Money saved on one model's cached input at `price` (cached tokens beyond the input are not counted, as in costOf). */
  static savedOn (price: Price, t: Tokens): number {
    return Math.min(t[2], t[0]) * (price.input - (price.cachedInput ?? price.input)) / 1e6
  }

  /** The cache figures of `usage` (tokens by model); the saving counts priced models only. */
  cache (usage: ModelUsage | undefined): CacheFigures {
    let input = 0
    let cached = 0
    let saved = 0
    let any = false
    for (const [model, t] of Object.entries(usage ?? {})) {
      input += t[0]
      cached += Math.min(t[2], t[0])
      const p = this.price(model)
      if (!p) continue
      any = true
      saved += PriceTable.savedOn(p, t)
    }
    return { cachedShare: input > 0 ? round(cached / input) : null, cacheSaved: any ? round(saved) : input > 0 ? null : 0 }
  }

  /** The cache figures of one model's recorded tokens. */
  modelCache (model: string, t: Tokens | undefined): CacheFigures {
    const p = this.price(model)
    const split = t ?? [0, 0, 0]
    return {
      cachedShare: split[0] > 0 ? round(Math.min(split[2], split[0]) / split[0]) : null,
      cacheSaved: p ? round(PriceTable.savedOn(p, split)) : null
    }
  }

  /** The cost of one model's recorded tokens: null when the model has no price. */
  modelCost (model: string, t: Tokens | undefined, tokens: number): CostFigures {
    const p = this.price(model)
    if (!p) return { cost: null, unpricedTokens: tokens }
    const split = t ?? [0, 0, 0]
    const unpricedTokens = Math.max(0, tokens - split[0] - split[1])
    // only tokens of older records (no split): nothing to price, as in cost()
    const none = split[0] + split[1] === 0 && unpricedTokens > 0
    return { cost: none ? null : round(PriceTable.costOf(p, split)), unpricedTokens }
  }
}

// The configuration object of a section stays the same until the configuration changes.
const tables = new WeakMap<PricingSettings, PriceTable>()

/** The price table of a `pricing` section (built once per configuration). */
export function priceTable (s: PricingSettings): PriceTable {
  let t = tables.get(s)
  if (!t) tables.set(s, (t = new PriceTable(s)))
  return t
}

interface MonthOf { format: Intl.DateTimeFormat; minute: number; key: string }
const monthFormats = new Map<string, MonthOf>()

/** The month (`YYYY-MM`) of a moment in a timezone ('' = the machine's): when a budget month starts. */
export function monthKey (time: number, timeZone: string): string {
  let m = monthFormats.get(timeZone)
  if (!m) monthFormats.set(timeZone, (m = { format: new Intl.DateTimeFormat('en-US', { ...(timeZone ? { timeZone } : {}), year: 'numeric', month: '2-digit' }), minute: NaN, key: '' }))
  // Asked on every model request: the answer is kept for the minute (UTC offsets are whole minutes,
  // so a month never starts inside one); formatToParts costs about 10 µs.
  const minute = Math.floor(time / 60_000)
  if (minute === m.minute) return m.key
  const parts = m.format.formatToParts(time)
  const part = (type: string): string => parts.find((p) => p.type === type)?.value ?? ''
  m.minute = minute
  m.key = `${part('year')}-${part('month')}`
  return m.key
}
