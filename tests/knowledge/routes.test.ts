// Knowledge base (/api/knowledge, style B) through real HTTP.
import { expect } from 'chai'
import { rmSync } from 'node:fs'
import { startTestServer, type TestServer } from '../support/server.js'
import { EN_DOCS, EN_QUERIES, ZH_DOCS, ZH_QUERIES } from './corpus.js'

describe('knowledge: routes (/api/knowledge)', function () {
  this.timeout(20_000)
  let s: TestServer
  before(async () => { s = await startTestServer({ keepData: true }) })
  after(async () => { await s?.close(); if (s) rmSync(s.dataDir, { recursive: true, force: true }) })
  beforeEach(async () => { for (const d of s.lx.rt.need('knowledge').list()) await s.lx.rt.need('knowledge').remove(d.id) })

  const api = (path: string, method = 'GET', json?: unknown): ReturnType<TestServer['api']> =>
    s.api(`/api/knowledge${path}`, json === undefined ? { method } : { method, json })
  const create = async (body: Record<string, unknown>): Promise<any> => {
    const r = await api('', 'POST', body)
    expect(r.status, r.text).to.equal(201)
    return r.body.data
  }

  it('POST creates a document with a UUID and ISO createdAt; GET /:id answers it whole', async () => {
    const d = await create({ title: ' Lighthouse manual ', content: 'Turn the lamp on at dusk.', presetId: 'keeper' })
    expect(d.id).to.match(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/)
    expect(d).to.include({ title: 'Lighthouse manual', content: 'Turn the lamp on at dusk.', presetId: 'keeper' })
    expect(new Date(d.createdAt).toISOString()).to.equal(d.createdAt)
    const got = await api(`/${d.id}`)
    expect(got.body).to.deep.equal({ code: 0, data: d, message: 'ok' })
    const noPreset = await create({ title: 'Loose', content: 'not bound' })
    expect(noPreset.presetId).to.equal('')
  })

  it('POST rejects missing, empty, mistyped and oversized fields with 400', async () => {
    const cases: Array<[unknown, string | RegExp]> = [
      [{ content: 'x' }, 'title is required'], [{ title: 'x' }, 'content is required'], [{ title: '  ', content: 'x' }, 'title is required'],
      [{ title: 5, content: 'x' }, /title/], [{ title: 'x', content: 'x'.repeat(200_001) }, /content is longer/],
      [{ title: 'x'.repeat(201), content: 'x' }, /title is longer/], [{ title: 'x', content: 'y', presetId: 3 }, /presetId/],
      [{ title: 'x', content: 'y', extra: 1 }, /extra|Unrecognized/i], [[1], /JSON object/]
    ]
    for (const [body, msg] of cases) {
      const r = await api('', 'POST', body)
      expect(r.status, JSON.stringify(body).slice(0, 80)).to.equal(400)
      expect(r.body.code).to.equal(-1)
      expect(r.body.message).to.match(typeof msg === 'string' ? new RegExp(`^${msg}$`) : msg)
    }
    const bad = await s.api('/api/knowledge', { method: 'POST', body: '{oops', headers: { 'Content-Type': 'application/json' } })
    expect(bad.status).to.equal(400)
    expect(s.lx.rt.need('knowledge').size).to.equal(0)
  })

  it('GET / lists the first 500 characters with contentLength and truncated', async () => {
    const long = `${'长'.repeat(499)}尾巴${'x'.repeat(100)}`
    await create({ title: 'Long', content: long })
    await create({ title: 'Short', content: 'brief' })
    const list = (await api('')).body.data
    const l = list.find((d: any) => d.title === 'Long')
    expect(l.content).to.have.length(500)
    expect(l).to.include({ contentLength: long.length, truncated: true })
    expect(list.find((d: any) => d.title === 'Short')).to.include({ content: 'brief', contentLength: 5, truncated: false })
  })

  it('PUT updates title, content and presetId (partial); 400 on empty or bad bodies; 404 when unknown', async () => {
    const d = await create({ title: 'Old', content: 'old text about gardening' })
    const r = await api(`/${d.id}`, 'PUT', { content: 'new text about beekeeping', presetId: 'farm' })
    expect(r.status, r.text).to.equal(200)
    expect(r.body.data).to.include({ id: d.id, title: 'Old', content: 'new text about beekeeping', presetId: 'farm', createdAt: d.createdAt })
    expect((await api('/search?query=beekeeping')).body.data.map((h: any) => h.id)).to.deep.equal([d.id])
    expect((await api('/search?query=gardening')).body.data).to.deep.equal([])
    expect((await api(`/${d.id}`, 'PUT', {})).status).to.equal(400)
    expect((await api(`/${d.id}`, 'PUT', { title: '' })).body.message).to.equal('title is required')
    expect((await api(`/${d.id}`, 'PUT', { content: 42 })).status).to.equal(400)
    const missing = await api('/00000000-0000-4000-8000-000000000000', 'PUT', { title: 'x' })
    expect(missing.status).to.equal(404)
    expect(missing.body).to.deep.equal({ code: -1, data: null, message: 'Document not found' })
  })

  it('DELETE removes the document from the list and the search; 404 when unknown', async () => {
    const d = await create({ title: 'Temp', content: 'ephemeral zeppelin notes' })
    expect((await api(`/${d.id}`, 'DELETE')).body.data).to.deep.equal({ success: true })
    expect((await api(`/${d.id}`)).status).to.equal(404)
    expect((await api('/search?q=zeppelin')).body.data).to.deep.equal([])
    expect((await api(`/${d.id}`, 'DELETE')).status).to.equal(404)
  })

  it('GET /search: query or q required, ranked passages with score and highlighted snippet, presetId and limit', async () => {
    const zh = []
    for (const d of ZH_DOCS) zh.push(await create({ ...d, presetId: 'zh' }))
    const en = []
    for (const d of EN_DOCS) en.push(await create({ ...d, presetId: 'en' }))
    for (const [q, want] of ZH_QUERIES) {
      const hits = (await api(`/search?query=${encodeURIComponent(q)}&limit=3`)).body.data
      expect(hits.map((h: any) => h.id), q).to.include(zh[want].id)
    }
    for (const [q, want] of EN_QUERIES) {
      const hits = (await api(`/search?q=${encodeURIComponent(q)}&limit=3`)).body.data
      expect(hits.map((h: any) => h.id), q).to.include(en[want].id)
    }
    const hits = (await api(`/search?query=${encodeURIComponent('火锅底料')}`)).body.data
    expect(hits[0]).to.include({ id: zh[0].id, title: '火锅底料的炒制', presetId: 'zh' })
    expect(hits[0].score).to.be.a('number').above(0)
    expect(hits[0].highlighted).to.include('<mark>火锅</mark>')
    expect(hits[0].snippet).to.include('火锅')
    expect(hits[0]).to.include({ docId: zh[0].id })
    expect(hits[0].retrievers).to.deep.equal(['bm25'])
    expect(ZH_DOCS[0]!.content).to.include(hits[0].text) // a passage of the document
    for (let i = 1; i < hits.length; i++) expect(hits[i - 1].score).to.be.at.least(hits[i].score)
    const onlyEn = (await api('/search?query=tea&presetId=en')).body.data
    expect(onlyEn.length).to.be.above(0)
    expect(onlyEn.every((h: any) => h.presetId === 'en')).to.equal(true)
    expect((await api(`/search?query=${encodeURIComponent('茶')}&presetId=en`)).body.data).to.deep.equal([])
    expect((await api('/search?query=the%20a%20of%20water&limit=1')).body.data).to.have.length(1)
    expect((await api('/search?query=water&limit=abc')).body.data.length).to.be.at.most(10)
    const none = await api('/search')
    expect(none.status).to.equal(400)
    expect(none.body.message).to.equal('query is required')
    expect((await api('/search?query=%20%20')).status).to.equal(400)
  })

  it('keeps documents across a restart (journal replayed, index rebuilt)', async () => {
    const d = await create({ title: 'Durable', content: 'survives a restart with its zeppelin' })
    const dataDir = s.dataDir
    await s.close()
    s = await startTestServer({ dataDir, keepData: true })
    expect((await api(`/${d.id}`)).body.data.content).to.equal('survives a restart with its zeppelin')
    expect((await api('/search?query=zeppelin')).body.data.map((h: any) => h.id)).to.deep.equal([d.id])
  })
})
