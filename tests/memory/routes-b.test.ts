// Memory variant B (/api/memory, style B) through real HTTP: every route with good and bad input.
import { expect } from 'chai'
import { rmSync } from 'node:fs'
import { startTestServer, type TestServer } from '../support/server.js'

describe('memory: variant B routes (/api/memory)', function () {
  this.timeout(20_000)
  let s: TestServer
  before(async () => { s = await startTestServer({ keepData: true }) })
  after(async () => { await s?.close(); if (s) rmSync(s.dataDir, { recursive: true, force: true }) })
  beforeEach(async () => {
    for (const u of s.lx.rt.need('memory').users()) await s.lx.rt.need('memory').clearUser(u.userId, true)
  })

  const api = (path: string, method = 'GET', json?: unknown): ReturnType<TestServer['api']> =>
    s.api(`/api/memory${path}`, json === undefined ? { method } : { method, json })
  const add = async (userId: string, body: Record<string, unknown>): Promise<any> => {
    const r = await api(`/user/${userId}`, 'POST', body)
    expect(r.status, r.text).to.equal(200)
    return r.body.data
  }

  it('POST / creates a manual memory (201, confidence 0.9, category custom by default)', async () => {
    const r = await api('/', 'POST', { userId: 'u1', content: '喜欢吃火锅', metadata: { via: 'test' } })
    expect(r.status, r.text).to.equal(201)
    expect(r.body).to.include({ code: 0, message: 'ok' })
    expect(r.body.data).to.include({ userId: 'u1', content: '喜欢吃火锅', category: 'custom', source: 'manual', confidence: 0.9 })
    expect(r.body.data.id).to.be.a('number')
    expect(r.body.data.metadata).to.deep.equal({ via: 'test' })
    const again = await api(`/${r.body.data.id}`)
    expect(again.body.data.content).to.equal('喜欢吃火锅')
  })

  it('POST / without userId or content is a 400 naming the field', async () => {
    for (const [body, msg] of [[{ content: 'x' }, 'userId is required'], [{ userId: 'u1' }, 'content is required'], [{ userId: 'u1', content: '  ' }, 'content is required']] as const) {
      const r = await api('/', 'POST', body)
      expect(r.status).to.equal(400)
      expect(r.body).to.deep.equal({ code: -1, data: null, message: msg })
    }
    const arr = await api('/', 'POST', [1, 2])
    expect(arr.status).to.equal(400)
  })

  it('POST /user/:userId takes category, subType, confidence, groupId and metadata; 400 content is required', async () => {
    const m = await add('u2', { content: 'Works as a nurse', category: 'profile', subType: 'job', confidence: 0.7, groupId: 'g1', metadata: { a: 1 } })
    expect(m).to.include({ userId: 'u2', category: 'profile', subType: 'job', confidence: 0.7, groupId: 'g1', source: 'manual' })
    const alias = await add('u2', { content: 'Likes tea', category: 'preferences', source: 'client', importance: 3 })
    expect(alias.category).to.equal('preference')
    expect(alias.source).to.equal('manual') // unknown keys are ignored; source is not the client's to set
    expect(alias).to.not.have.property('importance')
    const bad = await api('/user/u2', 'POST', {})
    expect(bad.status).to.equal(400)
    expect(bad.body.message).to.equal('content is required')
    for (const body of [{ content: 'x', category: 'nope' }, { content: 'x', confidence: 2 }, { content: 5 }, { content: 'x'.repeat(2001) }, { content: 'x', metadata: 'no' }]) {
      const r = await api('/user/u2', 'POST', body)
      expect(r.status, JSON.stringify(body)).to.equal(400)
      expect(r.body.code).to.equal(-1)
    }
  })

  it('GET /user/:userId answers a tree by default and a list on format=list, filtered by group and category', async () => {
    await add('u3', { content: 'Name is Li Lei', category: 'profile', subType: 'name' })
    await add('u3', { content: 'Likes cats', category: 'preference', groupId: 'g9' })
    await add('u3', { content: 'Likes dogs', category: 'preference' })
    const tree = await api('/user/u3')
    expect(tree.status).to.equal(200)
    expect(Object.keys(tree.body.data).sort()).to.deep.equal(['preference', 'profile'])
    expect(tree.body.data.profile.name[0].content).to.equal('Name is Li Lei')
    expect(tree.body.data.preference.general).to.have.length(2)
    const list = await api('/user/u3?format=list')
    expect(list.body.data.map((m: any) => m.content)).to.deep.equal(['Likes dogs', 'Likes cats', 'Name is Li Lei'])
    const g = await api('/user/u3?format=list&groupId=g9')
    expect(g.body.data.map((m: any) => m.content)).to.deep.equal(['Likes cats'])
    const c = await api('/user/u3?format=list&category=profile')
    expect(c.body.data).to.have.length(1)
    const byPath = await api('/user/u3/group/g9?format=list')
    expect(byPath.body.data.map((m: any) => m.content)).to.deep.equal(['Likes cats'])
    expect((await api('/user/u3?format=xml')).status).to.equal(400)
    expect((await api('/user/u3?category=bogus')).status).to.equal(400)
  })

  it('GET /group/:groupId: userId/category filters, limit default 100, clamped 1-1000, invalid → 100', async () => {
    const writes = []
    for (let i = 0; i < 105; i++) writes.push(s.lx.rt.need('memory').add({ userId: i % 2 ? 'ga' : 'gb', content: `fact number ${i}`, groupId: 'G1' }))
    await Promise.all(writes)
    expect((await api('/group/G1')).body.data).to.have.length(100)
    expect((await api('/group/G1?limit=abc')).body.data).to.have.length(100)
    expect((await api('/group/G1?limit=0')).body.data).to.have.length(1)
    expect((await api('/group/G1?limit=5000')).body.data).to.have.length(105)
    expect((await api('/group/G1?limit=3')).body.data).to.have.length(3)
    const onlyA = (await api('/group/G1?userId=ga&limit=1000')).body.data
    expect(onlyA).to.have.length(52)
    expect(onlyA.every((m: any) => m.userId === 'ga')).to.equal(true)
    expect((await api('/group/nobody')).body.data).to.deep.equal([])
  })

  it('users, stats, per-user stats and categories', async () => {
    await add('s1', { content: 'Lives in Beijing', category: 'profile' })
    await add('s1', { content: 'Likes jazz', category: 'preference' })
    await add('s2', { content: 'Has a cat named Mimi', category: 'relation' })
    const users = (await api('/users')).body.data
    expect(users.map((u: any) => u.userId).sort()).to.deep.equal(['s1', 's2'])
    const s1 = users.find((u: any) => u.userId === 's1')
    expect(s1).to.include({ count: 2 })
    expect(s1.lastUpdate).to.be.a('number')
    expect(s1.categories).to.deep.equal(['profile', 'preference'])
    const stats = (await api('/stats')).body.data
    expect(stats).to.deep.equal({ total: 3, users: 2, byCategory: { profile: 1, preference: 1, event: 0, relation: 1, topic: 0, custom: 0 } })
    expect((await api('/user/s1/stats')).body.data).to.deep.equal({ total: 2, byCategory: { profile: 1, preference: 1, event: 0, relation: 0, topic: 0, custom: 0 } })
    const cats = (await api('/categories')).body.data
    expect(cats.map((c: any) => c.id)).to.deep.equal(['profile', 'preference', 'event', 'relation', 'topic', 'custom'])
    expect(cats[0].aliases).to.deep.equal(['basic_info'])
  })

  it('numeric-id rule: GET/PUT/DELETE /:id take numeric primary keys only; non-numeric is 400', async () => {
    const m = await add('7', { content: 'User seven likes tea' })
    for (const [method, body] of [['GET'], ['PUT', { content: 'x' }], ['DELETE']] as const) {
      const r = await api('/abc', method, body)
      expect(r.status, method).to.equal(400)
      expect(r.body.message).to.match(/must be numeric/)
    }
    // "7" is a user id here, but a numeric path is always a primary key
    const asKey = await api('/7')
    expect(asKey.status).to.equal(m.id === 7 ? 200 : 404)
    const own = await api(`/${m.id}`)
    expect(own.body.data.userId).to.equal('7')
    expect((await api('/999999')).status).to.equal(404)
  })

  it('PUT /:id updates fields and rejects empty or bad bodies', async () => {
    const m = await add('p1', { content: 'Likes coffee' })
    const r = await api(`/${m.id}`, 'PUT', { content: 'Likes green tea', category: 'interests', confidence: 0.5 })
    expect(r.status, r.text).to.equal(200)
    expect(r.body.data).to.include({ id: m.id, content: 'Likes green tea', category: 'topic', confidence: 0.5 })
    expect(r.body.data.updatedAt).to.be.at.least(m.updatedAt)
    expect((await api(`/${m.id}`, 'PUT', {})).status).to.equal(400)
    expect((await api(`/${m.id}`, 'PUT', { confidence: 'high' })).status).to.equal(400)
    expect((await api(`/${m.id}`, 'PUT', { content: '' })).status).to.equal(400)
    expect((await api('/424242', 'PUT', { content: 'x' })).status).to.equal(404)
    expect((await api(`/${m.id}`)).body.data.content).to.equal('Likes green tea')
  })

  it('DELETE /:id is soft by default and removes the record with hard=true|1', async () => {
    const a = await add('d1', { content: 'memory a' })
    const b = await add('d1', { content: 'memory b' })
    const soft = await api(`/${a.id}`, 'DELETE')
    expect(soft.status).to.equal(200)
    expect(soft.body.data).to.deep.equal({ success: true, id: a.id, hard: false })
    expect((await api(`/${a.id}`)).status).to.equal(404)
    expect((await api('/user/d1?format=list')).body.data.map((m: any) => m.id)).to.deep.equal([b.id])
    expect(s.lx.rt.need('memory')['store'].get(a.id)?.deleted).to.equal(true) // still on disk, hidden
    expect((await api(`/${a.id}`, 'DELETE')).status).to.equal(404)
    expect((await api(`/${a.id}?hard=1`, 'DELETE')).status).to.equal(200)
    expect(s.lx.rt.need('memory')['store'].has(a.id)).to.equal(false)
    expect((await api(`/${b.id}?hard=true`, 'DELETE')).body.data.hard).to.equal(true)
    expect(s.lx.rt.need('memory')['store'].has(b.id)).to.equal(false)
  })

  it('DELETE /user/:userId clears the user (soft, or hard)', async () => {
    await add('c1', { content: 'one' })
    await add('c1', { content: 'two' })
    await add('c2', { content: 'other user' })
    const r = await api('/user/c1', 'DELETE')
    expect(r.body.data).to.deep.equal({ success: true, deleted: 2 })
    expect((await api('/user/c1?format=list')).body.data).to.deep.equal([])
    expect((await api('/user/c2?format=list')).body.data).to.have.length(1)
    expect([...s.lx.rt.need('memory')['store'].values()].filter((m) => m.userId === 'c1')).to.have.length(2)
    await api('/user/c1?hard=true', 'DELETE')
    expect([...s.lx.rt.need('memory')['store'].values()].filter((m) => m.userId === 'c1')).to.have.length(0)
  })

  it('POST /search: query required, userId/groupId/category filters, limit default 20', async () => {
    await add('q1', { content: '我最喜欢吃四川火锅，特别辣的那种', category: 'preference' })
    await add('q1', { content: 'Plays the guitar every weekend' })
    await add('q1', { content: '在上海工作，是程序员', category: 'profile' })
    await add('q2', { content: '讨厌吃火锅', category: 'preference' })
    const r = await api('/search', 'POST', { query: '火锅', userId: 'q1' })
    expect(r.status, r.text).to.equal(200)
    expect(r.body.data.map((m: any) => m.content)).to.deep.equal(['我最喜欢吃四川火锅，特别辣的那种'])
    expect(r.body.data[0].score).to.be.above(0)
    const all = await api('/search', 'POST', { query: '火锅' })
    expect(all.body.data.map((m: any) => m.userId).sort()).to.deep.equal(['q1', 'q2'])
    expect((await api('/search', 'POST', { query: 'guitar weekend', userId: 'q1' })).body.data[0].content).to.equal('Plays the guitar every weekend')
    expect((await api('/search', 'POST', { query: '火锅', category: 'profile' })).body.data).to.deep.equal([])
    const many = []
    for (let i = 0; i < 30; i++) many.push(s.lx.rt.need('memory').add({ userId: 'q3', content: `apple pie recipe ${i}` }))
    await Promise.all(many)
    expect((await api('/search', 'POST', { query: 'apple' })).body.data).to.have.length(20)
    expect((await api('/search', 'POST', { query: 'apple', limit: 5 })).body.data).to.have.length(5)
    const missing = await api('/search', 'POST', { userId: 'q1' })
    expect(missing.status).to.equal(400)
    expect(missing.body.message).to.equal('query is required')
    expect((await api('/search', 'POST', { query: 5 })).status).to.equal(400)
  })

  it('POST /user/:userId/cleanup removes low-confidence, expired, too old and too short memories', async () => {
    const rt = s.lx.rt
    const now = Date.now()
    const keep = await rt.need('memory').add({ userId: 'k1', content: 'Reliable fact about the user', confidence: 0.9 })
    await rt.need('memory').add({ userId: 'k1', content: 'Maybe likes opera', confidence: 0.1 })
    await rt.need('memory').add({ userId: 'k1', content: 'Has an exam tomorrow', expiresAt: now - 1000 })
    await rt.need('memory').add({ userId: 'k1', content: 'x' })
    const old = await rt.need('memory').add({ userId: 'k1', content: 'Old weak guess about music', confidence: 0.5 })
    await rt.need('memory')['store'].put({ ...old, updatedAt: now - 400 * 86_400_000 })
    const r = await api('/user/k1/cleanup', 'POST')
    expect(r.status, r.text).to.equal(200)
    expect(r.body.data).to.deep.equal({ removed: 4, remaining: 1, reasons: { lowConfidence: 1, expired: 1, tooOld: 1, tooShort: 1 } })
    expect((await api('/user/k1?format=list')).body.data.map((m: any) => m.id)).to.deep.equal([keep.id])
  })

  it('POST /merge/:userId folds duplicates of one category', async () => {
    await add('m1', { content: '喜欢吃火锅', category: 'preference', confidence: 0.6 })
    await add('m1', { content: '喜欢吃火锅！', category: 'preference', confidence: 0.8 })
    await add('m1', { content: '喜欢吃火锅', category: 'event' })
    await add('m1', { content: 'Has two cats', category: 'relation' })
    const r = await api('/merge/m1', 'POST')
    expect(r.body.data).to.deep.equal({ merged: 1, remaining: 3 })
    const prefs = (await api('/user/m1?format=list&category=preference')).body.data
    expect(prefs).to.have.length(1)
    expect(prefs[0].confidence).to.equal(0.8)
  })

  it('POST /batch saves valid items and reports each failure', async () => {
    const r = await api('/batch', 'POST', [
      { userId: 'b1', content: 'first', category: 'event' },
      { userId: 'b1' },
      { userId: 'b2', content: 'second', category: 'wrong' },
      { userId: 'b2', content: 'third', category: 'basic_info' }
    ])
    expect(r.status, r.text).to.equal(200)
    expect(r.body.data).to.include({ total: 4, saved: 2, failed: 2 })
    expect(r.body.data.results.map((x: any) => x.success)).to.deep.equal([true, false, false, true])
    expect(r.body.data.results[1].error).to.equal('content is required')
    expect(r.body.data.results[2].error).to.match(/category must be one of/)
    expect(s.lx.rt.need('memory').get(r.body.data.results[3].id)?.category).to.equal('profile')
    expect((await api('/batch', 'POST', { nope: true })).status).to.equal(400)
  })

  it('a malformed JSON body is a 400 in style B, never a 500', async () => {
    const r = await s.api('/api/memory/user/x', { method: 'POST', body: '{bad', headers: { 'Content-Type': 'application/json' } })
    expect(r.status).to.equal(400)
    expect(r.body.code).to.equal(-1)
  })

  it('keeps memories across a restart (journal replayed, ids continue)', async () => {
    const dataDir = s.dataDir
    const m = await add('r1', { content: 'survives restart' })
    await s.close()
    s = await startTestServer({ dataDir, keepData: true })
    const again = await api(`/${m.id}`)
    expect(again.body.data.content).to.equal('survives restart')
    const next = await add('r1', { content: 'after restart' })
    expect(next.id).to.be.above(m.id)
  })
})
