// The embeddings client: OpenAI-compatible POST {baseUrl}/embeddings (lib/knowledge/README.md,
// "Found by meaning"). Texts go in batches of the size the endpoint takes: the configured one, else
// the one learned (start at 32; a 400 or 413 that speaks of the batch size or too many inputs halves
// it, or takes the number the error names, and the batch is sent again), remembered through `learned`.
import { AppError } from '../../core/errors.js'
import { EndpointError, postJson, type PostDeps } from './http.js'

export interface EmbeddingSettings { baseUrl: string; apiKey: string; model: string; dimensions?: number | undefined; batchSize: number }
/** Where the first batch size comes from when none is configured or learned. */
const FIRST_BATCH = 32
const TIMEOUT_MS = 60_000

/** Embedding is set up: an address and a model. */
export const embeddingConfigured = (s: Pick<EmbeddingSettings, 'baseUrl' | 'model'>): boolean => s.baseUrl.trim() !== '' && s.model.trim() !== ''

/** A refusal that is about how many texts one request holds, and the limit it names if any. */
export function batchRefusal (status: number, text: string): { limit?: number } | undefined {
  if (status !== 400 && status !== 413 && status !== 422) return undefined
  if (!/batch|too many|inputs? (?:count|length|size)|number of (?:inputs|texts)|list.*(?:long|large)|最多|不能超过|条数|数量/i.test(text)) return undefined
  const named = /(?:maximum allowed batch size|larger than|at most|not exceed|no more than|greater than|最多|不能超过|超过)\s*(\d+)/i.exec(text)
  const limit = named ? Number(named[1]) : undefined
  return limit !== undefined && limit > 0 ? { limit } : {}
}

interface EmbeddingAnswer { data?: Array<{ embedding?: unknown; index?: number }> }

export class EmbeddingClient {
  private batch: number
  constructor (private readonly settings: EmbeddingSettings, private readonly deps: PostDeps & { learnedBatch?: number; learned?: (batch: number) => void }) {
    this.batch = settings.batchSize > 0 ? settings.batchSize : (deps.learnedBatch ?? FIRST_BATCH)
  }

  /** The batch size in use (configured, learned or the first guess). */
  get batchSize (): number { return this.batch }

  /** The vectors of `texts`, in order. */
  async embed (texts: readonly string[], opts: { timeoutMs?: number; attempts?: number } = {}): Promise<number[][]> {
    const out: number[][] = []
    for (let at = 0; at < texts.length;) {
      const part = texts.slice(at, at + this.batch)
      try {
        out.push(...await this.request(part, opts.timeoutMs ?? TIMEOUT_MS, opts.attempts))
        at += part.length
      } catch (err) {
        if (!(err instanceof EndpointError) || this.settings.batchSize > 0 || part.length <= 1) throw this.worded(err, part.length)
        const refusal = batchRefusal(err.httpStatus, err.text)
        if (!refusal) throw err
        const next = Math.max(1, Math.min(refusal.limit ?? Math.floor(part.length / 2), part.length - 1))
        this.batch = next
        this.deps.learned?.(next)
      }
    }
    return out
  }

  /** A refusal of the batch size in the owner's words. */
  private worded (err: unknown, sent: number): unknown {
    if (!(err instanceof EndpointError)) return err
    const refusal = batchRefusal(err.httpStatus, err.text)
    if (!refusal) return err
    const n = refusal.limit ?? Math.max(1, Math.floor(sent / 2))
    return new AppError('BAD_REQUEST', `嵌入服务一次最多接受 ${n} 条文本，这次发了 ${sent} 条：请把 knowledge.embedding.batchSize 设为 ${n} 或更小（0 = 自动得知）。服务的原话：${err.text.slice(0, 200)}`)
  }

  private async request (input: readonly string[], timeoutMs: number, attempts?: number): Promise<number[][]> {
    const s = this.settings
    const answer = await postJson(`${s.baseUrl.replace(/\/+$/, '')}/embeddings`, s.apiKey, {
      model: s.model, input, encoding_format: 'float', ...(s.dimensions ? { dimensions: s.dimensions } : {})
    }, this.deps, { timeoutMs, what: '嵌入服务', ...(attempts ? { attempts } : {}) }) as EmbeddingAnswer
    const data = Array.isArray(answer?.data) ? answer.data : []
    const vectors: number[][] = []
    data.forEach((d, i) => {
      const v = d.embedding
      if (Array.isArray(v) && v.every((x) => typeof x === 'number')) vectors[typeof d.index === 'number' ? d.index : i] = v as number[]
    })
    if (vectors.length !== input.length || vectors.some((v) => v === undefined)) {
      throw new AppError('MODEL_ERROR', `嵌入服务返回了 ${data.length} 个向量，请求的是 ${input.length} 条文本`)
    }
    const dims = vectors[0]!.length
    if (dims === 0 || vectors.some((v) => v.length !== dims)) throw new AppError('MODEL_ERROR', '嵌入服务返回的向量长度不一致')
    return vectors
  }

  /**
   * The endpoint tried: its dimension, and (unless configured) its batch limit learned with a batch
   * of FIRST_BATCH short texts; the latency of a one-text request.
   */
  async probe (): Promise<{ dimensions: number; batchSize: number; latencyMs: number }> {
    const t0 = this.deps.clock.now()
    const [one] = await this.embed(['测试连接'])
    const latencyMs = this.deps.clock.now() - t0
    if (this.settings.batchSize === 0) await this.embed(Array.from({ length: Math.max(this.batch, 2) }, (_, i) => `批量测试 ${i + 1}`))
    return { dimensions: one!.length, batchSize: this.batch, latencyMs }
  }
}
