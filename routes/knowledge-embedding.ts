// Found by meaning (docs/api.md, "Knowledge base"; style B) at /api/knowledge/embedding: the state
// of the background embedding, and a test of an embeddings endpoint (the configured one, or the
// fields given: what the settings form tries before saving).
import { z } from 'zod'
import { AppError } from '../lib/core/errors.js'
import { maskSecret } from '../lib/config/secrets.js'
import type { Runtime } from '../lib/runtime.js'
import { embeddingConfigured } from '../lib/knowledge/vectors/client.js'
import { B, styledRouter } from './_http/envelope.js'
import { parseBody } from './_http/validate.js'
import { routeDoc, type Data } from './_http/route-docs.js'

const statusData = z.object({
  state: z.enum(['off', 'loading', 'idle', 'embedding', 'error']), done: z.number(), total: z.number(), model: z.string(),
  vectors: z.number(), dimensions: z.number(), batchSize: z.number(),
  // where the vectors are kept: the data folder, PostgreSQL records ("pgvector not installed: vectors in the embedded index") or pgvector
  storage: z.string(), error: z.string().optional()
})
const testBody = z.strictObject({
  baseUrl: z.string().max(500), apiKey: z.string().max(500), model: z.string().max(200),
  dimensions: z.int().min(1).max(8192), batchSize: z.int().min(0).max(2048)
}).partial()
const testData = z.object({ model: z.string(), dimensions: z.number(), batchSize: z.number(), latencyMs: z.number() })

export function knowledgeEmbeddingRoutes (rt: Runtime): ReturnType<typeof styledRouter> {
  const r = styledRouter('B', { prefix: '/api/knowledge/embedding' })
  const vectors = () => {
    const v = rt.need('knowledge').vectors
    if (!v) throw new AppError('SERVICE_UNAVAILABLE', 'This knowledge base keeps no vectors')
    return v
  }

  r.get('/status', B((): Data<typeof statusData> => vectors().status()))
  routeDoc(r, 'GET', '/status', { summary: 'The background embedding of passages: state (off, loading, idle, embedding, error), documents done of total in this run, model, vectors held, where they are kept (storage)', data: statusData })

  r.post('/test', B(async (ctx): Promise<Data<typeof testData>> => {
    const given = parseBody(ctx, testBody)
    const mine = rt.config.get().knowledge.embedding
    // a masked key (as GET /api/config shows it) stands for the stored one
    const apiKey = given.apiKey === undefined || (mine.apiKey && given.apiKey === maskSecret(mine.apiKey)) ? mine.apiKey : given.apiKey
    const s = {
      baseUrl: given.baseUrl ?? mine.baseUrl, apiKey, model: given.model ?? mine.model,
      dimensions: given.dimensions ?? mine.dimensions, batchSize: given.batchSize ?? mine.batchSize
    }
    if (!embeddingConfigured(s)) throw new AppError('BAD_REQUEST', 'No embeddings endpoint: set knowledge.embedding.baseUrl and model, or send baseUrl and model')
    const got = await vectors().probe(s)
    return { model: s.model, ...got }
  }))
  routeDoc(r, 'POST', '/test', { body: testBody, summary: 'Try an embeddings endpoint (the configured one; fields given replace its settings): dimension, batch limit learned, latency of one text', errors: [400, 502, 504], data: testData })
  return r
}
