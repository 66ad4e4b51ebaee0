// lib/why: the collector (what a turn noted becomes one record; texts redacted and cut) and the store
// (durable across a reopen, bounded per conversation, the last answer to a user).
import { expect } from 'chai'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { registerRedactor, Redactor } from '../../lib/core/redact.js'
import { WhyCollector, type TurnStart } from '../../lib/why/collector.js'
import { PER_CONVERSATION, WhyStore } from '../../lib/why/store.js'
import type { WhyRecord } from '../../lib/why/types.js'

const start = (over: Partial<TurnStart> = {}): TurnStart => ({
  id: 'w1', conversationId: 'private:u1', userId: 'u1', via: 'bot', input: 'what time is it?', preset: { id: 'default', name: 'Default' }, startedAt: 1000, ...over
})

describe('why: the record of a turn', () => {
  it('collects the preset, memories, knowledge, skills, tool calls with approval, channel, model, usage and time', () => {
    const c = new WhyCollector(start())
    c.memories([{ id: 7, userId: 'u1', category: 'preference', content: 'likes tea' }])
    c.knowledge([{ documentId: 'd1', title: 'Guide', excerpt: 'x'.repeat(1000) }])
    c.skills([{ name: 'writer', description: 'writes' }])
    c.answered({ channel: 'first', model: 'm-1' })
    c.event({ type: 'tool_call', id: 'call1', name: 'get_time', arguments: '{}' })
    c.event({ type: 'tool_approval', id: 'call1', name: 'get_time', state: 'waiting' })
    c.event({ type: 'tool_approval', id: 'call1', name: 'get_time', state: 'approved' })
    c.event({ type: 'tool_result', id: 'call1', name: 'get_time', result: '12:00', isError: false, durationMs: 3 })
    c.event({ type: 'tool_result', id: 'unknown', name: 'x', result: 'ignored', isError: false, durationMs: 1 })
    c.answered({ channel: 'second', model: 'm-2' })
    const r = c.finish({ promptTokens: 10, completionTokens: 5, totalTokens: 15 }, 1250)
    expect(r).to.deep.include({ id: 'w1', conversationId: 'private:u1', userId: 'u1', via: 'bot', at: 1250, durationMs: 250, channel: 'second', model: 'm-2', question: 'what time is it?' })
    expect(r.preset).to.deep.equal({ id: 'default', name: 'Default' })
    expect(r.memories).to.deep.equal([{ id: 7, userId: 'u1', category: 'preference', content: 'likes tea' }])
    expect(r.knowledge[0]?.excerpt.length, 'excerpt cut').to.be.below(400)
    expect(r.skills).to.deep.equal([{ name: 'writer', description: 'writes' }])
    expect(r.tools).to.deep.equal([{ id: 'call1', name: 'get_time', arguments: '{}', result: '12:00', isError: false, approval: 'approved', durationMs: 3 }])
    // answers without usage (as given here) leave no model call; the turn's cached tokens are then 0
    expect(r.usage).to.deep.equal({ promptTokens: 10, completionTokens: 5, totalTokens: 15, cachedTokens: 0 })
    expect(r.calls).to.deep.equal([])
  })

  it('keeps each model call\'s tokens, with the input the provider served from its cache', () => {
    const c = new WhyCollector(start())
    // the gateway answers MeteredUsage: Usage plus cachedTokens when the provider reported them
    const metered = (promptTokens: number, completionTokens: number, cachedTokens?: number) =>
      ({ promptTokens, completionTokens, totalTokens: promptTokens + completionTokens, ...(cachedTokens === undefined ? {} : { cachedTokens }) })
    c.answered({ channel: 'main', model: 'm-1', usage: metered(1000, 20, 600) })
    c.answered({ channel: 'main', model: 'm-1', usage: metered(1200, 80) })
    c.answered({ channel: 'main', model: 'm-1', usage: { ...metered(10, 1), cachedTokens: Number.NaN } as never })
    const r = c.finish({ promptTokens: 2210, completionTokens: 101, totalTokens: 2311 }, 2000)
    expect(r.usage).to.deep.equal({ promptTokens: 2210, completionTokens: 101, totalTokens: 2311, cachedTokens: 600 })
    expect(r.calls).to.deep.equal([
      { channel: 'main', model: 'm-1', promptTokens: 1000, completionTokens: 20, cachedTokens: 600 },
      { channel: 'main', model: 'm-1', promptTokens: 1200, completionTokens: 80, cachedTokens: 0 },
      { channel: 'main', model: 'm-1', promptTokens: 10, completionTokens: 1, cachedTokens: 0 }
    ])
  })

  it('keeps no secret: tool arguments and results pass the redactor', () => {
    const secret = 'sk-why-secret-0123456789'
    const redactor = new Redactor()
    redactor.set('test', [secret])
    const off = registerRedactor(redactor)
    try {
      const c = new WhyCollector(start())
      c.event({ type: 'tool_call', id: 'a', name: 'fetch_url', arguments: JSON.stringify({ key: secret }) })
      c.event({ type: 'tool_result', id: 'a', name: 'fetch_url', result: `echo ${secret}`, isError: true, durationMs: 1 })
      const text = JSON.stringify(c.finish({ promptTokens: 0, completionTokens: 0, totalTokens: 0 }, 1001))
      expect(text).to.not.include(secret)
      expect(text).to.include('fetch_url')
    } finally { off() }
  })
})

describe('why: the store', () => {
  let dir: string
  beforeEach(async () => { dir = await mkdtemp(join(tmpdir(), 'lx-why-')) })
  afterEach(async () => { await rm(dir, { recursive: true, force: true }) })

  const record = (n: number, over: Partial<WhyRecord> = {}): WhyRecord => ({
    ...new WhyCollector(start({ id: `w${n}`, startedAt: n })).finish({ promptTokens: n, completionTokens: 1, totalTokens: n + 1 }, n + 10), ...over
  })

  it('keeps records across a reopen, finds them by id and by conversation (newest first)', async () => {
    let s = await WhyStore.open(dir, { now: () => 1 })
    await s.add(record(1))
    await s.add(record(2))
    await s.add(record(3, { conversationId: 'group:g1:u1', groupId: 'g1' }))
    await s.close()
    s = await WhyStore.open(dir, { now: () => 1 })
    try {
      expect(s.get('w2')?.usage.promptTokens).to.equal(2)
      expect(s.list('private:u1', 10).map((r) => r.id)).to.deep.equal(['w2', 'w1'])
      expect(s.list('private:u1', 1).map((r) => r.id)).to.deep.equal(['w2'])
      expect(s.get('w9')).to.equal(undefined)
    } finally { await s.close() }
  })

  it('answers the last answer to a user: anywhere, in private chats, or in one group', async () => {
    const s = await WhyStore.open(dir, { now: () => 1 })
    try {
      await s.add(record(1))
      await s.add(record(5, { conversationId: 'group:g1', groupId: 'g1' }))
      await s.add(record(6, { conversationId: 'group:g1', groupId: 'g1', userId: 'u2' }))
      expect(s.lastFor('u1')?.id).to.equal('w5')
      expect(s.lastFor('u1', '')?.id).to.equal('w1')
      expect(s.lastFor('u1', 'g1')?.id, 'the shared group conversation: the last answer to u1, not to u2').to.equal('w5')
      expect(s.lastFor('u2', 'g1')?.id).to.equal('w6')
      expect(s.lastFor('u3')).to.equal(undefined)
      await s.forget('group:g1')
      expect(s.lastFor('u1')?.id).to.equal('w1')
      expect(s.get('w5')).to.equal(undefined)
    } finally { await s.close() }
  })

  it('erases the texts of a user\'s memories from every record, on disk too', async () => {
    let s = await WhyStore.open(dir, { now: () => 1 })
    const mem = (id: number, userId: string): WhyRecord['memories'][number] => ({ id, userId, category: 'preference', content: `memory ${id} of ${userId}` })
    await s.add(record(1, { memories: [mem(1, 'u1'), mem(2, 'u9')] }))
    await s.add(record(2, { conversationId: 'group:g1', groupId: 'g1', userId: 'u2', memories: [mem(3, 'u1')] }))
    await s.add(record(3, { memories: [mem(4, 'u9')] }))
    expect(await s.eraseMemoriesOf('u1')).to.equal(2)
    await s.close()
    s = await WhyStore.open(dir, { now: () => 1 })
    try {
      expect(s.get('w1')?.memories).to.deep.equal([{ id: 1, userId: 'u1', category: 'preference', content: '', removed: true }, mem(2, 'u9')])
      expect(s.get('w2')?.memories).to.deep.equal([{ id: 3, userId: 'u1', category: 'preference', content: '', removed: true }])
      expect(s.get('w3')?.memories).to.deep.equal([mem(4, 'u9')])
      expect(await s.eraseMemoriesOf('u1'), 'nothing left to erase').to.equal(0)
    } finally { await s.close() }
  })

  it('is bounded: the last records of a conversation are kept, older ones are gone by id too', async () => {
    const s = await WhyStore.open(dir, { now: () => 1 })
    try {
      for (let i = 1; i <= PER_CONVERSATION + 5; i++) await s.add(record(i))
      expect(s.list('private:u1', 100)).to.have.length(PER_CONVERSATION)
      expect(s.get('w5'), 'dropped').to.equal(undefined)
      expect(s.get('w6')?.id).to.equal('w6')
      expect(s.list('private:u1', 1)[0]?.id).to.equal(`w${PER_CONVERSATION + 5}`)
    } finally { await s.close() }
  })
})
