// Sliding-window limiter keyed by client or user: at most `max` hits per `windowMs`.
import { type Clock, systemClock } from './clock.js'

export class RateLimiter {
  private readonly hits = new Map<string, number[]>()

  constructor (private readonly max: () => number, private readonly windowMs: number, private readonly clock: Clock = systemClock) {}

  /** Records a hit; returns false when the key is over its limit (the hit is then not counted). */
  take (key: string): boolean {
    const limit = this.max()
    if (limit <= 0) return true
    const now = this.clock.now()
    const recent = (this.hits.get(key) ?? []).filter((t) => t > now - this.windowMs)
    if (recent.length >= limit) { this.hits.set(key, recent); return false }
    recent.push(now)
    this.hits.set(key, recent)
    if (this.hits.size > 10000) this.sweep(now)
    return true
  }

  /** Milliseconds until the key may try again. */
  retryAfterMs (key: string): number {
    const first = this.hits.get(key)?.[0]
    return first === undefined ? 0 : Math.max(0, first + this.windowMs - this.clock.now())
  }

  reset (): void { this.hits.clear() }

  private sweep (now: number): void {
    for (const [k, v] of this.hits) if (!v.some((t) => t > now - this.windowMs)) this.hits.delete(k)
  }
}
