// Vectors kept in the data folder across a restart (HTTP, the standalone server): nothing is embedded
// again at start, a document removed while the bot was down is never retrieved, and another model
// configured meanwhile re-embeds everything.
import { expect } from 'chai'
import { rmSync } from 'node:fs'
import { startFakeEmbeddings, type FakeEmbeddings } from '../support/fake-embeddings.js'
import { startTestServer, type TestServer } from '../support/server.js'

describe('knowledge: vectors across a restart (HTTP)', function () {
  this.timeout(60_000)
  let fake: FakeEmbeddings
  let s: TestServer | undefined
  let dataDir = ''
  before(async () => { fake = await startFakeEmbeddings({ dims: 128 }) })
  after(async () => { await s?.close(); await fake.close(); if (dataDir) rmSync(dataDir, { recursive: true, force: true }) })

  it('loads the vectors at start instead of embedding again', async () => {
    s = await startTestServer({ keepData: true })
    dataDir = s.dataDir
    await s.lx.rt.config.update({ web: { allowPrivateHosts: ['127.0.0.1'] }, knowledge: { embedding: { baseUrl: fake.url, apiKey: 'k', model: 'm1', batchSize: 0 } } })
    const a = await s.api('/api/knowledge', { method: 'POST', json: { title: '退款政策', content: '购买后七天内可以申请退款。' } })
    const b = await s.api('/api/knowledge', { method: 'POST', json: { title: '停车指引', content: '地下二层提供停车服务。' } })
    await s.lx.rt.need('knowledge').vectors!.whenIdle()
    await s.close()
    s = undefined

    const embedded = fake.batches().length
    s = await startTestServer({ dataDir, keepData: true })
    const kb = s.lx.rt.need('knowledge')
    await kb.ready()
    await kb.vectors!.whenIdle()
    expect(fake.batches().length).to.equal(embedded)
    const st = await s.api('/api/knowledge/embedding/status')
    expect(st.body.data).to.include({ state: 'idle', vectors: 2, model: 'm1' })
    const hits = await s.api(`/api/knowledge/search?query=${encodeURIComponent('怎么把钱退回')}`)
    expect(hits.body.data[0]).to.deep.include({ docId: a.body.data.id })
    expect(hits.body.data[0].retrievers).to.include('vector')

    await s.api(`/api/knowledge/${b.body.data.id}`, { method: 'DELETE' })
    await s.lx.rt.config.update({ knowledge: { embedding: { model: 'm2' } } })
    await kb.vectors!.whenIdle()
    await s.close()
    s = undefined

    s = await startTestServer({ dataDir, keepData: true })
    const kb2 = s.lx.rt.need('knowledge')
    await kb2.ready()
    await kb2.vectors!.whenIdle()
    expect(kb2.vectors!.status()).to.include({ model: 'm2', vectors: 1 })
    expect(kb2.vectors!.store.has(b.body.data.id as string)).to.equal(false)
    const car = await s.api(`/api/knowledge/search?query=${encodeURIComponent('泊车')}`)
    expect(car.body.data.map((h: { docId: string }) => h.docId)).to.not.include(b.body.data.id)
  })
})
