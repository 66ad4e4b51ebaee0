// Proactive replies ("伪人") and keyword triggers through the standalone host: unaddressed group messages, the fake model,
// and the runtime clock driven by sinon fake timers (only Date is faked: the network keeps its timers).
import { expect } from 'chai'
import sinon from 'sinon'
import { startFakeOpenAI, type FakeOpenAI } from '../support/fake-openai.js'
import { startPluginHost, type PluginHost } from '../support/plugin-host.js'
import { contextOf, spokenMessages } from '../chat/helpers.js'
import { PROFILES } from '../host/helpers.js'
import type { ProactiveSettings } from '../../lib/config/schema.js'

const PROMPT = '下面是群里最近的聊天记录'
const MINUTE = 60_000

for (const profile of PROFILES) describe(`proactive replies through the standalone host, ${profile} profile`, function () {
  this.timeout(120_000)
  let fake: FakeOpenAI
  let p: PluginHost
  let clock: sinon.SinonFakeTimers | undefined
  let n = 0

  before(async () => {
    fake = await startFakeOpenAI({ models: ['gpt-test'] })
    p = await startPluginHost(profile, 'lingxi-proactive-')
    await p.run.rt.config.update({ channels: [{ name: 'fake', baseUrl: fake.url, apiKey: 'sk', model: 'gpt-test' }] })
  })
  after(async () => {
    await p?.stop()
    await fake?.close()
  })
  beforeEach(() => {
    fake.reset()
    // the prompt itself mentions [skip]: an echo of it would be silence, so the model says something
    let k = 0
    fake.respond = () => ({ content: `哈哈确实 ${++k}` })
  })
  afterEach(async () => {
    clock?.restore()
    clock = undefined
    sinon.restore()
    await p.run.rt.config.update({ proactive: { enabled: false }, groups: {} })
  })

  const settings = async (over: Partial<ProactiveSettings>, groups: Record<string, unknown> = {}): Promise<void> => {
    await p.run.rt.config.update({
      proactive: { enabled: true, probability: 1, busyMultiplier: 1, quietMultiplier: 1, hourlyCap: 3, dailyCap: 12, cooldownSeconds: 0, ...over },
      groups: groups as never
    })
  }
  /** Model calls made for proactive replies (other calls answer addressed messages). */
  const proactiveCalls = (): number => fake.chatRequests().filter((r) => spokenMessages(r.body).at(-1)?.content.startsWith(PROMPT)).length
  const botSays = (groupId: string): string[] => p.host.transcript.filter((t) => t.target === 'group' && t.targetId === groupId).map((t) => t.text)
  /** `count` unaddressed messages from a few members, `stepMs` apart on the fake clock; each turn finished. */
  const chatter = async (groupId: string, count: number, stepMs = 10_000): Promise<void> => {
    for (let i = 0; i < count; i++) {
      await p.host.sendGroup(groupId, String(20001 + (i % 4)), `今天的第${++n}条闲聊`)
      await p.run.rt.need('proactive').idle()
      clock?.tick(stepMs)
    }
  }
  /** Local time on a fixed day, so the daily cap's midnight is where the test says. */
  const at = (day: number, hour: number, minute = 0): number => new Date(2027, 0, day, hour, minute).getTime()
  const fakeNow = (ms: number): void => { clock = sinon.useFakeTimers({ now: ms, toFake: ['Date'] }) }

  it('100 unaddressed messages at probability 1 and hourlyCap 3: exactly 3 model calls in the hour, more after it; dailyCap holds across hours and restarts the next day', async () => {
    await settings({ hourlyCap: 3, dailyCap: 5 })
    fakeNow(at(10, 9))
    await chatter('700', 100) // 09:00 .. 09:16:30
    expect(proactiveCalls(), 'in the first hour').to.equal(3)
    expect(botSays('700')).to.have.length(3)
    expect(botSays('700')[0]).to.equal('哈哈确实 1')
    // the model got the group log: the last messages, each as "name: text"
    const asked = spokenMessages(fake.chatRequests()[0]?.body).at(-1)?.content ?? ''
    expect(asked).to.match(/user20001: 今天的第\d+条闲聊/)
    // the third call: its prompt holds the first three messages, the group log context none of them again
    const third = spokenMessages(fake.chatRequests()[2]?.body)
    const lines = third.at(-1)?.content.match(/今天的第\d+条闲聊/g) ?? []
    expect(lines).to.have.length(3)
    const system = contextOf(fake.chatRequests()[2]?.body)
    for (const line of lines) expect(system, 'the group log context does not repeat what the prompt holds').to.not.include(line)
    // stored as the group's proactive conversation, not as any member's
    expect(p.run.rt.need('conversations').store.history('group:700:proactive')).to.have.length(6)
    expect(p.run.rt.need('conversations').store.history('group:700:20001')).to.have.length(0)

    clock!.setSystemTime(at(10, 10, 1))
    await chatter('700', 100)
    expect(proactiveCalls(), 'the next hour: only 2 more, the daily cap (5) is reached').to.equal(5)
    clock!.setSystemTime(at(10, 13))
    await chatter('700', 20)
    expect(proactiveCalls(), 'later that day: none').to.equal(5)

    clock!.setSystemTime(at(11, 0, 5))
    await chatter('700', 20)
    expect(proactiveCalls(), 'after local midnight: the caps start again').to.equal(8)
    expect(botSays('700')).to.have.length(8)
  })

  it('cooldown: at most one reply per cooldownSeconds', async () => {
    await settings({ cooldownSeconds: 300, hourlyCap: 100, dailyCap: 100 })
    fakeNow(at(12, 9))
    await chatter('701', 20, MINUTE) // one a minute for 20 minutes: replies at 0, 5, 10 and 15 minutes
    expect(proactiveCalls()).to.equal(4)
  })

  it('disabled -> never (globally, or for one group); a group can turn it on for itself', async () => {
    await p.run.rt.config.update({ proactive: { enabled: false, probability: 1, busyMultiplier: 1, quietMultiplier: 1 } })
    fakeNow(at(13, 9))
    await chatter('702', 30)
    expect(proactiveCalls()).to.equal(0)
    await settings({}, { 703: { proactive: { enabled: false } } })
    await chatter('703', 30)
    expect(proactiveCalls(), 'groups.703.proactive.enabled false').to.equal(0)
    await p.run.rt.config.update({ proactive: { enabled: false }, groups: { 704: { proactive: { enabled: true } } } })
    await chatter('704', 30)
    expect(proactiveCalls(), 'only groups.704 turned it on').to.equal(3)
    expect(botSays('702').concat(botSays('703'))).to.deep.equal([])
  })

  it('the multipliers change the chance (Math.random fixed at 0.7)', async () => {
    // probability 0.5: quiet (<= 2 messages in 10 min) x0 -> 0; normal -> 0.5; busy (>= 5) x2 -> 1
    await settings({ probability: 0.5, quietMessages: 2, quietMultiplier: 0, busyMessages: 5, busyMultiplier: 2, hourlyCap: 100, dailyCap: 100 })
    fakeNow(at(14, 9))
    sinon.stub(Math, 'random').returns(0.7)
    await chatter('705', 4, MINUTE)
    expect(proactiveCalls(), 'quiet and normal: 0 and 0.5 are below 0.7').to.equal(0)
    await chatter('705', 1, MINUTE)
    expect(proactiveCalls(), 'the fifth message makes the group busy: chance 1').to.equal(1)
    // ten minutes of silence: the group is quiet again
    clock!.tick(11 * MINUTE)
    await chatter('706', 1)
    expect(proactiveCalls(), 'a quiet group: chance 0').to.equal(1)
  })

  it('keyword triggers: a group message containing a keyword is answered like a call, commands still are not chat', async () => {
    await p.run.rt.config.update({ trigger: { keywords: ['小灵'] }, groups: { 711: { trigger: { keywords: ['阿犀'] } } } })
    try {
      await p.host.sendGroup('710', '20001', '小灵今天天气怎么样')
      expect(botSays('710')).to.deep.equal(['哈哈确实 1'])
      expect(spokenMessages(fake.chatRequests()[0]?.body).at(-1)?.content).to.equal('小灵今天天气怎么样')
      await p.host.sendGroup('710', '20001', '#小灵帮助')
      await p.host.sendGroup('711', '20001', '小灵在吗') // the group's own list replaces the global one
      await p.host.sendGroup('711', '20001', '阿犀在吗')
      expect(botSays('710')).to.have.length(1)
      expect(botSays('711')).to.deep.equal(['哈哈确实 2'])
      expect(fake.chatRequests()).to.have.length(2)
    } finally {
      await p.run.rt.config.update({ trigger: { keywords: [] } })
    }
  })

  it('a "[skip]" answer sends nothing; addressed messages and commands are never proactive turns', async () => {
    await settings({ hourlyCap: 1 })
    fakeNow(at(15, 9))
    fake.enqueue({ content: '[skip]' })
    await chatter('707', 3)
    expect(proactiveCalls()).to.equal(1)
    expect(botSays('707'), 'nothing was sent').to.deep.equal([])
    await settings({ hourlyCap: 100 })
    await p.host.sendGroup('708', '20001', '#原神公告')
    await p.host.sendGroup('708', '20001', '你好', { at: true })
    await p.run.rt.need('proactive').idle()
    expect(proactiveCalls()).to.equal(1)
    expect(fake.chatRequests()).to.have.length(2) // the @bot message was answered as usual
    expect(botSays('708')).to.have.length(1)

    // what is said goes out as chat answers do (lib/delivery): no markdown, no reasoning
    fake.enqueue({ content: '<think>要不要插话呢</think>**哈哈** 确实' })
    await chatter('709', 1)
    expect(botSays('709')).to.deep.equal(['哈哈 确实'])
  })
})
