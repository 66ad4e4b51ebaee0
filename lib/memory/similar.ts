// Near-duplicate detection between memories: same normalised text, one containing the other, or a
// high overlap of search tokens (Jaccard over the tokenizer's words and CJK bigrams).
import { tokenize } from '../search/tokenize.js'

const normalizeText = (s: string): string => s.normalize('NFKC').toLowerCase().replace(/[\s\p{P}\p{S}]+/gu, '')

export function similarity (a: string, b: string): number {
  const na = normalizeText(a)
  const nb = normalizeText(b)
  if (!na || !nb) return 0
  if (na === nb) return 1
  if (na.length >= 4 && nb.length >= 4 && (na.includes(nb) || nb.includes(na))) return 0.9
  const ta = new Set(tokenize(a))
  const tb = new Set(tokenize(b))
  if (ta.size === 0 || tb.size === 0) return 0
  let both = 0
  for (const t of ta) if (tb.has(t)) both++
  return both / (ta.size + tb.size - both)
}

/** Threshold above which two memories are taken as the same fact. */
export const SAME_FACT = 0.8
