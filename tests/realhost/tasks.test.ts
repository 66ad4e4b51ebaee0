// A scheduled task in the real TRSS-Yunzai host (README "Tasks"), driven through its OneBot v11 adapter: the
// master's login link, a digest task made over HTTP on the plugin's own port for a group, due a few seconds
// later ("5秒后": the host runs on real time); at its time the plugin's timer runs the prompt through the fake
// model and the digest reaches the group on the OneBot side once, and GET /api/tasks/:id shows the run with
// its answer and tokens. Set-up as in trss.test.ts (tests/realhost/README.md).
import { expect } from 'chai'
import { sentMessages } from '../chat/helpers.js'
import { startFakeOpenAI, defaultBehavior, type FakeOpenAI } from '../support/fake-openai.js'
import { FakeOneBot, worldOf } from './support/onebot.js'
import { endHostSuite, masterSession, prepareHost, startHostWith, writePluginConfig, type PreparedHost } from './support/prepare.js'
import type { HostProcess } from './support/trss-host.js'

const BOT = 3000000001
const MASTER = 10001
const GROUP = 700101
const DIGEST = '今日要点：1. 新版本发布 2. 定时任务上线 3. 周末聚会'

describe('real TRSS-Yunzai host: a scheduled digest posted to a group at its time', function () {
  this.timeout(60_000)
  let p: PreparedHost | undefined
  let fake: FakeOpenAI | undefined
  let host: HostProcess | undefined
  let bot: FakeOneBot | undefined

  before(async function () {
    this.timeout(15 * 60_000)
    p = await prepareHost(this, 'tasks', { botId: BOT, masterId: MASTER })
    fake = await startFakeOpenAI({ models: ['gpt-test'] })
    // the scheduled task's request (it says so) gets the digest; anything else the default
    fake.respond = (body) => JSON.stringify(body?.messages?.at(-1)?.content ?? '').includes('定时任务') ? { content: DIGEST } : defaultBehavior(body)
    writePluginConfig(p.dataDir, {
      channels: [{ name: 'fake', baseUrl: fake.url, apiKey: 'sk-test', model: 'gpt-test', models: ['gpt-test'] }],
      memory: { enabled: false },
      reminders: { timezone: 'Asia/Shanghai' },
      delivery: { quote: false, atSender: false, stream: 'off' }
    })
    bot = new FakeOneBot(BOT, worldOf([MASTER], [GROUP]))
    host = await startHostWith(p, bot)
  })

  after(async function () {
    this.timeout(60_000)
    await endHostSuite(this, p, { bot, host, servers: [p?.redis, fake] })
  })

  const own = (): string => `http://127.0.0.1:${p!.lingxiPort}`

  /** A session on the plugin's own port, from the master's `#lx面板` link. */
  const session = async (): Promise<string> => await masterSession(bot!, MASTER, own())

  it('a task made over HTTP runs at its time in the host and its digest reaches the group once', async () => {
    const auth = { Authorization: `Bearer ${await session()}`, 'Content-Type': 'application/json' }
    const since = Date.now()
    const made = await fetch(`${own()}/api/tasks`, {
      method: 'POST',
      headers: auth,
      body: JSON.stringify({ name: '群日报', prompt: '总结今天群里的要点，三行', schedule: '5秒后', target: { groupId: String(GROUP) } })
    })
    expect(made.status, await made.clone().text()).to.equal(201)
    const task = ((await made.json()) as { data: { id: string; nextAt: number } }).data
    expect(task.nextAt).to.be.within(since + 3_000, Date.now() + 6_000)
    const posted = await bot!.waitForSent((s) => s.groupId === String(GROUP), 30_000, since)
    expect(posted.text).to.include('定时任务上线')
    expect(posted.time, 'not before its time').to.be.at.least(task.nextAt - 1_000)
    const asked = sentMessages(fake!.chatRequests().at(-1)?.body).filter((m) => m.role === 'user').at(-1)?.content ?? ''
    expect(asked).to.include('定时任务「群日报」').and.include('总结今天群里的要点')
    // the run as the dashboard shows it (recorded once the answer went out)
    let run: { status: string; delivered: boolean; answer?: string; tokens: { input: number; output: number } } | undefined
    for (const end = Date.now() + 10_000; !run && Date.now() < end;) {
      const got = await fetch(`${own()}/api/tasks/${task.id}`, { headers: auth })
      run = ((await got.json()) as { data: { runs: Array<NonNullable<typeof run>> } }).data.runs[0]
      if (!run) await new Promise((resolve) => setTimeout(resolve, 200))
    }
    expect(run).to.include({ status: 'ok', delivered: true, answer: DIGEST })
    expect(run?.tokens.input).to.be.above(0)
    // a one-off: nothing more comes
    await new Promise((resolve) => setTimeout(resolve, 1_500))
    expect(bot!.sent.filter((s) => s.groupId === String(GROUP) && s.time >= since)).to.have.length(1)
  })
})
