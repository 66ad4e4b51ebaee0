// Found by meaning through real HTTP (lib/knowledge/README.md, "Found by meaning"): the standalone
// server with the fake embeddings and rerank server (tests/support/fake-embeddings.ts). Waits are on
// the vectors' own promise (whenIdle), never on time.
import { expect } from 'chai'
import { maskSecret } from '../../lib/config/secrets.js'
import { startFakeEmbeddings, type FakeEmbeddings } from '../support/fake-embeddings.js'
import { startTestServer, type TestServer } from '../support/server.js'

const KEY = 'sk-embed-secret-0123456789abcdef'
const RERANK_KEY = 'sk-rerank-secret-0123456789abcdef'

interface Hit { docId: string; title: string; text: string; score: number; retrievers: string[] }
interface Status { state: string; done: number; total: number; model: string; vectors: number; dimensions: number; batchSize: number; error?: string }

const DOCS: Array<[string, string]> = [
  ['退款政策', '购买后七天内可以申请退款，退款会在三个工作日内原路返回。'],
  ['营业时间', '门店营业时间为每天上午九点到晚上十点，节假日照常。'],
  ['发货说明', '订单在付款后二十四小时内发货，偏远地区可能延迟。'],
  ['会员权益', '会员每月可领取两张优惠券，生日当天享受双倍积分。'],
  ['密码重置', '如果忘记密码，可以在登录页点击找回并通过手机验证码重置。'],
  ['停车指引', '商场地下二层提供停车服务，购物满两百元免费两小时。'],
  ['宠物规定', '店内不允许携带宠物进入，导盲犬除外。'],
  ['保修条款', '所有电器产品提供一年保修，人为损坏不在范围内。'],
  ['年假制度', '员工入职满一年后享有五天年假，每多一年增加一天。'],
  ['加班规定', '加班需提前申请，工作日加班按一点五倍计算工资。'],
  ['报销流程', '报销需要在费用发生后三十天内提交发票和审批单。'],
  ['无线网络', '访客无线网络名称为 guest，密码贴在前台。']
]

describe('knowledge: found by meaning (embeddings, hybrid search, reranker; HTTP)', function () {
  this.timeout(60_000)
  let s: TestServer
  let fake: FakeEmbeddings
  const ids = new Map<string, string>()
  const kb = () => s.lx.rt.need('knowledge')
  const idle = () => kb().vectors!.whenIdle()
  const status = async (): Promise<Status> => {
    const r = await s.api('/api/knowledge/embedding/status')
    expect(r.status, r.text).to.equal(200)
    return r.body.data as Status
  }
  const search = async (query: string, limit = 5): Promise<Hit[]> => {
    const r = await s.api(`/api/knowledge/search?query=${encodeURIComponent(query)}&limit=${limit}`)
    expect(r.status, r.text).to.equal(200)
    expect(r.text).to.not.include(KEY)
    return r.body.data as Hit[]
  }
  const embedding = (extra: Record<string, unknown> = {}) => ({ baseUrl: fake.url, apiKey: KEY, model: 'fake-embed-1', batchSize: 0, ...extra })

  before(async () => {
    fake = await startFakeEmbeddings({ dims: 1024, maxBatch: 10, batchError: 'qwen' })
    s = await startTestServer()
    await s.lx.rt.config.update({ web: { allowPrivateHosts: ['127.0.0.1'] } })
  })
  after(async () => { await s?.close(); await fake?.close() })

  it('is off until an endpoint and model are set, then embeds every ready document, learning the endpoint takes 10 texts a request', async () => {
    for (const [title, content] of DOCS) {
      const r = await s.api('/api/knowledge', { method: 'POST', json: { title, content } })
      expect(r.status, r.text).to.equal(201)
      ids.set(title, r.body.data.id as string)
    }
    expect(await status()).to.include({ state: 'off', vectors: 0 })
    expect(fake.requests).to.have.length(0)
    await s.lx.rt.config.update({ knowledge: { embedding: embedding() } })
    await idle()
    // the first round (12 passages) was refused by the 10-input limit, then sent 10 at a time
    expect(fake.batches().slice(0, 3)).to.deep.equal([12, 10, 2])
    const st = await status()
    expect(st).to.include({ state: 'idle', model: 'fake-embed-1', vectors: DOCS.length, dimensions: 1024, batchSize: 10 })
    expect(st.done).to.equal(st.total)
    // every request carried the key as a Bearer token
    expect(fake.requests.every((r) => r.auth === `Bearer ${KEY}`)).to.equal(true)
  })

  it('POST /embedding/test answers the dimension, the batch limit learned and the latency', async () => {
    const r = await s.api('/api/knowledge/embedding/test', { method: 'POST', json: {} })
    expect(r.status, r.text).to.equal(200)
    expect(r.body.data).to.include({ model: 'fake-embed-1', dimensions: 1024, batchSize: 10 })
    expect(r.body.data.latencyMs).to.be.a('number')
    // another endpoint's fields: its own limit learned (SiliconFlow-style 413 at 64 → 32 fits)
    const other = await startFakeEmbeddings({ dims: 64, maxBatch: 4, batchError: 'siliconflow' })
    try {
      const t = await s.api('/api/knowledge/embedding/test', { method: 'POST', json: { baseUrl: other.url, model: 'bge-m3', apiKey: maskSecret(KEY) } })
      expect(t.status, t.text).to.equal(200)
      expect(t.body.data).to.include({ model: 'bge-m3', dimensions: 64, batchSize: 4 })
      // the masked key stands for the stored one
      expect(other.requests[0]!.auth).to.equal(`Bearer ${KEY}`)
      // a configured batch size the endpoint refuses: the refusal in the owner's words
      const bad = await s.api('/api/knowledge/embedding/test', { method: 'POST', json: { baseUrl: other.url, model: 'bge-m3', batchSize: 8 } })
      expect(bad.status, bad.text).to.equal(200) // one text first: fits; the batch is not probed when configured
      const none = await s.api('/api/knowledge/embedding/test', { method: 'POST', json: { baseUrl: '', model: '' } })
      expect(none.status, none.text).to.equal(400)
    } finally { await other.close() }
  })

  it('a 429 is retried after its Retry-After', async () => {
    fake.rateLimitOnce = '0'
    const before = fake.requests.length
    const r = await s.api('/api/knowledge/embedding/test', { method: 'POST', json: {} })
    expect(r.status, r.text).to.equal(200)
    expect(fake.requests.length - before).to.be.at.least(2)
  })

  it('finds a paraphrase by meaning (vector) that shares no word with its passage, and says which retrievers found each hit', async () => {
    const hits = await search('我想把钱退回来要多久')
    expect(hits[0]?.docId, JSON.stringify(hits)).to.equal(ids.get('退款政策'))
    expect(hits[0]!.retrievers).to.include('vector')
    const shared = await search('员工年假有几天')
    expect(shared[0]?.docId).to.equal(ids.get('年假制度'))
    expect(shared[0]!.retrievers).to.have.members(['bm25', 'vector'])
    // the same search in the chat's path (a preset scope) and search_knowledge (no preset): KnowledgeService.search
    expect((await kb().search('带薪休假怎么算', { limit: 3 })).map((h) => h.docId)).to.include(ids.get('年假制度'))
  })

  it('never retrieves the vectors of a removed document', async () => {
    const r = await s.api(`/api/knowledge/${ids.get('停车指引')}`, { method: 'DELETE' })
    expect(r.status, r.text).to.equal(200)
    const hits = await search('车位在哪 泊车', 10)
    expect(hits.map((h) => h.docId)).to.not.include(ids.get('停车指引'))
    expect(kb().vectors!.store.has(ids.get('停车指引')!)).to.equal(false)
    ids.delete('停车指引')
  })

  it('an edited document is embedded again; a preset change keeps its vectors', async () => {
    const id = ids.get('宠物规定')!
    const before = fake.batches().length
    await s.api(`/api/knowledge/${id}`, { method: 'PUT', json: { presetId: 'p1' } })
    await idle()
    expect(fake.batches().length).to.equal(before)
    await s.api(`/api/knowledge/${id}`, { method: 'PUT', json: { content: '店内欢迎携带小型宠物，需牵绳。' } })
    await idle()
    expect(fake.batches().length).to.equal(before + 1)
    const hits = await search('猫狗能进店吗')
    expect(hits[0]?.docId).to.equal(id)
    expect(hits[0]!.text).to.include('牵绳')
  })

  it('a changed model re-embeds everything in the background, with progress in the status', async () => {
    const before = fake.requests.length
    await s.lx.rt.config.update({ knowledge: { embedding: embedding({ model: 'fake-embed-2' }) } })
    const during = await status()
    expect(during.model).to.equal('fake-embed-2')
    expect(during.state).to.equal('embedding')
    expect(during.total).to.equal(ids.size)
    await idle()
    const after = await status()
    expect(after).to.include({ state: 'idle', model: 'fake-embed-2', vectors: ids.size, done: ids.size, total: ids.size })
    const sent = fake.requests.slice(before).filter((r) => r.path.endsWith('/embeddings'))
    expect(sent.every((r) => r.body.model === 'fake-embed-2')).to.equal(true)
    // another model: its limit learned anew (the round of 11 refused, then 10 and 1)
    expect(sent.map((r) => r.body.input?.length)).to.deep.equal([ids.size, 10, ids.size - 10])
    // the limit learned for this model: asked again (no batch above 10 accepted)
    expect((await search('忘记登录口令怎么办'))[0]?.docId).to.equal(ids.get('密码重置'))
  })

  it('falls back to BM25 when the endpoint is down (the search answers, logged once)', async () => {
    fake.down = true
    try {
      const a = await search('加班工资怎么算')
      expect(a[0]?.docId).to.equal(ids.get('加班规定'))
      expect(a[0]!.retrievers).to.deep.equal(['bm25'])
      await search('加班申请')
      const logs = await s.api('/api/logs?limit=200')
      const warned = JSON.stringify(logs.body).split('knowledge searches use BM25 alone').length - 1
      expect(warned).to.equal(1)
    } finally { fake.down = false }
    const back = await search('加班工资怎么算')
    expect(back[0]!.retrievers).to.include('vector')
  })

  it('the reranker orders the fused passages (its order wins) and is listed as a retriever', async () => {
    await s.lx.rt.config.update({ knowledge: { rerank: { baseUrl: fake.url, apiKey: RERANK_KEY, model: 'fake-rerank', topN: 5 } } })
    fake.rerankScore = (_q, d) => d.includes('发票') ? 0.99 : d.includes('工资') ? 0.5 : 0.1
    try {
      const hits = await search('加班工资 报销发票', 3)
      expect(hits[0]?.docId).to.equal(ids.get('报销流程'))
      expect(hits[1]?.docId).to.equal(ids.get('加班规定'))
      expect(hits[0]!.retrievers).to.include('rerank')
      expect(hits[0]!.score).to.equal(0.99)
      const call = fake.requests.filter((r) => r.path.endsWith('/rerank')).at(-1)!
      expect(call.body).to.include({ model: 'fake-rerank', query: '加班工资 报销发票' })
      expect(call.auth).to.equal(`Bearer ${RERANK_KEY}`)
    } finally {
      await s.lx.rt.config.update({ knowledge: { rerank: { baseUrl: '', apiKey: '', model: '', topN: 20 } } })
    }
  })

  it('keeps the keys secret: GET /api/config masks them like channel keys, no answer or log holds them', async () => {
    const cfg = await s.api('/api/config')
    expect(cfg.status).to.equal(200)
    expect(cfg.text).to.not.include(KEY)
    expect(cfg.body.data.knowledge.embedding.apiKey).to.equal(maskSecret(KEY))
    // a relay that echoes the key in its refusal: the answer carries it masked
    fake.validKeys = ['another-key']
    fake.rerankScore = () => 0
    try {
      const r = await s.api('/api/knowledge/embedding/test', { method: 'POST', json: {} })
      expect(r.status).to.be.at.least(400)
      expect(r.text).to.not.include(KEY)
    } finally { fake.validKeys = [] }
    const logs = await s.api('/api/logs?limit=500')
    expect(logs.text).to.not.include(KEY)
    const st = await s.api('/api/knowledge/embedding/status')
    expect(st.text).to.not.include(KEY)
  })
})
