// The knowledge base on one PostgreSQL shared by two copies of the plugin (their own data folders;
// lib/knowledge/README.md, "Several instances"): a file uploaded on one is processed there only and found
// by the other's search and chat scope; removed on one, never retrieved on the other; bases shared; passages
// embedded once (the fake embeddings server counts the texts) and their vectors used by every instance; a
// document left processing is resumed by the instance holding its upload, a URL's lapsed claim taken over.
import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { randomUUID } from 'node:crypto'
import { expect } from 'chai'
import type { KnowledgeDoc } from '../../lib/knowledge/types.js'
import { PGVECTOR_IN_USE, PGVECTOR_MISSING } from '../../lib/knowledge/vectors/shared.js'
import { startFakeEmbeddings, type FakeEmbeddings } from '../support/fake-embeddings.js'
import { copyToPostgres } from '../../lib/storage/copy.js'
import { PORTED_STORES } from '../../lib/storage/ported.js'
import { freshDatabase, postgresOrSkip } from '../support/postgres.js'
import { startTestServer, type TestServer } from '../support/server.js'
import { whenRemote, withDatabase } from '../support/shared-instances.js'

interface Hit { docId: string; title: string; text: string; retrievers: string[] }

/** Resolves at the first remote change of `s`'s documents for which `done` holds. */
function remoteDoc (s: TestServer, done: (id: string, d: KnowledgeDoc | undefined) => boolean): Promise<number> {
  return whenRemote((l: (id: string, d: KnowledgeDoc | undefined) => void) => s.lx.rt.need('knowledge').onRemote(l), done)
}

/** Waits for a state reached through another instance's notices (vectors): checked every 10 ms, failing after `ms`. */
async function until (what: string, check: () => boolean | Promise<boolean>, ms = 10_000): Promise<number> {
  const start = Date.now()
  while (!(await check())) {
    if (Date.now() - start > ms) throw new Error(`${what}: not within ${ms} ms`)
    await new Promise((resolve) => setTimeout(resolve, 10))
  }
  return Date.now() - start
}

const search = async (s: TestServer, query: string, extra = ''): Promise<Hit[]> => {
  const r = await s.api(`/api/knowledge/search?query=${encodeURIComponent(query)}&limit=5${extra}`)
  expect(r.status, r.text).to.equal(200)
  return r.body.data as Hit[]
}

const upload = (s: TestServer, name: string, text: string, fields: Record<string, string> = {}): ReturnType<TestServer['api']> => {
  const form = new FormData()
  form.append('file', new Blob([text]), name)
  for (const [k, v] of Object.entries(fields)) form.append(k, v)
  return s.api('/api/knowledge/files', { method: 'POST', body: form })
}

describe('storage: the knowledge base shared by two plugin instances on one PostgreSQL', function () {
  this.timeout(60_000)
  let url = ''
  let one: TestServer | undefined
  let two: TestServer | undefined
  const others: TestServer[] = []
  let fake: FakeEmbeddings | undefined
  before(async function () {
    url = await postgresOrSkip(this)
    fake = await startFakeEmbeddings({ dims: 256 })
    ;[one, two] = await withDatabase(url, async () => [await startTestServer(), await startTestServer()])
  })
  after(async () => {
    for (const s of [one, two, ...others]) await s?.close()
    await fake?.close()
  })
  const kbOf = (s: TestServer) => s.lx.rt.need('knowledge')

  it('a file uploaded on one is processed there only, then found by the other\'s search and chat scope within 2 s; removed on one, never retrieved on the other', async () => {
    expect(one!.dataDir).to.not.equal(two!.dataDir)
    const text = '# 紫砂壶养护\n\n新壶开壶要先用清水冲洗，再用沸水慢煮半小时，让壶身吸足水汽。\n\n## 日常清洁\n\n每次泡茶后倒掉茶渣，用热水冲净，自然阴干，切勿使用洗洁精。\n'
    let id = ''
    const seenProcessing = remoteDoc(two!, (i, d) => d?.source?.kind === 'file' && d.status === 'processing')
    const seenReady = remoteDoc(two!, (i, d) => i === id && d?.status === 'ready')
    const r = await upload(one!, 'teapot.md', text, { presetId: 'p-tea' })
    expect(r.status, r.text).to.equal(201)
    id = (r.body.data as Array<{ id: string }>)[0]!.id
    await seenProcessing
    // two sees it processing and leaves it: the upload waits in one's data folder, not two's
    const onTwo = await two!.api(`/api/knowledge/${id}`)
    expect(onTwo.body.data.status).to.be.oneOf(['processing', 'ready'])
    await kbOf(one!).processed(id)
    const readyAt = Date.now()
    await seenReady
    const lag = Date.now() - readyAt // a figure, not a bound (bench/storage.bench.ts measures the spread of changes)
    console.log(`      (processed on one, ready and indexed on two after ${lag} ms)`)
    const doc = (await two!.api(`/api/knowledge/${id}`)).body.data
    expect(doc).to.include({ status: 'ready', title: '紫砂壶养护', presetId: 'p-tea' })
    expect(doc.chunks).to.be.above(0)
    expect(doc).to.not.have.property('claimedAt')
    const hits = await search(two!, '开壶 沸水')
    expect(hits.map((h) => h.docId)).to.deep.equal([id])
    expect(hits[0]!.text).to.include('沸水慢煮')
    // the chat of a turn in preset p-tea draws on it on two (lib/knowledge/prompt.ts searches this scope)
    const scope = kbOf(two!).chatScope('p-tea')
    expect(scope).to.deep.equal({ presetId: 'p-tea' })
    expect((await kbOf(two!).search('洗洁精', { ...scope, limit: 3 })).map((h) => h.docId)).to.deep.equal([id])

    // removed on one: two never retrieves it again
    const gone = remoteDoc(two!, (i, d) => i === id && d === undefined)
    const del = await one!.api(`/api/knowledge/${id}`, { method: 'DELETE' })
    expect(del.status, del.text).to.equal(200)
    await gone
    expect(await search(two!, '开壶 沸水')).to.deep.equal([])
    expect(await kbOf(two!).search('洗洁精', { presetId: 'p-tea', limit: 3 })).to.deep.equal([])
    expect(kbOf(two!).chatScope('p-tea')).to.equal(undefined)
    expect((await two!.api(`/api/knowledge/${id}`)).status).to.equal(404)
    expect((await two!.api('/api/knowledge')).body.data).to.deep.equal([])
  })

  it('bases are shared: made on one, listed on the other, which files a document in it; removed with it on the other', async () => {
    const made = await one!.api('/api/knowledge/bases', { method: 'POST', json: { id: 'shop', name: '店铺资料', presetIds: ['p-shop'] } })
    expect(made.status, made.text).to.equal(201)
    await until('the base on two', () => kbOf(two!).bases.has('shop'))
    const listed = await two!.api('/api/knowledge/bases')
    expect(listed.body.data.map((b: { id: string }) => b.id)).to.include.members(['default', 'shop'])
    const seen = remoteDoc(one!, (_i, d) => d?.baseId === 'shop')
    const doc = await two!.api('/api/knowledge', { method: 'POST', json: { title: '营业时间', content: '门店每天上午九点开门，晚上十点关门。', baseId: 'shop' } })
    expect(doc.status, doc.text).to.equal(201)
    await seen
    expect((await search(one!, '几点开门 九点', '&baseId=shop')).map((h) => h.docId)).to.deep.equal([doc.body.data.id])
    // bound to p-shop through the base, on one too
    expect(kbOf(one!).chatScope('p-shop')).to.deep.equal({ presetId: 'p-shop' })

    const gone = remoteDoc(one!, (i, d) => i === doc.body.data.id && d === undefined)
    const removed = await two!.api('/api/knowledge/bases/shop?withDocuments=true', { method: 'DELETE' })
    expect(removed.status, removed.text).to.equal(200)
    await gone
    await until('the base gone from one', () => !kbOf(one!).bases.has('shop'))
    expect(await search(one!, '九点')).to.deep.equal([])
  })

  it('passages are embedded once: the other instance and one started later take the vectors from PostgreSQL; a removed document\'s vectors leave both', async () => {
    const embedding = { baseUrl: fake!.url, apiKey: 'sk-test', model: 'fake-embed', batchSize: 0 }
    for (const s of [one!, two!]) await s.lx.rt.config.update({ web: { allowPrivateHosts: ['127.0.0.1'] }, knowledge: { embedding } })
    const docs: Array<[string, string]> = [
      ['退款政策', '购买后七天内可以申请退款，退款会在三个工作日内原路返回。'],
      ['停车指引', '商场地下二层提供停车服务，购物满两百元免费两小时。'],
      ['宠物规定', '店内不允许携带宠物进入，导盲犬除外。']
    ]
    const ids: string[] = []
    for (const [title, content] of docs) {
      const r = await one!.api('/api/knowledge', { method: 'POST', json: { title, content } })
      expect(r.status, r.text).to.equal(201)
      ids.push(r.body.data.id as string)
    }
    await kbOf(one!).vectors!.whenIdle()
    // the passages' texts sent to the endpoint (a search's query is sent too: told apart by its text)
    const queries = new Set(['怎么把钱退回', '车位在哪里'])
    const sent = (): string[] => fake!.requests.filter((r) => r.path.endsWith('/embeddings'))
      .flatMap((r) => Array.isArray(r.body.input) ? r.body.input : [r.body.input ?? '']).filter((t) => !queries.has(t))
    const texts = (): number => {
      const all = sent()
      expect(new Set(all).size, 'a passage embedded twice').to.equal(all.length)
      return all.length
    }
    const made = texts()
    const vectors = kbOf(one!).vectors!.status().vectors
    expect(vectors).to.equal(docs.length) // one passage each
    expect(made).to.equal(vectors) // each passage embedded once, by one
    const lag = await until('the vectors on two', () => kbOf(two!).vectors!.status().vectors === vectors)
    console.log(`      (${vectors} vectors made on one, held by two after ${lag} ms; texts sent to the endpoint: ${made})`)
    await kbOf(two!).vectors!.whenIdle()
    expect(texts()).to.equal(made) // two embedded nothing

    // a paraphrase (no shared words) found by vector on two
    const requests = fake!.requests.length
    const hits = await search(two!, '怎么把钱退回')
    expect(hits[0]?.docId).to.equal(ids[0])
    expect(hits[0]!.retrievers).to.include('vector')
    expect(fake!.requests.length).to.equal(requests + 1) // the query's vector only

    // a third instance started later embeds nothing either
    const three = await withDatabase(url, () => startTestServer())
    others.push(three)
    await three.lx.rt.config.update({ web: { allowPrivateHosts: ['127.0.0.1'] }, knowledge: { embedding } })
    await until('the vectors on three', () => kbOf(three).vectors!.status().vectors === vectors)
    await kbOf(three).vectors!.whenIdle()
    expect(texts()).to.equal(made)
    expect(kbOf(three).vectors!.status()).to.include({ state: 'idle', vectors, storage: PGVECTOR_MISSING })

    // a document changed on two is embedded again by two, once; one takes the new vectors
    const changed = await two!.api(`/api/knowledge/${ids[1]}`, { method: 'PUT', json: { content: '地下车库在负二层，凭小票免费停两小时。' } })
    expect(changed.status, changed.text).to.equal(200)
    await kbOf(two!).vectors!.whenIdle()
    expect(texts()).to.equal(made + 1)
    await until('the new vectors on one', async () => (await kbOf(one!).search('车位在哪里', { limit: 1 }))[0]?.retrievers.includes('vector') === true)
    expect(texts()).to.equal(made + 1)

    // removed on one: its vectors leave two and three at once, never returned
    const gone = remoteDoc(two!, (i, d) => i === ids[0] && d === undefined)
    await one!.api(`/api/knowledge/${ids[0]}`, { method: 'DELETE' })
    await gone
    for (const s of [two!, three]) {
      // the document and its vectors are two stores: each change arrives by its own notice
      await until('the vectors removed', () => kbOf(s).vectors!.status().vectors === vectors - 1)
      await until('the document removed', () => !kbOf(s).list().some((d) => d.id === ids[0]))
      expect((await search(s, '怎么把钱退回')).map((h) => h.docId)).to.not.include(ids[0])
    }
  })

  it('another model set on both instances at once: the claims split the work, each passage embedded once between them, both hold every vector', async () => {
    for (let i = 0; i < 6; i++) {
      const r = await one!.api('/api/knowledge', { method: 'POST', json: { title: `规定 ${i}`, content: `第 ${i} 条：会员每月可领取 ${i + 1} 张优惠券。` } })
      expect(r.status, r.text).to.equal(201)
    }
    await kbOf(one!).vectors!.whenIdle()
    const ready = kbOf(one!).list().filter((d) => d.status === 'ready').length
    const embedding = { baseUrl: fake!.url, apiKey: 'sk-test', model: 'fake-embed-2', batchSize: 0 }
    await Promise.all([one!, two!].map((s) => s.lx.rt.config.update({ knowledge: { embedding } })))
    // (where the configuration is shared too, the other's update may arrive by notice: applied on both first)
    await until('the model applied on both', () => [one!, two!].every((s) => kbOf(s).vectors!.status().model === 'fake-embed-2'))
    await Promise.all([one!, two!].map((s) => kbOf(s).vectors!.whenIdle()))
    for (const s of [one!, two!]) await until('every vector held', () => kbOf(s).vectors!.status().vectors === ready)
    const sent = fake!.requests.filter((r) => r.path.endsWith('/embeddings') && r.body.model === 'fake-embed-2')
      .flatMap((r) => Array.isArray(r.body.input) ? r.body.input : [r.body.input ?? ''])
    expect(sent.length).to.equal(ready) // one passage each, embedded once between the two
    expect(new Set(sent).size).to.equal(sent.length)
  })

  it('a document left processing: resumed by the instance holding its upload or its URL mark; a URL whose claim lapsed taken over; others left alone', async () => {
    const { default: pg } = await import('pg')
    const page = createServer((_req, res) => { res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }); res.end('<html><head><title>取货须知</title></head><body><article><h1>取货须知</h1><p>凭取货码到前台领取包裹，每天营业时间内均可取货。</p></article></body></html>') })
    await new Promise<void>((resolve) => page.listen(0, '127.0.0.1', resolve))
    const pageUrl = `http://127.0.0.1:${(page.address() as AddressInfo).port}/pickup.html`
    const dir = mkdtempSync(join(tmpdir(), 'lingxi-test-'))
    writeFileSync(join(dir, 'config.yaml'), 'web:\n  allowPrivateHosts: ["127.0.0.1"]\n')
    const now = Date.now()
    const at = new Date(now).toISOString()
    const doc = (id: string, extra: Partial<KnowledgeDoc>): KnowledgeDoc => ({ id, title: id, content: '', presetId: '', createdAt: at, updatedAt: at, status: 'processing', attempts: 1, ...extra })
    const [mine, elsewhere, lapsed, fresh, myUrl] = [randomUUID(), randomUUID(), randomUUID(), randomUUID(), randomUUID()] as string[]
    mkdirSync(join(dir, 'knowledge-uploads'))
    writeFileSync(join(dir, 'knowledge-uploads', `${mine}.md`), '# 退货流程\n\n收到商品七天内可在订单页申请退货。\n')
    writeFileSync(join(dir, 'knowledge-uploads', `${myUrl}.claim`), '') // a URL this instance was fetching when it stopped
    const records = [
      doc(mine, { source: { kind: 'file', name: 'returns.md', type: 'md', bytes: 60 }, claimedAt: now }),
      doc(elsewhere, { source: { kind: 'file', name: 'other.md', type: 'md', bytes: 60 }, claimedAt: now - 3_600_000 }),
      doc(lapsed, { source: { kind: 'url', url: pageUrl }, claimedAt: now - 3_600_000 }),
      doc(fresh, { source: { kind: 'url', url: pageUrl }, claimedAt: now }),
      doc(myUrl!, { source: { kind: 'url', url: pageUrl }, claimedAt: now })
    ]
    // as an instance that died mid-processing left them (written directly: no instance is told)
    const client = new pg.Client({ connectionString: url })
    await client.connect()
    try {
      for (const r of records) await client.query('INSERT INTO lx_records (store, key, value) VALUES ($1, $2, $3)', ['knowledge', r.id, JSON.stringify(r)])
    } finally { await client.end() }
    let four: TestServer | undefined
    try {
      four = await withDatabase(url, () => startTestServer({ dataDir: dir }))
      others.push(four)
      const kb = kbOf(four)
      await Promise.all([kb.processed(mine), kb.processed(lapsed), kb.processed(myUrl!)])
      expect(kb.get(mine)).to.include({ status: 'ready', title: '退货流程' })
      expect(kb.get(lapsed)).to.include({ status: 'ready', title: '取货须知' })
      expect(kb.get(myUrl!)).to.include({ status: 'ready', title: '取货须知' })
      expect(existsSync(join(dir, 'knowledge-uploads', `${myUrl}.claim`))).to.equal(false)
      expect(kb.get(elsewhere).status).to.equal('processing')
      expect(kb.get(fresh).status).to.equal('processing')
      // the results reach one, which processed none of them
      await until('the resumed documents on one', () => kbOf(one!).list().filter((d) => d.status === 'ready' && (d.id === mine || d.id === lapsed)).length === 2)
      // the two URL documents hold the same page: either may rank first
      expect((await search(one!, '取货码'))[0]?.docId).to.be.oneOf([lapsed, myUrl])
    } finally {
      await new Promise<void>((resolve) => (page as Server).close(() => resolve()))
    }
  })

  it('moving to PostgreSQL: storage:migrate copies documents and bases; the first instance brings the data folder\'s vectors in, embedding nothing again', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'lingxi-test-'))
    const embedding = { baseUrl: fake!.url, apiKey: 'sk-test', model: 'fake-embed-moved', batchSize: 0 }
    const saved = process.env.LINGXI_DATABASE_URL
    delete process.env.LINGXI_DATABASE_URL
    let files: TestServer
    try { files = await startTestServer({ dataDir: dir, keepData: true }) } finally { if (saved !== undefined) process.env.LINGXI_DATABASE_URL = saved }
    await files.lx.rt.config.update({ web: { allowPrivateHosts: ['127.0.0.1'] }, knowledge: { embedding } })
    await files.api('/api/knowledge/bases', { method: 'POST', json: { id: 'manuals', name: '说明书' } })
    for (const [title, content] of [['充电说明', '电池充满约需两小时，请使用原装充电器。'], ['保修条款', '所有电器产品提供一年保修，人为损坏不在范围内。']]) {
      const r = await files.api('/api/knowledge', { method: 'POST', json: { title, content, baseId: 'manuals' } })
      expect(r.status, r.text).to.equal(201)
    }
    await kbOf(files).vectors!.whenIdle()
    expect(kbOf(files).vectors!.status()).to.include({ vectors: 2, storage: 'the data folder (knowledge-vectors.bin)' })
    await files.close()
    const requests = fake!.requests.length

    const target = await freshDatabase(url)
    const counts = await copyToPostgres(dir, target, { stores: PORTED_STORES.filter((s) => s.name.startsWith('knowledge')) })
    expect(counts.map((c) => [c.store, c.read, c.written])).to.deep.equal([['knowledge', 2, 2], ['knowledge-bases', 2, 2]])
    const moved = await withDatabase(target, () => startTestServer({ dataDir: dir }))
    others.push(moved)
    // (the same settings: a no-op where this instance's config.yaml still holds them)
    await moved.lx.rt.config.update({ web: { allowPrivateHosts: ['127.0.0.1'] }, knowledge: { embedding } })
    await until('the vectors brought in', () => kbOf(moved).vectors!.status().vectors === 2)
    await kbOf(moved).vectors!.whenIdle()
    expect(fake!.requests.length).to.equal(requests) // nothing embedded again
    expect(kbOf(moved).list('manuals')).to.have.length(2)
    // and a second instance on that database takes them too
    const peer = await withDatabase(target, () => startTestServer())
    others.push(peer)
    await peer.lx.rt.config.update({ web: { allowPrivateHosts: ['127.0.0.1'] }, knowledge: { embedding } })
    await until('the vectors on the peer', () => kbOf(peer).vectors!.status().vectors === 2)
    await kbOf(peer).vectors!.whenIdle()
    expect(fake!.requests.length).to.equal(requests)
    const hits = await search(peer, '续航 续电', '&baseId=manuals')
    expect(hits[0]?.title).to.equal('充电说明')
    expect(hits[0]?.retrievers).to.include('vector')
  })

  it('says where the vectors are: "pgvector not installed" in the embedding status on this server', async () => {
    const r = await one!.api('/api/knowledge/embedding/status')
    expect(r.status, r.text).to.equal(200)
    const { default: pg } = await import('pg')
    const client = new pg.Client({ connectionString: url })
    await client.connect()
    let available: boolean
    try { available = (await client.query('SELECT 1 FROM pg_extension WHERE extname = \'vector\'')).rowCount === 1 } finally { await client.end() }
    expect(r.body.data.storage).to.equal(available ? PGVECTOR_IN_USE : PGVECTOR_MISSING)
    if (!available) expect(r.body.data.storage).to.include('pgvector not installed: vectors in the embedded index')
  })
})

describe('storage: knowledge vectors in pgvector (where the server has the extension)', function () {
  this.timeout(60_000)
  let url = ''
  let one: TestServer | undefined
  let two: TestServer | undefined
  let fake: FakeEmbeddings | undefined
  before(async function () {
    url = await postgresOrSkip(this)
    const { default: pg } = await import('pg')
    const client = new pg.Client({ connectionString: url })
    await client.connect()
    let available: boolean
    try { available = (await client.query('SELECT 1 FROM pg_available_extensions WHERE name = \'vector\'')).rowCount === 1 } finally { await client.end() }
    if (!available) {
      console.log('      skipped: pgvector is not installed on this PostgreSQL server (pg_available_extensions has no `vector`; Debian: postgresql-<version>-pgvector); the path without it is tested above')
      this.skip()
    }
    fake = await startFakeEmbeddings({ dims: 256 })
    ;[one, two] = await withDatabase(url, async () => [await startTestServer(), await startTestServer()])
  })
  after(async () => {
    await one?.close()
    await two?.close()
    await fake?.close()
  })
  const kbOf = (s: TestServer) => s.lx.rt.need('knowledge')

  it('keeps the vectors as rows with an HNSW index, embedded once, searched by the database on the other instance; removed with the document', async () => {
    const embedding = { baseUrl: fake!.url, apiKey: 'sk-test', model: 'fake-embed', batchSize: 0 }
    for (const s of [one!, two!]) await s.lx.rt.config.update({ web: { allowPrivateHosts: ['127.0.0.1'] }, knowledge: { embedding } })
    expect((await one!.api('/api/knowledge/embedding/status')).body.data.storage).to.equal(PGVECTOR_IN_USE)
    const ids: string[] = []
    for (const [title, content] of [['退款政策', '购买后七天内可以申请退款，退款会在三个工作日内原路返回。'], ['停车指引', '商场地下二层提供停车服务，购物满两百元免费两小时。']]) {
      const r = await one!.api('/api/knowledge', { method: 'POST', json: { title, content } })
      expect(r.status, r.text).to.equal(201)
      ids.push(r.body.data.id as string)
    }
    await kbOf(one!).vectors!.whenIdle()
    const made = fake!.batches().reduce((a, b) => a + b, 0)
    expect(made).to.equal(2)
    await until('the vectors on two', () => kbOf(two!).vectors!.status().vectors === 2)
    await kbOf(two!).vectors!.whenIdle()
    expect(fake!.batches().reduce((a, b) => a + b, 0)).to.equal(made)
    const { default: pg } = await import('pg')
    const client = new pg.Client({ connectionString: url })
    await client.connect()
    try {
      expect((await client.query('SELECT 1 FROM lx_knowledge_vectors')).rowCount).to.equal(2)
      expect((await client.query('SELECT 1 FROM pg_indexes WHERE indexname = \'lx_knowledge_vectors_hnsw_256\'')).rowCount).to.equal(1)
      const hits = await search(two!, '怎么把钱退回')
      expect(hits[0]?.docId).to.equal(ids[0])
      expect(hits[0]!.retrievers).to.include('vector')
      await one!.api(`/api/knowledge/${ids[0]}`, { method: 'DELETE' })
      await until('the rows removed', async () => (await client.query('SELECT 1 FROM lx_knowledge_vectors WHERE doc_id = $1', [ids[0]])).rowCount === 0)
      await until('the document gone from two', () => kbOf(two!).list().length === 1)
      expect((await search(two!, '怎么把钱退回')).map((h) => h.docId)).to.not.include(ids[0])
    } finally { await client.end() }
  })
})
