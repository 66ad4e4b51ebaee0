// Recall (lib/memory/README.md, "Recall"), through the QQ path of the standalone host with the real plugin and
// a fake model: the stable summary in the system message, the same from turn to turn while the memories
// recalled after the message change; the summary rebuilt when a memory changes and not as time passes;
// the score's order (relevance, recency, confirmation, use); use counts written in batches.
import { mkdtempSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { expect } from 'chai'
import sinon from 'sinon'
import { rankHits, rankStanding } from '../../lib/memory/recall.js'
import type { MemoryHit } from '../../lib/memory/types.js'
import { MemoryUses } from '../../lib/memory/uses.js'
import { sentMessages } from '../chat/helpers.js'
import { startFakeOpenAI, type FakeOpenAI } from '../support/fake-openai.js'
import { startPluginHost, type PluginHost } from '../support/plugin-host.js'
import { splitUserContent } from '../support/user-text.js'

const DAY = 86_400_000

describe('memory: recall (score, stable summary, use counts)', function () {
  this.timeout(60_000)
  let fake: FakeOpenAI
  let p: PluginHost
  before(async () => {
    fake = await startFakeOpenAI({ models: ['gpt-test'] })
    p = await startPluginHost('miao', 'lingxi-memory-recall-')
    await p.run.rt.config.update({ channels: [{ name: 'fake', baseUrl: fake.url, apiKey: 'sk-test', model: 'gpt-test', models: ['gpt-test'] }] })
  })
  after(async () => { await p?.stop(); await fake?.close() })
  const rt = (): PluginHost['run']['rt'] => p.run.rt
  /** The last chat request's system message and the tail after the user's text. */
  const parts = (): { system: string; tail: string } => {
    const msgs = sentMessages(fake.chatRequests().at(-1)?.body)
    const user = msgs.filter((m) => m.role === 'user').at(-1)?.content ?? ''
    return { system: msgs.find((m) => m.role === 'system')?.content ?? '', tail: splitUserContent(user).tail }
  }
  const inferred = { kind: 'inferred' as const, chat: 'private' as const, at: 0 }

  it('two turns of one user send the same system message (the summary) while the memories after the message change', async () => {
    const mem = rt().need('memory')
    await mem.add({ userId: '60001', content: '名字叫阿青', category: 'profile', confidence: 0.95 })
    await mem.add({ userId: '60001', content: '在杭州做设计师', category: 'profile', confidence: 0.95 })
    await mem.add({ userId: '60001', content: '周末喜欢爬山', category: 'preference', confidence: 0.8, origin: inferred, source: 'auto' })
    await mem.add({ userId: '60001', content: '最近在学日语', category: 'topic', confidence: 0.8, origin: inferred, source: 'auto' })
    await p.host.sendPrivate('60001', '这个周末去爬山好吗')
    const one = parts()
    await p.host.sendPrivate('60001', '日语难不难学')
    const two = parts()
    expect(one.system).to.include('名字叫阿青').and.include('在杭州做设计师') // stated ones: the summary
    expect(one.system).to.not.include('爬山')
    expect(two.system).to.equal(one.system)
    expect(one.tail).to.include('周末喜欢爬山').and.not.include('日语')
    expect(two.tail).to.include('最近在学日语').and.not.include('爬山')
    expect(one.tail).to.not.include('名字叫阿青') // what the summary holds is not repeated after the message
  })

  it('the summary is rebuilt when one of its memories changes, not as time passes; none in a group\'s shared conversation', async () => {
    const mem = rt().need('memory')
    const a = await mem.add({ userId: '60002', content: '养了一只猫叫团子', category: 'relation' })
    const clock = sinon.useFakeTimers({ now: Date.now(), toFake: ['Date'] })
    try {
      await p.host.sendPrivate('60002', '你好')
      const before = parts().system
      expect(before).to.include('养了一只猫叫团子')
      clock.tick(400 * DAY)
      await p.host.sendPrivate('60002', '好久不见')
      expect(parts().system).to.equal(before)
      await mem.update(a.id, { content: '养了两只猫：团子和年糕' })
      await p.host.sendPrivate('60002', '在吗')
      expect(parts().system).to.include('团子和年糕').and.not.include('一只猫')
    } finally { clock.restore() }
    await rt().config.update({ chat: { groupConversation: 'group' } })
    try {
      await p.host.sendGroup('7002', '60002', '猫怎么样了', { at: true, nickname: '阿团' })
      const { system, tail } = parts()
      expect(system).to.not.include('团子')
      expect(tail).to.include('团子和年糕') // recalled after the message instead
    } finally { await rt().config.update({ chat: { groupConversation: 'user' } }) }
  })

  it('orders by relevance, then recency, confirmation and use', () => {
    const now = Date.UTC(2026, 11, 2)
    const rec = (id: number, over: Partial<MemoryHit> = {}): MemoryHit => ({
      id, userId: 'u', content: `m${id}`, category: 'custom', subType: '', confidence: 0.9, groupId: '', metadata: {}, source: 'auto',
      createdAt: now, updatedAt: now, origin: inferred, score: 1, ...over
    })
    const none = (): number => 0
    const ids = (xs: Array<{ record: MemoryHit }>): number[] => xs.map((x) => x.record.id)
    // relevance first: a much better BM25 hit wins over a fresher one
    expect(ids(rankHits([rec(1, { score: 0.2 }), rec(2, { score: 2, updatedAt: now - 200 * DAY })], now, 90, none))).to.deep.equal([2, 1])
    // the same relevance: the fresher, the confirmed, the stated, the more used first
    expect(ids(rankHits([rec(1, { updatedAt: now - 180 * DAY }), rec(2)], now, 90, none))).to.deep.equal([2, 1])
    const confirmed = rec(3, { updatedAt: now - DAY, history: [{ content: 'm3', category: 'custom', confidence: 0.9, until: now - DAY, by: 'user', what: 'confirmed' }] })
    expect(ids(rankHits([rec(4), confirmed], now, 90, none))).to.deep.equal([3, 4])
    expect(ids(rankHits([rec(5), rec(6, { origin: { kind: 'stated', chat: 'private', at: now } })], now, 90, none))[0]).to.equal(6)
    expect(ids(rankHits([rec(8), rec(7)], now, 90, (id) => id === 7 ? 10 : 0))).to.deep.equal([7, 8])
    // the half-life is the setting's: at 1 day, a week-old memory falls below a less confident fresh one
    expect(rankStanding([rec(9, { updatedAt: now - 7 * DAY }), rec(10, { confidence: 0.7 })], now, 1, none).map((r) => r.id)).to.deep.equal([10, 9])
    expect(rankStanding([rec(9, { updatedAt: now - 7 * DAY }), rec(10, { confidence: 0.7 })], now, 90, none).map((r) => r.id)).to.deep.equal([9, 10])
  })

  it('counts uses in memory and writes them at most once a minute, added to what is stored; a gone memory\'s count is dropped', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'lingxi-memory-uses-'))
    let t = Date.UTC(2026, 11, 2)
    const deps = { paths: { dataDir }, config: rt().config, log: rt().log, clock: { now: () => t }, env: {} }
    const written = (): number => { try { return statSync(join(dataDir, 'memory-uses.journal.jsonl')).size } catch { return 0 } }
    try {
      const uses = await MemoryUses.open(deps, (id) => id !== 3)
      const opened = written()
      uses.note([1, 2, 3])
      t += 30_000
      uses.note([1])
      expect(uses.uses(1)).to.equal(2)
      expect(written(), 'nothing written within the minute').to.equal(opened)
      t += 31_000
      uses.note([2]) // a minute since the last write: all of it in one batch
      await uses.flush()
      expect(written()).to.be.above(opened)
      await uses.close()
      const again = await MemoryUses.open(deps, () => true)
      expect([again.uses(1), again.uses(2), again.uses(3)]).to.deep.equal([2, 2, 0])
      again.note([1])
      await again.close() // the close writes what is left, added to the stored count
      const third = await MemoryUses.open(deps, () => true)
      expect(third.uses(1)).to.equal(3)
      await third.close()
    } finally { rmSync(dataDir, { recursive: true, force: true }) }
  })
})
