// Paged list routes (docs/api.md, "Paging") through real HTTP: knowledge, conversations (both
// variants), memory users and a user's memories (both variants). Pages are disjoint and in order,
// `total` is right, limit/offset are read like every numeric parameter (invalid → default, clamped),
// and the call without paging parameters keeps its documented shape. Also the order index itself.
import { expect } from 'chai'
import { RecencyOrder } from '../../lib/core/recency-order.js'
import { startTestServer, type TestServer } from '../support/server.js'

const N = 23

describe('web: paged list routes', function () {
  this.timeout(30_000)
  let s: TestServer
  before(async () => {
    s = await startTestServer()
    const rt = s.lx.rt
    const kb = rt.need('knowledge')
    const convs = rt.need('conversations').store
    const mem = rt.need('memory')
    for (let i = 0; i < N; i++) {
      await kb.create({ title: `doc ${i}`, content: `content ${i}` })
      await convs.append({ id: `private:p${i}`, userId: `p${i}`, ...(i % 3 === 0 ? { groupId: 'g1' } : {}) }, [{ role: 'user', content: `hi ${i}`, timestamp: i }])
      await mem.add({ userId: `u${i}`, content: `fact number ${i}`, category: 'custom' })
    }
    for (let i = 0; i < N; i++) await mem.add({ userId: `gu${i % 4}`, groupId: 'g7', content: `group fact ${i}`, category: 'event' })
    for (let i = 0; i < N; i++) await mem.add({ userId: 'heavy', content: `heavy fact ${i}`, category: i % 2 ? 'topic' : 'custom' })
  })
  after(async () => { await s?.close() })

  /** Walks every page of a route with the given size; the pages' ids, and the totals seen. */
  async function walk (path: string, size: number, idOf: (x: any) => string, style: 'A' | 'B' = 'B'): Promise<{ ids: string[]; totals: number[] }> {
    const ids: string[] = []
    const totals: number[] = []
    const sep = path.includes('?') ? '&' : '?'
    for (let offset = 0; ; offset += size) {
      const r = await s.api(`${path}${sep}limit=${size}&offset=${offset}`)
      expect(r.status, r.text).to.equal(200)
      if (style === 'B') expect(r.body).to.include({ code: 0, message: 'ok' })
      else expect(r.body.success).to.equal(true)
      expect(r.body).to.include({ limit: size, offset })
      expect(r.body.data).to.be.an('array')
      totals.push(r.body.total)
      ids.push(...r.body.data.map(idOf))
      if (r.body.data.length < size) break
    }
    return { ids, totals }
  }

  const cases: Array<{ name: string; path: string; idOf: (x: any) => string; style?: 'A' | 'B'; total: number }> = [
    { name: 'GET /api/knowledge', path: '/api/knowledge', idOf: (d) => d.id, total: N },
    { name: 'GET /api/conversations/list', path: '/api/conversations/list', idOf: (c) => c.id, total: N },
    { name: 'GET /api/memory/users', path: '/api/memory/users', idOf: (u) => u.userId, total: N + 5 },
    { name: 'GET /api/memories/users (A)', path: '/api/memories/users', idOf: (u) => u.userId, style: 'A', total: N + 5 },
    { name: 'GET /api/memory/group/:groupId', path: '/api/memory/group/g7', idOf: (m) => String(m.id), total: N },
    { name: 'GET /api/memory/user/:userId?format=list', path: '/api/memory/user/heavy?format=list', idOf: (m) => String(m.id), total: N },
    { name: 'GET /api/memories/user/:userId (A)', path: '/api/memories/user/heavy', idOf: (m) => String(m.id), style: 'A', total: N }
  ]
  for (const c of cases) {
    it(`${c.name}: pages are disjoint, in the order of the whole list, with the right total`, async () => {
      const whole = await s.api(c.path)
      expect(whole.status).to.equal(200)
      expect(whole.body).to.not.have.property('total')
      expect(whole.body.data).to.be.an('array').with.length(c.total)
      const all = whole.body.data.map(c.idOf)
      for (const size of [1, 5, 7, c.total]) {
        const { ids, totals } = await walk(c.path, size, c.idOf, c.style)
        expect(ids, `size ${size}`).to.deep.equal(all)
        expect(new Set(ids).size).to.equal(ids.length)
        expect(totals.every((t) => t === c.total)).to.equal(true)
      }
    })
  }

  it('lists are newest first: knowledge by createdAt, conversations by updatedAt, users by lastUpdate', async () => {
    const kb = (await s.api('/api/knowledge?limit=1000')).body.data as Array<{ createdAt: string; title: string }>
    expect(kb[0]!.title).to.equal(`doc ${N - 1}`)
    for (let i = 1; i < kb.length; i++) expect(kb[i - 1]!.createdAt >= kb[i]!.createdAt).to.equal(true)
    const convs = (await s.api('/api/conversations/list?limit=1000')).body.data as Array<{ id: string; updatedAt: number }>
    expect(convs[0]!.id).to.equal(`private:p${N - 1}`)
    for (let i = 1; i < convs.length; i++) expect(convs[i - 1]!.updatedAt >= convs[i]!.updatedAt).to.equal(true)
    const users = (await s.api('/api/memory/users?limit=1000')).body.data as Array<{ userId: string; lastUpdate: number }>
    expect(users[0]!.userId).to.equal('heavy')
    for (let i = 1; i < users.length; i++) expect(users[i - 1]!.lastUpdate >= users[i]!.lastUpdate).to.equal(true)
  })

  it('a write moves a conversation to the front of the next page, a delete takes it out of the total', async () => {
    const store = s.lx.rt.need('conversations').store
    await store.append({ id: 'private:p0', userId: 'p0' }, [{ role: 'user', content: 'again', timestamp: 99 }])
    const first = await s.api('/api/conversations/list?limit=2')
    expect(first.body.data.map((c: any) => c.id)).to.deep.equal(['private:p0', `private:p${N - 1}`])
    expect(first.body.data[0]).to.include({ messageCount: 2, lastMessage: 'again' })
    expect(first.body.data[0]).to.not.have.property('messages')
    const del = await s.api('/api/conversations/private:p0', { method: 'DELETE' })
    expect(del.status).to.equal(200)
    const after = await s.api('/api/conversations/list?limit=2')
    expect(after.body.total).to.equal(N - 1)
    expect(after.body.data[0].id).to.equal(`private:p${N - 1}`)
    await store.append({ id: 'private:p0', userId: 'p0', groupId: 'g1' }, [{ role: 'user', content: 'hi 0', timestamp: 0 }])
  })

  it('A: GET /api/conversations pages from the order index, filtered by user or group, with total', async () => {
    const all = await s.api('/api/conversations?limit=1000')
    expect(all.body.success).to.equal(true)
    expect(all.body.data.total).to.equal(N)
    const ids = all.body.data.conversations.map((c: any) => c.id)
    const paged: string[] = []
    for (let offset = 0; offset < N; offset += 4) {
      const r = await s.api(`/api/conversations?limit=4&offset=${offset}`)
      expect(r.body.data.total).to.equal(N)
      paged.push(...r.body.data.conversations.map((c: any) => c.id))
    }
    expect(paged).to.deep.equal(ids)
    const group = await s.api('/api/conversations?groupId=g1&limit=2&offset=1')
    const inGroup = ids.filter((id: string) => all.body.data.conversations.find((c: any) => c.id === id).groupId === 'g1')
    expect(group.body.data.total).to.equal(inGroup.length)
    expect(group.body.data.conversations.map((c: any) => c.id)).to.deep.equal(inGroup.slice(1, 3))
    const user = await s.api('/api/conversations?userId=p5')
    expect(user.body.data).to.deep.include({ total: 1 })
    expect(user.body.data.conversations[0]).to.include({ id: 'private:p5', userId: 'p5', messageCount: 1, lastMessage: 'hi 5' })
  })

  it('A: GET /api/conversations checks its userId and groupId filters as the chat routes check ids (chatPartyId): 400 naming the bad one', async () => {
    const bad: Array<[string, string, string]> = [
      ['userId=a%20b', 'userId', 'userId has invalid characters'],
      [`groupId=${'9'.repeat(65)}`, 'groupId', 'groupId is too long'],
      ['userId=%3Cscript%3E', 'userId', 'userId has invalid characters'],
      ['groupId=a&groupId=b', 'groupId', 'groupId']
    ]
    for (const [query, field, text] of bad) {
      const r = await s.api(`/api/conversations?${query}`)
      expect(r.status, query).to.equal(400)
      expect(r.body, query).to.include({ success: false, code: 'INVALID_ARGS' })
      expect(r.body.message, query).to.include(text)
      expect(r.body.errors[0].path, query).to.equal(field)
    }
    // ids of every kind the chat uses pass (trimmed), and the paging figures are still never a 400
    for (const query of ['userId=p5', 'userId=%20p5%20', 'userId=web.x', 'groupId=g1&userId=user@qq.com', 'userId=&groupId=', 'limit=abc&offset=-3']) {
      const r = await s.api(`/api/conversations?${query}`)
      expect(r.status, `${query}: ${r.text}`).to.equal(200)
    }
    expect((await s.api('/api/conversations?userId=%20p5%20')).body.data.total).to.equal(1)
  })

  it('A: a filter over a small share (sorted) and over a large one (walked) answer the order of the whole list', async () => {
    const store = s.lx.rt.need('conversations').store
    const extra = Array.from({ length: 60 }, (_, i) => ({ id: `private:bulk${i}`, userId: `bulk${i}` }))
    const mine = ['gz', 'gy', 'gx'].map((g) => ({ id: `group:${g}:bulkuser`, userId: 'bulkuser', groupId: g }))
    for (const o of [...extra.slice(0, 30), mine[0]!, ...extra.slice(30), mine[1]!, mine[2]!]) await store.append(o, [{ role: 'user', content: o.id, timestamp: 1 }])
    await store.append(mine[0]!, [{ role: 'user', content: 'later', timestamp: 2 }])
    try {
      const whole = (await s.api('/api/conversations?limit=1000')).body.data.conversations as Array<{ id: string; userId: string; groupId: string }>
      const user = await s.api('/api/conversations?userId=bulkuser&limit=2&offset=1')
      const expected = whole.filter((c) => c.userId === 'bulkuser').map((c) => c.id)
      expect(expected).to.deep.equal([mine[0]!.id, mine[2]!.id, mine[1]!.id])
      expect(user.body.data.total).to.equal(3)
      expect(user.body.data.conversations.map((c: any) => c.id)).to.deep.equal(expected.slice(1, 3))
      const priv = await s.api('/api/conversations?groupId=&userId=bulk7')
      expect(priv.body.data.conversations.map((c: any) => c.id)).to.deep.equal(['private:bulk7'])
      const inGy = await s.api('/api/conversations?groupId=gy')
      expect(inGy.body.data.conversations.map((c: any) => c.id)).to.deep.equal([mine[1]!.id])
    } finally {
      for (const o of [...extra, ...mine]) await store.delete(o.id)
    }
    expect((await s.api('/api/conversations?userId=bulkuser')).body.data.total).to.equal(0)
  })

  it('a group\'s memories: from its own share, filtered by user, and a record moved to another group leaves the list', async () => {
    const byUser = await s.api('/api/memory/group/g7?userId=gu1&limit=100')
    expect(byUser.body.total).to.equal(Math.ceil((N - 1) / 4))
    expect(byUser.body.data.every((m: any) => m.userId === 'gu1' && m.groupId === 'g7')).to.equal(true)
    const first = byUser.body.data[0]
    const moved = await s.api(`/api/memory/${first.id}`, { method: 'PUT', json: { groupId: 'g8' } })
    expect(moved.status, moved.text).to.equal(200)
    expect((await s.api('/api/memory/group/g7?limit=100')).body.total).to.equal(N - 1)
    const g8 = await s.api('/api/memory/group/g8')
    expect(g8.body.data.map((m: any) => m.id)).to.deep.equal([first.id])
    expect((await s.api(`/api/memory/${first.id}`, { method: 'PUT', json: { groupId: 'g7' } })).status).to.equal(200)
    expect((await s.api('/api/memory/group/g8')).body.data).to.deep.equal([])
  })

  it('limit and offset: invalid values become the defaults, out-of-range ones are clamped, never a 500', async () => {
    const expectPage = async (query: string, limit: number, offset: number, count: number): Promise<void> => {
      const r = await s.api(`/api/knowledge?${query}`)
      expect(r.status, `${query}: ${r.text}`).to.equal(200)
      expect(r.body, query).to.include({ total: N, limit, offset })
      expect(r.body.data, query).to.have.length(count)
    }
    await expectPage('limit=abc', 50, 0, N)
    await expectPage('limit=0', 1, 0, 1)
    await expectPage('limit=-5', 1, 0, 1)
    await expectPage('limit=100000', 1000, 0, N)
    await expectPage('offset=-3&limit=2', 2, 0, 2)
    await expectPage('offset=x&limit=2', 2, 0, 2)
    await expectPage('offset=5', 50, 5, N - 5)
    await expectPage(`offset=${N}&limit=3`, 3, N, 0)
    await expectPage('offset=99999999999999999999&limit=3', 3, Number.MAX_SAFE_INTEGER, 0)
    await expectPage('limit=2&limit=3', 2, 0, 2)
    const users = await s.api('/api/memory/users?limit=1.5')
    expect(users.status).to.equal(200)
    expect(users.body.limit).to.equal(50)
  })

  it('the calls without paging parameters keep their documented shapes', async () => {
    const tree = await s.api('/api/memory/user/heavy')
    expect(tree.body).to.have.all.keys('code', 'data', 'message')
    expect(tree.body.data).to.have.all.keys('custom', 'topic')
    const pagedTree = await s.api('/api/memory/user/heavy?limit=3&offset=1')
    expect(pagedTree.body).to.include({ total: N, limit: 3, offset: 1 })
    const counted = Object.values(pagedTree.body.data as Record<string, Record<string, unknown[]>>).flatMap((sub) => Object.values(sub)).flat()
    expect(counted).to.have.length(3)
    const kb = await s.api('/api/knowledge')
    expect(kb.body).to.have.all.keys('code', 'data', 'message')
    expect(kb.body.data[0]).to.include.keys('id', 'title', 'content', 'presetId', 'createdAt', 'updatedAt', 'contentLength', 'truncated')
    const conv = await s.api('/api/conversations/list')
    expect(conv.body).to.have.all.keys('code', 'data', 'message')
    const usersA = await s.api('/api/memories/users')
    expect(usersA.body).to.not.have.property('total')
    expect(usersA.body.data[0]).to.have.all.keys('userId', 'memoryCount')
  })
})

describe('core: RecencyOrder', () => {
  it('pages newest first, moves a rewritten key to the front, forgets deleted keys', () => {
    const o = new RecencyOrder<string>([['a', 3], ['b', 1], ['c', 2]])
    expect(o.page(0, 10)).to.deep.equal(['a', 'c', 'b'])
    o.set('b', 5)
    expect(o.page(0, 2)).to.deep.equal(['b', 'a'])
    expect(o.page(2, 2)).to.deep.equal(['c'])
    expect(o.delete('a')).to.equal(true)
    expect(o.delete('a')).to.equal(false)
    expect([...o.newest()]).to.deep.equal(['b', 'c'])
    expect(o.size).to.equal(2)
  })

  it('a rank older than the newest sorts into place; equal ranks list the latest written first', () => {
    const o = new RecencyOrder<number>()
    for (let i = 0; i < 5; i++) o.set(i, 10)
    o.set(9, 1)
    expect(o.page(0, 10)).to.deep.equal([4, 3, 2, 1, 0, 9])
    o.set(0, 0)
    expect(o.page(4, 10)).to.deep.equal([9, 0])
  })

  it('sortNewest orders some keys like newest(), dropping unknown ones', () => {
    const o = new RecencyOrder<string>([['a', 1], ['b', 2], ['c', 2], ['d', 0]])
    expect([...o.newest()]).to.deep.equal(['c', 'b', 'a', 'd'])
    expect(o.sortNewest(['d', 'x', 'b', 'a', 'c'])).to.deep.equal(['c', 'b', 'a', 'd'])
    o.set('a', 5)
    expect(o.sortNewest(['b', 'a'])).to.deep.equal(['a', 'b'])
  })

  it('stays right across compactions of many rewrites', () => {
    const o = new RecencyOrder<number>()
    let t = 0
    for (let i = 0; i < 100; i++) o.set(i, t++)
    for (let round = 0; round < 50; round++) for (let i = 0; i < 100; i += 3) o.set(i, t++)
    for (let i = 1; i < 100; i += 7) o.delete(i)
    const expected = [...Array(100).keys()].filter((i) => (i - 1) % 7 !== 0)
      .sort((a, b) => (b % 3 === 0 ? 1 : 0) - (a % 3 === 0 ? 1 : 0) || b - a)
    expect(o.page(0, 1000)).to.deep.equal(expected)
    expect(o.size).to.equal(expected.length)
  })
})
