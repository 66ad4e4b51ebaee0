// The memories' vectors across a restart (lib/memory/README.md, "Recall by meaning"), the standalone server:
// kept in the data folder, loaded at start instead of embedded again; another model re-embeds them all.
import { expect } from 'chai'
import { existsSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { startFakeEmbeddings, type FakeEmbeddings } from '../support/fake-embeddings.js'
import { startTestServer, type TestServer } from '../support/server.js'

describe('memory: vectors across a restart', function () {
  this.timeout(60_000)
  let fake: FakeEmbeddings
  let s: TestServer | undefined
  let dataDir = ''
  before(async () => { fake = await startFakeEmbeddings({ dims: 128 }) })
  after(async () => { await s?.close(); await fake.close(); if (dataDir) rmSync(dataDir, { recursive: true, force: true }) })
  const texts = (): string[] => fake.requests.flatMap((r) => Array.isArray(r.body.input) ? r.body.input : [])

  it('loads the vectors at start instead of embedding again; another model embeds every memory again', async () => {
    s = await startTestServer({ keepData: true })
    dataDir = s.dataDir
    await s.lx.rt.config.update({ web: { allowPrivateHosts: ['127.0.0.1'] }, knowledge: { embedding: { baseUrl: fake.url, apiKey: 'k', model: 'm1', batchSize: 0 } } })
    const mem = s.lx.rt.need('memory')
    await mem.add({ userId: '62001', content: '对宠物过敏', category: 'profile' })
    await mem.add({ userId: '62001', content: '在杭州做设计师', category: 'profile' })
    await mem.meaning!.whenIdle()
    expect(existsSync(join(dataDir, 'memory-vectors.bin'))).to.equal(true)
    await s.close()
    s = undefined

    const before = texts().length
    s = await startTestServer({ dataDir, keepData: true })
    const again = s.lx.rt.need('memory')
    await again.meaning!.whenIdle()
    expect(texts().length).to.equal(before) // nothing embedded again
    expect(again.meaning!.size).to.equal(2)
    const use = { now: Date.now(), privateInGroups: false }
    const [hit] = await again.search({ query: '养猫狗会不耐受吗', userId: '62001', use })
    expect(hit?.content).to.equal('对宠物过敏')

    await s.lx.rt.config.update({ knowledge: { embedding: { model: 'm2' } } })
    await again.meaning!.whenIdle()
    expect(fake.requests.at(-1)?.body.model).to.equal('m2')
    expect(texts().slice(before).filter((t) => t !== '养猫狗会不耐受吗').sort()).to.deep.equal(['在杭州做设计师', '对宠物过敏'])
    expect(again.meaning!.size).to.equal(2)
  })
})
