// Issue 21: the "today" period of the statistics is drawn by hour: GET /api/stats?period=day answers
// `hourly`, today's hours up to the current one, kept in the day's rollup (and read back after a restart);
// a model round that only asks for tools is no answer (the responses count the answers).
import { expect } from 'chai'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import sinon from 'sinon'
import { systemClock } from '../../lib/core/clock.js'
import { StatsStore } from '../../lib/stats/store.js'
import { startFakeOpenAI } from '../support/fake-openai.js'
import { startTestServer, type TestServer } from '../support/server.js'

describe('stats: today by hour', () => {
  it('counts messages, answers, tokens and tool calls per UTC hour and keeps them on disk', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'lingxi-hourly-'))
    const clock = sinon.useFakeTimers({ now: Date.parse('2026-11-20T02:10:00Z'), toFake: ['Date'] })
    try {
      const st = await StatsStore.open(dataDir, { clock: systemClock, flushMs: 60_000 })
      st.recordMessage({ userId: 'u1' })
      st.recordModelRequest({ source: 'chat', channelId: 'c', model: 'm', latencyMs: 5, success: true, promptTokens: 7, completionTokens: 3 })
      clock.setSystemTime(Date.parse('2026-11-20T05:59:59Z'))
      st.recordMessage({ userId: 'u2', groupId: 'g' })
      st.recordMessage({ userId: 'u2', groupId: 'g' })
      st.recordToolCall({ name: 't', durationMs: 1, success: true })
      st.recordModelRequest({ source: 'memory', channelId: 'c', model: 'm', latencyMs: 5, success: true, promptTokens: 1, completionTokens: 1 })
      const day = st.summary('day')
      expect(day.hourly?.map((h) => h.time)).to.deep.equal([0, 1, 2, 3, 4, 5].map((h) => `2026-11-20T0${h}:00:00.000Z`))
      expect(day.hourly?.[2]).to.include({ messages: 1, responses: 1, tokens: 10, toolCalls: 0 })
      expect(day.hourly?.[5]).to.include({ messages: 2, responses: 0, tokens: 2, toolCalls: 1 }) // a memory request is no answer
      expect(day.hourly?.[0]).to.include({ messages: 0, responses: 0, tokens: 0, toolCalls: 0 })
      // the hours add up to the day
      const sum = (k: 'messages' | 'tokens'): number => (day.hourly ?? []).reduce((n, h) => n + h[k], 0)
      expect(sum('messages')).to.equal(day.summary.totalMessages)
      expect(sum('tokens')).to.equal(day.summary.tokensUsed)
      // longer periods and one group's figures have no hours
      expect(st.summary('week')).to.not.have.property('hourly')
      expect(st.summary('day', 'g')).to.not.have.property('hourly')
      await st.flush()
      const again = await StatsStore.open(dataDir, { clock: systemClock })
      expect(again.summary('day').hourly?.[5]).to.include({ messages: 2, toolCalls: 1 })
      // the next day starts with its own hours
      clock.setSystemTime(Date.parse('2026-11-21T00:30:00Z'))
      expect(again.summary('day').hourly).to.deep.equal([{ time: '2026-11-21T00:00:00.000Z', messages: 0, responses: 0, toolCalls: 0, tokens: 0 }])
    } finally {
      clock.restore()
      rmSync(dataDir, { recursive: true, force: true })
    }
  })

  describe('GET /api/stats?period=day', () => {
    let s: TestServer
    before(async () => { s = await startTestServer() })
    after(async () => { await s.close() })

    it('answers `hourly` for today, not for other periods', async () => {
      s.lx.rt.stats.recordMessage({ userId: 'hour-user' })
      const day = (await s.api('/api/stats?period=day')).body.data
      const now = new Date()
      expect(day.hourly).to.have.length(now.getUTCHours() + 1)
      expect(day.hourly.at(-1).messages).to.be.at.least(1)
      expect((await s.api('/api/stats?period=month')).body.data).to.not.have.property('hourly')
    })

    it('a chat turn whose model first asks for a tool counts one answer, two model requests', async () => {
      const fake = await startFakeOpenAI({ models: ['m'] })
      try {
        expect((await s.api('/api/config/channels', { method: 'POST', json: { name: 'hourly', baseUrl: fake.url, model: 'm' } })).status).to.equal(200)
        const before = (await s.api('/api/stats?period=day')).body.data.summary
        fake.enqueue({ toolCalls: [{ name: 'get_current_time', arguments: {} }] }, { content: 'now' })
        expect((await s.api('/api/chat', { method: 'POST', json: { message: 'time?', userId: 'hour-tool', groupId: 'hour-group' } })).status).to.equal(200)
        expect(fake.chatRequests()).to.have.length(2)
        const after = (await s.api('/api/stats?period=day')).body.data.summary
        expect(after.aiResponses - before.aiResponses).to.equal(1)
        expect(after.toolCalls - before.toolCalls).to.equal(1)
        const model = (await s.api('/api/stats/models')).body.data.models.find((m: { model: string }) => m.model === 'm')
        expect(model.requests).to.equal(2)
        const group = (await s.api('/api/stats/groups')).body.data.groups.find((g: { groupId: string }) => g.groupId === 'hour-group')
        expect(group.responses).to.equal(1)
      } finally { await fake.close() }
    })
  })
})

describe('stats: stop waits for a write under way', () => {
  it('a flush with nothing new resolves only once the write already under way is on disk (a restart reads it)', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'lingxi-stats-flush-'))
    try {
      const st = await StatsStore.open(dataDir, { flushMs: 60_000 })
      st.recordMessage({ userId: 'u-before-stop', groupId: 'g1' })
      const underWay = st.flush() // as the debounce timer starts it
      await st.flush() // the stop hook: nothing new, must still wait
      const again = await StatsStore.open(dataDir)
      expect(again.users(10).map((u) => u.userId)).to.deep.equal(['u-before-stop'])
      expect(again.groups(10).map((g) => g.groupId)).to.deep.equal(['g1'])
      await underWay
    } finally { rmSync(dataDir, { recursive: true, force: true }) }
  })
})
