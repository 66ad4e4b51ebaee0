// The statistics of two copies of the plugin (their own data folders) on one PostgreSQL add up: chats
// answered by each are summed in GET /api/stats/* on either (messages, answers, tokens, per day, per user,
// per group, per model, per channel), a user active on both is one user of a group, and both answer the
// same figures. An instance's history in its files is carried over the first time it starts on the
// database, and what a process exit could not send is sent at the next start.
import { expect } from 'chai'
import { mkdtempSync, existsSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { PgRecordStore } from '../../lib/storage/pg/record-store.js'
import { StatsStore, type StatsRecord } from '../../lib/stats/store.js'
import { startFakeOpenAI, type FakeOpenAI } from '../support/fake-openai.js'
import { postgresOrSkip } from '../support/postgres.js'
import { startTwoOn, until } from '../support/shared-instances.js'
import { startTestServer, type TestServer } from '../support/server.js'

describe('storage: statistics of two plugin instances on one PostgreSQL add up', function () {
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

  const chat = async (s: TestServer, userId: string, groupId: string | undefined, prompt: number, completion: number): Promise<void> => {
    fake!.enqueue({ content: `answer to ${userId}`, usage: { prompt_tokens: prompt, completion_tokens: completion } })
    const r = await s.api('/api/chat', { method: 'POST', json: { message: `hello from ${userId}`, userId, ...(groupId ? { groupId } : {}) } })
    expect(r.status, r.text).to.equal(200)
  }
  const get = async (s: TestServer, path: string): Promise<any> => {
    const r = await s.api(path)
    expect(r.status, r.text).to.equal(200)
    return r.body.data
  }

  it('chats answered on each are summed on either: totals, days, users, groups, models, channels', async () => {
    expect(one!.dataDir).to.not.equal(two!.dataDir)
    // one: u1 twice in g1, u2 in private; two: u1 and u3 in g1
    await chat(one!, 'u1', 'g1', 100, 10)
    await chat(one!, 'u1', 'g1', 200, 20)
    await chat(one!, 'u2', undefined, 300, 30)
    await chat(two!, 'u1', 'g1', 400, 40)
    await chat(two!, 'u3', 'g1', 500, 50)
    expect(fake!.requests.length, 'one model request per chat').to.equal(5)
    // each instance's last figures committed (one: 3 messages, 660 tokens; two: 2 messages, 990 tokens)
    await Promise.all([one!.lx.rt.stats.flush(), two!.lx.rt.stats.flush()])
    const total = 110 + 220 + 330 + 440 + 550
    for (const s of [one!, two!]) {
      const stats = s.lx.rt.stats
      await until((l) => stats.onRemote(l), () => stats.summary('all').summary.tokensUsed === total)
    }

    const views = await Promise.all([one!, two!].map(async (s) => ({
      all: await get(s, '/api/stats?period=all'),
      day: await get(s, '/api/stats?period=day'),
      group: await get(s, '/api/stats?period=all&groupId=g1'),
      users: await get(s, '/api/stats/users'),
      groups: await get(s, '/api/stats/groups'),
      models: await get(s, '/api/stats/models'),
      channels: await get(s, '/api/stats/channels')
    })))
    for (const v of views) {
      expect(v.all.summary).to.deep.equal({ totalMessages: 5, aiResponses: 5, tokensUsed: total, toolCalls: 0, activeUsers: 3, activeGroups: 1 })
      // today: the same on the daily row and in the hours
      expect(v.day.summary).to.deep.include({ totalMessages: 5, aiResponses: 5, tokensUsed: total, activeUsers: 3, activeGroups: 1 })
      expect(v.day.daily).to.have.length(1)
      expect(v.day.daily[0]).to.include({ messages: 5, responses: 5, tokens: total })
      const hours = v.day.hourly as Array<{ messages: number; tokens: number }>
      expect(hours.reduce((n, h) => n + h.messages, 0)).to.equal(5)
      expect(hours.reduce((n, h) => n + h.tokens, 0)).to.equal(total)
      // the group: u1 on both instances is one of its two users
      expect(v.group.summary).to.deep.include({ totalMessages: 4, aiResponses: 4, tokensUsed: 110 + 220 + 440 + 550, activeUsers: 2, activeGroups: 1 })
      expect(v.groups.groups).to.have.length(1)
      expect(v.groups.groups[0]).to.include({ groupId: 'g1', messages: 4, responses: 4, tokens: 110 + 220 + 440 + 550, users: 2 })
      const users = new Map((v.users.users as Array<{ userId: string; messages: number; tokens: number }>).map((u) => [u.userId, u]))
      expect([...users.keys()].sort()).to.deep.equal(['u1', 'u2', 'u3'])
      expect(users.get('u1')).to.include({ messages: 3, tokens: 110 + 220 + 440 })
      expect(users.get('u2')).to.include({ messages: 1, tokens: 330 })
      expect(users.get('u3')).to.include({ messages: 1, tokens: 550 })
      expect(v.models.models).to.have.length(1)
      expect(v.models.models[0]).to.include({ model: 'gpt-test', requests: 5, tokens: total, inputTokens: 1500, outputTokens: 150, errors: 0 })
      const fakeChannel = (v.channels.channels as Array<{ name: string; requests: number }>).find((c) => c.name === 'fake')
      expect(fakeChannel).to.include({ requests: 5 })
    }
    // both instances answer the same figures
    expect(views[1]).to.deep.equal(views[0])
    // the live metric stream's totals too
    expect(one!.lx.rt.stats.totals()).to.deep.equal({ messages: 5, tokens: total, toolCalls: 0 })
    expect(two!.lx.rt.stats.totals()).to.deep.equal({ messages: 5, tokens: total, toolCalls: 0 })

    // another chat on two: one follows, nothing counted twice
    await chat(two!, 'u2', 'g1', 1000, 100)
    await two!.lx.rt.stats.flush()
    const stats = one!.lx.rt.stats
    await until((l) => stats.onRemote(l), () => stats.summary('all').summary.totalMessages === 6)
    const after = await get(one!, '/api/stats?period=all')
    expect(after.summary).to.deep.equal({ totalMessages: 6, aiResponses: 6, tokensUsed: total + 1100, toolCalls: 0, activeUsers: 3, activeGroups: 1 })
    const g1 = (await get(one!, '/api/stats/groups')).groups[0]
    expect(g1).to.include({ messages: 5, users: 3 })
  })
})

describe('storage: one instance\'s statistics on PostgreSQL across restarts', function () {
  this.timeout(30_000)
  let url = ''
  before(async function () { url = await postgresOrSkip(this) })

  const open = async (dir: string): Promise<{ stats: StatsStore; records: PgRecordStore<StatsRecord, string> }> => {
    const records = await PgRecordStore.open<StatsRecord, string>(url, 'stats', { key: (r) => r.id })
    return { stats: await StatsStore.openShared(dir, records, { flushMs: 60_000 }), records }
  }

  it('carries the files\' history over at the first start, and sends at the next start what an exit could not', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'lingxi-stats-pg-'))
    // a history in the files (the embedded default)
    const files = await StatsStore.open(dir)
    files.recordMessage({ userId: 'h1', groupId: 'hg' })
    files.recordMessage({ userId: 'h2', groupId: 'hg' })
    await files.flush()

    // first start on the database: the files' two messages are this instance's snapshot
    let { stats, records } = await open(dir)
    expect(stats.summary('all').summary).to.include({ totalMessages: 2, activeUsers: 2, activeGroups: 1 })
    expect(records.size, 'the totals and one day').to.equal(2)
    // a third message, then an exit: only the synchronous flush runs (no write reaches the database)
    stats.recordMessage({ userId: 'h3', groupId: 'hg' })
    stats.flushSync()
    expect(existsSync(join(dir, 'stats-unsent.json'))).to.equal(true)
    await records.close()

    // another instance (its own folder) still sees two
    const other = await open(mkdtempSync(join(tmpdir(), 'lingxi-stats-pg-')))
    expect(other.stats.summary('all').summary.totalMessages).to.equal(2)

    // the next start sends the unsent figures first: three, here and on the other instance
    ;({ stats, records } = await open(dir))
    expect(existsSync(join(dir, 'stats-unsent.json'))).to.equal(false)
    expect(stats.summary('all').summary).to.include({ totalMessages: 3, activeUsers: 3 })
    expect(stats.groups()[0]).to.include({ groupId: 'hg', messages: 3, users: 3 })
    await until((l) => other.stats.onRemote(l), () => other.stats.summary('all').summary.totalMessages === 3)
    // the files were not written while the database served
    const again = await StatsStore.open(dir)
    expect(again.summary('all').summary.totalMessages).to.equal(2)
    await stats.close()
    await other.stats.close()
  })
})
