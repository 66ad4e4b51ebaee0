// Memory variant A (/api/memories, style A) over the same store as variant B; category mapping.
import { expect } from 'chai'
import { startTestServer, type TestServer } from '../support/server.js'

describe('memory: variant A routes (/api/memories) and the category mapping', function () {
  this.timeout(20_000)
  let s: TestServer
  before(async () => { s = await startTestServer() })
  after(async () => { await s?.close() })
  beforeEach(async () => {
    for (const u of s.lx.rt.need('memory').users()) await s.lx.rt.need('memory').clearUser(u.userId, true)
  })
  const a = (path: string, method = 'GET', json?: unknown): ReturnType<TestServer['api']> =>
    s.api(`/api/memories${path}`, json === undefined ? { method } : { method, json })
  const b = (path: string, method = 'GET', json?: unknown): ReturnType<TestServer['api']> =>
    s.api(`/api/memory${path}`, json === undefined ? { method } : { method, json })

  it('maps every category both ways between the variants', async () => {
    const pairs = [['basic_info', 'profile'], ['preferences', 'preference'], ['events', 'event'], ['relationships', 'relation'], ['interests', 'topic'], ['custom', 'custom']]
    for (const [ca, cb] of pairs) {
      const made = await a('/user/map1', 'POST', { content: `via A ${ca}`, category: ca })
      expect(made.status, made.text).to.equal(201)
      expect(made.body).to.include({ success: true })
      expect(made.body.data.category).to.equal(ca)
      expect((await b(`/${made.body.data.id}`)).body.data.category).to.equal(cb)
      const viaB = await b('/user/map2', 'POST', { content: `via B ${cb}`, category: cb })
      const listA = (await a('/user/map2')).body.data
      expect(listA.find((m: any) => m.id === viaB.body.data.id).category).to.equal(ca)
    }
    const filtered = (await a('/user/map1?category=relationships')).body.data
    expect(filtered.map((m: any) => m.content)).to.deep.equal(['via A relationships'])
    const stats = (await a('/stats')).body.data
    expect(stats).to.deep.equal({ totalMemories: 12, totalUsers: 2, categories: { basic_info: 2, preferences: 2, events: 2, relationships: 2, interests: 2, custom: 2 } })
    expect((await a('/users')).body.data.sort((x: any, y: any) => x.userId.localeCompare(y.userId))).to.deep.equal([{ userId: 'map1', memoryCount: 6 }, { userId: 'map2', memoryCount: 6 }])
    expect((await a('/categories')).body.data.map((c: any) => c.id)).to.deep.equal(['basic_info', 'preferences', 'events', 'relationships', 'interests', 'custom'])
  })

  it('GET /user/:userId honours limit; GET /search needs a query and honours userId/limit', async () => {
    for (let i = 0; i < 5; i++) await a('/user/l1', 'POST', { content: `likes green tea number ${i}`, category: 'preferences' })
    await a('/user/l2', 'POST', { content: 'likes green tea too' })
    expect((await a('/user/l1?limit=2')).body.data).to.have.length(2)
    const hits = await a('/search?query=green%20tea&userId=l2')
    expect(hits.status).to.equal(200)
    expect(hits.body.data.map((h: any) => h.userId)).to.deep.equal(['l2'])
    expect(hits.body.data[0].score).to.be.above(0)
    expect((await a('/search?q=tea&limit=3')).body.data).to.have.length(3)
    const none = await a('/search')
    expect(none.status).to.equal(400)
    expect(none.body).to.include({ success: false, code: 'INVALID_ARGS', message: 'query is required' })
  })

  it('PUT and DELETE /:id, DELETE /user/:userId, with style A errors', async () => {
    const m = (await a('/user/e1', 'POST', { content: 'old text', category: 'events' })).body.data
    const put = await a(`/${m.id}`, 'PUT', { content: 'new text', category: 'interests' })
    expect(put.body).to.deep.include({ success: true })
    expect(put.body.data).to.include({ content: 'new text', category: 'interests' })
    expect((await a('/abc', 'PUT', { content: 'x' })).body).to.include({ success: false, code: 'INVALID_ARGS' })
    const missing = await a('/987654', 'DELETE')
    expect(missing.status).to.equal(404)
    expect(missing.body.success).to.equal(false)
    expect((await a(`/${m.id}`, 'DELETE')).body).to.deep.equal({ success: true, data: { id: m.id } })
    await a('/user/e1', 'POST', { content: 'another' })
    expect((await a('/user/e1', 'DELETE')).body.data).to.deep.equal({ deleted: 1 })
    const bad = await a('/user/e1', 'POST', { category: 'events' })
    expect(bad.status).to.equal(400)
    expect(bad.body).to.include({ success: false, code: 'INVALID_ARGS', message: 'content is required' })
  })

  it('POST /user/:userId/summarize without the model merges deterministically', async () => {
    await a('/user/sum1', 'POST', { content: 'Likes hiking in the mountains', category: 'interests' })
    await a('/user/sum1', 'POST', { content: 'likes hiking in the mountains.', category: 'interests' })
    const r = await a('/user/sum1/summarize', 'POST', { useLLM: false })
    expect(r.status, r.text).to.equal(200)
    expect(r.body.data).to.include({ before: 2, after: 1, usedModel: false })
    expect(r.body.data.lines).to.have.length(1)
    expect(r.body.data.lines[0]).to.match(/^\[topic\] /)
  })
})
