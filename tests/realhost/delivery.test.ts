// How answers go out (lib/delivery, issue 18 point 1) in the real TRSS-Yunzai host, driven through its
// OneBot v11 adapter with the fake model: a long markdown answer with a <think> block as one forward
// message (send_*_forward_msg) of plain nodes; longAnswer image falling back to the forward while the
// host's renderer cannot start chromium (its chromiumPath names no browser), then, with the renderer
// configured the way users do (renderers/puppeteer/config.yaml chromiumPath), as an image;
// short markdown as plain text; quote and @ switches; an image URL as an image segment; a group's
// override over the global settings. Set-up as in trss.test.ts (tests/realhost/README.md).
import { existsSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { expect } from 'chai'
import { stringify } from 'yaml'
import { startFakeOpenAI, defaultBehavior, type FakeOpenAI } from '../support/fake-openai.js'
import { FakeOneBot, type Sent, worldOf } from './support/onebot.js'
import { endHostSuite, prepareHost, startHostWith, writePluginConfig, type PreparedHost } from './support/prepare.js'
import type { HostProcess } from './support/trss-host.js'
import { longMarkdownAnswer, MARKDOWN_SYNTAX } from '../delivery/fixtures.js'

const BOT = 3000000001
const MASTER = 10001
const FRIEND = 10002
const MEMBER = 10003
const GROUP_IMAGE = 21001 // longAnswer: image
const GROUP_QUOTE = 21002 // quote and atSender on
const GROUP_BARE = 21003 // quote and atSender off
const GROUP_OFF = 21004 // longAnswer: off
const START_MS = 120_000
const CHROMIUM = '/usr/bin/chromium'
const BOT_NAME = '灵犀测试机'
const SHORT_MD = '<think>想一想</think>\n## 小结\n- **第一**：`npm i`\n- 见 [文档](https://ex.com/d)'
const SHORT_PLAIN = '小结\n• 第一：npm i\n• 见 文档 (https://ex.com/d)'

interface Seg { type: string; data: Record<string, unknown> }
interface Node { type: string; data: { name?: string; uin?: string; content?: Seg[] } }

const segTexts = (segs: unknown): string => (Array.isArray(segs) ? (segs as Seg[]).filter((s) => s.type === 'text').map((s) => String(s.data.text ?? '')).join('') : '')

function expectPlain (text: string): void {
  for (const [name, re] of MARKDOWN_SYNTAX) expect(re.test(text), `${name} syntax (${re}) in:\n${text}`).to.equal(false)
}

describe('real TRSS-Yunzai host: how answers go out (delivery)', function () {
  this.timeout(60_000)
  let dataDir = ''
  let p: PreparedHost | undefined
  const prepared = (): PreparedHost => { if (!p) throw new Error('the host is not prepared'); return p }
  let fake: FakeOpenAI | undefined
  let host: HostProcess | undefined
  let bot: FakeOneBot | undefined

  async function startHost (): Promise<void> {
    bot = new FakeOneBot(BOT, worldOf([MASTER, FRIEND, MEMBER], [GROUP_IMAGE, GROUP_QUOTE, GROUP_BARE, GROUP_OFF], BOT_NAME))
    host = await startHostWith(prepared(), bot)
  }

  async function stopHost (): Promise<void> {
    bot?.close()
    bot = undefined
    const h = host
    host = undefined
    await h?.stop('SIGTERM')
  }

  before(async function () {
    this.timeout(15 * 60_000)
    p = await prepareHost(this, 'delivery', { botId: BOT, masterId: MASTER })
    dataDir = p.dataDir
    fake = await startFakeOpenAI({ models: ['gpt-test'] })
    // what the model answers depends on the question (background calls, e.g. memory, get the echo)
    fake.respond = (body) => {
      const last = JSON.stringify(body?.messages?.at(-1)?.content ?? '')
      if (last.includes('LONGMD')) return { content: longMarkdownAnswer() }
      if (last.includes('SHORTMD')) return { content: SHORT_MD }
      if (last.includes('PICTURE')) return { content: '给你看：![猫](https://img.example.com/cat.png) 很可爱' }
      return defaultBehavior(body)
    }
    writePluginConfig(dataDir, {
      channels: [{ name: 'fake', baseUrl: fake.url, apiKey: 'sk-test', model: 'gpt-test', models: ['gpt-test'] }],
      memory: { enabled: false },
      // today's forms, unstreamed (streamed answers: stream.test.ts)
      delivery: { quote: false, atSender: false, stream: 'off' },
      groups: {
        [String(GROUP_IMAGE)]: { delivery: { longAnswer: 'image' } },
        [String(GROUP_QUOTE)]: { delivery: { quote: true, atSender: true } },
        [String(GROUP_OFF)]: { delivery: { longAnswer: 'off' } }
      }
    })
    // first a renderer that cannot start: the user's chromiumPath names no browser
    writeRendererConfig(join(prepared().work, 'no-such-chromium'))
    await startHost()
  })

  /** The user's renderer config: config_default.yaml's settings with this chromium. */
  function writeRendererConfig (chromiumPath: string): void {
    writeFileSync(join(prepared().root, 'renderers', 'puppeteer', 'config.yaml'), `chromiumPath: ${chromiumPath}\nheadless: "new"\nargs:\n  - --disable-gpu\n  - --disable-setuid-sandbox\n  - --no-sandbox\n  - --no-zygote\n`)
  }

  after(async function () {
    this.timeout(60_000)
    await stopHost()
    await endHostSuite(this, p, { servers: [p?.redis, fake] })
  })

  /** Everything the bot sent to this chat from `since` on, once `settle` ms passed without more. */
  async function sentTo (match: (s: Sent) => boolean, since: number, settle = 1500): Promise<Sent[]> {
    await new Promise((resolve) => setTimeout(resolve, settle))
    return bot!.sent.filter((s) => s.time >= since && match(s))
  }

  function forwardNodes (s: Sent): Node[] {
    expect(s.action, `a forward message, got ${s.action}: ${s.text.slice(0, 200)}`).to.match(/^send_(private|group)_forward_msg$/)
    return s.params.messages as Node[]
  }

  it('a 3,000-character markdown answer with <think> arrives as ONE forward message of plain nodes', async () => {
    const since = Date.now()
    await bot!.privateMessage(FRIEND, 'LONGMD 私聊长文')
    const first = await bot!.waitForSent((s) => s.userId === String(FRIEND), 30_000, since)
    const all = await sentTo((s) => s.userId === String(FRIEND), since)
    expect(all.map((s) => s.action), 'one send, the forward').to.deep.equal([first.action])
    const nodes = forwardNodes(first)
    expect(nodes.length).to.be.within(2, 20)
    for (const n of nodes) {
      expect(n.type).to.equal('node')
      expect(n.data.name).to.equal(BOT_NAME)
      expectPlain(segTexts(n.data.content))
    }
    const text = nodes.map((n) => segTexts(n.data.content)).join('\n\n')
    expect(text).to.include('• 第一点：列表项会变成圆点').and.include('链接 1 (https://example.com/doc/1)').and.include('甲 1 | 10')
  })

  it('longAnswer image falls back to the forward when the renderer fails (no chromium at chromiumPath), and the log says why', async () => {
    const since = Date.now()
    await bot!.groupMessage(GROUP_IMAGE, MEMBER, ' LONGMD 群里长文（图片）', { atBot: true })
    const first = await bot!.waitForSent((s) => s.groupId === String(GROUP_IMAGE), 60_000, since)
    const all = await sentTo((s) => s.groupId === String(GROUP_IMAGE), since)
    expect(all).to.have.length(1)
    forwardNodes(first).forEach((n) => expectPlain(segTexts(n.data.content)))
    expect(host!.output()).to.include('The answer could not be rendered as an image')
  })

  it('a short markdown answer goes out as plain text, quoted and with an @ where the group asks for it', async () => {
    const since = Date.now()
    await bot!.groupMessage(GROUP_QUOTE, MEMBER, ' SHORTMD 简短', { atBot: true })
    const sent = await bot!.waitForSent((s) => s.groupId === String(GROUP_QUOTE), 30_000, since)
    const segs = sent.params.message as Seg[]
    expect(segs.map((s) => s.type)).to.deep.equal(['reply', 'at', 'text', 'text'])
    expect(String(segs[1]?.data.qq)).to.equal(String(MEMBER))
    expect(segTexts(segs).trim()).to.equal(SHORT_PLAIN)
  })

  it('without quote and @ (the global settings here) the answer is the plain text alone', async () => {
    const since = Date.now()
    await bot!.groupMessage(GROUP_BARE, MEMBER, ' SHORTMD 不引用', { atBot: true })
    const sent = await bot!.waitForSent((s) => s.groupId === String(GROUP_BARE), 30_000, since)
    const segs = sent.params.message as Seg[]
    expect(segs.map((s) => s.type)).to.deep.equal(['text'])
    expect(segTexts(segs)).to.equal(SHORT_PLAIN)
  })

  it('an image URL in the answer goes out as an image segment', async () => {
    const since = Date.now()
    await bot!.privateMessage(FRIEND, 'PICTURE 发张图')
    const sent = await bot!.waitForSent((s) => s.userId === String(FRIEND), 30_000, since)
    const segs = sent.params.message as Seg[]
    expect(segs.filter((s) => s.type === 'image').map((s) => s.data.file)).to.deep.equal(['https://img.example.com/cat.png'])
    expect(segTexts(segs)).to.equal('给你看： 很可爱')
  })

  it("a group's longAnswer off wins over the global forward: the long answer is one text message", async () => {
    const since = Date.now()
    await bot!.groupMessage(GROUP_OFF, MEMBER, ' LONGMD 不要转发', { atBot: true })
    const first = await bot!.waitForSent((s) => s.groupId === String(GROUP_OFF), 30_000, since)
    const all = await sentTo((s) => s.groupId === String(GROUP_OFF), since)
    expect(all).to.have.length(1)
    expect(first.action).to.match(/^send_(group_)?msg$/)
    expect(segTexts(first.params.message)).to.include('• 第一点').and.not.include('SECRET-REASONING')
  })

  it('with the renderer configured as users do (chromiumPath), a long answer arrives as one image', async function () {
    this.timeout(START_MS + 120_000)
    if (!existsSync(CHROMIUM)) { console.warn(`    skipped: ${CHROMIUM} is missing (apt-get install -y chromium), the host's renderer cannot run`); this.skip() }
    await stopHost()
    writeRendererConfig(CHROMIUM)
    await startHost()
    const since = Date.now()
    await bot!.groupMessage(GROUP_IMAGE, MEMBER, ' LONGMD 群里长文（渲染）', { atBot: true })
    const first = await bot!.waitForSent((s) => s.groupId === String(GROUP_IMAGE), 90_000, since)
    const all = await sentTo((s) => s.groupId === String(GROUP_IMAGE), since)
    expect(all, all.map((s) => s.action).join(', ')).to.have.length(1)
    expect(first.action, `sent ${first.action}; host output:\n${host!.output().slice(-2000)}`).to.match(/^send_(group_)?msg$/)
    const images = (first.params.message as Seg[]).filter((s) => s.type === 'image')
    expect(images).to.have.length(1)
    const file = String(images[0]?.data.file)
    expect(file.startsWith('base64://')).to.equal(true)
    const bytes = Buffer.from(file.slice('base64://'.length), 'base64')
    // a JPEG (the renderer's default type) of a tall page
    expect(bytes.subarray(0, 3).toString('hex')).to.equal('ffd8ff')
    expect(bytes.length).to.be.greaterThan(20_000)
  })
})
