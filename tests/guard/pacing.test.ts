// The account-risk guard's pace on every send path (lib/guard through the host port's send pacer,
// lib/host/port.ts watchedSend): in a guarded group each send of the send_message tool (sendGroup), a
// reminder at its time, a command reply, an event reaction (a welcome line) and a proactive reply goes
// out at least slowDownMs after the group's previous send; in a normal group the same send goes at
// once. A forward is one send (its nodes are not paced), and the masters' notice, sent through the same
// path, is paced in a guarded private bucket without a deadlock. The runtime clock is sinon's.
import { expect } from 'chai'
import sinon from 'sinon'
import { makeForwardMsg, setOutboundGate, setSendPacer, watchedSend, type SendChat } from '../../lib/host/port.js'
import type { TranscriptEntry } from '../../standalone/types.js'
import { sentMessages, spokenMessages } from '../chat/helpers.js'
import { startFakeOpenAI, defaultBehavior, type FakeOpenAI } from '../support/fake-openai.js'
import { startPluginHost, MASTER, type PluginHost } from '../support/plugin-host.js'

const HOT = '810' // guarded from its first send on, for good
const CALM = '811' // the same pace, never guarded
const NOTICE = '812' // the masters' notice test
const SLOW = 3000
const MIN = 60_000
const PROMPT = '下面是群里最近的聊天记录'
// one send a minute makes the figure 100; nothing is below 0, so the group never cools down
const STAYS_GUARDED = { maxPerMinute: 1, riskAt: 100, recoverBelow: 0, coolDownMinutes: 600, slowDownMs: SLOW, pauseProactive: false }
const realTimeout = globalThis.setTimeout

describe('account-risk guard: every send path keeps the pace of a guarded chat', function () {
  this.timeout(120_000)
  let fake: FakeOpenAI
  let p: PluginHost
  let clock: sinon.SinonFakeTimers | undefined
  let hour = 0
  let n = 0

  before(async () => {
    fake = await startFakeOpenAI({ models: ['gpt-test'] })
    p = await startPluginHost('miao', 'lingxi-guard-pace-')
    await p.run.rt.config.update({
      channels: [{ name: 'fake', baseUrl: fake.url, apiKey: 'sk', model: 'gpt-test' }],
      memory: { enabled: false },
      delivery: { quote: false },
      guard: { enabled: true, tellMaster: false },
      groups: { [HOT]: { guard: STAYS_GUARDED, events: { join: 1 } }, [CALM]: { guard: { slowDownMs: SLOW }, events: { join: 1 } } } as never
    })
  })
  after(async () => {
    clock?.restore()
    await p?.stop()
    await fake?.close()
  })
  beforeEach(() => {
    fake.reset()
    fake.respond = (body) => (spokenMessages(body).at(-1)?.content.startsWith(PROMPT) ? { content: '我也觉得' } : defaultBehavior(body))
    // a later hour for each test: the records of the earlier ones stay in the past
    clock = sinon.useFakeTimers({ now: new Date(2027, 3, 1, 8 + ++hour).getTime(), toFake: ['Date', 'setTimeout', 'clearTimeout'] })
  })
  afterEach(() => { clock?.restore(); clock = undefined })

  const guard = () => p.run.rt.need('guard')
  const toGroup = (g: string) => p.host.transcript.filter((t) => t.target === 'group' && t.targetId === g)
  /** Runs `work` while the fake clock moves 10 ms per 2 real ms (the network needs real time). */
  const settle = async <T>(work: Promise<T>): Promise<T> => {
    let done = false
    const out = work.finally(() => { done = true })
    for (let i = 0; !done && i < 20_000; i++) {
      await new Promise((resolve) => realTimeout(resolve, 2))
      if (!done) clock?.tick(10)
    }
    return out
  }
  /** Real-time wait (setImmediate is not faked) until `cond` holds; the fake clock stands still. */
  const until = async (cond: () => boolean, what: string): Promise<void> => {
    for (const end = performance.now() + 10_000; !cond();) {
      if (performance.now() > end) throw new Error(`timed out waiting for ${what}`)
      await new Promise((resolve) => setImmediate(resolve))
    }
  }
  /** A send to the group (a command reply: the previous send the path's send is measured from); its
   * time. The plugin runs from its bundle: its port is not this test's module, so sends go through it. */
  const prime = async (g: string): Promise<number> => {
    await settle(p.host.sendGroup(g, String(20100 + (++n % 10)), '#lx帮助'))
    return toGroup(g).at(-1)!.time
  }
  /** How long after the primed send the path's first send to `g` went out. In the guarded group the
   * clock moves while the path runs; in the normal one it stands still (a wait would never end). */
  const measure = async (g: string, path: () => Promise<unknown>): Promise<{ gap: number; sent: TranscriptEntry[] }> => {
    const from = await prime(g)
    const since = toGroup(g).length
    if (g === HOT) await settle(path())
    else await path()
    const sent = toGroup(g).slice(since)
    expect(sent.length, 'the path sent').to.be.greaterThan(0)
    return { gap: sent[0]!.time - from, sent }
  }
  const paced = (gap: number, what: string): void => { expect(gap, `${what}: paced in the guarded group`).to.be.at.least(SLOW) }
  const notPaced = (gap: number, what: string): void => { expect(gap, `${what}: at once in the normal group`).to.be.below(SLOW) }

  it('the guarded group is guarded, the other normal', async () => {
    await prime(HOT)
    await prime(CALM)
    expect(guard().chat(HOT)?.state).to.equal('guarded')
    expect(guard().chat(CALM)?.state).to.equal('normal')
  })

  it('the send_message tool (sendGroup), then the answer', async () => {
    for (const g of [HOT, CALM]) {
      fake.enqueue({ toolCalls: [{ name: 'send_message', arguments: { text: `工具发的消息 ${g}` } }] }, { content: '发好了' })
      const { gap, sent } = await measure(g, () => p.host.sendGroup(g, '20001', '帮我发一条', { at: true }))
      expect(sent.map((t) => t.text)).to.deep.equal([`工具发的消息 ${g}`, '发好了'])
      const answer = sent[1]!.time - sent[0]!.time
      if (g === HOT) { paced(gap, 'send_message'); paced(answer, 'the answer') } else { notPaced(gap, 'send_message'); notPaced(answer, 'the answer') }
    }
  })

  it('a reminder at its time', async () => {
    const svc = p.run.rt.need('reminders')
    for (const g of [HOT, CALM]) {
      await svc.create({ userId: '20002', groupId: g, botId: p.host.botId, isMaster: false, isGroupAdmin: false }, { when: '1分钟后', message: `喝水 ${g}` })
      await clock!.tickAsync(MIN - 1000)
      const { gap, sent } = await measure(g, async () => {
        await clock!.tickAsync(1000) // due now
        if (g === HOT) while (!toGroup(g).at(-1)?.text.includes('喝水')) { await new Promise((resolve) => realTimeout(resolve, 2)); clock!.tick(10) }
        else await until(() => !!toGroup(g).at(-1)?.text.includes('喝水'), 'the reminder')
        await svc.idle()
      })
      expect(sent.at(-1)?.text).to.include(`喝水 ${g}`)
      if (g === HOT) paced(gap, 'the reminder')
      else notPaced(gap, 'the reminder')
    }
  })

  it('a command reply (#lx帮助)', async () => {
    for (const g of [HOT, CALM]) {
      const { gap } = await measure(g, () => p.host.sendGroup(g, '20003', '#lx帮助'))
      if (g === HOT) paced(gap, 'the command reply')
      else notPaced(gap, 'the command reply')
    }
  })

  it('an event reaction: the welcome line of a new member', async () => {
    for (const g of [HOT, CALM]) {
      const { gap, sent } = await measure(g, () => p.host.memberJoined({ groupId: g, userId: '30001', nickname: '小明' }))
      expect(sent[0]?.text).to.include('小明')
      if (g === HOT) paced(gap, 'the welcome')
      else notPaced(gap, 'the welcome')
    }
  })

  it('a proactive reply (pauseProactive off in the guarded group)', async () => {
    await p.run.rt.config.update({ proactive: { enabled: true, probability: 1, busyMultiplier: 1, quietMultiplier: 1, hourlyCap: 100, dailyCap: 100, cooldownSeconds: 0 } })
    try {
      for (const g of [HOT, CALM]) {
        const { gap, sent } = await measure(g, async () => {
          await p.host.sendGroup(g, '20004', '大家在聊什么')
          await p.run.rt.need('proactive').idle()
        })
        expect(sent[0]?.text).to.equal('我也觉得')
        if (g === HOT) paced(gap, 'the proactive reply')
        else notPaced(gap, 'the proactive reply')
      }
    } finally {
      await p.run.rt.config.update({ proactive: { enabled: false } })
    }
  })

  it('a long reminder (a forward: its nodes are not sends) is paced once', async () => {
    const svc = p.run.rt.need('reminders')
    await svc.create({ userId: '20005', groupId: HOT, botId: p.host.botId, isMaster: false, isGroupAdmin: false }, { when: '1分钟后', message: '长'.repeat(500) })
    await clock!.tickAsync(MIN - 1000)
    const { gap, sent } = await measure(HOT, async () => {
      await clock!.tickAsync(1000)
      while (!toGroup(HOT).at(-1)?.message.some((s) => s.type === 'node')) { await new Promise((resolve) => realTimeout(resolve, 2)); clock!.tick(10) }
      await svc.idle()
    })
    // the reminder: the @ of its user, then the text as one forward
    const types = sent.map((t) => t.message.map((s) => s.type).join())
    expect(types).to.deep.equal(['at', 'node'])
    paced(gap, 'the @')
    const forward = sent[1]!.time - sent[0]!.time
    paced(forward, 'the forward')
    expect(forward, 'one pace for the whole forward, not one per node').to.be.below(2 * SLOW)
  })

  it("the masters' notice goes through the same pace: in a guarded private bucket it waits its turn, no deadlock", async () => {
    const toMaster = () => p.host.transcript.filter((t) => t.target === 'private' && t.targetId === MASTER)
    const before = toMaster().length
    // the global settings (private chats and this group): one send a minute guards a chat
    await p.run.rt.config.update({ guard: { ...STAYS_GUARDED, tellMaster: true } })
    try {
      await prime(NOTICE)
      // the notice about the group guards the private bucket, whose own notice then waits for the pace
      await settle((async () => { while (toMaster().length < before + 2) await new Promise((resolve) => realTimeout(resolve, 2)) })())
      const told = toMaster().slice(before)
      expect(told.map((t) => t.text).join('\n')).to.include(`群 ${NOTICE}`)
      expect(guard().chat('private')?.state).to.equal('guarded')
      expect(told[1]!.time - told[0]!.time, 'the second notice, paced').to.be.at.least(SLOW)
    } finally {
      await p.run.rt.config.update({ guard: { enabled: true, tellMaster: false, maxPerMinute: 20, riskAt: 60, recoverBelow: 30, coolDownMinutes: 10, slowDownMs: 3000, pauseProactive: true } })
    }
  })
})

describe('the host port: the send pacer (lib/host/port.ts)', () => {
  const calls: SendChat[] = []
  let unpace: (() => void) | undefined
  let ungate: (() => void) | undefined
  beforeEach(() => {
    calls.length = 0
    unpace = setSendPacer(async (chat) => { calls.push(chat) })
  })
  afterEach(() => { unpace?.(); ungate?.(); ungate = undefined })

  it('waits for the pacer before each send, with the chat', async () => {
    const order: string[] = []
    unpace?.()
    unpace = setSendPacer(async (chat) => { calls.push(chat); order.push('pace') })
    await watchedSend({ groupId: '1', userId: '2' }, 'hi', async () => { order.push('send'); return { message_id: 'm' } })
    expect(order).to.deep.equal(['pace', 'send'])
    expect(calls).to.deep.equal([{ groupId: '1', userId: '2' }])
  })

  it('a message the gate withholds takes no slot; a failing pacer costs no send', async () => {
    ungate = setOutboundGate(async () => undefined)
    expect(await watchedSend({ groupId: '1' }, 'no', async () => ({ message_id: 'm' }))).to.equal(false)
    expect(calls).to.deep.equal([])
    ungate()
    unpace?.()
    unpace = setSendPacer(async () => { throw new Error('pacer bug') })
    expect(await watchedSend({ groupId: '1' }, 'yes', async () => ({ message_id: 'm' }))).to.deep.equal({ message_id: 'm' })
  })

  it('forward nodes are not sends: making a forward calls no pacer', async () => {
    ungate = setOutboundGate(async (_chat, msg) => msg)
    const group = { group_id: '1', makeForwardMsg: async (nodes: unknown[]) => ({ type: 'node', data: nodes }) }
    const nodes = ['一', '二', '三'].map((x) => ({ message: `第${x}段`, user_id: '10000' }))
    expect(await makeForwardMsg({ group } as never, nodes)).to.not.equal(undefined)
    expect(calls).to.deep.equal([])
  })
})
