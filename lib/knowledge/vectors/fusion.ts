// Joining the word (BM25) and meaning (vector) rankings of passages (lib/knowledge/README.md, "Found
// by meaning"): reciprocal rank fusion (a passage at rank r of a list scores weight / (k + r)) or a
// weighted sum of scores normalised per list (min-max: the list's best 1, its worst 0). Each fused
// passage keeps the retrievers that found it.
type Retriever = 'bm25' | 'vector' | 'rerank'
export interface Ranked { docId: string; n: number; score: number }
export interface Fused extends Ranked { retrievers: Retriever[] }
export interface FusionSettings { method: 'rrf' | 'weighted'; bm25Weight: number; vectorWeight: number; rrfK: number }

const keyOf = (h: Ranked): string => `${h.n}\u0000${h.docId}`

export function fuse (bm25: readonly Ranked[], vector: readonly Ranked[], s: FusionSettings): Fused[] {
  const out = new Map<string, Fused>()
  const add = (list: readonly Ranked[], retriever: Retriever, weight: number): void => {
    let lo = Infinity
    let hi = -Infinity
    for (const h of list) { lo = Math.min(lo, h.score); hi = Math.max(hi, h.score) }
    list.forEach((h, rank) => {
      const part = s.method === 'rrf'
        ? weight / (s.rrfK + rank + 1)
        : weight * (hi > lo ? (h.score - lo) / (hi - lo) : 1)
      const key = keyOf(h)
      const f = out.get(key)
      if (f) { f.score += part; f.retrievers.push(retriever) } else out.set(key, { docId: h.docId, n: h.n, score: part, retrievers: [retriever] })
    })
  }
  add(bm25, 'bm25', s.bm25Weight)
  add(vector, 'vector', s.vectorWeight)
  return [...out.values()].sort((a, b) => b.score - a.score)
}
