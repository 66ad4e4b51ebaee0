// The memory review routes (routes/memory-review.ts) through real HTTP: the queue, confirm, correct, bulk,
// history and the review counts; each with good input, bad input, unknown ids, a conflict and no session.
import { expect } from 'chai'
import { rmSync } from 'node:fs'
import type { MemoryRecord } from '../../lib/memory/types.js'
import { startTestServer, type TestServer } from '../support/server.js'

describe('memory: review routes (/api/memory pending, confirm, correct, review, history)', function () {
  this.timeout(20_000)
  let s: TestServer
  before(async () => { s = await startTestServer({ keepData: true }) })
  after(async () => { await s?.close(); if (s) rmSync(s.dataDir, { recursive: true, force: true }) })
  beforeEach(async () => {
    for (const u of s.lx.rt.need('memory').users()) await s.lx.rt.need('memory').clearUser(u.userId, true)
  })

  const api = (path: string, method = 'GET', json?: unknown): ReturnType<TestServer['api']> =>
    s.api(`/api/memory${path}`, json === undefined ? { method } : { method, json })
  /** A guess the extractor held for review: inferred, pending, from a private chat's messages. */
  const guess = (userId: string, content: string, at = 1_700_000_000_000): Promise<MemoryRecord> => s.lx.rt.need('memory').add({
    userId, content, category: 'preference', confidence: 0.5, source: 'auto', status: 'pending',
    origin: { kind: 'inferred', chat: 'private', conversationId: `private_${userId}`, messageIds: ['m1', 'm2'], at, model: 'gpt-test', extraction: 'x1' }
  })
  const fact = (userId: string, content: string): Promise<MemoryRecord> => s.lx.rt.need('memory').add({ userId, content, category: 'profile' })

  it('GET /pending: the queue, oldest first, with provenance; userId and limit filter; 400 on a bad limit', async () => {
    const a = await guess('r1', '可能喜欢猫')
    const b = await guess('r2', '可能住在杭州')
    const c = await guess('r1', '可能是学生')
    await fact('r1', '名字叫小李')
    const all = await api('/pending')
    expect(all.status, all.text).to.equal(200)
    expect(all.body.code).to.equal(0)
    expect(all.body.data.map((m: MemoryRecord) => m.id)).to.deep.equal([a.id, b.id, c.id])
    expect(all.body.data[0].origin).to.deep.include({ kind: 'inferred', chat: 'private', conversationId: 'private_r1', model: 'gpt-test' })
    expect(all.body.data[0].status).to.equal('pending')
    const mine = await api('/pending?userId=r1&limit=1')
    expect(mine.body.data.map((m: MemoryRecord) => m.id)).to.deep.equal([a.id])
    for (const q of ['limit=0', 'limit=abc', 'limit=501', 'userId=']) {
      const bad = await api(`/pending?${q}`)
      expect(bad.status, q).to.equal(400)
      expect(bad.body).to.include({ code: -1, data: null })
    }
  })

  it('POST /:id/confirm: pending becomes used, the history says the master confirmed it; 409 when not pending, 404 unknown, 400 not numeric', async () => {
    const g = await guess('r1', '可能喜欢猫')
    const r = await api(`/${g.id}/confirm`, 'POST', {})
    expect(r.status, r.text).to.equal(200)
    expect(r.body.data.status).to.equal(undefined)
    expect(r.body.data.history.at(-1)).to.include({ what: 'confirmed', by: 'master', status: 'pending', content: '可能喜欢猫' })
    expect((await api('/pending')).body.data).to.deep.equal([])
    const again = await api(`/${g.id}/confirm`, 'POST', {})
    expect(again.status).to.equal(409)
    expect(again.body).to.deep.equal({ code: -1, data: null, message: `Memory ${g.id} is not pending: only a pending memory can be confirmed` })
    expect((await api('/999999/confirm', 'POST', {})).status).to.equal(404)
    expect((await api('/abc/confirm', 'POST', {})).status).to.equal(400)
  })

  it('POST /:id/correct: the new text is used at once (confidence 1, manual, by the master), the old text in history; 400 bad content, 404 unknown', async () => {
    const g = await guess('r1', '可能喜欢猫')
    const r = await api(`/${g.id}/correct`, 'POST', { content: '喜欢狗' })
    expect(r.status, r.text).to.equal(200)
    expect(r.body.data).to.include({ content: '喜欢狗', confidence: 1 })
    expect(r.body.data.status).to.equal(undefined)
    expect(r.body.data.origin).to.include({ kind: 'manual', conversationId: 'private_r1' })
    expect(r.body.data.history.at(-1)).to.include({ what: 'corrected', by: 'master', content: '可能喜欢猫' })
    for (const body of [{}, { content: '  ' }, { content: 5 }, { content: 'x'.repeat(2001) }]) {
      const bad = await api(`/${g.id}/correct`, 'POST', body)
      expect(bad.status, JSON.stringify(body)).to.equal(400)
    }
    expect((await api(`/${g.id}/correct`, 'POST', {})).body.message).to.equal('content is required')
    expect((await api('/999999/correct', 'POST', { content: 'x y' })).status).to.equal(404)
  })

  it('POST /review: bulk confirm and delete answer per id (confirmed, not_pending, not_found, deleted); 400 on bad bodies and over 200 ids', async () => {
    const a = await guess('r1', '可能喜欢猫')
    const b = await guess('r1', '可能是学生')
    const f = await fact('r1', '名字叫小李')
    const r = await api('/review', 'POST', { ids: [a.id, f.id, 999999, a.id], action: 'confirm' })
    expect(r.status, r.text).to.equal(200)
    expect(r.body.data).to.deep.equal({ action: 'confirm', done: 1, results: [{ id: a.id, outcome: 'confirmed' }, { id: f.id, outcome: 'not_pending' }, { id: 999999, outcome: 'not_found' }] })
    const d = await api('/review', 'POST', { ids: [b.id, f.id, 999999], action: 'delete' })
    expect(d.body.data.results).to.deep.equal([{ id: b.id, outcome: 'deleted' }, { id: f.id, outcome: 'deleted' }, { id: 999999, outcome: 'not_found' }])
    expect((await api(`/${b.id}`)).status).to.equal(404)
    expect((await api('/user/r1?format=list')).body.data.map((m: MemoryRecord) => m.id)).to.deep.equal([a.id])
    const tooMany = Array.from({ length: 201 }, (_, i) => i + 1)
    for (const body of [{}, { ids: [], action: 'confirm' }, { ids: [1], action: 'approve' }, { ids: ['1'], action: 'delete' }, { ids: [1.5], action: 'delete' }, { ids: tooMany, action: 'delete' }]) {
      const bad = await api('/review', 'POST', body)
      expect(bad.status, JSON.stringify(body).slice(0, 60)).to.equal(400)
      expect(bad.body.code).to.equal(-1)
    }
    expect((await api('/review', 'POST', { ids: tooMany, action: 'delete' })).body.message).to.include('At most 200 ids')
  })

  it('GET /:id/history: origin, status, supersededBy and the earlier states; 404 unknown, 400 not numeric', async () => {
    const old = await guess('r1', '住在杭州')
    const mem = s.lx.rt.need('memory')
    const newer = await fact('r1', '住在上海')
    await mem.update(old.id, { status: 'superseded', supersededBy: newer.id })
    await api(`/${old.id}/correct`, 'POST', { content: '以前住在杭州' })
    const h = await api(`/${old.id}/history`)
    expect(h.status, h.text).to.equal(200)
    expect(h.body.data).to.include({ id: old.id, userId: 'r1', content: '以前住在杭州' })
    expect(h.body.data.origin).to.include({ kind: 'manual', chat: 'private' })
    expect(h.body.data.history.map((x: { content: string, what: string }) => `${x.what}:${x.content}`)).to.deep.equal(['corrected:住在杭州'])
    expect(h.body.data.history[0].status).to.equal('superseded')
    const n = await api(`/${newer.id}/history`)
    expect(n.body.data).to.include({ id: newer.id }).and.not.have.property('status')
    expect(n.body.data.history).to.deep.equal([])
    await mem.update(newer.id, { status: 'superseded', supersededBy: old.id })
    expect((await api(`/${newer.id}/history`)).body.data).to.include({ status: 'superseded', supersededBy: old.id })
    expect((await api('/999999/history')).status).to.equal(404)
    expect((await api('/x1/history')).status).to.equal(400)
  })

  it('GET /review/stats counts pending, superseded and confirmed; GET /stats keeps the spec\'s shape', async () => {
    const a = await guess('r1', '可能喜欢猫')
    await guess('r1', '可能是学生')
    const f = await fact('r1', '名字叫小李')
    await s.lx.rt.need('memory').update(f.id, { status: 'superseded', supersededBy: a.id })
    await api(`/${a.id}/confirm`, 'POST', {})
    const c = await api('/review/stats')
    expect(c.status, c.text).to.equal(200)
    expect(c.body.data).to.deep.equal({ pending: 1, superseded: 1, confirmed: 1 })
    expect(Object.keys((await api('/stats')).body.data).sort()).to.deep.equal(['byCategory', 'total', 'users'])
  })

  it('every review route needs a session (401 without one)', async () => {
    const g = await guess('r1', '可能喜欢猫')
    const calls: Array<[string, string, unknown?]> = [['GET', '/pending'], ['GET', '/review/stats'], ['GET', `/${g.id}/history`],
      ['POST', `/${g.id}/confirm`, {}], ['POST', `/${g.id}/correct`, { content: 'x y' }], ['POST', '/review', { ids: [g.id], action: 'delete' }]]
    for (const [method, path, json] of calls) {
      const res = await fetch(`${s.base}/api/memory${path}`, { method, ...(json !== undefined ? { headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(json) } : {}) })
      expect(res.status, `${method} ${path}`).to.equal(401)
    }
    expect(s.lx.rt.need('memory').mustGet(g.id).status).to.equal('pending')
  })
})
