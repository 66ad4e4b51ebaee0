// The account-risk guard (lib/guard) in the real TRSS-Yunzai host, driven through its OneBot v11
// adapter with the fake model: a burst of 30 answers in a minute in one group trips it (the group's
// limits: 30 a minute, riskAt 100); then the master gets one send_msg privately, later answers in that
// group go out at least slowDownMs apart (the send actions' timestamps), a long answer goes as a
// forward although the group's delivery says off, and a proactive reply is not made there; another
// group answers at once, plainly, and joins in proactively. Sends the protocol refuses count as failures
// (a group whose sends fail tells the master too). Once the figure is below recoverBelow (the master
// raises the group's per-minute limit through the plugin's API, as the dashboard does) the group cools
// down (GET /api/guard/:chat) and after coolDownMinutes is back to its own delivery: no minute is waited
// out (the per-minute window itself is tested on a fake clock, tests/guard). Set-up as in trss.test.ts
// (tests/realhost/README.md).
import { appendFileSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { expect } from 'chai'
import { stringify } from 'yaml'
import { startFakeOpenAI, defaultBehavior, type FakeOpenAI } from '../support/fake-openai.js'
import { sentMessages, spokenMessages } from '../chat/helpers.js'
import { FakeOneBot, type Sent, worldOf } from './support/onebot.js'
import { endHostSuite, prepareHost, startHostWith, writePluginConfig, type PreparedHost } from './support/prepare.js'
import type { HostProcess } from './support/trss-host.js'

const BOT = 3000000001
const MASTER = 10001
const MEMBERS = [11001, 11002, 11003, 11004, 11005]
const HOT = 22001 // the burst group
const CALM = 22002 // same settings, little traffic
const BROKEN = 22003 // every send refused by the protocol
const SLOW_MS = 2000
const LONG = '长'.repeat(400)
const PROMPT = '下面是群里最近的聊天记录'
const WORDS = [...'天地玄黄宇宙洪荒日月盈昃辰宿列张寒来暑往秋收冬藏闰余成岁律吕调阳云腾致雨露结为霜']

/** The protocol implementation refuses every send to one group (as QQ does to a frozen or muted bot). */
class RefusingOneBot extends FakeOneBot {
  /** when each refused send arrived (the host has its failure 300 ms later, with the acknowledgement) */
  readonly refused: number[] = []
  protected override answer (action: string, params: Record<string, unknown>): unknown {
    if (action.startsWith('send_') && String(params.group_id) === String(BROKEN)) {
      this.refused.push(Date.now())
      return undefined
    }
    return super.answer(action, params)
  }
}

interface GuardView { state: 'normal' | 'guarded' | 'cooling'; risk: number; since?: number; recoverBelow: number }

describe('real TRSS-Yunzai host: the account-risk guard', function () {
  this.timeout(120_000)
  let dataDir = ''
  let p: PreparedHost | undefined
  let fake: FakeOpenAI | undefined
  let host: HostProcess | undefined
  let bot: RefusingOneBot | undefined
  let n = 0

  before(async function () {
    this.timeout(15 * 60_000)
    p = await prepareHost(this, 'guard', { botId: BOT, masterId: MASTER })
    dataDir = p.dataDir
    // the host's own cooldowns off in these groups: the burst must reach the plugin
    const groupYaml = join(p.root, 'config', 'config', 'group.yaml')
    writeFileSync(groupYaml, readFileSync(join(p.root, 'config', 'default_config', 'group.yaml'), 'utf8'))
    appendFileSync(groupYaml, `\n${stringify(Object.fromEntries([HOT, CALM, BROKEN].map((g) => [String(g), { groupCD: 0, singleCD: 0 }])))}`)
    fake = await startFakeOpenAI({ models: ['gpt-test'] })
    fake.respond = (body) => {
      const last = spokenMessages(body).at(-1)?.content ?? ''
      if (last.startsWith(PROMPT)) return { content: '我也觉得' }
      if (last.includes('LONGPLEASE')) return { content: LONG }
      return defaultBehavior(body)
    }
    const groupSettings = {
      guard: { maxPerMinute: 30, maxPerHour: 10000, riskAt: 100, recoverBelow: 30, coolDownMinutes: 0.05, slowDownMs: SLOW_MS, forwardAboveChars: 200 },
      delivery: { longAnswer: 'off' }
    }
    writePluginConfig(dataDir, {
      channels: [{ name: 'fake', baseUrl: fake.url, apiKey: 'sk-test', model: 'gpt-test', models: ['gpt-test'] }],
      memory: { enabled: false },
      delivery: { quote: false, atSender: false },
      guard: { enabled: true }, // off by default
      proactive: { enabled: true, probability: 1, busyMultiplier: 1, quietMultiplier: 1, hourlyCap: 100, dailyCap: 100, cooldownSeconds: 0 },
      groups: {
        [String(HOT)]: groupSettings,
        [String(CALM)]: groupSettings,
        [String(BROKEN)]: { guard: { maxFailuresPerHour: 2, riskAt: 100 } }
      }
    })
    bot = new RefusingOneBot(BOT, worldOf([MASTER, ...MEMBERS], [HOT, CALM, BROKEN], '灵犀风控测试'))
    host = await startHostWith(p, bot)
  })

  after(async function () {
    this.timeout(60_000)
    await endHostSuite(this, p, { bot, host, servers: [p?.redis, fake] })
  })

  const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))
  /** Polls `probe` every 100 ms until it returns a value (the wait for a state, not for a time). */
  async function until<T> (what: string, probe: () => T | undefined | Promise<T | undefined>, timeoutMs: number): Promise<T> {
    const end = Date.now() + timeoutMs
    for (;;) {
      const got = await probe()
      if (got !== undefined) return got
      if (Date.now() > end) throw new Error(`${what}: not within ${timeoutMs} ms`)
      await sleep(100)
    }
  }
  let session = ''
  /** The plugin's API on its own port with the master's session (a #lx面板 login link, logged in once). */
  async function api (path: string, init: { method?: string; json?: unknown } = {}): Promise<{ status: number; body: any }> {
    const base = `http://127.0.0.1:${p!.lingxiPort}`
    if (!session) {
      const t = Date.now()
      await bot!.privateMessage(MASTER, '#lx面板')
      const link = await bot!.waitForSent((s) => s.userId === String(MASTER) && s.text.includes('login#token='), 20_000, t)
      const login = await fetch(`${base}/api/auth/login`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ token: /#token=([\w-]+)/.exec(link.text)?.[1] }) })
      session = ((await login.json()) as { data: { token: string } }).data.token
    }
    const res = await fetch(`${base}${path}`, {
      method: init.method ?? 'GET',
      headers: { Authorization: `Bearer ${session}`, ...(init.json !== undefined ? { 'Content-Type': 'application/json' } : {}) },
      ...(init.json !== undefined ? { body: JSON.stringify(init.json) } : {})
    })
    return { status: res.status, body: await res.json() }
  }
  /** The group's figure and state as the guard has them now (a read moves the state on, as a send does). */
  async function guardOf (g: number): Promise<GuardView> {
    const res = await api(`/api/guard/${g}`)
    expect(res.status, JSON.stringify(res.body)).to.equal(200)
    return res.body.data as GuardView
  }
  const inGroup = (g: number) => (s: Sent) => s.groupId === String(g)
  // the guard's notices to the master (the host greets the master with its own message at start)
  const notice = (s: Sent): boolean => s.userId === String(MASTER) && !s.groupId && s.text.includes('账号风控')
  const toMaster = () => bot!.sent.filter(notice)
  /** An @bot question from the members in turn; resolves with the answer's send action. */
  async function ask (g: number, text: string): Promise<Sent> {
    const since = Date.now()
    await bot!.groupMessage(g, MEMBERS[n++ % MEMBERS.length]!, text, { atBot: true })
    return bot!.waitForSent((s) => inGroup(g)(s) && (s.text.includes(text.trim().slice(-4)) || s.action.endsWith('forward_msg') || s.text === LONG), 30_000, since)
  }

  it('30 answers in a minute trip the guard: the master told once, later sends slower, a long answer as a forward, no proactive reply there; the other group unaffected', async () => {
    const start = Date.now()
    for (let i = 0; i < 30; i++) await ask(HOT, `问题${WORDS[i]}`)
    expect(Date.now() - start, 'a burst within the minute').to.be.below(60_000)
    const told = await bot!.waitForSent(notice, 10_000, start)
    expect(told.text).to.include(`群 ${HOT}`).and.include('100/100').and.include('每分钟 30 条')

    // later answers in the guarded group: at least SLOW_MS apart, by the send actions' times
    const a = await ask(HOT, `问题${WORDS[30]}`)
    const b = await ask(HOT, `问题${WORDS[31]}`)
    const before = bot!.sent.filter(inGroup(HOT)).filter((s) => s.time < a.time).at(-1)!
    expect(a.time - before.time, 'the first answer after the trip waited').to.be.at.least(SLOW_MS - 50)
    expect(b.time - a.time, 'the next one too').to.be.at.least(SLOW_MS - 50)

    // a long answer as a forward although the group's delivery says off
    const long = await ask(HOT, 'LONGPLEASE 写长一点')
    expect(long.action).to.equal('send_group_forward_msg')

    // the other group: at once, and long answers as the group says (off: the text itself)
    const asked = Date.now()
    const calm = await ask(CALM, `你好${WORDS[32]}`)
    expect(calm.time - asked).to.be.below(SLOW_MS)
    const calmLong = await ask(CALM, 'LONGPLEASE 写长一点')
    expect(calmLong.action).to.equal('send_msg')
    expect(calmLong.text).to.equal(LONG)

    // proactive replies: none in the guarded group, one in the calm group
    const quiet = Date.now()
    await bot!.groupMessage(HOT, MEMBERS[0]!, '大家在聊什么呢')
    await bot!.groupMessage(CALM, MEMBERS[1]!, '大家在聊什么呢')
    const joined = await bot!.waitForSent((s) => inGroup(CALM)(s) && s.text === '我也觉得', 30_000, quiet)
    expect(joined.action).to.equal('send_msg')
    await sleep(SLOW_MS + 500)
    expect(bot!.sent.filter((s) => inGroup(HOT)(s) && s.time >= quiet), 'nothing said in the guarded group').to.deep.equal([])
    const prompts = fake!.chatRequests().filter((r) => spokenMessages(r.body).at(-1)?.content.startsWith(PROMPT))
    expect(prompts, 'one proactive model call').to.have.length(1)
    expect(toMaster(), 'told once per episode').to.have.length(1)
  })

  it('sends the protocol refuses count as failures: two in a group whose limit is two tell the master', async () => {
    const since = Date.now()
    // one after the other: the second question once the first answer's send was refused
    for (const [i, q] of ['第一问', '第二问'].entries()) {
      await bot!.groupMessage(BROKEN, MEMBERS[n++ % MEMBERS.length]!, q, { atBot: true })
      await until(`refused send ${i + 1}`, () => bot!.refused.filter((at) => at >= since).length > i || undefined, 30_000)
    }
    const told = await bot!.waitForSent((s) => notice(s) && s.text.includes(`群 ${BROKEN}`), 15_000, since)
    expect(told.text).to.include('发送失败 2 次')
    expect(bot!.sent.filter(inGroup(BROKEN)), 'nothing reached the group').to.deep.equal([])
  })

  it('once the figure is below recoverBelow the group cools down, and after coolDownMinutes it is back to its own delivery', async () => {
    // The per-minute signal counts the sends of the last 60 s on the plugin's clock in the host's process
    // (no fake clock reaches it; waiting the minute out took 61 s). The guard weighs the sends against the
    // settings in force at each evaluation: the master raising the group's per-minute limit (the dashboard's
    // group settings) brings the figure down at once, with the same state machine after it.
    expect((await guardOf(HOT)).state, 'still guarded before the change').to.equal('guarded')
    const put = await api(`/api/config/groups/${HOT}`, { method: 'PUT', json: { guard: { maxPerMinute: 1000 } } })
    expect(put.status, JSON.stringify(put.body)).to.equal(200)
    const guard = put.body.data.effective.guard
    expect(guard).to.include({ maxPerMinute: 1000, riskAt: 100, recoverBelow: 30, coolDownMinutes: 0.05, slowDownMs: SLOW_MS })
    // the next evaluation (this read) sees the figure low: cooling, not yet normal
    const cooling = await guardOf(HOT)
    expect(cooling.state).to.equal('cooling')
    expect(cooling.risk).to.be.below(cooling.recoverBelow)
    // then normal once it stayed low for coolDownMinutes (3 s) on the host's clock
    await until('back to normal', async () => (await guardOf(HOT)).state === 'normal' || undefined, 20_000)
    expect(Date.now() - cooling.since!, 'not before the cool-down').to.be.at.least(3000)
    const asked = Date.now()
    const long = await ask(HOT, 'LONGPLEASE 再写长一点')
    expect(long.action).to.equal('send_msg')
    expect(long.text).to.equal(LONG)
    expect(long.time - asked, 'no wait').to.be.below(SLOW_MS)
  })
})
