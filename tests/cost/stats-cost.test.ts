// Cost (issue 20 point 3) through HTTP: the price table (`pricing`) applied to the usage recorded by real
// chat turns against the fake model, in every /api/stats/* answer; unpriced usage is null, not 0; usage
// recorded before input and output were kept apart is not priced; bad tables answer 400; the share of
// input served from the provider's cache and the money it saved.
import { expect } from 'chai'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { startFakeOpenAI, type FakeOpenAI } from '../support/fake-openai.js'
import { startTestServer, type TestServer } from '../support/server.js'

const PRICES = [
  { model: 'gpt-test', input: 2.5, output: 10, cachedInput: 1.25 },
  { model: 'deep*', input: 9, output: 9 },
  { model: 'deepseek-*', input: 2, output: 8 }
]

describe('cost: the price table applied to recorded usage', function () {
  this.timeout(30_000)
  let s: TestServer
  let fake: FakeOpenAI
  const chat = async (json: Record<string, unknown>): Promise<void> => {
    const r = await s.api('/api/chat', { method: 'POST', json })
    expect(r.status, r.text).to.equal(200)
  }
  const channel = async (name: string, model: string): Promise<void> => {
    await s.lx.rt.config.update({ channels: [{ name, baseUrl: fake.url, apiKey: 'sk-test', model, models: [model] }] })
  }

  before(async () => {
    fake = await startFakeOpenAI()
    s = await startTestServer()
    // no background model calls (memory extraction) besides the turns of the test
    await s.lx.rt.config.update({ memory: { ...s.lx.rt.config.get().memory, enabled: false } })
    const r = await s.api('/api/config/pricing', { method: 'PUT', json: { currency: 'CNY', timezone: 'Asia/Shanghai', models: PRICES } })
    expect(r.status, r.text).to.equal(200)
  })
  after(async () => { await s?.close(); await fake?.close() })

  it('turns 1,000,000 recorded tokens into the right cost per model, channel, user, group and day', async () => {
    await channel('main', 'gpt-test')
    // 600,000 input (200,000 of them cached) and 400,000 output tokens:
    // (400,000 × 2.5 + 200,000 × 1.25 + 400,000 × 10) / 1,000,000 = 1 + 0.25 + 4 = 5.25
    fake.enqueue({ content: 'priced', usage: { prompt_tokens: 600_000, completion_tokens: 400_000, prompt_tokens_details: { cached_tokens: 200_000 } } })
    await chat({ message: 'hello', userId: 'u-cost', groupId: 'g-cost' })
    expect(fake.chatRequests()).to.have.length(1)

    const models = (await s.api('/api/stats/models')).body.data
    expect(models.currency).to.equal('CNY')
    expect(models.models.find((m: { model: string }) => m.model === 'gpt-test')).to.include({
      tokens: 1_000_000, inputTokens: 600_000, outputTokens: 400_000, cachedTokens: 200_000, cost: 5.25, unpricedTokens: 0, pricedAs: 'gpt-test', requests: 1
    })
    const ch = (await s.api('/api/stats/channels')).body.data
    expect(ch.currency).to.equal('CNY')
    expect(ch.channels.find((c: { id: string }) => c.id === 'main')).to.include({ cost: 5.25, unpricedTokens: 0, requests: 1 })
    const users = (await s.api('/api/stats/users?sort=cost')).body.data
    expect(users.users[0]).to.include({ userId: 'u-cost', tokens: 1_000_000, cost: 5.25 })
    const groups = (await s.api('/api/stats/groups')).body.data.groups
    expect(groups.find((g: { groupId: string }) => g.groupId === 'g-cost')).to.include({ cost: 5.25 })
    const day = (await s.api('/api/stats?period=day')).body.data
    expect(day).to.include({ currency: 'CNY', cost: 5.25, unpricedTokens: 0 })
    expect(day.daily).to.have.length(1)
    expect(day.daily[0]).to.include({ tokens: 1_000_000, cost: 5.25 })
    // the existing figures are still there, unchanged in shape
    expect(day.summary).to.include({ tokensUsed: 1_000_000, aiResponses: 1 })
    expect(Object.keys(day.summary).sort()).to.deep.equal(['activeGroups', 'activeUsers', 'aiResponses', 'tokensUsed', 'toolCalls', 'totalMessages'])
    const inGroup = (await s.api('/api/stats?period=week&groupId=g-cost')).body.data
    expect(inGroup.cost).to.equal(5.25)
    expect(inGroup.daily.at(-1)).to.include({ cost: 5.25 })
    expect(inGroup.daily[0]).to.include({ cost: 0, tokens: 0 })
  })

  it('shows the share of input served from cache and the money it saved, per model, channel, period and day', async () => {
    // the turn above: 200,000 of 600,000 input tokens cached, each 2.5 − 1.25 cheaper per million: 0.25 saved
    const cache = { cachedShare: 0.333333, cacheSaved: 0.25 }
    const m = (await s.api('/api/stats/models')).body.data.models.find((x: { model: string }) => x.model === 'gpt-test')
    expect(m).to.include({ cachedTokens: 200_000, ...cache })
    const ch = (await s.api('/api/stats/channels')).body.data.channels.find((c: { id: string }) => c.id === 'main')
    expect(ch).to.include(cache)
    const day = (await s.api('/api/stats?period=day')).body.data
    expect(day).to.include(cache)
    expect(day.daily[0]).to.include(cache)
    const inGroup = (await s.api('/api/stats?period=week&groupId=g-cost')).body.data
    expect(inGroup).to.include(cache)
    expect(inGroup.daily.at(-1)).to.include(cache)
    // a day without input: no share (null), nothing saved (0)
    expect(inGroup.daily[0]).to.include({ cachedShare: null, cacheSaved: 0 })
  })

  it('prices a model by the longest matching pattern (letter case ignored) when no exact entry names it', async () => {
    await channel('deep', 'DeepSeek-Chat')
    fake.enqueue({ content: 'pattern', usage: { prompt_tokens: 1_000_000, completion_tokens: 500_000 } })
    await chat({ message: 'hi', userId: 'u-pattern' })
    const m = (await s.api('/api/stats/models')).body.data.models.find((x: { model: string }) => x.model === 'DeepSeek-Chat')
    // deepseek-* (2 / 8), not the shorter deep* (9 / 9): 2 + 4
    expect(m).to.include({ pricedAs: 'deepseek-*', cost: 6, unpricedTokens: 0 })
    // no cached input, and no cachedInput price: nothing saved, 0 not null
    expect(m).to.include({ cachedShare: 0, cacheSaved: 0 })
  })

  it('shows no cost (null, not 0) for unpriced models, and counts their tokens as unpriced', async () => {
    await channel('odd', 'mystery-1')
    fake.enqueue({ content: 'unpriced', usage: { prompt_tokens: 300, completion_tokens: 200 } })
    await chat({ message: 'hi', userId: 'u-unpriced', groupId: 'g-unpriced' })
    const m = (await s.api('/api/stats/models')).body.data.models.find((x: { model: string }) => x.model === 'mystery-1')
    expect(m).to.include({ tokens: 500, pricedAs: null, unpricedTokens: 500 })
    expect(m.cost).to.equal(null)
    const u = (await s.api('/api/stats/users?limit=500')).body.data.users.find((x: { userId: string }) => x.userId === 'u-unpriced')
    expect(u.cost).to.equal(null)
    expect(u.unpricedTokens).to.equal(500)
    const g = (await s.api('/api/stats/groups?limit=500')).body.data.groups.find((x: { groupId: string }) => x.groupId === 'g-unpriced')
    expect(g.cost).to.equal(null)
    const c = (await s.api('/api/stats/channels')).body.data.channels.find((x: { id: string }) => x.id === 'odd')
    expect(c.cost).to.equal(null)
    // an unpriced model: its share is known, what it saved is not
    expect(m).to.include({ cachedShare: 0, cacheSaved: null })
    expect(c).to.include({ cachedShare: 0, cacheSaved: null })
    // a day with priced and unpriced usage: the priced part, and the rest named
    const day = (await s.api('/api/stats?period=day')).body.data
    expect(day.cost).to.equal(11.25)
    expect(day.unpricedTokens).to.equal(500)
    // 200,000 cached of 1,600,300 input tokens; saved only by gpt-test's cachedInput price
    expect(day).to.include({ cachedShare: 0.124977, cacheSaved: 0.25 })
    // without any price the day's cost is null too
    expect((await s.api('/api/config/pricing', { method: 'PUT', json: { models: [] } })).status).to.equal(200)
    const bare = (await s.api('/api/stats?period=day')).body.data
    expect(bare.cost).to.equal(null)
    expect(bare.daily[0].cost).to.equal(null)
    expect((await s.api('/api/stats/models')).body.data.models.every((x: { cost: unknown }) => x.cost === null)).to.equal(true)
    await s.api('/api/config/pricing', { method: 'PUT', json: { models: PRICES } })
  })

  it('applies a changed price to all recorded usage', async () => {
    const r = await s.api('/api/config/pricing', { method: 'PUT', json: { models: [{ model: 'gpt-test', input: 5, output: 20 }] } })
    expect(r.status, r.text).to.equal(200)
    const m = (await s.api('/api/stats/models')).body.data.models.find((x: { model: string }) => x.model === 'gpt-test')
    expect(m.cost).to.equal(11) // 600,000 × 5 + 400,000 × 20, cached at the input price when none is set
    expect(m).to.include({ cachedShare: 0.333333, cacheSaved: 0 })
    await s.api('/api/config/pricing', { method: 'PUT', json: { models: PRICES } })
  })

  it('refuses a bad price table with 400 naming the field', async () => {
    const bad: Array<[unknown, string]> = [
      [{ timezone: 'Mars/Olympus' }, 'pricing.timezone'],
      [{ models: [{ model: 'a', input: -1, output: 1 }] }, 'pricing.models.0.input'],
      [{ models: [{ model: 'a', input: 1, output: 1 }, { model: 'a', input: 2, output: 2 }] }, 'pricing.models.1.model'],
      [{ models: [{ model: 'a', input: 1 }] }, 'pricing.models.0.output'],
      [{ currency: '' }, 'pricing.currency']
    ]
    for (const [json, path] of bad) {
      const r = await s.api('/api/config/pricing', { method: 'PUT', json })
      expect(r.status, JSON.stringify(json)).to.equal(400)
      expect(r.body.errors.map((e: { path: string }) => e.path), JSON.stringify(json)).to.include(path)
    }
    expect(s.lx.rt.config.get().pricing.models).to.deep.equal(PRICES)
  })
})

describe('cost: usage recorded before input and output were kept apart', function () {
  this.timeout(30_000)
  it('is not priced: counted as unpricedTokens, and a figure made only of it is null', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'lingxi-cost-old-'))
    writeFileSync(join(dataDir, 'stats.json'), JSON.stringify({
      models: { 'gpt-test': { requests: 2, tokens: 1000, latencySum: 10, errors: 0 } }, tools: {},
      users: { old: { nickname: '', messages: 3, tokens: 1000, lastActive: 1 } },
      groups: { g: { messages: 3, responses: 2, tokens: 1000, users: 1, lastActive: 1, userIds: { old: 1 } } },
      channels: { main: { name: 'main', requests: 2, errors: 0, latencySum: 10, lastUsed: 1, lastError: '' } }
    }))
    const s = await startTestServer({ dataDir })
    try {
      await s.api('/api/config/pricing', { method: 'PUT', json: { models: PRICES } })
      const m = (await s.api('/api/stats/models')).body.data.models[0]
      expect(m).to.include({ model: 'gpt-test', tokens: 1000, inputTokens: 0, outputTokens: 0, unpricedTokens: 1000, pricedAs: 'gpt-test' })
      expect(m.cost).to.equal(null)
      const u = (await s.api('/api/stats/users')).body.data.users[0]
      expect(u).to.include({ userId: 'old', unpricedTokens: 1000 })
      expect(u.cost).to.equal(null)
      // new usage on top: priced, the old tokens still named
      s.lx.rt.stats.recordModelRequest({ source: 'chat', channelId: 'main', model: 'gpt-test', userId: 'old', promptTokens: 1_000_000, completionTokens: 0, latencyMs: 1, success: true })
      const again = (await s.api('/api/stats/users')).body.data.users[0]
      expect(again).to.include({ cost: 2.5, unpricedTokens: 1000 })
    } finally { await s.close() }
  })
})
