// The why records and the group log on one PostgreSQL shared by two copies of the plugin (their own data
// folders): the why record of an answer given by one is found by the other's API, and a user's memory texts
// erased on the other leave the first one's copy too; lines logged for one group by both at once all land,
// and each instance lists all of them. The migration command copies both stores both ways with equal counts.
import { expect } from 'chai'
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Config } from '../../lib/config/schema.js'
import { GroupLogService } from '../../lib/grouplog/service.js'
import type { GroupLogEntry } from '../../lib/grouplog/types.js'
import { copyFromPostgres, copyToPostgres } from '../../lib/storage/copy.js'
import { PORTED_STORES } from '../../lib/storage/ported.js'
import { WhyCollector } from '../../lib/why/collector.js'
import { WhyStore } from '../../lib/why/store.js'
import { startFakeOpenAI, type FakeOpenAI } from '../support/fake-openai.js'
import { postgresOrSkip } from '../support/postgres.js'
import { startTwoOn, until } from '../support/shared-instances.js'
import { startTestServer, type TestServer } from '../support/server.js'

describe('storage: why records and the group log shared by two plugin instances on one PostgreSQL', function () {
  this.timeout(30_000)
  let one: TestServer | undefined
  let two: TestServer | undefined
  let fake: FakeOpenAI | undefined
  before(async function () {
    const url = await postgresOrSkip(this)
    fake = await startFakeOpenAI({ models: ['gpt-test'] })
    ;[one, two] = await startTwoOn(url)
    for (const s of [one, two]) await s.lx.rt.config.update({ channels: [{ name: 'fake', baseUrl: fake.url, apiKey: 'sk-test', model: 'gpt-test', models: ['gpt-test'] }] })
  })
  after(async () => {
    await one?.close()
    await two?.close()
    await fake?.close()
  })

  it('the why record of an answer given by one is found on the other; a memory erased on the other leaves both copies', async () => {
    const memory = await one!.api('/api/memories/user/wy1', { method: 'POST', json: { content: 'drinks green tea every morning', category: 'preferences' } })
    expect(memory.status, memory.text).to.be.oneOf([200, 201])
    const memoryId = memory.body.data.id as number
    fake!.enqueue({ content: 'Green tea, then.', usage: { prompt_tokens: 30, completion_tokens: 6 } })
    const whyTwo = two!.lx.rt.need('why').store
    const answered = await one!.api('/api/chat', { method: 'POST', json: { message: 'what should I drink with my tea now?', userId: 'wy1' } })
    expect(answered.status, answered.text).to.equal(200)
    const whyId = answered.body.data.whyId as string
    expect(whyId).to.match(/^w[a-z0-9]+$/)
    // two instances: two data folders, one database
    expect(one!.dataDir).to.not.equal(two!.dataDir)
    await until((l) => whyTwo.onRemote(l), () => whyTwo.get(whyId) !== undefined)

    const onTwo = await two!.api(`/api/chat/why/${whyId}`)
    expect(onTwo.status, onTwo.text).to.equal(200)
    const onOne = await one!.api(`/api/chat/why/${whyId}`)
    expect(onTwo.body.data).to.deep.equal(onOne.body.data)
    expect(onTwo.body.data).to.deep.include({ id: whyId, conversationId: 'private:wy1', userId: 'wy1', model: 'gpt-test' })
    expect(onTwo.body.data.memories).to.deep.equal([{ id: memoryId, userId: 'wy1', category: 'preference', content: 'drinks green tea every morning' }])
    // the last answer to the user (what `#lx为什么` shows) and the conversation's list, on the other instance
    expect(whyTwo.lastFor('wy1')?.id).to.equal(whyId)
    const list = await two!.api('/api/chat/why?conversationId=private%3Awy1')
    expect(list.body.data.records.map((r: { id: string }) => r.id)).to.deep.equal([whyId])

    // `#lx忘记我` on two erases the memory texts from the record: one's copy follows
    const whyOne = one!.lx.rt.need('why').store
    expect(await whyTwo.eraseMemoriesOf('wy1')).to.equal(1)
    await until((l) => whyOne.onRemote(l), () => whyOne.get(whyId)?.memories[0]?.removed === true)
    expect(whyOne.get(whyId)?.memories).to.deep.equal([{ id: memoryId, userId: 'wy1', category: 'preference', content: '', removed: true }])
    // the memory itself still exists: the record was erased in the store, not hidden when read
    expect((await one!.api(`/api/chat/why/${whyId}`)).body.data.memories[0]).to.include({ content: '', removed: true })
  })

  it('group log lines written by both instances for one group at once all land, and both list them', async () => {
    const logOne = one!.lx.rt.need('groupLog')
    const logTwo = two!.lx.rt.need('groupLog')
    const entry = (who: string, i: number): GroupLogEntry => ({ at: 1_000_000 + i, userId: who, text: `${who} line ${i}` })
    logOne.record('g-log', entry('first', 0))
    await logOne.idle()
    await until((l) => logTwo.onRemote(l), () => logTwo.recent('g-log', 100).length === 1)
    // both append at once, interleaved, without waiting for each other
    for (let i = 1; i <= 20; i++) {
      logOne.record('g-log', entry('one', i))
      logTwo.record('g-log', entry('two', i))
    }
    await Promise.all([logOne.idle(), logTwo.idle()])
    const texts = (log: typeof logOne): string[] => log.recent('g-log', 100).map((e) => e.text).sort()
    const expected = ['first line 0', ...Array.from({ length: 20 }, (_, i) => [`one line ${i + 1}`, `two line ${i + 1}`]).flat()].sort()
    await until((l) => logOne.onRemote(l), () => texts(logOne).length === 41)
    await until((l) => logTwo.onRemote(l), () => texts(logTwo).length === 41)
    expect(texts(logOne)).to.deep.equal(expected)
    expect(texts(logTwo)).to.deep.equal(expected)
    // each instance's own lines keep their order
    const own = (log: typeof logOne, who: string): string[] => log.recent('g-log', 100).filter((e) => e.userId === who).map((e) => e.text)
    expect(own(logTwo, 'one')).to.deep.equal(Array.from({ length: 20 }, (_, i) => `one line ${i + 1}`))
    expect(own(logOne, 'two')).to.deep.equal(Array.from({ length: 20 }, (_, i) => `two line ${i + 1}`))
  })
})

describe('storage: the migration command copies the why records and the group log both ways', function () {
  this.timeout(30_000)
  let url = ''
  before(async function () { url = await postgresOrSkip(this) })

  it('copies them into PostgreSQL and back into a new data folder with equal counts and equal records', async () => {
    const stores = PORTED_STORES.filter((s) => s.name === 'why' || s.name === 'group-log/groups')
    expect(stores.map((s) => s.name)).to.deep.equal(['why', 'group-log/groups'])
    const settings: Config['groupLog'] = { enabled: true, maxMessages: 10, contextMessages: 5, excludeUsers: [], excludeGroups: [] }
    const source = mkdtempSync(join(tmpdir(), 'lingxi-migrate-why-'))
    const why = await WhyStore.open(source, { now: () => 1 })
    for (let i = 1; i <= 5; i++) {
      await why.add(new WhyCollector({ id: `w${i}`, conversationId: `private:u${i % 3}`, userId: `u${i % 3}`, via: 'bot', input: `question ${i}`, preset: { id: 'default', name: 'Default' }, startedAt: i })
        .finish({ promptTokens: i, completionTokens: 1, totalTokens: i + 1 }, i + 10))
    }
    await why.close()
    const log = await GroupLogService.open(join(source, 'group-log'), { settings: () => settings })
    for (let i = 0; i < 7; i++) log.record(`g${i % 2}`, { at: i, userId: 'u1', text: `line ${i}` })
    await log.idle()
    await log.close()

    expect(await copyToPostgres(source, url, { stores })).to.deep.equal([{ store: 'why', read: 3, written: 3 }, { store: 'group-log/groups', read: 2, written: 2 }])
    // back into a data folder that has no group-log folder yet
    const back = mkdtempSync(join(tmpdir(), 'lingxi-migrate-why-'))
    expect(await copyFromPostgres(url, back, { stores })).to.deep.equal([{ store: 'why', read: 3, written: 3 }, { store: 'group-log/groups', read: 2, written: 2 }])
    const [a, b] = [await WhyStore.open(source, { now: () => 1 }), await WhyStore.open(back, { now: () => 1 })]
    for (const conv of ['private:u0', 'private:u1', 'private:u2']) expect(b.list(conv, 20)).to.deep.equal(a.list(conv, 20)).and.not.be.empty
    expect(b.get('w4')?.question).to.equal('question 4')
    await a.close(); await b.close()
    const [la, lb] = [await GroupLogService.open(join(source, 'group-log'), { settings: () => settings }), await GroupLogService.open(join(back, 'group-log'), { settings: () => settings })]
    for (const g of ['g0', 'g1']) expect(lb.recent(g, 10)).to.deep.equal(la.recent(g, 10)).and.not.be.empty
    expect(lb.recent('g0', 10).map((e) => e.text)).to.deep.equal(['line 0', 'line 2', 'line 4', 'line 6'])
    await la.close(); await lb.close()
  })
})
