// Rate limiting (README, "Security model"):
//  - RateLimiter: a sliding window of hits per key (chat messages per user).
//  - FailureLimiter: counts only failed attempts per key (login tokens, the MCP API key); a key with
//    too many recent failures is refused until the oldest leaves the window. Callers check the
//    credential first, so a valid one is not refused because of someone else's failures.
//  - clientAddress: the address a limit is keyed by; proxy headers only with web.trustProxy.
// Both count in this process unless given a SharedWindow (Redis, lib/storage/redis/limits.ts): then the
// asynchronous methods (admit, check, failed) count across every instance, with the same sliding window.
import { type Clock, systemClock } from './clock.js'

/** A sliding window kept outside the process; the caller's clock gives the time. */
export interface SharedWindow {
  /** Drops hits older than the window; adds one when `add` and fewer than `limit` (<= 0: no limit) are in it. */
  hit(key: string, o: { now: number; windowMs: number; limit: number; add: boolean }): Promise<{ added: boolean; count: number; oldest: number | undefined }>
}

const MAX_KEYS = 10_000

/** Timestamps per key inside a sliding window, swept when the map grows large. */
class Window {
  private readonly hits = new Map<string, number[]>()
  private nextSweep = 0

  constructor (private readonly windowMs: number, private readonly clock: Clock) {}

  recent (key: string): number[] {
    const now = this.clock.now()
    const list = this.hits.get(key)
    if (!list) return []
    const kept = list.filter((t) => t > now - this.windowMs)
    if (kept.length === 0) this.hits.delete(key)
    else if (kept.length !== list.length) this.hits.set(key, kept)
    return kept
  }

  add (key: string): void {
    const list = this.recent(key)
    list.push(this.clock.now())
    this.hits.set(key, list)
    // Expired keys are swept at most once a second (a scan of the map); past a hard cap against a
    // flood from very many addresses, the keys seen first go first.
    const now = this.clock.now()
    if (this.hits.size > MAX_KEYS && now >= this.nextSweep) { this.sweep(); this.nextSweep = now + 1000 }
    if (this.hits.size > MAX_KEYS * 10) { const first = this.hits.keys().next(); if (!first.done) this.hits.delete(first.value) }
  }

  /** Milliseconds until the key's oldest hit leaves the window. */
  retryAfterMs (key: string): number {
    const first = this.recent(key)[0]
    return first === undefined ? 0 : Math.max(0, first + this.windowMs - this.clock.now())
  }

  clear (key?: string): void { if (key === undefined) this.hits.clear(); else this.hits.delete(key) }

  private sweep (): void {
    const now = this.clock.now()
    for (const [k, v] of this.hits) if (!v.some((t) => t > now - this.windowMs)) this.hits.delete(k)
  }
}

/** Sliding-window limiter keyed by client or user: at most `max` hits per `windowMs`. */
export class RateLimiter {
  private readonly w: Window

  constructor (private readonly max: () => number, private readonly windowMs: number, private readonly clock: Clock = systemClock, private readonly shared?: SharedWindow) {
    this.w = new Window(windowMs, clock)
  }

  /** take(), counted across instances when shared; `retryAfterMs` is set when refused. */
  async admit (key: string): Promise<{ ok: boolean; retryAfterMs: number }> {
    if (!this.shared) {
      const ok = this.take(key)
      return { ok, retryAfterMs: ok ? 0 : this.retryAfterMs(key) }
    }
    const limit = this.max()
    if (limit <= 0) return { ok: true, retryAfterMs: 0 }
    const now = this.clock.now()
    // Redis away for a moment: count here rather than refuse everyone or let everyone through.
    const r = await this.shared.hit(key, { now, windowMs: this.windowMs, limit, add: true }).catch(() => undefined)
    if (!r) { const ok = this.take(key); return { ok, retryAfterMs: ok ? 0 : this.retryAfterMs(key) } }
    return { ok: r.added, retryAfterMs: r.added || r.oldest === undefined ? 0 : Math.max(0, r.oldest + this.windowMs - now) }
  }

  /** Records a hit; returns false when the key is over its limit (the hit is then not counted). */
  take (key: string): boolean {
    const limit = this.max()
    if (limit <= 0) return true
    if (this.w.recent(key).length >= limit) return false
    this.w.add(key)
    return true
  }

  /** Milliseconds until the key may try again. */
  retryAfterMs (key: string): number { return this.w.retryAfterMs(key) }

  /** Forgets this process' counts (a shared window is left to expire: other instances count on it). */
  reset (): void { this.w.clear() }
}

/** Counts failed attempts per key: at most `max` failures per `windowMs`, then `blocked`. */
export class FailureLimiter {
  private readonly w: Window

  constructor (private readonly max: () => number, private readonly windowMs: number, private readonly clock: Clock = systemClock, private readonly shared?: SharedWindow) {
    this.w = new Window(windowMs, clock)
  }

  /** blocked() and retryAfterSeconds(), counted across instances when shared. */
  async check (key: string): Promise<{ blocked: boolean; retryAfterSeconds: number }> {
    return await this.count(key, false)
  }

  /** fail(), counted across instances when shared; answers the state after it. */
  async failed (key: string): Promise<{ blocked: boolean; retryAfterSeconds: number }> {
    return await this.count(key, true)
  }

  private async count (key: string, add: boolean): Promise<{ blocked: boolean; retryAfterSeconds: number }> {
    const local = (): { blocked: boolean; retryAfterSeconds: number } => {
      if (add) this.fail(key)
      return { blocked: this.blocked(key), retryAfterSeconds: this.retryAfterSeconds(key) }
    }
    if (!this.shared) return local()
    const limit = this.max()
    const now = this.clock.now()
    // Redis away for a moment: count here (as RateLimiter.admit does).
    const r = await this.shared.hit(key, { now, windowMs: this.windowMs, limit: 0, add }).catch(() => undefined)
    if (!r) return local()
    const wait = r.oldest === undefined ? 0 : Math.max(0, r.oldest + this.windowMs - now)
    return { blocked: limit > 0 && r.count >= limit, retryAfterSeconds: Math.max(1, Math.ceil(wait / 1000)) }
  }

  /** True while the key has used up its failures; the caller answers 429 with `retryAfterSeconds`. */
  blocked (key: string): boolean {
    const limit = this.max()
    return limit > 0 && this.w.recent(key).length >= limit
  }

  /** Records one failed attempt. */
  fail (key: string): void { this.w.add(key) }

  retryAfterMs (key: string): number { return this.w.retryAfterMs(key) }

  /** Whole seconds for a Retry-After header (at least 1). */
  retryAfterSeconds (key: string): number { return Math.max(1, Math.ceil(this.w.retryAfterMs(key) / 1000)) }

  reset (key?: string): void { this.w.clear(key) }
}

/** `::ffff:1.2.3.4` → `1.2.3.4`; an IPv6 address → its /64 network (one host owns a whole /64). */
export function addressKey (address: string): string {
  const a = address.trim().toLowerCase().replace(/^\[|\](:\d+)?$/g, '').replace(/%.*$/, '')
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(a)
  if (mapped) return mapped[1] as string
  const v4 = /^(\d+\.\d+\.\d+\.\d+)(:\d+)?$/.exec(a)
  if (v4) return v4[1] as string
  if (!a.includes(':')) return a
  const [head = '', tail = ''] = a.split('::', 2) as [string?, string?]
  const left = head ? head.split(':') : []
  const right = a.includes('::') && tail ? tail.split(':') : []
  const groups = a.includes('::') ? [...left, ...Array<string>(Math.max(0, 8 - left.length - right.length)).fill('0'), ...right] : left
  return `${groups.slice(0, 4).map((g) => g.replace(/^0+(?=.)/, '')).join(':')}::/64`
}

/**
 * The client address of a request. Proxy headers are read only when `trustProxy` is set (the plugin
 * sits behind a reverse proxy that sets them): the last X-Forwarded-For entry (the one our proxy
 * appended; earlier ones are whatever the client sent), else X-Real-IP, else the socket address.
 */
/** The parts of a request that clientAddress reads (a node request has them). */
export interface AddressedRequest {
  headers: Record<string, string | string[] | undefined>
  socket?: { remoteAddress?: string }
}

export function clientAddress (req: AddressedRequest, trustProxy: boolean): string {
  const socket = req.socket?.remoteAddress ?? 'unknown'
  if (!trustProxy) return addressKey(socket)
  const xff = req.headers['x-forwarded-for']
  const list = (Array.isArray(xff) ? xff.join(',') : xff ?? '').split(',').map((s) => s.trim()).filter(Boolean)
  const last = list.at(-1)
  if (last) return addressKey(last)
  const real = req.headers['x-real-ip']
  const realIp = (Array.isArray(real) ? real.at(-1) : real)?.trim()
  return addressKey(realIp || socket)
}
