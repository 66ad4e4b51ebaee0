// The recall score (lib/memory/README.md, "Recall"): how well a memory answers a message (BM25 relevance)
// and how much it can be trusted now (its standing: confidence, whether the user stated or confirmed it,
// how recently it was stated or confirmed, how often it was recalled). The prompt (prompt.ts) ranks the
// message's hits by the score, and the stable summary by the standing alone.
import type { MemoryHit, MemoryRecord } from './types.js'

const DAY = 86_400_000
/** share of the score that is the message's relevance; the rest is the memory's standing */
const RELEVANCE_WEIGHT = 0.6
/** what an inferred, never confirmed memory's standing is worth against a stated or confirmed one's */
const INFERRED = 0.8
/** uses at which a memory's use term is full (log-scaled: 1 use is a quarter, 3 a half) */
const FULL_USE = 15

/** The user said it, a person wrote it, or it was confirmed: what the stable summary may hold. */
export function vouched (r: MemoryRecord): boolean {
  if (r.history?.some((h) => h.what === 'confirmed') === true) return true
  if (r.origin) return r.origin.kind !== 'inferred'
  return r.source !== 'auto' // saved before origins were kept: extracted ones are inferred
}

/** 1 when stated or confirmed just now, halving every `halfLifeDays` since (the later of the two). */
function freshness (r: MemoryRecord, now: number, halfLifeDays: number): number {
  let at = r.updatedAt
  for (const h of r.history ?? []) if (h.what === 'confirmed' && h.until > at) at = h.until
  return 0.5 ** (Math.max(0, now - at) / DAY / halfLifeDays)
}

const useTerm = (uses: number): number => Math.min(1, Math.log2(1 + uses) / Math.log2(1 + FULL_USE))

/** 0..1: confidence × trust × (half fixed, half fresh) × (five sixths fixed, one sixth use). */
function standing (r: MemoryRecord, now: number, halfLifeDays: number, uses: number): number {
  return r.confidence * (vouched(r) ? 1 : INFERRED) * (0.5 + 0.5 * freshness(r, now, halfLifeDays)) * (5 + useTerm(uses)) / 6
}

interface Scored<R extends MemoryRecord> { record: R; score: number }

/** The hits of a message by the recall score, best first (relevance: BM25 over the best hit's). */
export function rankHits (hits: readonly MemoryHit[], now: number, halfLifeDays: number, usesOf: (id: number) => number): Array<Scored<MemoryHit>> {
  let top = 0
  for (const h of hits) if (h.score > top) top = h.score
  const out = hits.map((h) => ({
    record: h,
    score: RELEVANCE_WEIGHT * (top > 0 ? h.score / top : 0) + (1 - RELEVANCE_WEIGHT) * standing(h, now, halfLifeDays, usesOf(h.id))
  }))
  return out.sort((a, b) => b.score - a.score || b.record.id - a.record.id)
}

/** Memories by standing alone, best first (the stable summary; the fill of a chat without one). */
export function rankStanding (records: readonly MemoryRecord[], now: number, halfLifeDays: number, usesOf: (id: number) => number): MemoryRecord[] {
  return records.map((r) => ({ record: r, score: standing(r, now, halfLifeDays, usesOf(r.id)) }))
    .sort((a, b) => b.score - a.score || b.record.id - a.record.id)
    .map((s) => s.record)
}
