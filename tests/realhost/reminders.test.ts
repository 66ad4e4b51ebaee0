// Reminders in the real TRSS-Yunzai host, driven through its OneBot v11 adapter with the fake model:
// a reminder set through a chat turn (the fake model calls set_reminder) arrives as a send_group_msg
// @-mentioning its owner once its (real, short) time has passed; one set in a private chat survives a
// host restart (hosts call no stop hook: it is on disk from the moment it is set) and arrives once after
// the restart, also when its time passed while the host was down or its adapter not yet connected.
// Set-up as in trss.test.ts (tests/realhost/README.md).
import { expect } from 'chai'
import { stringify } from 'yaml'
import { startFakeOpenAI, defaultBehavior, type FakeOpenAI } from '../support/fake-openai.js'
import { FakeOneBot, type Sent, worldOf } from './support/onebot.js'
import { endHostSuite, prepareHost, startHostWith, writePluginConfig, type PreparedHost } from './support/prepare.js'
import type { HostProcess } from './support/trss-host.js'

const BOT = 3000000001
const MASTER = 10001
const FRIEND = 10002
const MEMBER = 10003
const GROUP = 22001

interface Seg { type: string; data: Record<string, unknown> }
const isReminder = (s: Sent): boolean => s.text.includes('⏰')

describe('real TRSS-Yunzai host: reminders', function () {
  this.timeout(120_000)
  let dataDir = ''
  let p: PreparedHost | undefined
  const prepared = (): PreparedHost => { if (!p) throw new Error('the host is not prepared'); return p }
  let fake: FakeOpenAI | undefined
  let host: HostProcess | undefined
  let bot: FakeOneBot | undefined
  /** what the host's bots sent over all starts (each start has its own FakeOneBot) */
  const allSent: Sent[] = []

  async function startHost (): Promise<void> {
    const b = new FakeOneBot(BOT, worldOf([MASTER, FRIEND, MEMBER], [GROUP]))
    bot = b
    host = await startHostWith(prepared(), b)
  }

  async function stopHost (): Promise<void> {
    if (bot) allSent.push(...bot.sent)
    bot?.close()
    bot = undefined
    const h = host
    host = undefined
    await h?.stop('SIGTERM')
  }

  before(async function () {
    this.timeout(15 * 60_000)
    p = await prepareHost(this, 'reminders', { botId: BOT, masterId: MASTER })
    dataDir = p.dataDir
    fake = await startFakeOpenAI({ models: ['gpt-test'] })
    // "REMIND <when> | <message>": the model calls set_reminder with them, then answers after the tool result
    fake.respond = (body) => {
      const msgs = (body?.messages ?? []) as Array<{ role: string; content: unknown }>
      const last = msgs.at(-1)
      if (last?.role === 'tool') return { content: `已设置：${String(last.content).slice(0, 300)}` }
      const m = /REMIND (\S+) \| (\S+)/.exec(JSON.stringify(last?.content ?? ''))
      if (m && body?.tools) return { toolCalls: [{ name: 'set_reminder', arguments: { when: m[1], message: m[2] } }] }
      return defaultBehavior(body)
    }
    writePluginConfig(dataDir, {
      channels: [{ name: 'fake', baseUrl: fake.url, apiKey: 'sk-test', model: 'gpt-test', models: ['gpt-test'] }],
      memory: { enabled: false },
      delivery: { quote: false, atSender: false },
      reminders: { timezone: 'Asia/Shanghai' }
    })
    await startHost()
  })

  after(async function () {
    this.timeout(60_000)
    await stopHost()
    await endHostSuite(this, p, { servers: [p?.redis, fake] })
  })

  it('a reminder set in a group turn arrives there as send_group_msg @-mentioning its owner, once', async () => {
    const since = Date.now()
    await bot!.groupMessage(GROUP, MEMBER, ' REMIND 8秒后 | 喝水', { atBot: true })
    const answer = await bot!.waitForSent((s) => s.groupId === String(GROUP) && !isReminder(s), 30_000, since)
    expect(answer.text).to.include('已设置').and.include('"set": true')
    const fired = await bot!.waitForSent((s) => s.groupId === String(GROUP) && isReminder(s), 30_000, since)
    expect(fired.action).to.match(/^send_(group_)?msg$/)
    expect(fired.time - since).to.be.at.least(7000)
    const segs = fired.params.message as Seg[]
    expect(segs.filter((s) => s.type === 'at').map((s) => String(s.data.qq))).to.deep.equal([String(MEMBER)])
    expect(fired.text).to.include('⏰ 提醒：喝水')
    await new Promise((resolve) => setTimeout(resolve, 3000))
    expect(bot!.sent.filter((s) => s.time >= since && isReminder(s))).to.have.length(1)
  })

  it('a private reminder survives a host restart: it arrives once after the restart, as send_private_msg', async () => {
    const since = Date.now()
    await bot!.privateMessage(FRIEND, 'REMIND 5秒后 | 开会')
    const answer = await bot!.waitForSent((s) => s.userId === String(FRIEND) && !isReminder(s), 30_000, since)
    expect(answer.text).to.include('"set": true')
    // stopped at once: the reminder falls due while the host is down (it restarts in more than 5 s)
    await stopHost()
    expect(allSent.filter((s) => s.time >= since && isReminder(s))).to.deep.equal([])
    const restarted = Date.now()
    await startHost()
    const fired = await bot!.waitForSent((s) => s.userId === String(FRIEND) && isReminder(s), 90_000, restarted)
    expect(fired.action).to.match(/^send_(private_)?msg$/)
    expect(fired.text).to.include('开会')
    expect(fired.time - since).to.be.at.least(5000)
    await new Promise((resolve) => setTimeout(resolve, 3000))
    expect(bot!.sent.filter((s) => isReminder(s) && s.userId === String(FRIEND))).to.have.length(1)
    expect([...allSent, ...bot!.sent].filter((s) => s.time >= since && isReminder(s) && s.userId === String(FRIEND))).to.have.length(1)
  })
})
