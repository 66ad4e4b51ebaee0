// Memory in chat: memories after the user's message, background extraction on the poll interval (sinon
// fake timers), de-duplication, and summarize with the (fake) model.
import { splitUserContent } from '../support/user-text.js'
import { expect } from 'chai'
import sinon from 'sinon'
import { resetChat, sentMessages, startChatEnv, type ChatEnv } from '../chat/helpers.js'

describe('memory: in chat, extraction and summarize', function () {
  this.timeout(30_000)
  let env: ChatEnv
  before(async () => { env = await startChatEnv() })
  after(async () => { await env?.close() })
  beforeEach(async () => {
    await resetChat(env)
    const mem = env.s.lx.rt.need('memory')
    for (const u of mem.users()) await mem.clearUser(u.userId, true)
    env.s.lx.rt.need('memoryExtractor').clearQueues()
    await env.s.lx.rt.config.update({ memory: { enabled: true, pollIntervalMinutes: 5, maxMemoriesInPrompt: 10, summarySize: 0 } }) // per message only (the summary: tests/memory/recall.test.ts)
  })
  const rt = (): ChatEnv['s']['lx']['rt'] => env.s.lx.rt
  const chat = (message: string, userId: string, groupId?: string): ReturnType<ChatEnv['s']['api']> =>
    env.s.api('/api/chat', { method: 'POST', json: { message, userId, ...(groupId ? { groupId } : {}) } })
  // read for this message: after the user's text in the newest message, never in the system message
  // (lib/chat/README.md, "Request layout")
  const systemOf = (i = -1): string => {
    const msgs = sentMessages(env.fake.chatRequests().at(i)?.body)
    const tail = splitUserContent(msgs.filter((m) => m.role === 'user').at(-1)?.content ?? '').tail
    expect(msgs.find((m) => m.role === 'system')?.content ?? '', 'the system message stays the same').to.not.include(tail.slice(0, 20) || '\u0000')
    return tail
  }

  describe('prompt', () => {
    it('puts the user\'s relevant memories after the user\'s message, not other users\' or other groups\'', async () => {
      await rt().need('memory').add({ userId: 'p1', content: '最喜欢吃重庆火锅', category: 'preference' })
      await rt().need('memory').add({ userId: 'p1', content: 'Has a cat named Mochi', category: 'relation' })
      await rt().need('memory').add({ userId: 'p1', content: 'Group-only secret nickname', groupId: 'other-group' })
      await rt().need('memory').add({ userId: 'p2', content: 'Someone else entirely' })
      const r = await chat('今晚想吃火锅', 'p1', 'g1')
      expect(r.status, r.text).to.equal(200)
      const sys = systemOf()
      expect(sys).to.include('最喜欢吃重庆火锅')
      expect(sys).to.include('Has a cat named Mochi')
      expect(sys).to.not.include('Group-only secret nickname')
      expect(sys).to.not.include('Someone else entirely')
      expect(sys.indexOf('最喜欢吃重庆火锅')).to.be.below(sys.indexOf('Has a cat named Mochi')) // the relevant one first
    })

    it('caps the memories by maxMemories and leaves them out when memory is off', async () => {
      for (let i = 0; i < 15; i++) await rt().need('memory').add({ userId: 'p3', content: `fact number ${i} about the user` })
      await chat('hello', 'p3')
      expect(systemOf().match(/^- \[custom\] fact number/gm)).to.have.length(10)
      await rt().config.update({ memory: { maxMemoriesInPrompt: 3 } })
      await chat('hello again', 'p3')
      expect(systemOf().match(/^- \[custom\] fact number/gm)).to.have.length(3)
      await rt().config.update({ memory: { enabled: false } })
      await chat('and again', 'p3')
      expect(systemOf()).to.not.include('fact number')
    })
  })

  describe('background extraction', () => {
    let clock: sinon.SinonFakeTimers
    beforeEach(() => {
      clock = sinon.useFakeTimers({ toFake: ['setInterval', 'clearInterval'], shouldClearNativeTimers: true })
      rt().need('memoryExtractor').stop()
      rt().need('memoryExtractor').schedule() // re-armed under the fake clock
    })
    afterEach(() => {
      rt().need('memoryExtractor').stop()
      clock.restore()
      rt().need('memoryExtractor').schedule()
    })
    const memoryRequests = (): number => env.fake.chatRequests().filter((q) => JSON.stringify(q.body).includes('Extract long-term facts')).length

    it('extracts after the poll interval, batching turns, without duplicating what is known', async () => {
      await rt().need('memory').add({ userId: 'x1', content: '喜欢吃火锅', category: 'preference' })
      await chat('我叫小明，在成都上班', 'x1')
      await chat('周末我喜欢吃火锅', 'x1')
      expect(rt().need('memoryExtractor').pendingTurns).to.equal(2)
      await clock.tickAsync(4 * 60_000)
      expect(memoryRequests()).to.equal(0)
      env.fake.enqueue({ content: '```json\n[{"content":"名叫小明","category":"basic_info","subType":"name","confidence":0.9},{"content":"在成都上班","category":"profile","confidence":0.8},{"content":"喜欢吃火锅！","category":"preference","confidence":0.95}]\n```' })
      await clock.tickAsync(60_000)
      await rt().need('memoryExtractor').whenIdle()
      expect(memoryRequests()).to.equal(1)
      const prompt = JSON.stringify(env.fake.chatRequests().at(-1)?.body)
      expect(prompt).to.include('我叫小明，在成都上班').and.include('周末我喜欢吃火锅').and.include('[preference] 喜欢吃火锅')
      const list = rt().need('memory').list({ userId: 'x1' })
      expect(list.map((m) => m.content).sort()).to.deep.equal(['名叫小明', '喜欢吃火锅', '在成都上班'])
      const auto = list.filter((m) => m.source === 'auto')
      expect(auto).to.have.length(2)
      expect(auto.find((m) => m.content === '名叫小明')).to.include({ category: 'profile', subType: 'name' })
      expect(list.find((m) => m.content === '喜欢吃火锅')?.confidence).to.equal(0.95) // the duplicate refreshed the known one
      expect(rt().need('memoryExtractor').pendingTurns).to.equal(0)
      await clock.tickAsync(5 * 60_000)
      await rt().need('memoryExtractor').whenIdle()
      expect(memoryRequests()).to.equal(1) // nothing queued: no model call
    })

    it('keeps the turns when the model fails and extracts them on the next round', async () => {
      await chat('I am allergic to peanuts', 'x2')
      env.fake.enqueue({ status: 500, errorMessage: 'upstream down' }, { status: 500, errorMessage: 'upstream down' }, { status: 500, errorMessage: 'upstream down' })
      await clock.tickAsync(5 * 60_000)
      await rt().need('memoryExtractor').whenIdle()
      expect(rt().need('memoryExtractor').pendingTurns).to.equal(1)
      expect(rt().need('memory').list({ userId: 'x2' })).to.deep.equal([])
      env.fake.reset()
      env.fake.enqueue({ content: '[{"content":"Allergic to peanuts","category":"profile","confidence":0.9}]' })
      await clock.tickAsync(5 * 60_000)
      await rt().need('memoryExtractor').whenIdle()
      expect(rt().need('memory').list({ userId: 'x2' }).map((m) => m.content)).to.deep.equal(['Allergic to peanuts'])
    })

    it('queues nothing while memory is disabled', async () => {
      await rt().config.update({ memory: { enabled: false } })
      await chat('My birthday is in May', 'x3')
      expect(rt().need('memoryExtractor').pendingTurns).to.equal(0)
    })
  })

  describe('summarize (POST /api/memory/user/:userId/summarize)', () => {
    const summarize = (userId: string, json: unknown): ReturnType<ChatEnv['s']['api']> =>
      env.s.api(`/api/memory/user/${userId}/summarize`, { method: 'POST', json })

    it('with the model: replaces the memories by its [category] lines, dropping its reasoning', async () => {
      await rt().need('memory').add({ userId: 's1', content: '喜欢吃火锅', category: 'preference' })
      await rt().need('memory').add({ userId: 's1', content: '喜欢吃辣', category: 'preference' })
      await rt().need('memory').add({ userId: 's1', content: 'Lives in Chengdu', category: 'profile' })
      env.fake.enqueue({ content: '<think>The user likes hot pot and spicy food; merge them.</think>\n[preference] 喜欢吃辣的火锅\n- [basic_info] Lives in Chengdu\n[weird] something odd\nThat is all.' })
      const r = await summarize('s1', {})
      expect(r.status, r.text).to.equal(200)
      expect(r.body.data).to.include({ before: 3, after: 3, usedModel: true })
      expect(r.body.data.lines).to.deep.equal(['[preference] 喜欢吃辣的火锅', '[profile] Lives in Chengdu', '[custom] something odd'])
      const stored = rt().need('memory').list({ userId: 's1' })
      expect(stored.map((m) => m.content).sort()).to.deep.equal(['Lives in Chengdu', 'something odd', '喜欢吃辣的火锅'])
      expect(stored.every((m) => m.source === 'summary')).to.equal(true)
      expect(JSON.stringify(stored)).to.not.include('merge them')
      const sent = JSON.stringify(env.fake.chatRequests().at(-1)?.body)
      expect(sent).to.include('[preference] 喜欢吃火锅').and.include('[profile] Lives in Chengdu')
    })

    it('with the model failing or answering no lines: 502 and the memories stay as they were', async () => {
      await rt().need('memory').add({ userId: 's2', content: 'Keeps bees', category: 'topic' })
      env.fake.enqueue({ status: 500, errorMessage: 'boom' }, { status: 500, errorMessage: 'boom' }, { status: 500, errorMessage: 'boom' })
      const failed = await summarize('s2', { cleanup: 'false' })
      expect(failed.status).to.equal(502)
      expect(failed.body.code).to.equal(-1)
      env.fake.reset()
      env.fake.enqueue({ content: 'I cannot do that.' })
      const empty = await summarize('s2', { useLLM: true })
      expect(empty.status).to.equal(502)
      expect(rt().need('memory').list({ userId: 's2' }).map((m) => m.content)).to.deep.equal(['Keeps bees'])
    })

    it('without the model: cleanup runs unless cleanup is false or "false"; deterministic merge', async () => {
      await rt().need('memory').add({ userId: 's3', content: 'Weak guess', confidence: 0.1 })
      await rt().need('memory').add({ userId: 's3', content: 'Plays chess on Sundays', category: 'topic' })
      await rt().need('memory').add({ userId: 's3', content: 'plays chess on sundays!', category: 'topic' })
      const kept = await summarize('s3', { useLLM: false, cleanup: 'false' })
      expect(kept.body.data).to.include({ before: 3, after: 2, usedModel: false, merged: 1 })
      expect(kept.body.data.cleanup).to.equal(undefined)
      const cleaned = await summarize('s3', { useLLM: false })
      expect(cleaned.body.data.cleanup.removed).to.equal(1)
      expect(cleaned.body.data.lines).to.deep.equal(['[topic] plays chess on sundays!'])
      expect(env.fake.chatRequests()).to.have.length(0)
      expect((await summarize('s3', { useLLM: 'maybe' })).status).to.equal(400)
    })
  })
})
