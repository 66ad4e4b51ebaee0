// The account-risk guard (lib/guard) through the standalone host, both profiles: a burst of 30 answers
// in a minute in one group trips it (the group's limits: 30 a minute, riskAt 100), then that group's
// sends are slower (measured on sinon fake timers driving the runtime clock), a long answer goes as a
// forward although the group's delivery says off, proactive replies pause and the master is told
// privately once; another group is unaffected; after the cool-down the group is back to normal.
// Repeats and failed sends raise the figure.
import { expect } from 'chai'
import sinon from 'sinon'
import { startFakeOpenAI, defaultBehavior, type FakeOpenAI } from '../support/fake-openai.js'
import { startPluginHost, MASTER, type PluginHost } from '../support/plugin-host.js'
import { sentMessages, spokenMessages } from '../chat/helpers.js'
import { PROFILES } from '../host/helpers.js'
import { hostChat } from '../../lib/host/session.js'

const HOT = '800' // the burst group
const CALM = '801' // another group, same settings
const REP = '802' // repeats
const FAIL = '803' // failed sends
const PATHS = '804' // sends by other paths than answers
const LONG = '长'.repeat(400)
const PROMPT = '下面是群里最近的聊天记录'
const realTimeout = globalThis.setTimeout
// 31 different words: digits do not make texts different for the guard's repeat check
const WORDS = [...'天地玄黄宇宙洪荒日月盈昃辰宿列张寒来暑往秋收冬藏闰余成岁律吕调阳云腾']

for (const profile of PROFILES) describe(`account-risk guard through the standalone host, ${profile} profile`, function () {
  this.timeout(120_000)
  let fake: FakeOpenAI
  let p: PluginHost
  let clock: sinon.SinonFakeTimers | undefined

  before(async () => {
    fake = await startFakeOpenAI({ models: ['gpt-test'] })
    p = await startPluginHost(profile, 'lingxi-guard-')
    const groupSettings = { guard: { enabled: true, maxPerMinute: 30, riskAt: 100, recoverBelow: 30, coolDownMinutes: 10, slowDownMs: 3000, forwardAboveChars: 200 }, delivery: { longAnswer: 'off' } }
    await p.run.rt.config.update({
      channels: [{ name: 'fake', baseUrl: fake.url, apiKey: 'sk', model: 'gpt-test' }],
      memory: { enabled: false },
      delivery: { quote: false },
      guard: { enabled: true }, // off by default
      groups: { [HOT]: groupSettings, [CALM]: groupSettings } as never
    })
  })
  after(async () => {
    clock?.restore()
    await p?.stop()
    await fake?.close()
  })
  beforeEach(() => {
    fake.reset()
    let same = 0
    fake.respond = (body) => {
      const last = spokenMessages(body).at(-1)?.content ?? ''
      if (last.startsWith(PROMPT)) return { content: '我也觉得' }
      if (last.includes('LONGPLEASE')) return { content: LONG }
      if (last.includes('SAME')) return { content: `好的！${++same}` }
      return defaultBehavior(body)
    }
  })
  afterEach(() => { clock?.restore(); clock = undefined })

  const guard = () => p.run.rt.need('guard')
  const toGroup = (g: string) => p.host.transcript.filter((t) => t.target === 'group' && t.targetId === g)
  const toMaster = () => p.host.transcript.filter((t) => t.target === 'private' && t.targetId === MASTER)
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
  let asker = 0
  // members take turns (each has chat.userRateLimitPerMinute)
  const ask = (g: string, text: string) => settle(p.host.sendGroup(g, String(20010 + (asker++ % 5)), text, { at: true }))

  it('30 answers in a minute trip the guard; slower sends, forwards, no proactive replies, the master told once; another group unaffected; back to normal after the cool-down', async () => {
    clock = sinon.useFakeTimers({ now: new Date(2027, 2, 1, 10).getTime(), toFake: ['Date', 'setTimeout', 'clearTimeout'] })
    for (let i = 1; i <= 29; i++) await ask(HOT, `问题：${WORDS[i]}`)
    expect(toGroup(HOT)).to.have.length(29)
    expect(guard().chat(HOT)?.state, 'the 29th answer is still below the figure').to.equal('normal')
    await ask(HOT, `问题：${WORDS[30]}`)
    const hot = guard().chat(HOT)
    expect(hot?.state).to.equal('guarded')
    expect(hot?.risk).to.equal(100)
    expect(hot?.signals.perMinute).to.equal(30)
    expect(hot?.reasons[0]).to.equal('perMinute')
    expect(clock.now - new Date(2027, 2, 1, 10).getTime(), 'all within a minute').to.be.below(60_000)
    await settle(new Promise((resolve) => realTimeout(resolve, 100)))
    expect(toMaster(), 'the master is told privately').to.have.length(1)
    expect(toMaster()[0]?.text).to.include(`群 ${HOT}`).and.include('100/100')

    // later sends in the guarded group: at least slowDownMs after the previous one
    for (const q of ['再来一个', '还有一个']) await ask(HOT, q)
    const times = toGroup(HOT).map((t) => t.time)
    expect(times.at(-1)! - times.at(-2)!, 'second paced send').to.be.at.least(3000)
    expect(times.at(-2)! - times.at(-3)!, 'first paced send').to.be.at.least(3000)

    // a long answer goes out as a forward although the group's delivery says off
    await ask(HOT, 'LONGPLEASE 长一点')
    expect(toGroup(HOT).at(-1)?.message.map((s) => s.type)).to.deep.equal(['node'])

    // the other group: no pacing, long answers as the group says (off: plain text)
    const before = clock.now
    await ask(CALM, '你好')
    expect(toGroup(CALM)[0]!.time - before, 'no wait').to.be.below(1000)
    await ask(CALM, 'LONGPLEASE 长一点')
    expect(toGroup(CALM).at(-1)?.text).to.equal(LONG)
    expect(guard().chat(CALM)?.state).to.equal('normal')

    // proactive replies pause in the guarded group, not in the other
    await p.run.rt.config.update({ proactive: { enabled: true, probability: 1, busyMultiplier: 1, quietMultiplier: 1, hourlyCap: 100, dailyCap: 100, cooldownSeconds: 0 } })
    try {
      await settle(p.host.sendGroup(HOT, '20002', '大家在聊什么'))
      expect(p.run.rt.need('proactive').consider(sessionLike(HOT))).to.deep.equal({ join: false, reason: 'guarded' })
      await settle(p.host.sendGroup(CALM, '20002', '大家在聊什么'))
      await settle(p.run.rt.need('proactive').idle())
      const proactive = fake.chatRequests().filter((r) => spokenMessages(r.body).at(-1)?.content.startsWith(PROMPT))
      expect(proactive, 'one proactive turn, in the calm group').to.have.length(1)
      expect(toGroup(CALM).at(-1)?.text).to.equal('我也觉得')
    } finally {
      await p.run.rt.config.update({ proactive: { enabled: false } })
    }
    expect(toMaster(), 'told once per episode').to.have.length(1)

    // the cool-down: the figure falls once the minute is over, then stays low for coolDownMinutes
    clock.tick(2 * 60_000)
    expect(guard().chat(HOT)?.state).to.equal('cooling')
    clock.tick(10 * 60_000 + 1000)
    expect(guard().chat(HOT)?.state).to.equal('normal')
    const calmAgain = clock.now
    await ask(HOT, 'LONGPLEASE 又长了')
    expect(toGroup(HOT).at(-1)?.text, 'back to the group\'s own delivery').to.equal(LONG)
    expect(toGroup(HOT).at(-1)!.time - calmAgain).to.be.below(1000)
  })

  it('repeats and failed sends raise the figure', async () => {
    clock = sinon.useFakeTimers({ now: new Date(2027, 2, 2, 10).getTime(), toFake: ['Date', 'setTimeout', 'clearTimeout'] })
    for (const q of ['SAME 一', 'SAME 二', 'SAME 三']) await ask(REP, q)
    expect(toGroup(REP).map((t) => t.text), 'nearly the same: only the digit differs').to.deep.equal(['好的！1', '好的！2', '好的！3'])
    const rep = guard().chat(REP)
    expect(rep?.signals.repeats).to.equal(2)
    // 3 a minute (3/20), 2 repeats (2/5): 40 + a quarter of 15 and of 1 an hour
    expect(rep?.risk).to.equal(44)
    expect(rep?.reasons).to.deep.equal(['repeats'])

    p.host.failSends(new Error('send blocked by QQ'))
    try {
      await ask(FAIL, '第一个')
      await ask(FAIL, '第二个')
    } finally {
      p.host.failSends()
    }
    const failed = guard().chat(FAIL)
    expect(failed?.signals.failures).to.equal(2)
    expect(failed?.signals.perMinute).to.equal(2)
    // 2 failures (2/5), 2 a minute (2/20): 40 + a quarter of 10 and of 0.67 an hour
    expect(failed?.risk).to.equal(43)
    expect(failed?.state).to.equal('normal')
  })

  it('every send path is counted: command replies, the send_message tool (sendGroup / sendPrivate), a reminder at its time (pickChat)', async () => {
    clock = sinon.useFakeTimers({ now: new Date(2027, 2, 3, 10).getTime(), toFake: ['Date', 'setTimeout', 'clearTimeout'] })
    await settle(p.host.sendGroup(PATHS, '20001', '#lx帮助'))
    expect(guard().chat(PATHS)?.signals.perHour, 'the help command\'s reply').to.equal(1)
    fake.enqueue({ toolCalls: [{ name: 'send_message', arguments: { text: '工具发的消息 https://example.com/x' } }] }, { content: '发好了' })
    await settle(p.host.sendGroup(PATHS, MASTER, '帮我发一条', { at: true }))
    expect(toGroup(PATHS).map((t) => t.text).slice(-2)).to.deep.equal(['工具发的消息 https://example.com/x', '发好了'])
    expect(guard().chat(PATHS)?.signals).to.deep.include({ perHour: 3, links: 1 })
    fake.enqueue({ toolCalls: [{ name: 'set_reminder', arguments: { when: '1分钟后', message: '喝水' } }] }, { content: '好的' })
    await settle(p.host.sendGroup(PATHS, '20001', '1分钟后提醒我喝水', { at: true }))
    clock.tick(61_000)
    await settle(p.run.rt.need('reminders').idle())
    expect(toGroup(PATHS).at(-1)?.text).to.include('喝水')
    expect(guard().chat(PATHS)?.signals.perHour, 'the answer and the reminder').to.equal(5)

    const before = guard().chat('private')?.signals.perHour ?? 0
    fake.enqueue({ toolCalls: [{ name: 'send_message', arguments: { text: '私聊里多发一条' } }] }, { content: '好了' })
    await settle(p.host.sendPrivate(MASTER, '帮我再发一条'))
    expect(guard().chat('private')?.signals.perHour, 'private chats: one bucket').to.equal(before + 2)
  })
})

/** A group message nobody addressed to the bot, as the proactive replies see it. */
function sessionLike (groupId: string) {
  return {
    kind: 'message' as const, userId: '20003', groupId, isGroup: true, isMaster: false, isGroupAdmin: false, atBot: false,
    botId: '10000', text: '有人吗', images: [], segments: [], self: false, reply: async () => undefined, chat: hostChat({})
  }
}
