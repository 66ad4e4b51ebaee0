// The optional reranker: Jina/Cohere-style POST {baseUrl}/rerank {model, query, documents, top_n} →
// results[{index, relevance_score}] (SiliconFlow, Jina, Cohere, DashScope's compatible API).
import { AppError } from '../../core/errors.js'
import { postJson, type PostDeps } from './http.js'

export interface RerankSettings { baseUrl: string; apiKey: string; model: string; topN: number }
export const rerankConfigured = (s: Pick<RerankSettings, 'baseUrl' | 'model'>): boolean => s.baseUrl.trim() !== '' && s.model.trim() !== ''

interface RerankAnswer { results?: Array<{ index?: unknown; relevance_score?: unknown }> }

/** The documents' indexes with their relevance, best first. */
export async function rerank (s: RerankSettings, query: string, documents: readonly string[], deps: PostDeps, timeoutMs = 15_000): Promise<Array<{ index: number; score: number }>> {
  const answer = await postJson(`${s.baseUrl.replace(/\/+$/, '')}/rerank`, s.apiKey, {
    model: s.model, query, documents, top_n: documents.length, return_documents: false
  }, deps, { timeoutMs, what: '重排服务' }) as RerankAnswer
  if (!Array.isArray(answer?.results)) throw new AppError('MODEL_ERROR', '重排服务的回答里没有 results')
  const out: Array<{ index: number; score: number }> = []
  for (const r of answer.results) {
    if (typeof r.index === 'number' && Number.isInteger(r.index) && r.index >= 0 && r.index < documents.length && typeof r.relevance_score === 'number') out.push({ index: r.index, score: r.relevance_score })
  }
  return out.sort((a, b) => b.score - a.score)
}
