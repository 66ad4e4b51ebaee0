// The embeddings client, the vector store and its file, without the plugin (lib/knowledge/vectors/):
// batch limits learned from SiliconFlow's 413 and Qwen's 400, 429 waits honouring Retry-After (the
// waits recorded, never slept), refusals in the owner's words; int8 vectors, removal, the coarse
// sign-bit pass, the log file read back.
import { expect } from 'chai'
import { appendFileSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { systemClock } from '../../lib/core/clock.js'
import { batchRefusal, EmbeddingClient } from '../../lib/knowledge/vectors/client.js'
import { VectorFile } from '../../lib/knowledge/vectors/file.js'
import { fuse } from '../../lib/knowledge/vectors/fusion.js'
import { retryAfterMs } from '../../lib/knowledge/vectors/http.js'
import { rerank } from '../../lib/knowledge/vectors/rerank.js'
import { EXACT_MAX, VectorStore } from '../../lib/knowledge/vectors/store.js'
import { fakeEmbedding, startFakeEmbeddings, type FakeEmbeddings } from '../support/fake-embeddings.js'

describe('knowledge vectors: client, store, file', function () {
  this.timeout(30_000)
  let fake: FakeEmbeddings
  const waits: number[] = []
  const deps = () => ({ access: () => ({ allowAddresses: new Set(['127.0.0.1']) }), clock: systemClock, wait: async (ms: number) => { waits.push(ms) } })
  const settings = (extra: Record<string, unknown> = {}) => ({ baseUrl: fake.url, apiKey: 'sk-client-secret', model: 'm', batchSize: 0, ...extra })
  before(async () => { fake = await startFakeEmbeddings({ dims: 32 }) })
  after(async () => { await fake.close() })
  beforeEach(() => { fake.requests.length = 0; waits.length = 0; fake.maxBatch = 0; fake.rateLimitOnce = undefined; fake.down = false })

  it('reads the batch limit a refusal names (SiliconFlow 413, Qwen 400), and nothing from other refusals', () => {
    expect(batchRefusal(413, 'input batch size 100 > maximum allowed batch size 64')).to.deep.equal({ limit: 64 })
    expect(batchRefusal(400, 'batch size is invalid, it should not be larger than 10.: input.contents')).to.deep.equal({ limit: 10 })
    expect(batchRefusal(400, 'too many inputs')).to.deep.equal({})
    expect(batchRefusal(400, 'model not found')).to.equal(undefined)
    expect(batchRefusal(500, 'batch size')).to.equal(undefined)
  })

  it('learns a 10-input limit (Qwen-style 400) on the first batch and keeps it; the vectors come back in order', async () => {
    fake.maxBatch = 10
    fake.batchError = 'qwen'
    let learned = 0
    const c = new EmbeddingClient(settings(), { ...deps(), learned: (n) => { learned = n } })
    const texts = Array.from({ length: 25 }, (_, i) => `第${i}段`)
    const out = await c.embed(texts)
    expect(fake.batches()).to.deep.equal([25, 10, 10, 5])
    expect(learned).to.equal(10)
    expect(c.batchSize).to.equal(10)
    expect(out[7]).to.deep.equal(fakeEmbedding('第7段', 32))
    // a client made with the learned size starts there
    fake.requests.length = 0
    await new EmbeddingClient(settings(), { ...deps(), learnedBatch: 10 }).embed(texts)
    expect(fake.batches()).to.deep.equal([10, 10, 5])
  })

  it('takes at once the limit SiliconFlow\'s 413 names', async () => {
    fake.maxBatch = 5
    fake.batchError = 'siliconflow'
    const c = new EmbeddingClient(settings(), deps())
    await c.embed(Array.from({ length: 40 }, (_, i) => `t${i}`))
    expect(fake.batches().slice(0, 2)).to.deep.equal([32, 5])
    expect(c.batchSize).to.equal(5)
  })

  it('a configured batch size the endpoint refuses is said in the owner\'s words', async () => {
    fake.maxBatch = 10
    fake.batchError = 'qwen'
    const c = new EmbeddingClient(settings({ batchSize: 16 }), deps())
    try {
      await c.embed(Array.from({ length: 16 }, (_, i) => `t${i}`))
      expect.fail('refused')
    } catch (err) {
      expect((err as Error).message).to.match(/^嵌入服务一次最多接受 10 条文本，这次发了 16 条/)
    }
  })

  it('waits what Retry-After says on a 429 (seconds or a date), then succeeds; errors never hold the key', async () => {
    expect(retryAfterMs('3', 0)).to.equal(3000)
    expect(retryAfterMs(new Date(10_000).toUTCString(), 4_000)).to.equal(6000)
    expect(retryAfterMs('soon', 0)).to.equal(undefined)
    fake.rateLimitOnce = '7'
    const c = new EmbeddingClient(settings(), deps())
    expect(await c.embed(['a'])).to.have.length(1)
    expect(waits).to.deep.equal([7000])
    fake.validKeys = ['other']
    try {
      await c.embed(['a'])
      expect.fail('refused')
    } catch (err) {
      expect((err as Error).message).to.include('密钥无效').and.not.include('sk-client-secret')
    } finally { fake.validKeys = [] }
    fake.down = true
    try { await c.embed(['a']); expect.fail('down') } catch (err) { expect((err as Error).message).to.include('HTTP 503') }
    expect(waits.slice(1)).to.deep.equal([1000, 2000]) // 5xx: retried with backoff
  })

  it('probe: dimension, the batch limit learned, latency', async () => {
    fake.maxBatch = 8
    const got = await new EmbeddingClient(settings({ dimensions: 16 }), deps()).probe()
    expect(got).to.include({ dimensions: 16, batchSize: 8 })
  })

  it('rerank answers indexes by relevance, best first', async () => {
    fake.rerankScore = (_q, d) => d.length
    const order = await rerank({ baseUrl: fake.url, apiKey: 'k', model: 'r', topN: 3 }, 'q', ['aa', 'a', 'aaaa'], deps())
    expect(order.map((o) => o.index)).to.deep.equal([2, 0, 1])
  })

  it('fuses by reciprocal rank and by weighted normalised scores, each passage with its retrievers', () => {
    const bm25 = [{ docId: 'a', n: 0, score: 9 }, { docId: 'b', n: 0, score: 3 }]
    const vec = [{ docId: 'b', n: 0, score: 0.9 }, { docId: 'c', n: 1, score: 0.2 }]
    const rrf = fuse(bm25, vec, { method: 'rrf', bm25Weight: 1, vectorWeight: 1, rrfK: 60 })
    expect(rrf[0]).to.deep.include({ docId: 'b', retrievers: ['bm25', 'vector'] })
    expect(rrf[0]!.score).to.be.closeTo(1 / 62 + 1 / 61, 1e-9)
    const w = fuse(bm25, vec, { method: 'weighted', bm25Weight: 2, vectorWeight: 1, rrfK: 60 })
    expect(w.map((h) => [h.docId, h.score])).to.deep.equal([['a', 2], ['b', 1], ['c', 0]])
  })

  it('stores int8 vectors: nearest first, a removed document never returned, a preset filter, compaction', () => {
    const store = new VectorStore()
    const docs = ['退款政策 七天内申请退款', '营业时间 每天九点开门', '停车 地下二层车位', '宠物 不允许携带宠物']
    docs.forEach((t, i) => store.put(VectorStore.quantise(`d${i}`, i % 2 ? 'p' : '', 'f', [fakeEmbedding(t, 64), fakeEmbedding(`${t} 补充`, 64)], 64)))
    expect(store.size).to.equal(8)
    const q = fakeEmbedding('怎么申请退款', 64)
    expect(store.search(q, { limit: 1 })[0]).to.include({ docId: 'd0' })
    expect(store.search(q, { limit: 8, presetId: 'p' }).every((h) => h.docId === 'd1' || h.docId === 'd3')).to.equal(true)
    store.remove('d0')
    expect(store.search(q, { limit: 8 }).map((h) => h.docId)).to.not.include('d0')
    for (let i = 0; i < 3000; i++) { store.put(VectorStore.quantise('churn', '', 'f', [fakeEmbedding(`x${i}`, 64)], 64)) }
    expect(store.size).to.equal(7)
    expect(store.search(fakeEmbedding('地下二层车位', 64), { limit: 1 })[0]).to.include({ docId: 'd2', n: 0 })
  })

  it('above EXACT_MAX vectors, the sign-bit pass keeps the nearest', () => {
    const store = new VectorStore()
    const dims = 64
    let seed = 7
    const rnd = (): number => (seed = (seed * 16807) % 2147483647) / 2147483647 - 0.5
    const per = 100
    for (let d = 0; d * per <= EXACT_MAX; d++) store.put(VectorStore.quantise(`d${d}`, '', 'f', Array.from({ length: per }, () => Array.from({ length: dims }, rnd)), dims))
    const target = Array.from({ length: dims }, rnd)
    store.put(VectorStore.quantise('target', '', 'f', [target], dims))
    expect(store.size).to.be.above(EXACT_MAX)
    expect(store.search(target.map((x) => x + rnd() * 0.1), { limit: 3 })[0]).to.include({ docId: 'target' })
  })

  it('the file: records read back, the last of a document wins, a cut-off record ignored', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'lingxi-vectors-'))
    try {
      const f = new VectorFile(join(dir, 'v.bin'), join(dir, 'v.json'))
      const a = VectorStore.quantise('a', 'p', 'f1', [fakeEmbedding('一', 16), fakeEmbedding('二', 16)], 16)
      await f.put(a)
      await f.put(VectorStore.quantise('b', '', 'f2', [fakeEmbedding('三', 16)], 16))
      await f.put(VectorStore.quantise('a', 'p', 'f3', [fakeEmbedding('四', 16)], 16))
      await f.delete('b')
      await f.writeMeta({ model: 'm', dims: 16, batchSize: 10 })
      await f.close()
      appendFileSync(join(dir, 'v.bin'), Buffer.from([200, 0, 0, 0, 1, 2])) // a record cut off by a crash
      const back = await new VectorFile(join(dir, 'v.bin'), join(dir, 'v.json')).load()
      expect([...back.keys()]).to.deep.equal(['a'])
      expect(back.get('a')).to.deep.include({ fingerprint: 'f3', presetId: 'p' })
      expect(back.get('a')!.scales).to.have.length(1)
      expect(await new VectorFile(join(dir, 'v.bin'), join(dir, 'v.json')).readMeta()).to.deep.equal({ model: 'm', dims: 16, batchSize: 10 })
    } finally { rmSync(dir, { recursive: true, force: true }) }
  })
})
