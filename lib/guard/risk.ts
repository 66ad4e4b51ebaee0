// The risk figure of one chat (0-100) from its recent sends: each signal's count over the level that
// alone makes the figure 100 (the `guard` settings), the strongest signal in full plus a quarter of the
// others (two signals near their limits together are worse than one). Pure; times in ms.
import type { GuardSettings } from '../config/schema.js'

export interface SendRecord {
  at: number
  chars: number
  links: number
  hash: number
  ok: boolean
}

export type SignalName = 'perMinute' | 'perHour' | 'long' | 'repeats' | 'links' | 'failures'
const SIGNALS: readonly SignalName[] = ['perMinute', 'perHour', 'long', 'repeats', 'links', 'failures']

export type Signals = Record<SignalName, number>

const MINUTE = 60_000
const HOUR = 3_600_000

/** How far back the records are needed. */
export const keepMs = (s: Pick<GuardSettings, 'repeatWindowMinutes'>): number => Math.max(HOUR, s.repeatWindowMinutes * MINUTE)

/** The signal counts at `now` (records oldest first). */
export function signalsOf (records: readonly SendRecord[], s: GuardSettings, now: number): Signals {
  const out: Signals = { perMinute: 0, perHour: 0, long: 0, repeats: 0, links: 0, failures: 0 }
  const repeatFrom = now - s.repeatWindowMinutes * MINUTE
  const seen = new Set<number>()
  for (const r of records) {
    if (r.at > now) continue
    if (r.at > now - HOUR) {
      out.perHour++
      if (r.at > now - MINUTE) out.perMinute++
      if (r.chars >= s.longChars) out.long++
      if (r.links > 0) out.links++
      if (!r.ok) out.failures++
    }
    if (r.at > repeatFrom && r.hash !== 0) {
      if (seen.has(r.hash)) out.repeats++
      else seen.add(r.hash)
    }
  }
  return out
}

/** Each signal's share of its limit (1 = the limit). */
function pressures (sig: Signals, s: GuardSettings): Signals {
  return {
    perMinute: sig.perMinute / s.maxPerMinute,
    perHour: sig.perHour / s.maxPerHour,
    long: sig.long / s.maxLongPerHour,
    repeats: sig.repeats / s.maxRepeats,
    links: sig.links / s.maxLinksPerHour,
    failures: sig.failures / s.maxFailuresPerHour
  }
}

export function riskOf (sig: Signals, s: GuardSettings): number {
  const p = SIGNALS.map((k) => pressures(sig, s)[k])
  const top = Math.max(...p)
  const rest = p.reduce((a, b) => a + b, 0) - top
  return Math.min(100, Math.round(100 * (top + rest / 4)))
}

/** The signals that weigh in (at least a quarter of their limit), strongest first. */
export function mainSignals (sig: Signals, s: GuardSettings): SignalName[] {
  const p = pressures(sig, s)
  return SIGNALS.filter((k) => p[k] >= 0.25).sort((a, b) => p[b] - p[a])
}
