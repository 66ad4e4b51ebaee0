// Trigger rules (config `trigger`), the per-key queue and the context window, without a server.
import { expect } from 'chai'
import { decideTrigger } from '../../lib/chat/trigger.js'
import { KeyedQueue } from '../../lib/chat/queue.js'
import { buildContext, planContext, SUMMARY_HEAD } from '../../lib/chat/context.js'
import type { Config } from '../../lib/config/schema.js'

type Cfg = Pick<Config, 'trigger' | 'groups'>
const cfg = (trigger: Partial<Config['trigger']> = {}, groups: Cfg['groups'] = {}): Cfg => ({
  trigger: { private: 'always', group: 'at', prefix: '灵犀', randomRate: 0, keywords: [], ...trigger }, groups
})
const never = (): number => 0.99
const always = (): number => 0

describe('chat: trigger rules', () => {
  it('private always: answers every message and strips a leading prefix', () => {
    expect(decideTrigger(cfg(), { isGroup: false, atBot: false, text: '你好' })).to.include({ triggered: true, text: '你好', reason: 'always' })
    expect(decideTrigger(cfg(), { isGroup: false, atBot: false, text: '灵犀 你好' })).to.include({ triggered: true, text: '你好' })
  })
  it('private prefix: only messages with the prefix; off: never', () => {
    const c = cfg({ private: 'prefix' })
    expect(decideTrigger(c, { isGroup: false, atBot: false, text: '你好' }).triggered).to.equal(false)
    expect(decideTrigger(c, { isGroup: false, atBot: false, text: '灵犀，讲个笑话' })).to.include({ triggered: true, text: '讲个笑话', reason: 'prefix' })
    expect(decideTrigger(c, { isGroup: false, atBot: false, text: '灵犀' }).triggered, 'prefix alone').to.equal(false)
    expect(decideTrigger(cfg({ private: 'off' }), { isGroup: false, atBot: false, text: '灵犀 hi' }).triggered).to.equal(false)
  })
  it('group at: only when @-mentioned', () => {
    expect(decideTrigger(cfg(), { isGroup: true, groupId: '1', atBot: false, text: '灵犀 hi' }, never).triggered).to.equal(false)
    expect(decideTrigger(cfg(), { isGroup: true, groupId: '1', atBot: true, text: 'hi' }, never)).to.include({ triggered: true, reason: 'at' })
  })
  it('group prefix and per-group both', () => {
    const c = cfg({ group: 'prefix' })
    expect(decideTrigger(c, { isGroup: true, groupId: '1', atBot: true, text: 'hi' }, never).triggered).to.equal(false)
    expect(decideTrigger(c, { isGroup: true, groupId: '1', atBot: false, text: '灵犀 hi' }, never)).to.include({ triggered: true, text: 'hi' })
    const both = cfg({ group: 'prefix' }, { 7: { preset: '', enabled: true, trigger: { type: 'both' } } })
    expect(decideTrigger(both, { isGroup: true, groupId: '7', atBot: true, text: 'hi' }, never).triggered).to.equal(true)
    expect(decideTrigger(both, { isGroup: true, groupId: '7', atBot: false, text: '灵犀 hi' }, never).triggered).to.equal(true)
    expect(decideTrigger(both, { isGroup: true, groupId: '8', atBot: true, text: 'hi' }, never).triggered, 'other group keeps prefix').to.equal(false)
  })
  it('a disabled group never triggers', () => {
    const c = cfg({}, { 5: { preset: '', enabled: false, trigger: {} } })
    expect(decideTrigger(c, { isGroup: true, groupId: '5', atBot: true, text: 'hi' }, always).triggered).to.equal(false)
  })
  it('randomRate joins unmentioned messages by the injected random, per group override first', () => {
    const c = cfg({ randomRate: 0.3 }, { 9: { preset: '', enabled: true, trigger: { randomRate: 0 } } })
    expect(decideTrigger(c, { isGroup: true, groupId: '1', atBot: false, text: 'hi' }, () => 0.29)).to.include({ triggered: true, reason: 'random' })
    expect(decideTrigger(c, { isGroup: true, groupId: '1', atBot: false, text: 'hi' }, () => 0.31).triggered).to.equal(false)
    expect(decideTrigger(c, { isGroup: true, groupId: '9', atBot: false, text: 'hi' }, () => 0).triggered).to.equal(false)
  })
})

describe('chat: KeyedQueue', () => {
  it('runs tasks of one key in order and different keys in parallel', async () => {
    const q = new KeyedQueue()
    const log: string[] = []
    let releaseA!: () => void
    const gateA = new Promise<void>((r) => { releaseA = r })
    const a1 = q.run('a', async () => { await gateA; log.push('a1') })
    const a2 = q.run('a', async () => { log.push('a2') })
    const b1 = q.run('b', async () => { log.push('b1') })
    await b1
    expect(log).to.deep.equal(['b1'])
    releaseA()
    await Promise.all([a1, a2])
    expect(log).to.deep.equal(['b1', 'a1', 'a2'])
    expect(q.size).to.equal(0)
  })
  it('a failed task does not stop the next one and rejects only its caller', async () => {
    const q = new KeyedQueue()
    const p1 = q.run('k', async () => { throw new Error('boom') })
    const p2 = q.run('k', async () => 'ok')
    const err = await p1.then(() => undefined, (e: unknown) => e)
    expect(err).to.be.instanceOf(Error).with.property('message', 'boom')
    expect(await p2).to.equal('ok')
  })
})

describe('chat: context window', () => {
  const ctxCfg: Config['context'] = { maxMessages: 4, cleaningStrategy: 'sliding', maxTokens: 0, compressionThreshold: 0.8, compressionStrategy: 'sliding-window', preserveSystemPrompt: true, preserveRecentMessages: 4, autoReloadSkills: true }
  const history = Array.from({ length: 10 }, (_, i) => ({ role: (i % 2 ? 'assistant' : 'user') as 'user' | 'assistant', content: `m${i}`, timestamp: i }))
  it('keeps the last maxMessages messages after the system prompt, then the input', () => {
    const m = buildContext(ctxCfg, 'SYS', history, 'now')
    expect(m.map((x) => x.content)).to.deep.equal(['SYS', 'm6', 'm7', 'm8', 'm9', 'now'])
  })
  it('never starts the window with an assistant message, and respects a token budget', () => {
    const m = buildContext({ ...ctxCfg, maxMessages: 3 }, '', history, 'now')
    expect(m.map((x) => x.content)).to.deep.equal(['m8', 'm9', 'now'])
    const tight = buildContext({ ...ctxCfg, maxTokens: 3 }, '', history, 'now')
    expect(tight.length).to.be.lessThan(5)
    expect(tight.at(-1)?.content).to.equal('now')
  })

  // 10 turns of 20 tokens a message (80 Latin characters)
  const long = Array.from({ length: 20 }, (_, i) => ({ role: (i % 2 ? 'assistant' : 'user') as 'user' | 'assistant', content: `${String(i).padStart(2, '0')}${'x'.repeat(78)}`, timestamp: Math.floor(i / 2) }))
  const roomy: Config['context'] = { ...ctxCfg, maxMessages: 100, maxTokens: 400, compressionThreshold: 0.5, preserveRecentMessages: 2 }
  const ids = (m: Array<{ content: string }>): string[] => m.map((x) => x.content.slice(0, 2))

  it('compresses past the threshold: truncate drops messages, sliding-window whole turns', () => {
    const t = planContext({ ...roomy, compressionStrategy: 'truncate' }, '', long, 'now')
    // target 200 tokens: 9 messages of 20 + the input; the window then starts with a user message
    expect(ids(t.messages.slice(0, -1))).to.deep.equal(['12', '13', '14', '15', '16', '17', '18', '19'])
    expect(t.dropped.map((m) => m.content.slice(0, 2))).to.deep.equal(ids(long.slice(0, 12)))
    const w = planContext({ ...roomy, compressionStrategy: 'sliding-window' }, '', long, 'now')
    expect(w.messages[0]?.role).to.equal('user')
    expect((w.messages.length - 1) % 2).to.equal(0) // whole turns
    expect(ids(w.messages.slice(0, -1))).to.deep.equal(['12', '13', '14', '15', '16', '17', '18', '19'])
  })

  it('keeps preserveRecentMessages past the threshold, but never past the budget', () => {
    const keep = planContext({ ...roomy, compressionThreshold: 0.1, preserveRecentMessages: 6 }, '', long, 'now')
    expect(keep.messages.length - 1).to.equal(6) // 120 tokens > 40, kept: they fit the 400 budget
    const tight = planContext({ ...roomy, maxTokens: 50, preserveRecentMessages: 6 }, '', long, 'now')
    expect(ids(tight.messages.slice(0, -1))).to.deep.equal(['18', '19'])
  })

  it('drops the system prompt only without preserveSystemPrompt, when nothing else is left to drop', () => {
    const sys = 'S'.repeat(400) // 100 tokens
    expect(planContext({ ...roomy, maxTokens: 60, preserveSystemPrompt: true }, sys, long, 'now').messages[0]?.content).to.equal(sys)
    const m = planContext({ ...roomy, maxTokens: 60, preserveSystemPrompt: false }, sys, long, 'now').messages
    expect(m.some((x) => x.role === 'system')).to.equal(false)
  })

  it('a summary stands for the messages it covers; dropped are the others out of the window', () => {
    const p = planContext({ ...ctxCfg, maxMessages: 4 }, 'SYS', history, 'now', { text: 'earlier: m0-m3', through: 3 })
    expect(p.messages.map((x) => x.content)).to.deep.equal(['SYS', `${SUMMARY_HEAD}\nearlier: m0-m3`, 'm6', 'm7', 'm8', 'm9', 'now'])
    expect(p.dropped.map((m) => m.content)).to.deep.equal(['m4', 'm5'])
  })
})
