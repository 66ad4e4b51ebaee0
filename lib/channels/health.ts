// The health of one channel over time, as pure functions of the previous state and the clock's `now`
// (service.ts keeps one per channel). A failed channel waits until `retryAt` (the provider's Retry-After,
// else a back-off doubling per failed round), then is half-open: one trial request at a time gets its
// priority place back; a success makes it `active` again, a failure waits longer.

/** Back-off after the first failure; doubled for each further failed trial. */
const BACKOFF_BASE_MS = 5_000
/** 5 s, 10 s, 20 s, 40 s, 80 s, 160 s, then 5 min for every later failure. */
export const BACKOFF_MAX_MS = 300_000
/** A provider's Retry-After is followed up to 10 min: a longer one (or a bogus date) would hide the channel for hours. */
export const RETRY_AFTER_MAX_MS = 600_000
/** A Retry-After of 0 would make every request a trial. */
const RETRY_AFTER_MIN_MS = 1_000
/** A trial claim outlives the channel's timeoutMs by this much: a trial that never reports (caller abort) frees the channel then. */
export const CLAIM_MARGIN_MS = 5_000

export interface ChannelHealth {
  status: 'active' | 'error'
  lastError: string
  lastUsed: number
  /** failed rounds since the last success (failures while waiting do not count: one burst is one round) */
  failures: number
  /** `error`: when the channel may be tried again (epoch ms); 0 when active */
  retryAt: number
  /** a trial request holds the half-open channel until then (epoch ms); 0: none */
  trialUntil: number
}

/**
 * `waiting`: failed, before retryAt (sorted after healthy channels); `half-open`: from retryAt on, with no
 * trial running (its priority place, for one request); `trial`: the one trial runs (sorted after again).
 */
type HealthPhase = 'active' | 'waiting' | 'half-open' | 'trial'

export function phaseOf (h: ChannelHealth | undefined, now: number): HealthPhase {
  if (!h || h.status === 'active') return 'active'
  if (now < h.retryAt) return 'waiting'
  return h.trialUntil > now ? 'trial' : 'half-open'
}

export function backoffMs (failures: number): number {
  return Math.min(BACKOFF_MAX_MS, BACKOFF_BASE_MS * 2 ** Math.max(0, Math.min(failures, 30) - 1))
}

export function succeeded (now: number): ChannelHealth {
  return { status: 'active', lastError: '', lastUsed: now, failures: 0, retryAt: 0, trialUntil: 0 }
}

export function failed (prev: ChannelHealth | undefined, now: number, lastError: string, retryAfterMs?: number): ChannelHealth {
  const given = retryAfterMs !== undefined && Number.isFinite(retryAfterMs) && retryAfterMs >= 0
  const wait = given ? Math.min(RETRY_AFTER_MAX_MS, Math.max(RETRY_AFTER_MIN_MS, retryAfterMs)) : undefined
  if (prev && phaseOf(prev, now) === 'waiting') {
    // requests that were under way when the channel failed: the same round, only a longer Retry-After counts
    return { ...prev, lastError, lastUsed: now, retryAt: wait === undefined ? prev.retryAt : Math.max(prev.retryAt, now + wait), trialUntil: 0 }
  }
  const failures = (prev?.status === 'error' ? prev.failures : 0) + 1
  return { status: 'error', lastError, lastUsed: now, failures, retryAt: now + (wait ?? backoffMs(failures)), trialUntil: 0 }
}

/** The half-open channel is held by one trial request until `now + ttlMs`. */
export function claimed (h: ChannelHealth, now: number, ttlMs: number): ChannelHealth {
  return { ...h, trialUntil: now + ttlMs }
}
