// Hybrid retrieval (lib/knowledge/README.md, "Found by meaning"): the BM25 passages and, when
// embeddings are set, the nearest passages by vector, fused (fusion.ts), then the optional reranker
// orders the best `rerank.topN`. Without vectors (off, not embedded yet, endpoint down) the BM25
// ranking as it is. A reranker that fails leaves the fused order (logged once until it works again).
import { errorText } from '../../core/errors.js'
import { fuse, type Fused, type Ranked } from './fusion.js'
import { rerank, rerankConfigured } from './rerank.js'
import type { KnowledgeVectors } from './vectors.js'

/** Passages each retriever gives the fusion at least. */
const POOL = 20

let rerankFailing = false

export async function hybridSearch (query: string, opts: { presetId?: string; docs?: ReadonlySet<string>; limit: number }, deps: {
  bm25: (limit: number) => Ranked[]
  vectors: KnowledgeVectors | undefined
  /** the passage's text (undefined: gone meanwhile) */
  textOf: (h: Ranked) => string | undefined
}): Promise<Fused[]> {
  const settings = deps.vectors?.deps.settings()
  const reranking = settings !== undefined && rerankConfigured(settings.rerank)
  const pool = Math.max(opts.limit, POOL, reranking ? settings.rerank.topN : 0)
  const words = deps.bm25(deps.vectors?.configured ? pool : opts.limit)
  const meaning = await deps.vectors?.query(query, { ...opts, limit: pool })
  if (!meaning || !settings) return words.slice(0, opts.limit).map((h) => ({ ...h, retrievers: ['bm25'] }))
  const fused = fuse(words, meaning, settings.fusion)
  if (!reranking || fused.length === 0) return fused.slice(0, opts.limit)
  const head = fused.slice(0, settings.rerank.topN)
  const texts = head.map((h) => deps.textOf(h) ?? '')
  try {
    const order = await rerank(settings.rerank, query, texts, { access: deps.vectors!.deps.access, clock: deps.vectors!.deps.clock })
    rerankFailing = false
    const ranked: Fused[] = order.map(({ index, score }) => ({ ...head[index]!, score, retrievers: [...head[index]!.retrievers, 'rerank'] }))
    return [...ranked, ...fused.slice(head.length)].slice(0, opts.limit)
  } catch (err) {
    if (!rerankFailing) deps.vectors!.deps.log.warn('The reranker failed: knowledge searches keep the fused order until it answers again', { error: errorText(err) })
    rerankFailing = true
    return fused.slice(0, opts.limit)
  }
}
