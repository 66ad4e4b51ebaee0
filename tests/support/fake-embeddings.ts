// A fake embeddings and rerank server on 127.0.0.1 for tests and benchmarks (OpenAI-compatible POST
// /embeddings, Jina/Cohere-style POST /rerank). The embedder is deterministic: each CJK bigram and
// Latin word of the text, after a small synonym table maps paraphrases onto one spelling, adds ±1 to
// a few hashed dimensions; the vector is normalised to the requested dimensions. So a paraphrase
// lands near its passage while BM25 sees different words. Limits like real providers: a batch cap
// answered 413 with SiliconFlow's text or 400 with Qwen's, a 429 with Retry-After once, down.
import { createServer, type IncomingMessage, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'

/** Spellings that mean the same (the first is the one vectors are made of). */
const SYNONYMS: readonly (readonly string[])[] = [
  ['退款', '退钱', '把钱退回', '返还费用'],
  ['价格', '多少钱', '费用', '售价', '收费'],
  ['营业时间', '几点开门', '开门时间', '几点关门', '营业到几点'],
  ['发货', '寄出', '送出', '配送'],
  ['会员', 'VIP', '贵宾'],
  ['密码', '口令', '登录凭证'],
  ['忘记', '想不起来', '记不得'],
  ['预约', '预订', '订位'],
  ['停车', '泊车', '车位'],
  ['宠物', '猫狗', '小动物'],
  ['保修', '质保', '免费维修'],
  ['年假', '带薪休假', '休年假'],
  ['加班', '超时工作', '延长工时'],
  ['报销', '费用返还', '报账'],
  ['发票', '开票', '税票'],
  ['无线网络', 'WiFi', 'wifi', '上网'],
  ['打印机', '打印设备', '打印'],
  ['快递', '包裹', '邮件包裹'],
  ['过敏', '过敏反应', '不耐受'],
  ['儿童', '小孩', '孩子', '小朋友'],
  ['充电', '续电', '补电'],
  ['电池', '电量', '续航'],
  ['取消', '撤销', '不要了'],
  ['地址', '在哪里', '位置', '怎么走'],
  ['迟到', '晚到', '没按时到'],
  ['证件', '身份证', '护照'],
  ['咖啡', '拿铁', '美式'],
  ['垃圾', '废弃物', '废物'],
  ['体检', '健康检查', '身体检查'],
  ['工资', '薪水', '薪资', '月薪']
]

const canonical: Array<[RegExp, string]> = SYNONYMS.flatMap((group) => group.slice(1).map((w): [RegExp, string] => [new RegExp(w.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'), 'gi'), group[0]!]))

function hash (s: string, seed: number): number {
  let h = 2166136261 ^ seed
  for (let i = 0; i < s.length; i++) { h ^= s.charCodeAt(i); h = Math.imul(h, 16777619) }
  return h >>> 0
}

/** The features a text is made of: CJK bigrams and Latin words, synonyms mapped to one spelling. */
function features (text: string): string[] {
  let t = text
  for (const [re, to] of canonical) t = t.replace(re, to)
  const out: string[] = []
  for (const run of t.match(/[\u3400-\u9fff]+/g) ?? []) {
    if (run.length === 1) out.push(run)
    for (let i = 0; i + 1 < run.length; i++) out.push(run.slice(i, i + 2))
  }
  for (const w of t.toLowerCase().match(/[a-z0-9]+/g) ?? []) out.push(w)
  return out
}

/** The fake's vector of a text (length 1; the same text always gives the same vector). */
export function fakeEmbedding (text: string, dims: number): number[] {
  const v = new Float64Array(dims)
  for (const f of features(text)) {
    for (let k = 0; k < 3; k++) {
      const h = hash(f, k)
      v[h % dims]! += (h & 0x80000000) ? -1 : 1
    }
  }
  let n = 0
  for (const x of v) n += x * x
  n = Math.sqrt(n) || 1
  return Array.from(v, (x) => x / n)
}

const cosine = (a: number[], b: number[]): number => a.reduce((s, x, i) => s + x * b[i]!, 0)

export interface FakeEmbeddings {
  /** base URL (…/v1): POST {url}/embeddings, {url}/rerank */
  url: string
  /** dimensions when a request asks none */
  dims: number
  /** largest batch taken (0: any); beyond it `batchError` */
  maxBatch: number
  /** how a batch over maxBatch is refused: SiliconFlow's 413 text or Qwen's 400 */
  batchError: 'siliconflow' | 'qwen'
  /** the next embeddings request answers 429 with this Retry-After (seconds), then this is cleared */
  rateLimitOnce: string | undefined
  /** every request answers 503 */
  down: boolean
  /** keys accepted (empty: any) */
  validKeys: string[]
  /** a reranker's score of a document for a query (default: cosine of the fake vectors) */
  rerankScore: (query: string, doc: string) => number
  requests: Array<{ path: string; auth: string | undefined; body: { model?: string; input?: string[] | string; dimensions?: number; query?: string; documents?: string[]; top_n?: number } }>
  /** how many texts each embeddings request held */
  batches(): number[]
  close(): Promise<void>
}

function readBody (req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const parts: Buffer[] = []
    req.on('data', (c: Buffer) => parts.push(c))
    req.on('end', () => resolve(Buffer.concat(parts).toString('utf8')))
    req.on('error', reject)
  })
}

export async function startFakeEmbeddings (opts: { dims?: number; maxBatch?: number; batchError?: 'siliconflow' | 'qwen' } = {}): Promise<FakeEmbeddings> {
  const fake: FakeEmbeddings = {
    url: '', dims: opts.dims ?? 256, maxBatch: opts.maxBatch ?? 0, batchError: opts.batchError ?? 'siliconflow', rateLimitOnce: undefined, down: false, validKeys: [],
    rerankScore: (q, d) => cosine(fakeEmbedding(q, 256), fakeEmbedding(d, 256)),
    requests: [],
    batches: () => fake.requests.filter((r) => r.path.endsWith('/embeddings')).map((r) => Array.isArray(r.body.input) ? r.body.input.length : 1),
    close: () => new Promise((resolve) => { server.closeAllConnections(); server.close(() => resolve()) })
  }
  const server: Server = createServer((req, res) => {
    void readBody(req).then((raw) => {
      const send = (status: number, body: unknown, headers: Record<string, string> = {}): void => {
        res.writeHead(status, { 'content-type': 'application/json', ...headers })
        res.end(JSON.stringify(body))
      }
      let body: FakeEmbeddings['requests'][number]['body'] = {}
      try { body = JSON.parse(raw || '{}') as typeof body } catch { send(400, { error: { message: 'invalid JSON' } }); return }
      const auth = req.headers.authorization
      fake.requests.push({ path: req.url ?? '', auth, body })
      if (fake.down) { send(503, { error: { message: 'service unavailable' } }); return }
      if (fake.validKeys.length && !fake.validKeys.includes((auth ?? '').replace(/^Bearer /, ''))) { send(401, { error: { message: 'Invalid API key' } }); return }
      if (req.method === 'POST' && req.url?.endsWith('/embeddings')) {
        if (fake.rateLimitOnce !== undefined) {
          const after = fake.rateLimitOnce
          fake.rateLimitOnce = undefined
          send(429, { error: { message: 'Rate limit reached for requests' } }, { 'retry-after': after })
          return
        }
        const input = Array.isArray(body.input) ? body.input : [String(body.input ?? '')]
        if (fake.maxBatch > 0 && input.length > fake.maxBatch) {
          if (fake.batchError === 'siliconflow') send(413, { code: 20015, message: `input batch size ${input.length} > maximum allowed batch size ${fake.maxBatch}`, data: null })
          else send(400, { error: { code: 'InvalidParameter', message: `<400> InternalError.Algo.InvalidParameter: Value error, batch size is invalid, it should not be larger than ${fake.maxBatch}.: input.contents`, type: 'InvalidParameter' } })
          return
        }
        const dims = body.dimensions ?? fake.dims
        send(200, { object: 'list', model: body.model, data: input.map((t, index) => ({ object: 'embedding', index, embedding: fakeEmbedding(t, dims) })), usage: { prompt_tokens: input.length, total_tokens: input.length } })
        return
      }
      if (req.method === 'POST' && req.url?.endsWith('/rerank')) {
        const docs = body.documents ?? []
        const results = docs.map((d, index) => ({ index, relevance_score: fake.rerankScore(body.query ?? '', d) }))
          .sort((a, b) => b.relevance_score - a.relevance_score).slice(0, body.top_n ?? docs.length)
        send(200, { id: 'rerank-1', results, meta: { billed_units: { search_units: 1 } } })
        return
      }
      send(404, { error: { message: 'not found' } })
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  fake.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`
  return fake
}
