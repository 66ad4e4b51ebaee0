// The plugin in the real TRSS-Yunzai host (the unmodified snapshot beside the repository), installed
// as users install it and driven through the host's own OneBot v11 adapter by a fake protocol client.
// How it is set up and what it needs: tests/realhost/README.md. Slow to set up (a pnpm install of the
// host), so it is done once for the whole suite.
import { existsSync, mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { expect } from 'chai'
import type { Browser } from 'playwright-core'
import { CHROMIUM, launch } from '../dashboard/browser.js'
import { sentMessages, spokenMessages } from '../chat/helpers.js'
import { startFakeOpenAI, type FakeOpenAI } from '../support/fake-openai.js'
import { parseFrame, type SseFrame } from '../support/sse.js'
import { ensureDashboardBuilt } from '../../routes/_http/dashboard-build.js'
import { FakeOneBot } from './support/onebot.js'
import { ensureToolchain, REPO_ROOT, type Toolchain } from './support/toolchain.js'
import { endHostSuite } from './support/prepare.js'
import { copyPlugin, freePort, installHost, outputLines, PLUGIN_KEY, pluginProblems, spawnHost, startRedis, waitForHttp, writeHostConfig, type HostProcess } from './support/trss-host.js'

const BOT = 3000000001
const MASTER = 10001
const FRIEND = 10002
const LATE = 10003
const BEFORE_RESTART = 10004
const GROUP = 20001
const START_MS = 120_000

describe('real TRSS-Yunzai host with the plugin (OneBot v11)', function () {
  this.timeout(60_000)
  let tc: Toolchain
  let work = ''
  let root = ''
  let dataDir = ''
  let redis: { port: number; stop(): Promise<void> } | undefined
  let fake: FakeOpenAI | undefined
  let host: HostProcess | undefined
  let bot: FakeOneBot | undefined
  let serverPort = 0
  let lingxiPort = 0
  let hostUrl = ''
  let ownUrl = ''
  const timings: string[] = []

  /** Starts `node .` in the host copy and connects the protocol client once the host is online. */
  async function startHost (): Promise<void> {
    const t0 = Date.now()
    host = spawnHost(tc, root, { LINGXI_DATA_DIR: dataDir, LINGXI_PORT: String(lingxiPort) })
    await connectWhenUp()
    timings.push(`host start ${((Date.now() - t0) / 1000).toFixed(1)} s`)
  }

  /** Waits for both ports (the host holds requests until it is online), then connects the client. */
  async function connectWhenUp (): Promise<void> {
    await waitForHttp(`${hostUrl}/lingxi/api/system/health`, host!, START_MS)
    await waitForHttp(`${ownUrl}/api/system/health`, host!, START_MS)
    bot = new FakeOneBot(BOT, {
      nickname: '灵犀测试机',
      friends: [{ user_id: MASTER, nickname: 'master' }, { user_id: FRIEND, nickname: 'friend' }, { user_id: LATE, nickname: 'late' }, { user_id: BEFORE_RESTART, nickname: 'restart' }],
      groups: [{ group_id: GROUP, group_name: 'test group' }]
    })
    await bot.connectToHost(serverPort, () => host?.output() ?? '')
  }

  async function stopHost (): Promise<{ code: number | null; signal: NodeJS.Signals | null } | undefined> {
    bot?.close()
    bot = undefined
    const h = host
    host = undefined
    return h?.stop('SIGTERM')
  }

  before(async function () {
    this.timeout(15 * 60_000)
    const t0 = Date.now()
    const got = await ensureToolchain()
    if (typeof got === 'string') {
      console.warn(`    real-host suite skipped: ${got}`)
      this.skip()
    }
    tc = got as Toolchain
    timings.push(`toolchain ${((Date.now() - t0) / 1000).toFixed(1)} s`)
    work = mkdtempSync(join(tmpdir(), 'lingxi-realhost-'))
    root = join(work, 'trss-yunzai')
    dataDir = join(work, 'lingxi-data')
    redis = await startRedis(tc, work)
    const { seconds } = await installHost(tc, root).catch((err: Error & { unreachable?: boolean }) => {
      if (!err.unreachable) throw err
      console.warn(`    real-host suite skipped: the host's packages could not be fetched (${err.message.split('\n')[0]})`)
      this.skip()
    })
    timings.push(`host install ${seconds.toFixed(1)} s`)
    await ensureDashboardBuilt(REPO_ROOT) // the copy takes resources/dist along (no build inside the host)
    await copyPlugin(join(root, 'plugins', PLUGIN_KEY))
    serverPort = await freePort()
    do lingxiPort = await freePort(); while (lingxiPort === serverPort)
    hostUrl = `http://127.0.0.1:${serverPort}`
    ownUrl = `http://127.0.0.1:${lingxiPort}`
    writeHostConfig(root, { botId: String(BOT), masterId: String(MASTER), serverPort, redisPort: redis.port })
    fake = await startFakeOpenAI({ models: ['gpt-test'] })
    await startHost()
  })

  after(async function () {
    this.timeout(60_000)
    await stopHost()
    if (timings.length) console.log(`    real host timings: ${timings.join(', ')}`)
    await endHostSuite(this, { root, work }, { servers: [redis, fake] })
  })

  /** The login links of a fresh `#lx面板` from the master, keyed by where they point. */
  async function panelLinks (): Promise<{ own: string; shared: string }> {
    const since = Date.now()
    await bot!.privateMessage(MASTER, '#lx面板')
    const reply = await bot!.waitForSent((s) => s.userId === String(MASTER) && s.text.includes('login#token='), 20_000, since)
    const links = reply.text.match(/https?:\/\/[^\s]+\/login#token=[\w-]+/g) ?? []
    const shared = links.find((l) => l.startsWith(`${hostUrl}/lingxi/`))
    const own = links.find((l) => l.startsWith(`${ownUrl}/`))
    expect(shared, `a /lingxi link on the host's port in: ${reply.text}`).to.be.a('string')
    expect(own, `a link on the plugin's own port in: ${reply.text}`).to.be.a('string')
    return { own: own!, shared: shared! }
  }

  /** A session token through the shared port's login (the dashboard's own POST). */
  async function sharedSession (): Promise<string> {
    const token = /#token=([\w-]+)/.exec((await panelLinks()).shared)?.[1]
    const res = await fetch(`${hostUrl}/lingxi/api/auth/login`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ token }) })
    expect(res.status, await res.clone().text()).to.equal(200)
    return ((await res.json()) as { data: { token: string } }).data.token
  }

  it("the master's #lx面板 link logs in through the plugin's own port and through /lingxi (chromium)", async function () {
    if (!existsSync(CHROMIUM)) { console.warn(`    skipped: ${CHROMIUM} is missing (apt-get install -y chromium; .ci/run does it)`); this.skip() }
    let browser: Browser | undefined
    try {
      browser = await launch()
      for (const which of ['own', 'shared'] as const) {
        const link = (await panelLinks())[which]
        const page = await browser.newPage()
        await page.goto(link)
        await page.waitForURL('**/overview', { timeout: 20_000 })
        await page.waitForSelector('[data-testid="status"]', { timeout: 20_000 })
        const session = await page.evaluate(() => localStorage.getItem('lingxi.token'))
        const origin = which === 'own' ? ownUrl : `${hostUrl}/lingxi`
        const verify = await fetch(`${origin}/api/auth/verify`, { headers: { Authorization: `Bearer ${session}` } })
        expect(verify.status, `${which}: ${await verify.clone().text()}`).to.equal(200)
        expect(((await verify.json()) as { data: { userId: string } }).data.userId).to.equal(String(MASTER))
        await page.close()
      }
    } finally {
      await browser?.close()
    }
  })

  it("loads with no error or warning about the plugin in the host's log", () => {
    expect(outputLines(host!.output()).some((l) => l.includes('[灵犀] Web server listening')), 'the plugin started its web server').to.equal(true)
    const bad = pluginProblems(host!.output())
    expect(bad, bad.join('\n')).to.deep.equal([])
  })

  it('/lingxi without the trailing slash redirects to the dashboard', async () => {
    const res = await fetch(`${hostUrl}/lingxi`, { redirect: 'manual' })
    expect(res.status).to.be.oneOf([301, 302, 307, 308])
    const page = await fetch(`${hostUrl}/lingxi`)
    expect(new URL(page.url).pathname).to.equal('/lingxi/')
    expect(await page.text()).to.match(/<script[^>]+src="\.\/assets\//)
  })

  it('saves the config through /lingxi (a channel to the fake model)', async () => {
    const session = await sharedSession()
    const channels = [{ name: 'fake', baseUrl: fake!.url, apiKey: 'sk-test', model: 'gpt-test', models: ['gpt-test'] }]
    const res = await fetch(`${hostUrl}/lingxi/api/config/channels`, { method: 'PUT', headers: { Authorization: `Bearer ${session}`, 'Content-Type': 'application/json' }, body: JSON.stringify(channels) })
    expect(res.status, await res.clone().text()).to.equal(200)
    const back = await fetch(`${ownUrl}/api/config/channels`, { headers: { Authorization: `Bearer ${session}` } })
    const list = ((await back.json()) as { data: Array<{ name: string; baseUrl: string }> }).data
    expect(list.map((c) => c.baseUrl)).to.deep.equal([fake!.url])
  })

  it('streams live events through /lingxi as they happen (the host compresses; the stream must pass)', async () => {
    const session = await sharedSession()
    const ctrl = new AbortController()
    const res = await fetch(`${hostUrl}/lingxi/api/system/events`, { headers: { Authorization: `Bearer ${session}`, 'Accept-Encoding': 'gzip, deflate, br' }, signal: ctrl.signal })
    try {
      expect(res.status).to.equal(200)
      expect(res.headers.get('content-type')).to.match(/^text\/event-stream/)
      const reader = (res.body as ReadableStream<Uint8Array>).getReader()
      const decoder = new TextDecoder()
      let buf = ''
      // one read at a time: a read that lost the race to the timer is awaited next, never dropped
      let pending: Promise<ReadableStreamReadResult<Uint8Array>> | undefined
      const frame = async (waitMs = 3000): Promise<SseFrame> => {
        const until = Date.now() + waitMs
        for (;;) {
          const i = buf.indexOf('\n\n')
          if (i >= 0) { const raw = buf.slice(0, i); buf = buf.slice(i + 2); return parseFrame(raw) }
          const left = until - Date.now()
          if (left <= 0) throw new Error(`no whole frame within ${waitMs} ms (buffered by the host?): got ${JSON.stringify(buf.slice(0, 80))}, content-encoding ${res.headers.get('content-encoding')}`)
          pending ??= reader.read()
          let timer: NodeJS.Timeout | undefined
          const chunk = await Promise.race([pending, new Promise<'late'>((resolve) => { timer = setTimeout(() => resolve('late'), left) })])
          clearTimeout(timer)
          if (chunk === 'late') continue
          pending = undefined
          if (chunk.done) throw new Error('the stream ended')
          buf += decoder.decode(chunk.value, { stream: true })
        }
      }
      // compression would hold these back (10 bytes in 4 s): each must arrive within 3 s
      expect((await frame()).event).to.equal('status')
      const m0 = await frame()
      expect(m0.event).to.equal('metric')
      // a live change: after a chat turn the next metric frame (every 5 s) carries the new message count
      const since = Date.now()
      await bot!.privateMessage(FRIEND, '实时事件测试')
      await bot!.waitForSent((s) => s.userId === String(FRIEND) && s.text.includes('实时事件测试'), 30_000, since)
      let m1: SseFrame
      do { m1 = await frame(7000) } while (m1.event !== 'metric')
      expect(m1.json<{ messages: number }>().messages).to.be.greaterThan(m0.json<{ messages: number }>().messages)
    } finally {
      ctrl.abort()
    }
  })

  it('answers a private chat through the fake model', async () => {
    const since = Date.now()
    const before = fake!.chatRequests().length
    await bot!.privateMessage(FRIEND, '私聊测试：天空为什么是蓝的')
    const reply = await bot!.waitForSent((s) => s.userId === String(FRIEND) && s.text.includes('天空为什么是蓝的'), 30_000, since)
    expect(reply.action).to.match(/^send_/)
    expect(fake!.chatRequests().length).to.be.greaterThan(before)
  })

  it('#lx结束对话 starts the private conversation afresh: the next request carries no earlier turn', async () => {
    let since = Date.now()
    await bot!.privateMessage(FRIEND, '#lx结束对话')
    const reply = await bot!.waitForSent((s) => s.userId === String(FRIEND) && s.text.includes('重新开始'), 20_000, since)
    expect(reply.action).to.match(/^send_/)
    since = Date.now()
    await bot!.privateMessage(FRIEND, '重置之后的第一句')
    await bot!.waitForSent((s) => s.userId === String(FRIEND) && s.text.includes('重置之后的第一句'), 30_000, since)
    const asked = spokenMessages(fake!.chatRequests().at(-1)?.body).filter((m) => m.role !== 'system').map((m) => m.content)
    expect(asked).to.deep.equal(['重置之后的第一句'])
  })

  it('the next private turn starts with the previous request byte for byte; the cached tokens the provider reports reach the stats', async () => {
    const since = Date.now()
    const first = sentMessages(fake!.chatRequests().at(-1)?.body)
    fake!.enqueue({ content: '第二句的回答', usage: { prompt_tokens: 400, completion_tokens: 5, prompt_tokens_details: { cached_tokens: 300 } } })
    await bot!.privateMessage(FRIEND, '重置之后的第二句')
    await bot!.waitForSent((s) => s.userId === String(FRIEND) && s.text.includes('第二句的回答'), 30_000, since)
    const second = sentMessages(fake!.chatRequests().at(-1)?.body)
    expect(second.slice(0, first.length), 'the first request opens the second (lib/chat/README.md, "Request layout")').to.deep.equal(first)
    const session = await sharedSession()
    const res = await fetch(`${ownUrl}/api/stats/models`, { headers: { Authorization: `Bearer ${session}` } })
    const models = ((await res.json()) as { data: { models: Array<{ model: string; cachedShare?: number | null }> } }).data.models
    expect(models.find((m) => m.model === 'gpt-test')?.cachedShare, 'input served from the provider\'s cache').to.be.above(0)
  })

  it('answers an @bot group chat through the fake model', async () => {
    const since = Date.now()
    await bot!.groupMessage(GROUP, FRIEND, ' 群聊测试：讲个笑话', { atBot: true })
    const reply = await bot!.waitForSent((s) => s.groupId === String(GROUP) && s.text.includes('群聊测试'), 30_000, since)
    expect(reply.action).to.match(/^send_/)
  })

  it("leaves the host's own #添加 to the host (plugins/system/add.js answers, not the model)", async () => {
    const since = Date.now()
    const before = fake!.chatRequests().length
    await bot!.privateMessage(MASTER, '#添加 早安')
    // in private, with no group known yet, the host's add plugin asks for a group first
    const reply = await bot!.waitForSent((s) => s.userId === String(MASTER), 20_000, since)
    expect(reply.text).to.include('请先在群内触发消息')
    await new Promise((resolve) => setTimeout(resolve, 500))
    expect(fake!.chatRequests().length, 'the model was asked about #添加').to.equal(before)
  })

  it("comes back through the master's #重启 (process.execve) on the same port, with the turn before it counted", async function () {
    this.timeout(START_MS + 60_000)
    const since = Date.now()
    await bot!.privateMessage(BEFORE_RESTART, '重启前的最后一句')
    await bot!.waitForSent((s) => s.userId === String(BEFORE_RESTART) && s.text.includes('重启前'), 30_000, since)
    const old = bot!
    await old.privateMessage(MASTER, '#重启')
    await old.waitForSent((s) => s.userId === String(MASTER) && s.text.includes('开始重启'), 20_000, since)
    // the host replaces its process image (same pid): the protocol connection drops, then it starts again
    await Promise.race([old.closed, new Promise((_, reject) => setTimeout(() => reject(new Error(`the host did not restart:\n${host?.output().slice(-3000)}`)), 30_000))])
    old.close()
    expect(host!.child.exitCode, 'the process was replaced, not ended').to.equal(null)
    await connectWhenUp()
    const stats = JSON.parse(readFileSync(join(dataDir, 'stats.json'), 'utf8')) as { users?: Record<string, { tokens: number }> }
    expect(stats.users?.[String(BEFORE_RESTART)]?.tokens ?? 0, `the model request of user ${BEFORE_RESTART} before #重启`).to.be.greaterThan(0)
    const after = Date.now()
    await bot!.privateMessage(FRIEND, '重启后第一句')
    await bot!.waitForSent((s) => s.userId === String(FRIEND) && s.text.includes('重启后第一句'), 30_000, after)
  })

  it('loses no statistics when SIGTERM comes right after a chat turn', async function () {
    this.timeout(120_000)
    const since = Date.now()
    await bot!.privateMessage(LATE, '最后一条：记下这条统计')
    await bot!.waitForSent((s) => s.userId === String(LATE) && s.text.includes('最后一条'), 30_000, since)
    const exit = await stopHost()
    expect(exit, 'the host process exited').to.not.equal(undefined)
    const file = join(dataDir, 'stats.json')
    expect(existsSync(file), file).to.equal(true)
    const stats = JSON.parse(readFileSync(file, 'utf8')) as { users?: Record<string, { messages: number; tokens: number }> }
    expect(stats.users?.[String(LATE)], `user ${LATE} in stats.json after SIGTERM`).to.not.equal(undefined)
    // (the reply is out before the host acknowledges its send: a count made only after that acknowledgement is lost)
    expect(stats.users![String(LATE)]!.messages, 'messages of the turn answered right before SIGTERM').to.equal(1)
    expect(stats.users![String(LATE)]!.tokens).to.be.greaterThan(0)
  })

  it('comes back on the same port after a restart', async function () {
    this.timeout(START_MS + 60_000)
    if (!host) await startHost()
    const res = await fetch(`${ownUrl}/api/system/health`)
    expect(res.status).to.equal(200)
    expect((await fetch(`${hostUrl}/lingxi/api/system/health`)).status).to.equal(200)
    // and it still answers chat after the restart
    const since = Date.now()
    await bot!.privateMessage(FRIEND, '重启之后还在吗')
    await bot!.waitForSent((s) => s.userId === String(FRIEND) && s.text.includes('重启之后'), 30_000, since)
  })

  it('kept the conversation turn answered right before the SIGTERM', async function () {
    if (!host) this.skip() // the restart above failed; it says why
    const session = await sharedSession()
    const res = await fetch(`${hostUrl}/lingxi/api/conversations/list`, { headers: { Authorization: `Bearer ${session}` } })
    expect(res.status).to.equal(200)
    const list = ((await res.json()) as { data: Array<{ userId?: string; lastMessage: string }> }).data
    const late = list.find((c) => c.userId === String(LATE))
    expect(late?.lastMessage, JSON.stringify(list)).to.include('最后一条')
  })
})
