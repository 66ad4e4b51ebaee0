// The memories on one PostgreSQL shared by two copies of the plugin (their own data folders): a memory
// added through one's API is listed, counted and found by search on the other; changed on the other, the
// first finds the new text only; deleted (soft, then hard) on one, it is gone from the other's lists and search.
import { expect } from 'chai'
import type { MemoryRecord } from '../../lib/memory/types.js'
import { postgresOrSkip } from '../support/postgres.js'
import type { TestServer } from '../support/server.js'
import { startTwoOn, whenRemote } from '../support/shared-instances.js'

/** Resolves at the first remote change of the memories of `s` for which `done` holds. */
function remoteMemory (s: TestServer, done: (id: number, r: MemoryRecord | undefined) => boolean, ms?: number): Promise<number> {
  return whenRemote((l: (id: number, r: MemoryRecord | undefined) => void) => s.lx.rt.need('memory').onRemote(l), done, ms)
}

describe('storage: memories shared by two plugin instances on one PostgreSQL', function () {
  this.timeout(30_000)
  let one: TestServer | undefined
  let two: TestServer | undefined
  before(async function () {
    const url = await postgresOrSkip(this)
    // startTestServer passes process.env (with its own LINGXI_DATA_DIR) to the plugin
    ;[one, two] = await startTwoOn(url)
  })
  after(async () => {
    await one?.close()
    await two?.close()
  })

  const search = async (s: TestServer, query: string): Promise<number[]> => {
    const r = await s.api('/api/memory/search', { method: 'POST', json: { query, userId: 'u-mem' } })
    expect(r.status, r.text).to.equal(200)
    return (r.body.data as Array<{ id: number }>).map((h) => h.id)
  }
  const listed = async (s: TestServer): Promise<number[]> => {
    const r = await s.api('/api/memory/user/u-mem?format=list')
    expect(r.status, r.text).to.equal(200)
    return (r.body.data as Array<{ id: number }>).map((m) => m.id)
  }

  it('a memory added on one is listed and found on the other; changed there, then deleted, both follow', async () => {
    expect(one!.dataDir).to.not.equal(two!.dataDir)
    // added on one
    let seen = remoteMemory(two!, (_id, r) => r?.userId === 'u-mem' && r.content === 'likes green tea')
    const added = await one!.api('/api/memory/user/u-mem', { method: 'POST', json: { content: 'likes green tea', category: 'preference' } })
    expect(added.status, added.text).to.equal(200)
    const id = added.body.data.id as number
    await seen
    expect(await listed(two!)).to.deep.equal([id])
    expect(await search(two!, 'green tea')).to.deep.equal([id])
    const stats = await two!.api('/api/memory/stats')
    expect(stats.body.data).to.deep.include({ total: 1, users: 1 })
    expect(stats.body.data.byCategory.preference).to.equal(1)
    const users = await two!.api('/api/memory/users')
    expect(users.body.data.map((u: { userId: string }) => u.userId)).to.deep.equal(['u-mem'])
    expect(two!.lx.rt.need('memory').hasMemories('u-mem')).to.equal(true)

    // a second memory added on two takes a new id (the shared nextId), never the first one's
    seen = remoteMemory(one!, (_id, r) => r?.content === 'lives in Hangzhou 住在杭州')
    const second = await two!.api('/api/memory/user/u-mem', { method: 'POST', json: { content: 'lives in Hangzhou 住在杭州', category: 'profile' } })
    expect(second.status, second.text).to.equal(200)
    const id2 = second.body.data.id as number
    expect(id2).to.not.equal(id)
    await seen
    expect((await listed(one!)).sort()).to.deep.equal([id, id2].sort())
    expect(await search(one!, '杭州')).to.deep.equal([id2])

    // changed on two: one finds the new text, not the old
    seen = remoteMemory(one!, (i, r) => i === id && r?.content === 'likes black coffee')
    const changed = await two!.api(`/api/memory/${id}`, { method: 'PUT', json: { content: 'likes black coffee' } })
    expect(changed.status, changed.text).to.equal(200)
    await seen
    expect(await search(one!, 'coffee')).to.deep.equal([id])
    expect(await search(one!, 'green tea')).to.deep.equal([])

    // soft-deleted on one: gone from two's list, search and counts
    seen = remoteMemory(two!, (i, r) => i === id && r?.deleted === true)
    const soft = await one!.api(`/api/memory/${id}`, { method: 'DELETE' })
    expect(soft.status, soft.text).to.equal(200)
    await seen
    expect(await listed(two!)).to.deep.equal([id2])
    expect(await search(two!, 'coffee')).to.deep.equal([])
    expect((await two!.api('/api/memory/stats')).body.data).to.deep.include({ total: 1, users: 1 })

    // erased on one: gone from two; the user has no memory left there
    seen = remoteMemory(two!, (i, r) => i === id2 && r === undefined)
    const hard = await one!.api(`/api/memory/${id2}?hard=true`, { method: 'DELETE' })
    expect(hard.status, hard.text).to.equal(200)
    await seen
    expect(await listed(two!)).to.deep.equal([])
    expect(await search(two!, '杭州')).to.deep.equal([])
    expect((await two!.api('/api/memory/stats')).body.data).to.deep.include({ total: 0, users: 0 })
    expect((await two!.api('/api/memory/users')).body.data).to.deep.equal([])
    expect(two!.lx.rt.need('memory').hasMemories('u-mem')).to.equal(false)
  })

  it('two instances adding at the same instant take different ids: every memory of both is kept, on both', async () => {
    const user = 'u-race'
    const count = (s: TestServer): number => s.lx.rt.need('memory').list({ userId: user }).length
    // each resolves once its instance lists all 80 (its own at once, the other's as their changes arrive)
    const all = [one!, two!].map((s) => remoteMemory(s, () => count(s) === 80, 10_000))
    const add = (s: TestServer, i: number): Promise<number> => s.api(`/api/memory/user/${user}`, { method: 'POST', json: { content: `fact number ${i}`, category: 'custom' } })
      .then((r) => { expect(r.status, r.text).to.equal(200); return r.body.data.id as number })
    // 40 on each, interleaved and all in flight at once
    const ids = await Promise.all(Array.from({ length: 80 }, (_, i) => add(i % 2 ? one! : two!, i)))
    expect(new Set(ids).size, 'distinct ids').to.equal(80)
    await Promise.all(all)
    for (const s of [one!, two!]) expect(s.lx.rt.need('memory').list({ userId: user }).map((m) => m.id).sort((a, b) => a - b)).to.deep.equal([...ids].sort((a, b) => a - b))
  })
})
